/**
 * Requests per user action, made by the extension's own models: how many, and how many sequential round trips
 * (requests each sent only after an earlier answer came back). Counts, never timings: on a real network each
 * round trip costs 50–250 ms, so these are what users feel (`npm run bench:latency` measures the times). Each
 * test names the floor the API allows; a small latency makes requests sent together overlap at the emulator.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CrmFiles, recordPath } from "../../src/documents/crmFiles";
import { SoqlCatalogCache } from "../../src/soql/catalogCache";
import { clientFeedsSource, FeedsModel } from "../../src/views/feedsModel";
import { KnowledgeModel, KNOWLEDGE_GROUPS, sessionKnowledgeSource } from "../../src/views/knowledgeModel";
import { ObjectsModel } from "../../src/views/objectsModel";
import { readArticleDetails } from "../../src/webviews/articleModel";
import { readOrgInfo } from "../../src/webviews/orgInfoModel";
import { QueryRun } from "../../src/webviews/queryRun";
import { sentDuring, sequentialRounds, useEmulator } from "../helpers/emulator";
import { managerWithDemoOrg, MemoryState } from "./fakes";

const emu = useEmulator();

interface Measured {
  /** "METHOD /path" of each request, in the order they arrived. */
  sent: string[];
  rounds: number;
}

async function measured(action: () => Promise<unknown>): Promise<Measured> {
  const requests = await sentDuring(emu(), action);
  return { sent: requests.map((r) => `${r.method} ${r.path.replace(/^\/services\/data\/v[\d.]+/, "")}`), rounds: sequentialRounds(requests) };
}

/** An org as a new window finds it: stored, its session not yet signed in. */
async function coldOrg() {
  const { manager, org, store } = await managerWithDemoOrg(emu().credentials);
  // No session kept from an earlier sign-in (its token expired, or it was never kept): this window signs in.
  await store.delete(`crm.org.${org.key}.session`);
  return { manager, org, session: await manager.session(org.key) };
}

const count = (m: Measured, prefix: string) => m.sent.filter((s) => s.startsWith(prefix)).length;

test("the Knowledge view in a new window, every group expanded: sign-in, then the three pages with the knowledge languages, then their translations — three round trips", async () => {
  const { manager, session } = await coldOrg();
  const model = new KnowledgeModel(sessionKnowledgeSource(session), () => ({ pageSize: 25, sobject: "Knowledge__kav" }));
  const expandAll = () => Promise.all(KNOWLEDGE_GROUPS.map((status) => model.ensureLoaded(status)));
  const first = await measured(expandAll);
  assert.equal(first.sent.length, 9, first.sent.join("\n"));
  assert.equal(count(first, "GET /query"), 6, "a page and its translations per group");
  assert.equal(count(first, "GET /knowledgeManagement/settings"), 1, "the languages once, for every group");
  assert.equal(first.rounds, 3, "token | pages, languages, userinfo | translations (which need the page's articles)");
  assert.deepEqual((await measured(expandAll)).sent, [], "groups held are not fetched again");
  manager.dispose();
});

test("Knowledge on an org that refuses its knowledge settings: asked once per session, never on a group's path again", async () => {
  emu().setFault("knowledgeSettingsUnavailable", true);
  try {
    const { manager, session } = await coldOrg();
    const model = new KnowledgeModel(sessionKnowledgeSource(session), () => ({ pageSize: 25, sobject: "Knowledge__kav" }));
    const expandAll = () => Promise.all(KNOWLEDGE_GROUPS.map((status) => model.ensureLoaded(status)));
    const first = await measured(expandAll);
    assert.equal(count(first, "GET /knowledgeManagement/settings"), 1, first.sent.join("\n"));
    assert.ok(first.rounds <= 2, `${first.rounds} round trips`);
    model.setTitleFilter("");
    const refreshed = await measured(expandAll);
    assert.equal(count(refreshed, "GET /knowledgeManagement/settings"), 0, "the refusal is remembered");
    assert.equal(refreshed.rounds, 1, refreshed.sent.join("\n"));
    manager.dispose();
  } finally {
    emu().setFault("knowledgeSettingsUnavailable", false);
  }
});

test("a new window with a kept session signs in no more: Knowledge, every group expanded, in one round trip; a refused token signs in once", async () => {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const session = await manager.session(org.key);
  const model = new KnowledgeModel(sessionKnowledgeSource(session), () => ({ pageSize: 25, sobject: "Knowledge__kav" }));
  const expandAll = () => Promise.all(KNOWLEDGE_GROUPS.map((status) => model.ensureLoaded(status)));
  const opened = await measured(expandAll);
  assert.equal(count(opened, "POST /services/oauth2/token"), 0, "no sign-in: the org records no login");
  assert.ok(opened.rounds <= 2, `${opened.rounds} round trips: ${opened.sent.join(", ")}`);
  manager.dispose();
  // The kept token is revoked: the first request is refused, the credentials sign in once, and the new session is kept.
  const { manager: second, org: again, store } = await managerWithDemoOrg(emu().credentials);
  await store.store(`crm.org.${again.key}.session`, JSON.stringify({ accessToken: "00Dxx!revoked-token-000000000", instanceUrl: emu().url }));
  const retried = await measured(async () => (await second.session(again.key)).crm.getOrgLimits());
  assert.equal(count(retried, "POST /services/oauth2/token"), 1, retried.sent.join(", "));
  assert.notEqual(JSON.parse((await store.get(`crm.org.${again.key}.session`))!).accessToken, "00Dxx!revoked-token-000000000", "the new session is kept");
  second.dispose();
});

test("Article Details: record, describe, categories and the knowledge languages | versions, body images and translations — two round trips", async () => {
  const { manager, session } = await coldOrg();
  await session.crm.connect();
  const article = emu().seeded.store.liveRecords("Knowledge__kav").find((v) => /rtaImage/.test(String(v.Answer__c)))!;
  const opened = await measured(() => readArticleDetails(session, String(article.Id), "Knowledge__kav"));
  assert.equal(count(opened, "GET /sobjects/Knowledge__kav/describe"), 1);
  assert.equal(count(opened, `GET /sobjects/Knowledge__kav/${article.Id}/richTextImageFields/`), 1);
  assert.equal(opened.rounds, 2, opened.sent.join("\n"));
  const again = await measured(() => readArticleDetails(session, String(article.Id), "Knowledge__kav"));
  assert.equal(count(again, "GET /sobjects/Knowledge__kav/describe") + count(again, "GET /knowledgeManagement/settings"), 0, "the describe and the languages are held");
  assert.equal(again.rounds, 2);
  manager.dispose();
});

test("Org Info: the user and the limits together — one round trip", async () => {
  const { manager, org, session } = await coldOrg();
  await session.crm.connect();
  const shown = await measured(() => readOrgInfo(manager, org));
  assert.deepEqual(shown.sent.sort(), ["GET /limits", "GET /services/oauth2/userinfo"]);
  assert.equal(shown.rounds, 1);
  manager.dispose();
});

test("Objects in a new window, then one object: sign-in | the objects | its describe — three round trips, the describe read once however many views ask", async () => {
  const { manager, org, session } = await coldOrg();
  const model = new ObjectsModel(session.schema, new MemoryState(), org.key);
  const expanded = await measured(async () => {
    await model.counts();
    await model.group("standard");
    await Promise.all([session.schema.details("Account"), session.schema.details("Account"), session.schema.describe("Account")]);
  });
  assert.deepEqual(expanded.sent.filter((s) => s.startsWith("GET /sobjects")), ["GET /sobjects", "GET /sobjects/Account/describe"]);
  assert.equal(expanded.rounds, 3);
  manager.dispose();
});

test("completing a field in a SOQL document on a cold cache: the objects and the FROM object's describe go together after sign-in — two round trips", async () => {
  const { manager, session } = await coldOrg();
  const catalog = new SoqlCatalogCache(async () => session.schema);
  const completed = await measured(() => catalog.load(["contact"]));
  assert.equal(completed.rounds, 2, completed.sent.join("\n"));
  assert.ok(catalog.fields("Contact")?.some((f) => f.name === "LastName"), "the describe is kept under the org's spelling of the name");
  assert.deepEqual((await measured(() => catalog.load(["Contact"]))).sent, [], "held: nothing sent again");
  manager.dispose();
});

test("running a query and fetching all of 10,000 rows: one request per page of 2,000, each needing the previous page's locator — five round trips", async () => {
  const { manager, session } = await coldOrg();
  await session.crm.connect();
  let rows = 0;
  const fetched = await measured(async () => {
    const run = await QueryRun.start(session.crm, { api: "soql", text: "SELECT Id, Subject FROM Task LIMIT 10000" }, 2000);
    await run.fetch({ all: true });
    rows = run.fetched;
  });
  assert.equal(rows, 10_000);
  assert.equal(fetched.sent.length, 5);
  assert.equal(fetched.rounds, 5);
  manager.dispose();
});

test("posting to a feed: the post, then the news feed read again with it — two round trips", async () => {
  const { manager, session } = await coldOrg();
  const feeds = new FeedsModel(clientFeedsSource(session.crm, () => undefined));
  await feeds.ensureLoaded({ kind: "news" });
  const posted = await measured(async () => {
    await session.crm.feed.postFeedItem("me", { messageText: "Round trips" });
    feeds.reset();
    await feeds.ensureLoaded({ kind: "news" });
  });
  assert.deepEqual(posted.sent, ["POST /chatter/feed-elements", "GET /chatter/feeds/news/me/feed-elements"]);
  assert.equal(posted.rounds, 2);
  manager.dispose();
});

test("saving a record document: the guarded update and the read of the new baseline in one composite request — one round trip", async () => {
  const { manager, session } = await coldOrg();
  const files = new CrmFiles({ org: async () => session, knowledgeSobject: () => "Knowledge__kav", store: new MemoryState() });
  const contact = emu().seeded.store.liveRecords("Contact")[5]!;
  const path = recordPath("Demo", "Contact", String(contact.Id));
  const doc = JSON.parse(new TextDecoder().decode(await files.readFile(path))) as Record<string, unknown>;
  const saved = await measured(() => files.writeFile(path, new TextEncoder().encode(JSON.stringify({ ...doc, Title: "Round tripper" }))));
  assert.deepEqual(saved.sent, ["POST /composite"]);
  assert.equal(contact.Title, "Round tripper");
  assert.match(new TextDecoder().decode(await files.readFile(path)), /"Title": "Round tripper"/, "the document reads what the org holds");
  manager.dispose();
});
