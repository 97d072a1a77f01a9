/**
 * The configuration an MCP host outside VS Code (Claude Desktop, Cursor, Windsurf…) needs to start
 * `crm-explorer-mcp` from the files this installation holds — never a package name that a registry would
 * resolve (whoever registers the name would run in the agent, with the helper file's credentials).
 */
import type { AgentAccess } from "./tools";

export interface McpServerConfigurationInput {
  /** The absolute path of the installed server (the extension's or the npm package's `dist/mcp.js`). */
  serverFile: string;
  /** The helper file with the org's credentials; undefined leaves a placeholder to fill in. */
  helperFile?: string;
  access: Exclude<AgentAccess, "off">;
}

/** What to write where the placeholder is, when no helper file was chosen. */
export const HELPER_PLACEHOLDER = "/absolute/path/to/helper.yaml";

/** `{ "mcpServers": { "crm-explorer": … } }`, the shape Claude Desktop and Cursor read, as indented JSON. */
export function mcpServerConfiguration(input: McpServerConfigurationInput): string {
  const args = [input.serverFile, "--helper", input.helperFile ?? HELPER_PLACEHOLDER, ...(input.access === "read" ? [] : ["--access", input.access])];
  return JSON.stringify({ mcpServers: { "crm-explorer": { command: "node", args } } }, null, 2);
}
