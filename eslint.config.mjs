// ESLint flat config. The room rules enforce DESIGN.md §2: the client library and the shared types
// stay free of VS Code and of every other src/ room, so they run in plain Node and in the browser.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const otherRooms = ["connections", "platform", "views", "webviews", "soql", "commands", "extension"];
// A sibling ("./soql" inside src/demo-org) is the room's own module, whatever its name.
const roomPatterns = (...rooms) =>
  [...rooms.flatMap((room) => [`**/${room}`, `**/${room}/**`, `../${room}`, `../${room}/**`]), "!./*"];
/**
 * The client, but for its record-ID rule (src/client/ids.ts: no imports, no I/O), the one every room checks IDs
 * by, the shared ones too. A regular expression: a path pattern cannot let one file of a banned folder through.
 */
const CLIENT_BUT_ID_RULE = { regex: "^(\\.\\./)+client(/(?!ids$).*)?$", message: "This room may not import the client but for its record-ID rule, client/ids (DESIGN.md §2)." };
/** Shipped code lives in src/: nothing there imports the tests. */
const testsBan = { group: ["**/test/**", "../test", "../../test"], message: "Nothing in src/ imports test/ (DESIGN.md §2): shipped code lives in src/." };

/** The import bans for a room that must stay free of VS Code and of the named rooms (and of what `more` bans). */
export const roomBoundary = (files, bannedRooms, more = []) => ({
  files,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        paths: [{ name: "vscode", message: "This room must not depend on VS Code (DESIGN.md §2)." }],
        patterns: [
          {
            group: roomPatterns(...bannedRooms),
            message: "This room may not import other src/ rooms (DESIGN.md §2).",
          },
          ...more,
          testsBan,
        ],
      },
    ],
  },
});

/** The import bans for a room that may use VS Code but must not reach into the named rooms. */
export const roomImports = (files, bannedRooms) => ({
  files,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            group: roomPatterns(...bannedRooms),
            message: "This room reads the org through src/connections (the schema, the change events), not through these rooms (DESIGN.md §2).",
          },
          testsBan,
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ["node_modules/**", "dist/**", "out/**", ".vscode-test/**", ".host-cache/**", "test/fixtures/**", "test/host/.run/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { console: "readonly", process: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-undef": "off",
    },
  },
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs" }, rules: { "@typescript-eslint/no-require-imports": "off" } },
  // The rooms above the connections may import any room below them, never the tests.
  { files: ["src/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: [testsBan] }] } },
  roomBoundary(["src/client/**/*.ts"], [...otherRooms, "shared", "demo-org", "workflows"]),
  // The workflows over the client (a migration, the knowledge folder) use the client and nothing else of src/:
  // the client knows none of them, and they run in plain Node (the command-line tools, scripts).
  roomBoundary(["src/workflows/**/*.ts"], [...otherRooms, "shared", "demo-org", "documents", "agent", "cli", "notebooks"]),
  roomBoundary(["src/shared/**/*.ts"], [...otherRooms, "demo-org", "workflows"], [CLIENT_BUT_ID_RULE]),
  // The demo org (the emulator the extension ships as its built-in org) stands beside the client: it may use the
  // client's small helpers (IDs), nothing of VS Code or of the extension's rooms.
  roomBoundary(["src/demo-org/**/*.ts"], [...otherRooms, "shared"]),
  // The agent's tools run in plain Node too (the MCP server): the client, the SOQL editor's pure advice, no VS Code.
  // Only its VS Code adapters (the language-model tools, the MCP server definition) reach VS Code and the org's session.
  { ...roomBoundary(["src/agent/**/*.ts"], ["connections", "platform", "views", "webviews", "commands", "extension", "documents", "demo-org"]), ignores: ["src/agent/languageModelTools.ts", "src/agent/mcpProvider.ts"] },
  roomImports(["src/agent/languageModelTools.ts", "src/agent/mcpProvider.ts"], ["views", "webviews", "soql", "documents", "commands", "extension"]),
  // CRM notebooks' file format, chart specs and aggregation run in plain Node too (crm-data will run a notebook).
  // Only its VS Code adapters (the serializer, the controller, the commands) reach VS Code and the org's session.
  { ...roomBoundary(["src/notebooks/**/*.ts"], ["connections", "platform", "views", "webviews", "commands", "extension", "documents", "demo-org", "agent", "cli"]), ignores: ["src/notebooks/notebookProvider.ts", "src/notebooks/notebookCommands.ts"] },
  roomImports(["src/notebooks/notebookProvider.ts", "src/notebooks/notebookCommands.ts"], ["views", "webviews", "documents", "commands", "extension"]),
  // The command-line tools run on the client in plain Node: no VS Code, none of the extension's rooms.
  roomBoundary(["src/cli/**/*.ts"], [...otherRooms, "documents", "demo-org"]),
  // The platform (errors, logs, settings, progress) is below the connections: neither reaches a room above it.
  roomImports(["src/platform/**/*.ts"], ["connections", "views", "webviews", "soql", "documents", "commands", "extension"]),
  roomImports(["src/connections/**/*.ts"], ["views", "webviews", "soql", "documents", "commands", "extension"]),
  roomImports(["src/soql/**/*.ts", "src/documents/**/*.ts", "src/webviews/**/*.ts"], ["views", "commands", "extension"]),
);
