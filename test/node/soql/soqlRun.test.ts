import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DescribeStore } from "../../../src/connections/describeStore";
import { DocumentPins, QueryHistory } from "../../../src/soql/runHistory";
import { apiOf } from "../../../src/soql/runText";
import { useEmulator } from "../../helpers/emulator";
import { managerWithDemoOrg, MemoryState } from "../fakes";

const emu = useEmulator();

test("history: newest first per org, a statement run again moves up instead of repeating, capped by the setting", async () => {
  const state = new MemoryState();
  let cap = 3;
  const history = new QueryHistory(state, () => cap);
  const run = (text: string, rows = 1) => ({ text, api: apiOf(text, false), ranAt: new Date().toISOString(), rows, durationMs: 12 });
  for (const text of ["SELECT Id FROM Account", "SELECT Id FROM Contact", "FIND {acme}"]) await history.add("org-a", run(text));
  await history.add("org-b", run("SELECT Name FROM Case"));
  await history.add("org-a", run("  SELECT Id FROM Account  ", 7));
  assert.deepEqual(history.list("org-a").map((e) => [e.text, e.api, e.rows]), [["SELECT Id FROM Account", "soql", 7], ["FIND {acme}", "sosl", 1], ["SELECT Id FROM Contact", "soql", 1]]);
  assert.deepEqual(history.list("org-b").map((e) => e.text), ["SELECT Name FROM Case"], "each org has its own");
  await history.add("org-a", run("SELECT Id FROM Lead"));
  assert.equal(history.list("org-a").length, 3, "the oldest run falls off at the cap");
  cap = 1;
  await history.add("org-a", run("SELECT Id FROM User"));
  assert.deepEqual(history.list("org-a").map((e) => e.text), ["SELECT Id FROM User"]);
  // Kept in the store (global state), so a new window reads the same history.
  assert.deepEqual(new QueryHistory(state, () => 500).list("org-a").map((e) => e.text), ["SELECT Id FROM User"]);
});

test("pins: a document keeps its org and its Tooling toggle independently", async () => {
  const pins = new DocumentPins(new MemoryState());
  await pins.set("untitled:Untitled-1", { orgKey: "k1" });
  await pins.set("untitled:Untitled-1", { tooling: true });
  await pins.set("file:///q.soql", { tooling: false });
  assert.deepEqual(pins.get("untitled:Untitled-1"), { orgKey: "k1", tooling: true });
  assert.deepEqual(pins.get("file:///q.soql"), { tooling: false });
  assert.deepEqual(pins.get("file:///other.soql"), {});
  await pins.forget("untitled:Untitled-1");
  assert.deepEqual(pins.get("untitled:Untitled-1"), {}, "a closed untitled document's pin does not pass to the next document of that name");
  assert.deepEqual(pins.get("file:///q.soql"), { tooling: false });
  assert.equal(apiOf("// search\n  find {x}", true), "sosl", "FIND runs as a search whatever the toggle");
  assert.equal(apiOf("SELECT Id FROM ApexClass", true), "tooling");
});

test("describes persist per org across sessions, come back with If-Modified-Since, and are cleared by the command and on removal", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-describes-"));
  const store = new DescribeStore(dir);
  const { manager, org } = await managerWithDemoOrg(emu().credentials, { describeStore: store });
  const session = await manager.session(org.key);
  const first = await session.schema.describe("Account");
  assert.ok(existsSync(path.join(dir, org.key, "account.json")));
  // A new window: nothing in memory, the stored describe is revalidated, not fetched again.
  session.clearCaches();
  const before = emu().requests.length;
  assert.deepEqual(await session.schema.describe("Account"), first);
  const revalidation = emu().requests.slice(before).filter((r) => r.path.endsWith("/sobjects/Account/describe"));
  assert.equal(revalidation.length, 1);
  assert.equal(revalidation[0]!.status, 304, "an unchanged object costs a 304, no body");
  assert.equal(await store.read(org.key, "../escape"), undefined, "names outside the store are refused");

  await manager.clearCaches();
  assert.ok(!existsSync(dir), "CRM: Clear Describe Cache empties the store");
  await session.schema.describe("Contact");
  assert.deepEqual(await readdir(path.join(dir, org.key)), ["contact.json"]);
  await manager.remove(org.key);
  assert.ok(!existsSync(path.join(dir, org.key)), "a removed org leaves no describes behind");
  manager.dispose();
});
