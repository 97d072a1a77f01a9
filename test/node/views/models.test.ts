import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm } from "../../../src/client";
import { OrgSchema, typeBadge } from "../../../src/connections/schema";
import { ObjectsModel } from "../../../src/views/objectsModel";
import { KnowledgeModel } from "../../../src/views/knowledgeModel";
import { useEmulator, demoClient, advanceClock } from "../../helpers/emulator";
import { MemoryState } from "../fakes";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

function objectsModel(c: Crm, state = new MemoryState()) {
  return new ObjectsModel(new OrgSchema(c), state, "org-1");
}

test("objects are grouped standard/custom, filtered by name or label, with favorites kept per org", async () => {
  const c = await crm();
  const model = objectsModel(c);
  const standard = await model.group("standard");
  const custom = await model.group("custom");
  assert.ok(standard.some((o) => o.name === "Account") && !standard.some((o) => o.custom));
  assert.ok(custom.some((o) => o.name === "Invoice__c") && custom.every((o) => o.custom));
  model.filter = "invoice";
  assert.deepEqual((await model.group("custom")).map((o) => o.name), ["Invoice__c"]);
  assert.deepEqual(await model.group("standard"), []);
  model.filter = "";
  await model.setFavorite("Account", true);
  await model.setFavorite("Case", true);
  assert.deepEqual((await model.group("favorites")).map((o) => o.name), ["Account", "Case"]);
  await model.setFavorite("Case", false);
  assert.deepEqual((await model.counts()).favorites, 1);
});

test("describe global is fetched once and revalidated with If-Modified-Since on refresh", async () => {
  const c = await crm();
  const model = objectsModel(c);
  const count = () => emu().requests.filter((r) => r.path.endsWith("/sobjects")).length;
  const before = count();
  await model.schema.objects();
  await model.group("custom");
  assert.equal(count() - before, 1, "one describe global for many reads");
  await model.schema.objects(true);
  const last = emu().requests.filter((r) => r.path.endsWith("/sobjects")).at(-1)!;
  assert.equal(last.status, 304);
  assert.ok(last.headers["if-modified-since"]);
  assert.ok((await model.schema.objects()).length > 10, "a 304 keeps the cached list");
});

test("at start-up every group and the SOQL editor ask at once: one model per org and one describe global", async () => {
  const { PerOrg } = await import("../../../src/views/perOrg");
  const c = await crm();
  let created = 0;
  const perOrg = new PerOrg(async (key) => {
    created++;
    await new Promise((r) => setTimeout(r, 10));
    return new ObjectsModel(new OrgSchema(c), new MemoryState(), key);
  });
  const before = emu().requests.filter((r) => r.path.endsWith("/sobjects")).length;
  const models = await Promise.all(Array.from({ length: 6 }, () => perOrg.get("org-1")));
  assert.equal(created, 1, "one model for six simultaneous requests");
  assert.ok(models.every((m) => m === models[0]));
  const lists = await Promise.all([models[0]!.group("standard"), models[0]!.group("custom"), models[0]!.group("favorites"), models[0]!.schema.objects(), models[0]!.schema.objects(), models[0]!.schema.objects()]);
  assert.ok(lists[0].length > 0 && lists[3].length > 0);
  assert.equal(emu().requests.filter((r) => r.path.endsWith("/sobjects")).length - before, 1, "identical describe-global requests in flight share one");
  assert.equal(perOrg.peek("org-1"), models[0]);
});

test("an object's details: fields with required markers and badges, child relationships, record types", async () => {
  const c = await crm();
  const model = new OrgSchema(c);
  const contact = await model.details("Contact");
  assert.equal(contact.fields[0]!.name, "LastName", "required fields first");
  const account = contact.fields.find((f) => f.name === "AccountId")!;
  assert.equal(typeBadge(account), "→ Account");
  assert.equal(typeBadge(contact.fields.find((f) => f.name === "Email")!), "email");
  assert.deepEqual(contact.fields.find((f) => f.name === "LeadSource")!.picklistValues, ["Web", "Phone Inquiry", "Partner Referral", "Other"]);
  assert.ok((await model.details("Account")).childRelationships.some((r) => r.relationshipName === "Contacts" && r.childSObject === "Contact"));
  assert.deepEqual((await model.details("Knowledge__kav")).recordTypes.map((r) => r.developerName), ["FAQ", "How_To"]);
  const accountFields = await model.details("Account");
  assert.ok(accountFields.fields.find((f) => f.name === "AccountNumber")!.externalId);
});

test("the starter query selects the object's fields and runs", async () => {
  const c = await crm();
  const soql = await new OrgSchema(c).starterQuery("Account");
  assert.match(soql, /^SELECT Id,\n {7}Name,/);
  const result = await c.soqlQuery(soql);
  assert.ok(result.records.length > 0);
});

test("knowledge groups page one page per Load more, sorted and filtered", async () => {
  const c = await crm();
  const requests = () => emu().requests.filter((r) => r.path.endsWith("/query")).length;
  const model = new KnowledgeModel({ listArticleVersions: (o) => c.knowledge.listArticleVersions(o) }, () => ({ pageSize: 4, sobject: "Knowledge__kav" }));
  const changes: unknown[] = [];
  model.onDidChange((g) => changes.push(g));
  let before = requests();
  const first = await model.ensureLoaded("Online");
  assert.equal(first.rows.length, 4);
  assert.equal(first.hasMore, true);
  assert.equal(requests() - before, 1);
  before = requests();
  await model.ensureLoaded("Online");
  assert.equal(requests() - before, 0, "an already loaded group is not fetched again");
  await model.loadMore("Online");
  assert.equal(model.state("Online")!.rows.length, 8);
  assert.equal(requests() - before, 1, "Load more fetches exactly one page");
  assert.ok(changes.includes("Online"));
  model.setSort("Title", "ASC");
  const sorted = await model.ensureLoaded("Online");
  const titles = sorted.rows.map((r) => r.title);
  assert.deepEqual(titles, [...titles].sort((a, b) => a.localeCompare(b)));
  model.setTitleFilter("router");
  const filtered = await model.ensureLoaded("Online");
  assert.ok(filtered.rows.length > 0 && filtered.rows.every((r) => /router/i.test(r.title)));
  const drafts = await model.ensureLoaded("Draft");
  assert.ok(drafts.rows.every((r) => r.publishStatus === "Draft"));
});

test("overlapping refreshes of a group: the newest wins and each version appears once", async () => {
  const c = await crm();
  const model = new KnowledgeModel({ listArticleVersions: (o) => c.knowledge.listArticleVersions(o) }, () => ({ pageSize: 5, sobject: "Knowledge__kav" }));
  const first = model.ensureLoaded("Draft");
  model.reset("Draft");
  const second = model.ensureLoaded("Draft");
  model.reset("Draft");
  const third = model.ensureLoaded("Draft");
  await Promise.all([first, second]);
  const final = await third;
  assert.equal(model.state("Draft"), final, "the group shows the newest load");
  assert.equal(final.pages, 1);
  assert.equal(final.rows.length, 5);
  assert.equal(new Set(final.rows.map((r) => r.id)).size, 5, "no version twice");
  await model.loadMore("Draft");
  assert.equal(new Set(final.rows.map((r) => r.id)).size, final.rows.length, "still none twice after the next page");
});

test("a failed page is kept as the group's error (shown as a node), and a retry clears it", async () => {
  const c = await crm();
  const model = new KnowledgeModel({ listArticleVersions: (o) => c.knowledge.listArticleVersions(o) }, () => ({ pageSize: 5, sobject: "Knowledge__kav" }));
  emu().setFault("requestLimitExceeded", true);
  try {
    const state = await model.ensureLoaded("Archived");
    assert.match(String((state.error as Error).message), /REQUEST_LIMIT_EXCEEDED/);
  } finally {
    emu().setFault("requestLimitExceeded", false);
  }
  const retried = await model.loadMore("Archived");
  assert.equal(retried.error, undefined);
  assert.ok(retried.rows.length > 0);
});

test("feeds: news feed pages by token; group and user feeds; comments followed across pages; entities decoded", async () => {
  const { FeedsModel } = await import("../../../src/views/feedsModel");
  const c = await crm();
  const model = new FeedsModel({
    myNewsFeed: (page) => c.feed.getMyNewsFeed({ page, pageSize: 5 }),
    groupFeed: (id, page) => c.feed.getGroupFeed(id, { page, pageSize: 5 }),
    userFeed: (id, page) => c.feed.getUserNewsFeed(id, { page, pageSize: 5 }),
    comments: (id, page) => c.feed.getComments(id, { page, pageSize: 2 }),
    groups: () => c.feed.getGroups(),
  });
  const news = await model.ensureLoaded({ kind: "news" });
  assert.equal(news.rows.length, 5);
  assert.ok(news.hasMore);
  await model.loadMore({ kind: "news" });
  assert.equal(news.rows.length, 10);
  assert.equal(new Set(news.rows.map((i) => i.id)).size, 10, "the second page continues the first");
  const [group] = await model.groups();
  const groupFeed = await model.ensureLoaded({ kind: "group", id: group!.id, name: group!.name });
  assert.ok(groupFeed.rows.every((i) => i.parentName === group!.name));
  const withComments = news.rows.concat(groupFeed.rows).find((i) => i.commentCount > 0);
  assert.ok(withComments, "the demo feeds have commented items");
  let comments = await model.comments(withComments.id);
  while (comments.olderPage) comments = await model.loadOlderComments(withComments.id);
  assert.equal(comments.rows.length, withComments.commentCount, "every older page can be loaded");
  await c.feed.postFeedItem(group!.id, { messageText: "Use <b>bold</b> & \"quotes\"" });
  model.reset({ kind: "group", id: group!.id, name: group!.name });
  const fresh = await model.ensureLoaded({ kind: "group", id: group!.id, name: group!.name });
  assert.equal(fresh.rows[0]!.text, 'Use <b>bold</b> & "quotes"', "entity-encoded text is decoded once");
  const alan = (await c.soqlQuery<{ Id: string }>("SELECT Id FROM User WHERE Name = 'Alan Turing'")).records[0]!.Id;
  const ref = model.addUserFeed(alan, "Alan Turing");
  assert.ok((await model.ensureLoaded(ref)).pages > 0);
});

test("feeds: comments show oldest to newest, latest page first, older pages put in front; every Connect name is decoded", async () => {
  const { FeedsModel } = await import("../../../src/views/feedsModel");
  const c = await crm();
  const model = new FeedsModel({
    myNewsFeed: (page) => c.feed.getMyNewsFeed({ page, pageSize: 25 }),
    groupFeed: (id, page) => c.feed.getGroupFeed(id, { page }),
    userFeed: (id, page) => c.feed.getUserNewsFeed(id, { page }),
    comments: (id, page) => c.feed.getComments(id, { page, pageSize: 3 }),
    groups: () => c.feed.getGroups(),
  });
  const account = await c.createSobjectRecord("Account", { Name: `O'Reilly & Sons "Zeta" <Corp>` });
  const post = (await c.feed.postFeedItem(account.id, { messageText: "Renewal call went well" })) as { id: string };
  for (let i = 1; i <= 7; i++) await c.feed.postComment(post.id, { messageText: `comment ${i}` });
  const news = await model.ensureLoaded({ kind: "news" });
  const item = news.rows.find((i) => i.id === post.id)!;
  assert.equal(item.parentName, `O'Reilly & Sons "Zeta" <Corp>`, "the parent's name is decoded, not shown as &#39; / &amp; / &quot;");
  assert.equal(item.author, "Ada Lovelace");
  const latest = await model.comments(post.id);
  assert.deepEqual(latest.rows.map((r) => r.text), ["comment 5", "comment 6", "comment 7"], "the latest page, oldest first");
  assert.ok(latest.olderPage, "older comments are offered");
  await model.loadOlderComments(post.id);
  const all = await model.loadOlderComments(post.id);
  assert.deepEqual(all.rows.map((r) => r.text), [1, 2, 3, 4, 5, 6, 7].map((n) => `comment ${n}`), "older pages go in front: time order throughout");
  assert.equal(all.olderPage, null);
  assert.ok(all.rows.every((r, i) => i === 0 || r.createdDate >= all.rows[i - 1]!.createdDate));
});

test("knowledge groups list each article once in its master language, its translations under it (one query a page), stale ones marked", async () => {
  const c = await crm();
  const draft = await c.knowledge.createArticle({ Title: "Tree translations", UrlName: "tree-translations", Summary: "s" });
  await c.knowledge.publishArticle(draft);
  const articleId = String((await c.knowledge.getArticleDetails(draft)).KnowledgeArticleId);
  advanceClock(emu(), 60_000);
  const [fr] = await c.knowledge.submitForTranslation(articleId, "fr");
  await c.knowledge.publishTranslation(fr!.Id);
  await c.knowledge.submitForTranslation(articleId, "de");
  const queries = () => emu().requests.filter((r) => r.path.endsWith("/query")).length;
  const model = new KnowledgeModel({
    listArticleVersions: (o) => c.knowledge.listArticleVersions(o),
    translationsOf: (ids, sobject) => c.knowledge.getTranslations(ids, { sobject }),
  }, () => ({ pageSize: 50, sobject: "Knowledge__kav" }));
  model.setTitleFilter("Tree translations");
  let before = queries();
  let online = await model.ensureLoaded("Online");
  assert.equal(queries() - before, 2, "the page and its translations: two queries");
  assert.deepEqual(online.rows.map((r) => r.title), ["Tree translations"], "the published French translation is not a row of its own");
  assert.deepEqual(online.rows[0]!.translations!.map((t) => [t.language, t.publishStatus, t.stale]), [["de", "Draft", false], ["fr", "Online", false]]);
  assert.deepEqual(model.groupsShowing([fr!.Id]), ["Online"], "a change naming a translation reaches the group showing its master");
  // Publishing the master again (a minute later) makes both translations older than it.
  advanceClock(emu(), 60_000);
  await c.knowledge.createDraftFromOnlineArticle(articleId);
  const second = (await c.knowledge.getVersionsOfArticle(articleId)).find((v) => v.PublishStatus === "Draft")!;
  await c.knowledge.publishArticle(second.Id);
  model.reset("Online");
  online = await model.ensureLoaded("Online");
  assert.deepEqual(online.rows[0]!.translations!.map((t) => [t.language, t.stale]), [["de", true], ["fr", true]]);
  // A source that reads no translations (a single-language org) costs no second query.
  const plain = new KnowledgeModel({ listArticleVersions: (o) => c.knowledge.listArticleVersions(o), translationsOf: async () => undefined }, () => ({ pageSize: 50, sobject: "Knowledge__kav" }));
  plain.setTitleFilter("Tree translations");
  before = queries();
  assert.equal((await plain.ensureLoaded("Online")).rows[0]!.translations, undefined);
  assert.equal(queries() - before, 1);
});
