/**
 * The package as a newcomer installs it: `npm pack` of this checkout, installed by path into an empty project
 * (nothing from the registry: `--offline`), then used there the way the README says — each command-line tool's
 * help, a knowledge pull and check against the emulator (the check renders rich text through the bundled
 * jsdom), the MCP server answering `initialize` over stdio, and the library from CommonJS and an ES module.
 * Then the documents' own snippets, as a reader copies them: every JavaScript block, every install and tool line
 * of a shell block, every helper file and every JSON configuration, against two emulators (the demo org, and an
 * empty sandbox for the migration).
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Emulator } from "../../../src/demo-org";
import { useEmulator } from "../../helpers/emulator";

const root = path.resolve(__dirname, "../../..");
const demo = useEmulator();
const sandbox = useEmulator({ seed: "empty", orgKind: "sandbox" });
/** The goal of the issue that made the package lean: what an install of it pulls in. */
const MOST_PACKAGES = 30;
const MOST_BYTES = 25 * 1024 * 1024;

let project = "";
before(() => {
  // `npm test` builds the bundles; the declarations come from `npm run build` (made here when missing).
  if (!existsSync(path.join(root, "dist/types/client/index.d.ts"))) execFileSync("npm", ["run", "build:types"], { cwd: root, stdio: "pipe" });
  project = mkdtempSync(path.join(tmpdir(), "crm-newcomer-"));
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", project], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { filename: string }[];
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "newcomer", version: "1.0.0", private: true }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", `./${packed!.filename}`], { cwd: project, stdio: "pipe" });
});

/** The helper files the documents name, for the two orgs: written once, when a test first signs in (the emulators start in hooks of their own). */
let helpersWritten = false;
function writeHelpers(): void {
  if (helpersWritten) return;
  const helperOf = (emu: Emulator) => {
    const c = emu.credentials;
    return JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } });
  };
  // JSON is YAML too.
  for (const name of ["helper.json", "helper.yaml", "org.yaml", "prod.json"]) writeFileSync(path.join(project, name), helperOf(demo()));
  writeFileSync(path.join(project, "sandbox.json"), helperOf(sandbox()));
  // The docs' migration plan, saved under the name they give it.
  const plan = documentBlocks("yaml").find((b) => /^objects:/m.test(b.text));
  assert.ok(plan, "the docs hold a migration plan");
  writeFileSync(path.join(project, "accounts.migration.yaml"), plan.text);
  helpersWritten = true;
}
after(() => rmSync(project, { recursive: true, force: true }));

function installedPackages(dir: string): string[] {
  return readdirSync(dir).filter((name) => !name.startsWith(".")).flatMap((name) => {
    const at = path.join(dir, name);
    const here = name.startsWith("@") ? readdirSync(at).map((inner) => path.join(at, inner)) : [at];
    return here.flatMap((pkg) => [pkg, ...(existsSync(path.join(pkg, "node_modules")) ? installedPackages(path.join(pkg, "node_modules")) : [])]);
  });
}

function bytesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const at = path.join(dir, entry.name);
    return sum + (entry.isDirectory() ? bytesUnder(at) : entry.isFile() ? statSync(at).size : 0);
  }, 0);
}

const helper = () => path.join(project, "helper.json");
const bin = (name: string) => path.join(project, "node_modules/.bin", name);

/** A tool run in the project, without blocking this process (the emulator answering it runs here). */
function run(command: string, args: string[], stdin: "ignore" | "pipe" = "pipe"): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // npm answers from the tarball alone: no registry, no audit.
    const child = spawn(command, args, { cwd: project, stdio: [stdin, "pipe", "pipe"], env: { ...process.env, npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false", XDG_CONFIG_HOME: path.join(project, ".config") } });
    let stdout = "", stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

test("installing the tarball pulls at most 30 packages and 25 MB", () => {
  const packages = installedPackages(path.join(project, "node_modules"));
  assert.ok(packages.length <= MOST_PACKAGES, `${packages.length} packages: ${packages.map((p) => path.relative(project, p)).join(", ")}`);
  const bytes = bytesUnder(path.join(project, "node_modules"));
  assert.ok(bytes <= MOST_BYTES, `${(bytes / 1024 / 1024).toFixed(1)} MB installed`);
});

test("each command-line tool prints its help on stdout and exits 0", () => {
  for (const [tool, usage] of [["crm-knowledge", "Usage: crm-knowledge"], ["crm-data", "Usage: crm-data"], ["crm-explorer-mcp", "Usage: crm-explorer-mcp"]] as const) {
    const run = spawnSync(bin(tool), ["--help"], { cwd: project, encoding: "utf8" });
    assert.equal(run.status, 0, `${tool} --help: ${run.stderr}`);
    assert.match(run.stdout, new RegExp(usage), tool);
  }
});

test("crm-knowledge pulls the demo org's articles and checks them, rich text included, from the installed package", async () => {
  writeHelpers();
  const pull = await run(bin("crm-knowledge"), ["pull", "--out", "articles", "--helper", helper(), "--all-published"]);
  assert.equal(pull.status, 0, pull.stderr);
  // The demo org holds hostile articles on purpose: the check finds them (exit 1), and says so per article.
  const check = await run(bin("crm-knowledge"), ["check", "articles", "--format", "json"]);
  assert.ok(check.status === 0 || check.status === 1, check.stderr);
  const report = JSON.parse(check.stdout) as { articles: number; findings: { rule: string; message: string }[] };
  assert.ok(report.articles > 0, "articles checked");
  assert.ok(report.findings.some((f) => /^Sanitizing removes/.test(f.message)), `a finding from sanitizing: ${check.stdout.slice(0, 400)}`);
});

test("crm-explorer-mcp from the installed package answers initialize over stdio", async () => {
  writeHelpers();
  const server = spawn(bin("crm-explorer-mcp"), ["--helper", helper()], { cwd: project, stdio: ["pipe", "pipe", "pipe"] });
  try {
    const answer = new Promise<{ result: { serverInfo: { name: string }; capabilities: object } }>((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.split("\n").find((l) => l.includes('"id":1'));
        if (line) resolve(JSON.parse(line));
      });
      server.on("exit", (code) => reject(new Error(`exited ${code} before answering`)));
    });
    server.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "newcomer", version: "1" } } }) + "\n");
    const { result } = await answer;
    assert.ok(result.serverInfo.name, "the server names itself");
    assert.ok("tools" in result.capabilities, "it offers tools");
  } finally {
    server.kill();
  }
});

test("the library loads from the installed package, as CommonJS and as an ES module, with one Crm class", () => {
  const cjs = spawnSync(process.execPath, ["-e", `const c = require("crm-explorer/client"); const m = require("crm-explorer/workflows/migration"); console.log(typeof c.Crm, typeof m.parsePlan)`], { cwd: project, encoding: "utf8" });
  assert.equal(cjs.status, 0, cjs.stderr);
  assert.equal(cjs.stdout.trim(), "function function");
  const esm = spawnSync(process.execPath, ["--input-type=module", "-e", `import { Crm } from "crm-explorer/client"; import { createRequire } from "node:module"; console.log(Crm === createRequire(process.cwd() + "/")("crm-explorer/client").Crm)`], { cwd: project, encoding: "utf8" });
  assert.equal(esm.status, 0, esm.stderr);
  assert.equal(esm.stdout.trim(), "true");
});

/** The fenced blocks of the README and the docs pages in a language, with where each starts. */
function documentBlocks(language: string): { at: string; text: string }[] {
  return ["README.md", ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)].flatMap((file) =>
    [...readFileSync(path.join(root, file), "utf8").matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => ({ at: `${file}:${readFileSync(path.join(root, file), "utf8").slice(0, m.index).split("\n").length}`, text: m[1]! })));
}

test("every JavaScript block of the documents runs as written against the demo org, from the installed package", async () => {
  writeHelpers();
  const snippets = documentBlocks("js");
  assert.ok(snippets.length >= 5, "the library's and the migration's snippets");
  for (const [i, { at, text }] of snippets.entries()) {
    const file = `snippet-${i}.mjs`;
    writeFileSync(path.join(project, file), text);
    const result = await run(process.execPath, [file]);
    assert.equal(result.status, 0, `${at}: ${result.stderr.slice(0, 1500)}`);
  }
});

/** Shell lines a reader runs in a project holding the tarball: installs and the tools (a clone's npm scripts are tested elsewhere). */
const PROJECT_LINE = /^(npx --no-install |npm install \.\/)/;

test("every install and tool line of the documents' shell blocks runs as written in the project, the migration plan of the docs included", async () => {
  writeHelpers();
  const lines = documentBlocks("sh").flatMap(({ at, text }) => text.replace(/\\\n\s*/g, "").split("\n").map((line) => ({ at, line: line.trim() }))).filter(({ line }) => PROJECT_LINE.test(line));
  assert.ok(lines.filter(({ line }) => line.includes("crm-data")).length >= 4 && lines.some(({ line }) => line.includes("crm-explorer-mcp")) && lines.some(({ line }) => line.startsWith("npm install")), lines.map((l) => l.line).join("\n"));
  for (const { at, line } of lines) {
    // A server reading stdin (crm-explorer-mcp) meets its end at once and stops, as when its host closes.
    const result = await run("bash", ["-c", line], "ignore");
    assert.equal(result.status, 0, `${at}: ${line}\n${result.stdout.slice(-800)}${result.stderr.slice(-800)}`);
  }
  assert.equal(sandbox().seeded.store.liveRecords("Account").length, 0, "the migration was reverted: the sandbox is empty again");
});

test("every helper file of the docs is read by the installed library as the sign-in it says it is", async () => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  writeFileSync(path.join(project, "server.key"), privateKey.export({ type: "pkcs8", format: "pem" }));
  const helpers = documentBlocks("yaml").filter((b) => /^connection:/m.test(b.text));
  assert.ok(helpers.length >= 5, "one per sign-in method");
  const STRATEGY: Record<string, string> = { password: "PasswordAuth", jwt_bearer: "JwtBearerAuth", refresh_token: "RefreshTokenAuth", client_credentials: "ClientCredentialsAuth", access_token: "AccessTokenAuth" };
  for (const [i, { at, text }] of helpers.entries()) {
    const grant = /grant_type: (\w+)/.exec(text)?.[1];
    assert.ok(grant && STRATEGY[grant], `${at} names its grant_type`);
    writeFileSync(path.join(project, `doc-helper-${i}.yaml`), text);
    const read = await run(process.execPath, ["-e", `const c = require("crm-explorer/client"); console.log(c.strategyFromConnection(c.readHelperFile("doc-helper-${i}.yaml").connection).constructor.name)`]);
    assert.equal(read.status, 0, `${at}: ${read.stderr}`);
    assert.equal(read.stdout.trim(), STRATEGY[grant], at);
  }
});

test("every JSON configuration of the documents is JSON, and an MCP entry starts the server by its file with node", () => {
  const configurations = documentBlocks("json");
  assert.ok(configurations.length >= 2);
  for (const { at, text } of configurations) {
    const parsed = JSON.parse(text) as { mcpServers?: Record<string, { command: string; args: string[] }> };
    for (const entry of Object.values(parsed.mcpServers ?? {})) {
      assert.equal(entry.command, "node", at);
      assert.match(entry.args[0]!, /\/dist\/mcp\.js$/, at);
    }
  }
});
