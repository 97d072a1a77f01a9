import { test } from "node:test";
import assert from "node:assert/strict";
import { get18CharId } from "../../../src/client";
import { HOSTILE_BODIES } from "../../../src/demo-org";
import { seedOrg } from "../../../src/demo-org/seed";

test("demo seed: a believable org with articles in every state and hostile bodies", () => {
  const { store, tooling } = seedOrg("demo", "127.0.0.1:1");
  const count = (name: string) => store.liveRecords(name).length;
  assert.ok(count("Account") >= 200 && count("Contact") >= 200, "a few hundred accounts and contacts");
  assert.ok(count("Case") > 100);
  assert.equal(count("User"), 10);
  assert.equal(count("CollaborationGroup"), 3);
  const versions = store.liveRecords("Knowledge__kav");
  assert.equal(store.liveRecords("KnowledgeArticle").length, 30);
  for (const state of ["Draft", "Online", "Archived"]) assert.ok(versions.some((v) => v.PublishStatus === state), state);
  for (const hostile of HOSTILE_BODIES) assert.ok(versions.some((v) => v.Answer__c === hostile), "each hostile body is in the seed");
  assert.ok(versions.some((v) => String(v.Answer__c).includes("rtaImage")));
  assert.ok(count("FeedItem") >= 30 && store.liveRecords("FeedComment").length > 10);
  for (const table of [...store.records.values(), ...tooling.records.values()]) {
    for (const id of table.keys()) assert.equal(get18CharId(id.slice(0, 15)), id, `valid 18-character ID ${id}`);
  }
  assert.deepEqual(seedOrg("demo", "127.0.0.1:1").store.liveRecords("Account").map((a) => a.Name), store.liveRecords("Account").map((a) => a.Name), "deterministic");
});

test("large seed: 1,500 sObjects, 50,000 rows in one object and a 3,000-field object", () => {
  const { store } = seedOrg("large", "127.0.0.1:1");
  assert.equal(store.objects.size, 1500);
  assert.equal(store.liveRecords("Big_Table__c").length, 50_000);
  assert.equal(store.object("Wide_Object__c")!.fields.length, 3000);
  assert.equal(new Set([...store.objects.values()].map((d) => d.keyPrefix)).size, 1500, "unique key prefixes");
});
