/** Fidelity judged by an outside client: @jsforce/jsforce-node drives the emulator as it would a real org. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Connection } from "@jsforce/jsforce-node";
import { useEmulator } from "../../helpers/emulator";

const emu = useEmulator();

async function login(): Promise<Connection> {
  const c = emu().credentials;
  const conn = new Connection({ loginUrl: emu().url, version: "62.0", oauth2: { loginUrl: emu().url, clientId: c.clientId, clientSecret: c.clientSecret, redirectUri: "http://localhost:1717/OauthRedirect" } });
  await conn.login(c.username, c.password + c.securityToken);
  return conn;
}

test("jsforce: OAuth password login, identity and limits", async () => {
  const conn = await login();
  assert.equal(conn.instanceUrl, emu().url);
  const identity = await conn.identity();
  assert.equal(identity.username, emu().credentials.username);
  const limits = await conn.limits();
  assert.equal(limits.DailyApiRequests!.Max, 15000);
});

test("jsforce: query with auto-fetch across pages", async () => {
  const conn = await login();
  const records: unknown[] = [];
  await new Promise<void>((resolve, reject) => {
    conn.query("SELECT Id, Name FROM Contact").on("record", (r) => records.push(r)).on("end", () => resolve()).on("error", reject).run({ autoFetch: true, maxFetch: 10_000 });
  });
  assert.equal(records.length, 320);
  const paged = await conn.query("SELECT Id FROM Contact", { autoFetch: true, maxFetch: 10_000, headers: { "Sforce-Query-Options": "batchSize=200" } } as never);
  assert.equal(paged.totalSize, 320);
});

test("jsforce: describe global and describe", async () => {
  const conn = await login();
  const global = await conn.describeGlobal();
  assert.ok(global.sobjects.some((s) => s.name === "Knowledge__kav"));
  const d = await conn.sobject("Account").describe();
  assert.ok(d.fields.some((f) => f.name === "Name"));
});

test("jsforce: create, retrieve, update, delete", async () => {
  const conn = await login();
  const created = await conn.sobject("Account").create({ Name: "jsforce Co" });
  assert.ok(created.success);
  const id = created.id!;
  const got = (await conn.sobject("Account").retrieve(id)) as { Name: string };
  assert.equal(got.Name, "jsforce Co");
  const updated = await conn.sobject("Account").update({ Id: id, Name: "jsforce Ltd" });
  assert.ok(updated.success);
  assert.equal(((await conn.sobject("Account").retrieve(id)) as { Name: string }).Name, "jsforce Ltd");
  const destroyed = await conn.sobject("Account").destroy(id);
  assert.ok(destroyed.success);
});

test("jsforce: SOSL search", async () => {
  const conn = await login();
  const result = await conn.search("FIND {Acme} RETURNING Account(Id, Name)");
  assert.ok(result.searchRecords.length > 0);
});

test("jsforce: Chatter GET and POST", async () => {
  const conn = await login();
  const feed = (await conn.chatter.resource("/feeds/news/me/feed-elements").retrieve()) as { elements: unknown[] };
  assert.ok(feed.elements.length > 0);
  const groups = (await conn.chatter.resource("/groups").retrieve()) as { groups: { id: string }[] };
  const posted = (await conn.chatter.resource("/feed-elements").create({ body: { messageSegments: [{ type: "Text", text: "from jsforce" }] }, feedElementType: "FeedItem", subjectId: groups.groups[0]!.id })) as { id: string; body: { text: string } };
  assert.match(posted.id, /^0D5/);
  assert.equal(posted.body.text, "from jsforce");
});

test("jsforce: an expired session is refreshed through the OAuth2 refresh token", async () => {
  const c = emu().credentials;
  const oauthConn = new Connection({ oauth2: { loginUrl: emu().url, clientId: c.clientId, clientSecret: c.clientSecret, redirectUri: "http://localhost:1717/OauthRedirect" }, version: "62.0" });
  const code = new URL((await fetch(oauthConn.oauth2.getAuthorizationUrl({ scope: "api refresh_token" }), { redirect: "manual" })).headers.get("location")!).searchParams.get("code")!;
  await oauthConn.authorize(code);
  emu().setFault("expireTokens", true);
  const result = await oauthConn.query("SELECT COUNT() FROM Account");
  assert.ok(result.totalSize > 0);
});
