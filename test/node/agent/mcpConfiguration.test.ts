/**
 * "CRM: Copy MCP Server Configuration…" hands Claude Desktop or Cursor a configuration; here that configuration
 * is started exactly as such a host starts it (its command and arguments, a child process on stdio) against the
 * emulator, and must answer as the server: the access mode it names, no package name a registry would resolve.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HELPER_PLACEHOLDER, mcpServerConfiguration } from "../../../src/agent/mcpConfiguration";
import { useEmulator } from "../../helpers/emulator";

const root = path.resolve(__dirname, "../../..");
const demo = useEmulator();
const dir = mkdtempSync(path.join(tmpdir(), "crm-mcp-config-"));
after(() => rmSync(dir, { recursive: true, force: true }));

interface HostEntry { command: string; args: string[] }
const entryOf = (json: string) => (JSON.parse(json) as { mcpServers: Record<string, HostEntry> }).mcpServers["crm-explorer"]!;

/** Starts the entry as an MCP host would and asks it the two things a host asks first. */
async function startAsHost(entry: HostEntry): Promise<{ serverName: string; tools: string[] }> {
  const child = spawn(entry.command, entry.args, { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
  try {
    const answers = new Map<number, { result: Record<string, unknown> }>();
    const waitFor = (id: number) => new Promise<{ result: Record<string, unknown> }>((resolve, reject) => {
      let out = "";
      const seen = () => answers.get(id) && resolve(answers.get(id)!);
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const lines = out.split("\n");
        out = lines.pop()!;
        for (const line of lines.filter(Boolean)) {
          const message = JSON.parse(line) as { id: number; result: Record<string, unknown> };
          answers.set(message.id, message);
        }
        seen();
      });
      child.on("exit", (code) => reject(new Error(`the server exited (${code}) before answering ${id}`)));
    });
    const send = (message: object) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "host", version: "1" } } });
    const init = await waitFor(1);
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/list" });
    const list = await waitFor(2);
    return { serverName: (init.result.serverInfo as { name: string }).name, tools: (list.result.tools as { name: string }[]).map((t) => t.name).sort() };
  } finally {
    child.kill();
  }
}

test("the copied configuration starts this installation's server, which answers with the tools of the access it names", async () => {
  const serverFile = path.join(root, "dist/mcp.js");
  assert.ok(existsSync(serverFile), "npm test builds dist/mcp.js first");
  const c = demo().credentials;
  const helper = path.join(dir, "helper.json");
  writeFileSync(helper, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));

  const read = entryOf(mcpServerConfiguration({ serverFile, helperFile: helper, access: "read" }));
  assert.equal(read.command, "node");
  assert.deepEqual(read.args, [serverFile, "--helper", helper], "read is the server's default: no flag");
  const readServer = await startAsHost(read);
  assert.equal(readServer.serverName, "crm-explorer");
  assert.ok(!readServer.tools.includes("crm_apply_changes"), readServer.tools.join(", "));

  const write = await startAsHost(entryOf(mcpServerConfiguration({ serverFile, helperFile: helper, access: "write" })));
  assert.ok(write.tools.includes("crm_apply_changes"), write.tools.join(", "));
});

test("without a chosen helper file the configuration holds a placeholder to replace, and never a package name", () => {
  const text = mcpServerConfiguration({ serverFile: "/opt/ext/dist/mcp.js", access: "stage" });
  assert.deepEqual(entryOf(text).args, ["/opt/ext/dist/mcp.js", "--helper", HELPER_PLACEHOLDER, "--access", "stage"]);
  assert.doesNotMatch(text, /npx|npm|crm-explorer-mcp/);
});
