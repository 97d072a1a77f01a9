import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm, feed, MissingRequiredDataError, APIRequestError } from "../../../src/client";
import { textToSegments } from "../../../src/client/feed";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));
const groupId = async (c: Crm) => (await c.feed.getGroups()).groups[0]!.id;

test("news feed, user feed, group feed and comments, with page size and page tokens", async () => {
  const c = await crm();
  const mine = await c.feed.getMyNewsFeed({ pageSize: 3 });
  assert.equal(mine.elements.length, 3);
  const next = await c.feed.getMyNewsFeed({ pageSize: 3, page: String(mine.nextPageToken) });
  assert.notEqual(next.elements[0]!.id, mine.elements[0]!.id);
  assert.ok(Array.isArray((await c.feed.getUserNewsFeed(c.userId!)).elements));
  const group = await groupId(c);
  const groupFeed = await c.feed.getGroupFeed(group);
  assert.ok(groupFeed.elements.every((e) => e.parent.id === group));
  assert.equal(emu().requests.at(-1)!.path, `/services/data/v62.0/chatter/feeds/record/${group}/feed-elements`);
  await assert.rejects(c.feed.getMyNewsFeed({ pageSize: 500 }), RangeError);
  await assert.rejects(c.feed.getGroupFeed("x"), RangeError);
});

test("the siteId puts calls under /connect/communities/{siteId}", async () => {
  const c = await crm();
  const siteId = emu().credentials.siteId;
  await c.feed.getMyNewsFeed({ siteId });
  assert.equal(emu().requests.at(-1)!.path, `/services/data/v62.0/connect/communities/${siteId}/chatter/feeds/news/me/feed-elements`);
});

test("postFeedItem: plain text becomes one Text segment; segments win over text; mentions", async () => {
  const c = await crm();
  const group = await groupId(c);
  const plain = await c.feed.postFeedItem(group, { messageText: "Hello team" });
  assert.equal((plain.body as { text: string }).text, "Hello team");
  const sent = JSON.parse(emu().requests.at(-1)!.body);
  assert.deepEqual(sent, { body: { messageSegments: [{ type: "Text", text: "Hello team" }] }, feedElementType: "FeedItem", subjectId: group });
  const users = (await c.soqlQuery<{ Id: string; Name: string }>("SELECT Id, Name FROM User WHERE Name = 'Alan Turing'")).records;
  const segments = feed.textToSegments("Thanks @Alan Turing for the fix", users.map((u) => ({ id: u.Id, name: u.Name })));
  assert.deepEqual(segments, [{ type: "Text", text: "Thanks " }, { type: "Mention", id: users[0]!.Id }, { type: "Text", text: " for the fix" }]);
  const mentioned = await c.feed.postFeedItem(group, { messageText: "ignored", messageSegments: segments });
  assert.equal((mentioned.body as { text: string }).text, "Thanks @Alan Turing for the fix");
  await assert.rejects(c.feed.postFeedItem(group, {}), (e: unknown) => e instanceof MissingRequiredDataError && /messageText or messageSegments/.test((e as Error).message));
  await assert.rejects(c.feed.postFeedItem(group, { messageSegments: [{ nope: 1 } as never] }), TypeError);
});

test("postComment posts on a feed element", async () => {
  const c = await crm();
  const item = (await c.feed.getMyNewsFeed()).elements[0]!;
  const comment = await c.feed.postComment(item.id, { messageText: "Looks good" });
  assert.match(String(comment.id), /^0D7/);
  const page = await c.feed.getComments(item.id, { pageSize: 100 });
  assert.ok((page.items as { body: { text: string } }[]).some((i) => i.body.text === "Looks good"));
  await assert.rejects(c.feed.postComment(item.id, { messageText: " " }), MissingRequiredDataError);
});

test("createdById posts through the sObject API (the Connect API has no such input)", async () => {
  const c = await crm();
  const group = await groupId(c);
  const alan = (await c.soqlQuery<{ Id: string }>("SELECT Id FROM User WHERE Name = 'Alan Turing'")).records[0]!.Id;
  const posted = await c.feed.postFeedItem(group, { messageText: "On behalf of Alan", createdById: alan });
  assert.equal(emu().requests.at(-1)!.path, "/services/data/v62.0/sobjects/FeedItem");
  const item = await c.getSobjectRecord("FeedItem", String(posted.id));
  assert.equal(item.CreatedById, alan);
  const comment = await c.feed.postComment(String(posted.id), { messageText: "Reply as Alan", createdById: alan });
  assert.equal((await c.getSobjectRecord("FeedComment", String(comment.id))).CreatedById, alan);
  await assert.rejects(c.feed.postFeedItem(group, { messageSegments: [{ type: "Text", text: "x" }], createdById: alan }), { name: "TypeError", message: /createdById works with messageText only/ });
});

test("a user without the system-fields permission gets the org's refusal", async () => {
  const c = emu().credentials;
  // Client credentials run as the integration user, who lacks the permission.
  const other = await Crm.create({ endpointUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret });
  try {
    const group = await groupId(other);
    await assert.rejects(other.feed.postFeedItem(group, { messageText: "x", createdById: emu().seeded.adminId }), (e: unknown) => e instanceof APIRequestError && e.errorCode === "INVALID_FIELD_FOR_INSERT_UPDATE");
  } finally {
    other.close();
  }
});

test("findUsers: Connect's users list decoded, or a SOQL query on User when the org refuses the list; a mention still posts", async () => {
  const c = await demoClient(emu());
  const fromConnect = await c.feed.findUsers({ query: "alan" });
  assert.equal(fromConnect.source, "connect");
  assert.deepEqual(fromConnect.users.map((u) => u.name), ["Alan Turing"]);
  emu().setFault("usersListUnavailable", true);
  try {
    await assert.rejects(c.feed.getUsers(), (e: unknown) => e instanceof APIRequestError && e.status === 404);
    const fromSoql = await c.feed.findUsers({ query: "alan" });
    assert.equal(fromSoql.source, "soql");
    assert.deepEqual(fromSoql.users.map((u) => [u.id, u.name]), fromConnect.users.map((u) => [u.id, u.name]), "the same people either way");
    const segments = textToSegments("Thanks @Alan Turing", (await c.feed.findUsers()).users);
    assert.deepEqual(segments.map((s) => s.type), ["Text", "Mention"]);
    const posted = await c.feed.postFeedItem("me", { messageSegments: segments }) as { body: { messageSegments: { type: string }[] } };
    assert.deepEqual(posted.body.messageSegments.map((s) => s.type), ["Text", "Mention"]);
  } finally {
    emu().setFault("usersListUnavailable", false);
  }
});
