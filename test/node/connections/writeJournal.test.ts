import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletedWrite, Crm } from "../../../src/client";
import { changeOf } from "../../../src/connections/changes";
import { revertPlan, WriteJournal, type JournalEntry } from "../../../src/connections/writeJournal";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
const org = { key: "org-1", alias: "demo" };

/** A client whose accepted writes are recorded in a journal, as the extension does. */
async function journaled(max = 100): Promise<{ crm: Crm; journal: WriteJournal; persisted: JournalEntry[][] }> {
  const persisted: JournalEntry[][] = [];
  const journal = new WriteJournal({ max: () => max, persist: (entries) => persisted.push([...entries]) });
  const crm = await demoClient(emu());
  crm.on("write", (write: CompletedWrite) => {
    const change = changeOf(write);
    if (change) journal.recordChange(org, { ...change, write });
  });
  return { crm, journal, persisted };
}

test("the journal records every accepted write with its records, fields, results and the before values a writer gave", async () => {
  const { crm, journal, persisted } = await journaled();
  const [a, b] = (await crm.collections.create("Contact", [{ LastName: "Journal A" }, { LastName: "Journal B" }])).map((r) => r.id!);
  const before = new Map([[a!, { Title: null }], [b!, { Email: null }]]);
  await crm.withWriteContext({ before }, () => crm.collections.update([{ type: "Contact", id: a!, fields: { Title: "Lead" } }, { type: "Contact", id: b!, fields: { Email: "nope" } }]));
  await crm.updateSobjectRecord("Contact", a!, { Phone: "555" });
  const [single, commit, created] = journal.list();
  assert.equal(single!.summary, `update Contact ${a} (Phone)`);
  assert.deepEqual(single!.records, [{ id: a, after: { Phone: "555" }, ok: true }]);
  assert.equal(commit!.summary, "update 2 Contact records (Title, Email)");
  assert.deepEqual(commit!.records[0], { id: a, after: { Title: "Lead" }, before: { Title: null }, ok: true });
  assert.equal(commit!.records[1]!.ok, false);
  assert.match(commit!.records[1]!.error!, /invalid email address/);
  assert.equal(created!.kind, "created");
  assert.deepEqual(created!.records.map((r) => r.id), [a, b]);
  assert.equal(persisted.at(-1)!.length, 3, "each entry is persisted");
  assert.deepEqual(journal.search("email nope").map((e) => e.id), [commit!.id]);
  assert.deepEqual(journal.list("another-org"), []);
});

test("the journal keeps the newest entries up to its bound, and never a credential", async () => {
  const { crm, journal } = await journaled(2);
  for (let i = 0; i < 4; i++) await crm.createSobjectRecord("Contact", { LastName: `Bound ${i}` });
  assert.equal(journal.list().length, 2);
  assert.deepEqual(journal.list().map((e) => e.records[0]!.after!.LastName), ["Bound 3", "Bound 2"]);
  const token = (crm as unknown as { session?: { accessToken?: string } }).session?.accessToken;
  const text = JSON.stringify(journal.list());
  assert.doesNotMatch(text, /Bearer|access_token|refresh_token/i);
  if (token) assert.ok(!text.includes(token));
});

test("revert plan: restores before values, leaves out records changed since the write and names their fields", () => {
  const entry: JournalEntry = {
    id: "e", time: "", orgKey: "o", alias: "a", kind: "updated", object: "Contact", summary: "",
    records: [
      { id: "003000000000001AAA", before: { Title: "Old" }, after: { Title: "New" }, ok: true },
      { id: "003000000000002AAA", before: { Title: "Old 2" }, after: { Title: "New 2" }, ok: true },
      { id: "003000000000003AAA", before: { Title: "x" }, after: { Title: "y" }, ok: false },
    ],
  };
  const current = new Map([["003000000000001", { Title: "New" }], ["003000000000002", { Title: "Someone else's" }]]);
  assert.deepEqual(revertPlan(entry, current), {
    restore: [{ id: "003000000000001AAA", fields: { Title: "Old" } }],
    changedSince: [{ id: "003000000000002AAA", fields: ["Title"] }],
  });
});
