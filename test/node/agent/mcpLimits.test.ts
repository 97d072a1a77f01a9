/**
 * `crm-explorer-mcp` over stdio against what a careless or hostile caller sends: a message over the limit, a
 * 30 MB line of garbage, lines that are not JSON or not JSON-RPC, an argument of megabytes. Each gets a
 * JSON-RPC error or a bounded answer, and the server goes on serving; closing stdin ends it, said on stderr.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { useEmulator } from "../../helpers/emulator";

const root = path.resolve(__dirname, "../../..");
const demo = useEmulator();
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

test("over the 4 MB limit, garbage and non-JSON-RPC lines get JSON-RPC errors and the server serves on; a huge argument is quoted in a short excerpt; stdin closing ends it with a word", { timeout: 120_000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-mcp-limits-"));
  dirs.push(dir);
  const c = demo().credentials;
  const helper = path.join(dir, "helper.json");
  await writeFile(helper, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/cli/crm-explorer-mcp.ts"), "--helper", helper], { cwd: root, stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const answers: Record<string, unknown>[] = [];
  const waiting: (() => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    answers.push(JSON.parse(line) as Record<string, unknown>);
    waiting.splice(0).forEach((w) => w());
  });
  const next = async (): Promise<Record<string, unknown>> => {
    while (!answers.length) await new Promise<void>((resolve) => waiting.push(resolve));
    return answers.shift()!;
  };
  const send = (text: string) => new Promise<void>((resolve) => (child.stdin.write(text) ? resolve() : child.stdin.once("drain", resolve)));
  const request = (id: number, method: string, params: unknown) => send(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);

  await request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "crm-test", version: "1" } });
  assert.equal((await next()).id, 1);
  await send(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);

  // Just over the limit: refused by id, without being held.
  await request(2, "tools/call", { name: "crm_query", arguments: { soql: `SELECT Id FROM Account WHERE Name = '${"x".repeat(4 * 1024 * 1024)}'` } });
  const tooLarge = await next();
  assert.equal(tooLarge.id, 2);
  assert.match(String((tooLarge.error as { message: string }).message), /at most 4,194,304 bytes/);
  assert.equal((tooLarge.error as { code: number }).code, -32600);

  // 30 MB of garbage in one line, sent in pieces.
  for (let i = 0; i < 30; i++) await send("garbage-".repeat(131_072));
  await send("\n");
  assert.deepEqual(await next(), { jsonrpc: "2.0", id: null, error: { code: -32600, message: (tooLarge.error as { message: string }).message } });
  await send("not json at all\n");
  assert.equal(((await next()).error as { code: number }).code, -32700);
  await send(`${JSON.stringify({ id: 5, hello: "world" })}\n`);
  const invalid = await next();
  assert.equal(invalid.id, 5);
  assert.equal((invalid.error as { code: number }).code, -32600);

  // Still serving: the tools are listed, and a 3 MB argument (under the limit) is refused in a few lines.
  await request(6, "tools/list", {});
  const listed = await next();
  assert.equal(listed.id, 6);
  assert.ok(((listed.result as { tools: unknown[] }).tools).length >= 7);
  await request(7, "tools/call", { name: "crm_describe", arguments: { object: "A".repeat(3 * 1024 * 1024) } });
  const refused = await next();
  const text = ((refused.result as { content: { text: string }[] }).content[0]!).text;
  assert.equal((refused.result as { isError?: boolean }).isError, true, text.slice(0, 500));
  assert.ok(text.length < 2_000, `the refusal quotes an excerpt, not the argument (${text.length} characters)`);
  assert.match(text, /\(3,145,730 characters\)/);
  await request(8, "tools/call", { name: "A".repeat(1024 * 1024), arguments: {} });
  const unknown = ((await next()).result as { content: { text: string }[] }).content[0]!.text;
  assert.ok(unknown.length < 300, unknown.slice(0, 300));

  child.stdin.end();
  assert.equal(await exited, 0);
  assert.match(stderr, /crm-explorer-mcp: stopped: stdin closed/);
});
