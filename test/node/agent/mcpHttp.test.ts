/**
 * The agent's tools over loopback HTTP, as VS Code calls the MCP server the extension defines: the SDK's own
 * Streamable HTTP client against the server, the tools running on the emulator. Only a caller with the key gets
 * in; a page in a browser (an Origin, another Host) does not; bodies are bounded; a path names one org's tools.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TOOLS, instructionsFor } from "../../../src/agent/catalog";
import { serveMcpOnLoopback, type LoopbackMcp } from "../../../src/agent/mcpHttp";
import { clientSchema, runTool, type AgentOrg } from "../../../src/agent/tools";
import { addHostileCorpus, HOSTILE_TEXTS } from "../../../src/demo-org/hostileCorpus";
import { assertInertAnswer, fencedData } from "../../helpers/agentAnswers";
import { demoClient, useEmulator } from "../../helpers/emulator";

const demo = useEmulator();
const KEY = "k".repeat(43);

async function served(trust: AgentOrg["trust"] = {}): Promise<{ loopback: LoopbackMcp; calls: string[] }> {
  const crm = await demoClient(demo());
  const org: AgentOrg = { crm, name: "Demo", kind: "developer", access: "read", schema: clientSchema(crm), knowledgeSobject: "Knowledge__kav", trust };
  const calls: string[] = [];
  const loopback = await serveMcpOnLoopback({
    key: KEY,
    serverFor: (handle) => handle !== "demo" ? undefined : {
      orgName: "Demo", version: "1.0.0", instructions: instructionsFor("Demo", "developer", "read"), tools: TOOLS.filter((t) => !t.mcpOnly),
      call: (name, input) => (calls.push(name), runTool(name, input, org, { budget: 16_000, personConfirms: true, propose: async () => "staged" })),
    },
  });
  return { loopback, calls };
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A raw request, as something other than VS Code might send it. */
function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? "POST", headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => (body += c)).on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
const json = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

test("with the key, the SDK's HTTP client lists the tools and queries the org; the answers name it", async (t) => {
  const { loopback, calls } = await served();
  t.after(() => loopback.close());
  assert.match(loopback.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
  const client = await connect(`${loopback.origin}/mcp/demo`, { Authorization: `Bearer ${KEY}` });
  t.after(() => client.close());
  assert.match(client.getInstructions() ?? "", /Tools over the CRM org Demo \(developer\); agent access: read/);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), TOOLS.filter((x) => !x.mcpOnly).map((x) => x.name).sort());
  assert.equal(tools.find((x) => x.name === "crm_query")!.annotations?.readOnlyHint, true);
  const answer = await client.callTool({ name: "crm_query", arguments: { soql: "SELECT Id, Name FROM Account ORDER BY Name LIMIT 2" } });
  const text = (answer.content as { text: string }[])[0]!.text;
  const { words, data } = fencedData(text);
  assert.equal(words, "Org: Demo (developer; agent access: read)");
  assert.match(data, /^totalSize: 2\nId \| Name/);
  const refused = await client.callTool({ name: "crm_propose_changes", arguments: { changes: [{ operation: "update", object: "Account", id: "001000000000001AAA", fields: { Phone: "1" } }] } });
  assert.equal(refused.isError, true);
  assert.match((refused.content as { text: string }[])[0]!.text, /allows agents to read only/);
  const elsewhere = await client.callTool({ name: "crm_query", arguments: { soql: "SELECT Id FROM Account", org: "Production" } });
  assert.match((elsewhere.content as { text: string }[])[0]!.text, /serves Demo only; it cannot reach "Production"/);
  assert.deepEqual(calls, ["crm_query", "crm_propose_changes"], "a call naming another org never reaches the tools");
});

test("without the right key, from a page in a browser, on another path or with a flood, nothing reaches the tools", async (t) => {
  const { loopback, calls } = await served();
  t.after(() => loopback.close());
  const url = `${loopback.origin}/mcp/demo`;
  const auth = { Authorization: `Bearer ${KEY}` };
  assert.equal((await raw(url, { headers: json, body: initialize })).status, 401, "no key");
  assert.equal((await raw(url, { headers: { ...json, Authorization: `Bearer ${KEY.slice(1)}x` }, body: initialize })).status, 401, "a wrong key of the same length");
  assert.equal((await raw(url, { headers: { ...json, Authorization: "Bearer short" }, body: initialize })).status, 401, "a wrong key of another length");
  assert.equal((await raw(url, { headers: { ...json, ...auth, Origin: "https://evil.example" }, body: initialize })).status, 403, "a browser page");
  assert.equal((await raw(url, { headers: { ...json, ...auth, Host: "attacker.example:80" }, body: initialize })).status, 403, "a rebound DNS name");
  assert.equal((await raw(`${loopback.origin}/mcp/other`, { headers: { ...json, ...auth }, body: initialize })).status, 404, "a path no org stands for");
  assert.equal((await raw(`${loopback.origin}/mcp/demo/tools`, { headers: { ...json, ...auth }, body: initialize })).status, 404, "a path with more in it");
  assert.equal((await raw(url, { method: "GET", headers: auth })).status, 405, "no event stream to open");
  assert.equal((await raw(url, { headers: { ...json, ...auth }, body: "{not json" })).status, 400);
  assert.equal((await raw(url, { headers: { ...json, ...auth }, body: Buffer.alloc(5 * 1024 * 1024, 0x20) })).status, 413);
  const ok = await raw(url, { headers: { ...json, ...auth }, body: initialize });
  assert.equal(ok.status, 200);
  assert.match(ok.body, /"serverInfo":\{"name":"crm-explorer"/);
  assert.deepEqual(calls, []);
});

test("the hostile corpus over loopback HTTP under lockdown: outsiders' posts withheld, every answer inert", async (t) => {
  const corpus = addHostileCorpus(demo().seeded);
  const { loopback } = await served({ lockdown: true });
  t.after(() => loopback.close());
  const client = await connect(`${loopback.origin}/mcp/demo`, { Authorization: `Bearer ${KEY}` });
  t.after(() => client.close());
  const answer = await client.callTool({ name: "crm_query", arguments: { soql: `SELECT Id, Body, Type FROM FeedItem WHERE Id IN ('${corpus.ids.FeedItem.join("', '")}')`, limit: 50 } });
  const text = (answer.content as { text: string }[])[0]!.text;
  assertInertAnswer(text, "feed posts over HTTP");
  const rows = fencedData(text).data.split("\n").slice(2);
  assert.equal(rows.filter((r) => r.endsWith(" | [withheld: written by a guest user] | TextPost | guest user")).length, HOSTILE_TEXTS.length, text);
});
