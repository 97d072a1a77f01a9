import { test } from "node:test";
import assert from "node:assert/strict";
import { useEmulator, demoToken, api } from "../../helpers/emulator";

const emu = useEmulator();
let token: Promise<string> | undefined;
const call = async (path: string, init?: Parameters<typeof api>[3]) => api(emu(), await (token ??= demoToken(emu())), path, init);
const groupId = async () => (await call("/chatter/groups")).json.groups[0].id as string;

test("my news feed: a Feed Element Page with feed items, paged by token", async () => {
  const page = await call("/chatter/feeds/news/me/feed-elements?pageSize=5");
  assert.equal(page.status, 200);
  assert.equal(page.json.elements.length, 5);
  const item = page.json.elements[0];
  assert.equal(item.feedElementType, "FeedItem");
  assert.match(item.id, /^0D5\w{15}$/);
  assert.match(item.createdDate, /\.000Z$/);
  assert.ok(item.actor.name && item.body.messageSegments.length);
  assert.ok(typeof item.capabilities.comments.page.total === "number");
  assert.ok(page.json.nextPageUrl);
  const next = await call(page.json.nextPageUrl);
  assert.notEqual(next.json.elements[0].id, item.id);
  const dates = [...page.json.elements, ...next.json.elements].map((e: { createdDate: string }) => e.createdDate);
  assert.deepEqual(dates, [...dates].sort().reverse(), "newest first");
});

test("group feed, user feed, and the community prefix", async () => {
  const group = await groupId();
  const feed = await call(`/chatter/feeds/record/${group}/feed-elements`);
  assert.ok(feed.json.elements.every((e: { parent: { id: string } }) => e.parent.id === group));
  const me = (await call("/chatter/users/me")).json.id;
  assert.equal((await call(`/chatter/feeds/user-profile/${me}/feed-elements`)).status, 200);
  const site = emu().credentials.siteId;
  const viaSite = await call(`/connect/communities/${site}/chatter/feeds/record/${group}/feed-elements`);
  assert.equal(viaSite.status, 200);
  assert.match(viaSite.json.currentPageUrl, new RegExp(`/connect/communities/${site}/chatter/`));
  assert.equal((await call(`/connect/communities/0DB5g0000000000AAA/chatter/feeds/news/me/feed-elements`)).status, 404);
});

test("posting: segments with a mention; 201 with the feed item; HTML entities encoded by default", async () => {
  const group = await groupId();
  const grace = (await call("/chatter/users?q=alan")).json.users[0];
  const res = await call("/chatter/feed-elements", { method: "POST", body: { body: { messageSegments: [{ type: "Text", text: "Ping <b>now</b> " }, { type: "Mention", id: grace.id }] }, feedElementType: "FeedItem", subjectId: group } });
  assert.equal(res.status, 201);
  assert.equal(res.json.body.text, `Ping &lt;b&gt;now&lt;/b&gt; @${grace.name}`);
  assert.equal(res.json.body.messageSegments[1].type, "Mention");
  const raw = await call(`/chatter/feed-elements/${res.json.id}`, { headers: { "x-chatter-entity-encoding": "false" } });
  assert.equal(raw.json.body.text, `Ping <b>now</b> @${grace.name}`);
});

test("posting errors: unknown property createdById, no segments, wrong type, unknown subject", async () => {
  const group = await groupId();
  const impersonate = await call("/chatter/feed-elements", { method: "POST", body: { body: { messageSegments: [{ type: "Text", text: "x" }] }, feedElementType: "FeedItem", subjectId: group, createdById: "0055g0000000002AAA" } });
  assert.equal(impersonate.status, 400);
  assert.match(impersonate.json[0].message, /Unrecognized field "createdById"/);
  assert.equal((await call("/chatter/feed-elements", { method: "POST", body: { body: { messageSegments: [] }, feedElementType: "FeedItem", subjectId: group } })).status, 400);
  assert.equal((await call("/chatter/feed-elements", { method: "POST", body: { body: { messageSegments: [{ type: "Text", text: "x" }] }, feedElementType: "Bundle", subjectId: group } })).status, 400);
  assert.equal((await call("/chatter/feed-elements", { method: "POST", body: { body: { messageSegments: [{ type: "Text", text: "x" }] }, feedElementType: "FeedItem", subjectId: "0F95g00000zzzzzAAA" } })).status, 404);
});

test("comments: post and page through them; the item's count follows", async () => {
  const item = (await call("/chatter/feeds/news/me/feed-elements")).json.elements[0];
  const before = item.capabilities.comments.page.total;
  for (const text of ["one", "two", "three", "four"]) {
    const res = await call(`/chatter/feed-elements/${item.id}/capabilities/comments/items`, { method: "POST", body: { body: { messageSegments: [{ type: "Text", text }] } } });
    assert.equal(res.status, 201);
    assert.match(res.json.id, /^0D7/);
  }
  const page = await call(`/chatter/feed-elements/${item.id}/capabilities/comments/items?pageSize=2`);
  assert.equal(page.json.total, before + 4);
  assert.deepEqual(page.json.items.map((c: { body: { text: string } }) => c.body.text), ["three", "four"], "CreatedDateLatestAsc: the latest page, oldest first");
  assert.ok(page.json.nextPageUrl);
  const older = await call(String(page.json.nextPageUrl).replace(/^\/services\/data\/v[\d.]+/, ""));
  assert.deepEqual(older.json.items.map((c: { body: { text: string } }) => c.body.text), ["one", "two"], "the next page holds the comments before");
  const oldestFirst = await call(`/chatter/feed-elements/${item.id}/capabilities/comments/items?pageSize=2&sort=CreatedDateOldestAsc`);
  assert.notDeepEqual(oldestFirst.json.items, page.json.items);
  const byDefault = await call(`/chatter/feed-elements/${item.id}/capabilities/comments/items`);
  assert.equal(byDefault.json.items.length, Math.min(3, before + 4), "the documented default page size is 3");
  const refreshed = (await call(`/chatter/feed-elements/${item.id}`)).json;
  assert.equal(refreshed.capabilities.comments.page.total, before + 4);
  assert.equal(refreshed.capabilities.comments.page.items.at(-1).body.text, "four", "the item shows its latest comments");
});

test("the sObject route sets CreatedById for a user with the system-fields permission", async () => {
  const group = await groupId();
  const other = (await call("/chatter/users?q=alan")).json.users[0].id;
  const res = await call("/sobjects/FeedItem", { method: "POST", body: { ParentId: group, Body: "as someone else", Type: "TextPost", CreatedById: other } });
  assert.equal(res.status, 201);
  assert.equal((await call(`/chatter/feed-elements/${res.json.id}`)).json.actor.id, other);
});
