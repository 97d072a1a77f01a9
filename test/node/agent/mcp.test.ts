/**
 * `crm-explorer-mcp` spawned as an agent's client spawns it (the SDK's stdio client), against the emulator:
 * the tools each access mode lists, a query and a knowledge search, a change set proposed then applied and
 * journaled with the values it replaced, and refusals by access mode and on a production org — with nothing
 * sent when refused, and no secret in anything the agent receives.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startEmulator, type Emulator } from "../../../src/demo-org";
import { addHostileCorpus, HOSTILE_TEXTS } from "../../../src/demo-org/hostileCorpus";
import { assertInertAnswer, fencedData } from "../../helpers/agentAnswers";
import { useEmulator, writesSeen } from "../../helpers/emulator";

const root = path.resolve(__dirname, "../../..");
const demo = useEmulator();
const dirs: string[] = [];
const clients: Client[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function helperFor(emu: Emulator): Promise<{ dir: string; helper: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-mcp-"));
  dirs.push(dir);
  const c = emu.credentials;
  const helper = path.join(dir, "helper.json");
  await writeFile(helper, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  return { dir, helper };
}

/** The server as an MCP host starts it: a child process on stdio. */
async function connect(emu: Emulator, args: string[]): Promise<{ client: Client; dir: string; stderr: () => string }> {
  const { dir, helper } = await helperFor(emu);
  const transport = new StdioClientTransport({
    command: process.execPath, args: ["--import", "tsx", path.join(root, "src/cli/crm-explorer-mcp.ts"), "--helper", helper, ...args],
    // tsx is found from the project (the built dist/mcp.js needs nothing); the helper and journal paths are absolute.
    cwd: root, stderr: "pipe", env: { PATH: process.env.PATH ?? "" },
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "crm-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, dir, stderr: () => stderr };
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");

test("read access lists the read tools and propose (refused), not apply; a query and a knowledge search answer bounded text naming the org, with no secret", async () => {
  const emu = demo();
  const { client, stderr } = await connect(emu, []);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ["crm_describe", "crm_draft_article", "crm_explain", "crm_get_article", "crm_get_record", "crm_propose_changes", "crm_propose_notebook_cell", "crm_query", "crm_search_knowledge"]);
  assert.equal(tools.find((t) => t.name === "crm_query")?.annotations?.readOnlyHint, true);
  const query = await client.callTool({ name: "crm_query", arguments: { soql: "SELECT Id, Name FROM Account ORDER BY Name", limit: 3 } });
  const host = new URL(emu.url).host;
  const { words, data } = fencedData(textOf(query));
  assert.equal(words, `Org: ${host} (developer; agent access: read)`);
  assert.match(data, /^totalSize: \d+\nId \| Name\n/);
  assert.match(textOf(query), /3 of \d+ rows shown/);
  // The same three rows as data, for clients that read structuredContent: the org's values as they are, no more rows than the text shows.
  const structured = query.structuredContent as { org: string; totalSize: number; rows: { Id: string; Name: string }[] };
  const firstThree = emu.seeded.store.liveRecords("Account").map((a) => String(a.Name)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, 3);
  assert.equal(structured.org, host);
  assert.deepEqual(structured.rows.map((r) => r.Name), firstThree);
  assert.ok(structured.rows.every((r) => /^001/.test(r.Id) && !("attributes" in r)));
  assert.ok(structured.totalSize >= 3);
  const search = await client.callTool({ name: "crm_search_knowledge", arguments: { text: "router" } });
  assert.match(textOf(search), /published articles? in en_US match "router"/);
  const writes = writesSeen(emu);
  const proposal = await client.callTool({ name: "crm_propose_changes", arguments: { changes: [{ operation: "update", object: "Account", id: "001000000000001AAA", fields: { Phone: "1" } }] } });
  assert.equal(proposal.isError, true);
  assert.match(textOf(proposal), /read only \(access "read"\): crm_propose_changes was refused and nothing was sent/);
  const draft = await client.callTool({ name: "crm_draft_article", arguments: { title: "T", urlName: "t" } });
  assert.match(textOf(draft), /crm_draft_article writes to .*this server's access is "read": refused/);
  const elsewhere = await client.callTool({ name: "crm_query", arguments: { soql: "SELECT Id FROM Account", org: "Another org" } });
  assert.match(textOf(elsewhere), /This server serves .* only; it cannot reach "Another org"/);
  assert.equal(writesSeen(emu), writes, "nothing was written");
  const everything = `${JSON.stringify(tools)}${textOf(query)}${textOf(search)}${stderr()}`;
  for (const secret of [emu.credentials.password, emu.credentials.clientSecret, emu.credentials.securityToken]) assert.ok(!everything.includes(secret), "no secret reaches the agent");
  assert.match(stderr(), /serving .* \(developer\) with read access/);
});

test("stage proposes (nothing sent) but cannot apply; write applies the change set, journaled as the agent's with the values replaced", async () => {
  const emu = demo();
  const staged = await connect(emu, ["--access", "stage"]);
  assert.ok(!(await staged.client.listTools()).tools.some((t) => t.name === "crm_apply_changes"), "apply is not offered without write access");
  const journalFile = path.join(staged.dir, "agent-writes.jsonl");
  const { client } = await connect(emu, ["--access", "write", "--journal", journalFile]);
  assert.ok((await client.listTools()).tools.some((t) => t.name === "crm_apply_changes"));
  const contacts = await client.callTool({ name: "crm_query", arguments: { soql: "SELECT Id, Title FROM Contact ORDER BY Id LIMIT 2" } });
  const ids = [...textOf(contacts).matchAll(/^(003\w{15}) \| /gm)].map((m) => m[1]!);
  assert.equal(ids.length, 2);
  const writes = writesSeen(emu);
  const proposal = await client.callTool({ name: "crm_propose_changes", arguments: { changes: ids.map((id) => ({ operation: "update", object: "Contact", id, fields: { Title: "Agent-reviewed" } })) } });
  const changeSetId = /Change set (cs-\w+): 2 updates\. Nothing was sent\./.exec(textOf(proposal))?.[1];
  assert.ok(changeSetId, textOf(proposal));
  assert.match(textOf(proposal), /Title: .* → "Agent-reviewed"/);
  assert.equal(writesSeen(emu), writes, "a proposal sends nothing");
  const applied = await client.callTool({ name: "crm_apply_changes", arguments: { changeSetId } });
  assert.match(textOf(applied), /applied to .*: 2 of 2 changes written/);
  const journal = (await readFile(journalFile, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(journal.length, 1);
  // The line is the entry Write History keeps: whose work, which change set, each record with its values after and before.
  const line = journal[0] as { by: string; group: string; kind: string; records: { id: string; after: object; before: object; ok: boolean }[] };
  assert.deepEqual([line.by, line.group, line.kind], ["agent", changeSetId, "updated"]);
  assert.deepEqual(line.records.map((r) => r.id), ids);
  assert.ok(line.records.every((r) => r.ok && "Title" in r.after && "Title" in r.before), JSON.stringify(line.records));
  const again = await client.callTool({ name: "crm_apply_changes", arguments: { changeSetId } });
  assert.equal(again.isError, true);
  assert.match(textOf(again), /applied already/);
});

test("a production org refuses apply even with write access, sending nothing, until --allow-production", async () => {
  const emu = await startEmulator({ port: 0, seed: "demo" });
  try {
    emu.seeded.store.liveRecords("Organization")[0]!.OrganizationType = "Enterprise Edition";
    const { client } = await connect(emu, ["--access", "write"]);
    const proposal = await client.callTool({ name: "crm_propose_changes", arguments: { changes: [{ operation: "create", object: "Account", fields: { Name: "Agent Co" } }] } });
    const changeSetId = /Change set (cs-\w+)/.exec(textOf(proposal))![1]!;
    const writes = writesSeen(emu);
    const refused = await client.callTool({ name: "crm_apply_changes", arguments: { changeSetId } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /is a production org: crm_apply_changes was refused and nothing was sent\. The server writes to it only when started with --allow-production/);
    assert.equal(writesSeen(emu), writes);
    const allowed = await connect(emu, ["--access", "write", "--allow-production"]);
    const again = await allowed.client.callTool({ name: "crm_propose_changes", arguments: { changes: [{ operation: "create", object: "Account", fields: { Name: "Agent Co" } }] } });
    const applied = await allowed.client.callTool({ name: "crm_apply_changes", arguments: { changeSetId: /Change set (cs-\w+)/.exec(textOf(again))![1]! } });
    assert.match(textOf(applied), /1 of 1 change written\.\n- done: create Account 001/);
  } finally {
    await emu.close();
  }
});

test("bad usage exits 2 with the argument named, before signing in", async () => {
  const { runMcpCli } = await import("../../../src/cli/mcpCli");
  const run = async (argv: string[]) => {
    const err: string[] = [];
    const code = await runMcpCli({ argv, env: {}, cwd: root, out: () => undefined, err: (t) => err.push(t) }, async () => assert.fail("no transport is opened"));
    return { code, err: err.join("\n") };
  };
  assert.deepEqual(await run(["--access", "admin"]), { code: 2, err: "crm-explorer-mcp: --access must be one of read, stage, write, got 'admin'" });
  assert.match((await run(["--budget", "12"])).err, /--budget must be a whole number of characters from 2000 to 200000, got '12'/);
  assert.match((await run(["--acess", "read"])).err, /has no option --acess/);
  assert.match((await run([])).err, /This command needs an org/);
});

test("the hostile corpus over stdio: classified fields and, with --lockdown, outsiders' text withheld; every answer inert; --reveal-classified shows them", async () => {
  const emu = await startEmulator({ port: 0, seed: "demo" });
  try {
    const corpus = addHostileCorpus(emu.seeded);
    const { client } = await connect(emu, ["--lockdown"]);
    const answers: [string, string][] = [];
    const ask = async (name: string, args: Record<string, unknown>) => answers.push([`${name} ${JSON.stringify(args).slice(0, 80)}`, textOf(await client.callTool({ name, arguments: args }))]);
    await ask("crm_query", { soql: `SELECT Id, Subject, Description, Origin FROM Case WHERE Id IN ('${[...corpus.ids.Case].join("', '")}')`, limit: 100 });
    await ask("crm_query", { soql: "SELECT Id, LastName, Birthdate FROM Contact WHERE Email != null LIMIT 5" });
    for (const id of corpus.ids.FeedItem) await ask("crm_get_record", { object: "FeedItem", id });
    for (const id of corpus.ids.Knowledge__kav) await ask("crm_get_article", { id });
    await ask("crm_search_knowledge", { text: "corpus article", limit: 25 });
    await ask("crm_query", { sosl: "FIND {Corpus} RETURNING Case(Subject, Description), Account(Name, Description), Contact(LastName, Title)" });
    for (const [what, text] of answers) assertInertAnswer(text, what);
    const [cases, contacts] = answers.map(([, text]) => text);
    for (const text of HOSTILE_TEXTS) assert.ok(!fencedData(cases!).data.includes(text.slice(0, 16)), `no outsider's text over stdio: ${text.slice(0, 16)}`);
    assert.match(cases!, /\nLockdown: the text of 50 records written by people outside the company/);
    assert.match(fencedData(contacts!).data, /\| \[withheld: classified Restricted; PII, GDPR\]$/m);
    const revealed = await connect(emu, ["--reveal-classified"]);
    const shown = textOf(await revealed.client.callTool({ name: "crm_query", arguments: { soql: "SELECT Id, Birthdate FROM Contact WHERE Email != null LIMIT 5" } }));
    assert.match(fencedData(shown).data, /\| \d{4}-\d{2}-\d{2}$/m);
  } finally {
    await emu.close();
  }
});
