import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletedWrite } from "../../../src/client";
import { ChangeSets } from "../../../src/agent/changeSets";
import { clientSchema } from "../../../src/agent/tools";
import { currentRecords, sinceWritten } from "../../../src/client/records";
import { changeOf } from "../../../src/connections/changes";
import { revertPlan, WriteJournal, type JournalEntry } from "../../../src/connections/writeJournal";
import { markEditableColumns } from "../../../src/webviews/gridEdits";
import { QueryRun } from "../../../src/webviews/queryRun";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();

test("one conflict rule: the grid, an agent's change set and Write History's revert each leave out the record someone changed, and write the others", async () => {
  const crm = await demoClient(emu());
  const [forGrid, forAgent, theirs] = (await crm.collections.create("Contact", ["Grid", "Agent", "Theirs"].map((n) => ({ LastName: `Seam ${n}`, Title: "Old" })))).map((r) => r.id!);
  const all = [forGrid!, forAgent!, theirs!];

  // Write History: the person's own write of the three titles, journalled with the values before, as the extension does.
  const org = { key: "org", alias: "demo" };
  const journal = new WriteJournal({ max: () => 10 });
  crm.on("write", (write: CompletedWrite) => {
    const change = changeOf(write);
    if (change) journal.recordChange(org, { ...change, write });
  });
  const before = new Map(all.map((id) => [id, { Title: "Old" }]));
  await crm.withWriteContext({ before }, () => crm.collections.update(all.map((id) => ({ type: "Contact", id, fields: { Title: "Written" } }))));
  const entry = journal.list()[0]!;

  // The grid and the agent read their records now.
  const run = await QueryRun.start(crm, { api: "soql", text: `SELECT Id, LastName, Title FROM Contact WHERE Id IN ('${forGrid}', '${theirs}') ORDER BY LastName` });
  assert.ok(!("reason" in run.editing));
  markEditableColumns(run.table, { object: "Contact", fields: (await crm.describeObject("Contact"))!.fields, keyPrefixOf: () => "003" });
  const title = run.table.columns.findIndex((c) => c.path === "Title");
  const agent = { crm, name: "Demo", kind: "developer" as const, access: "write" as const, schema: clientSchema(crm), knowledgeSobject: "Knowledge__kav" };
  const sets = new ChangeSets();
  const proposal = await sets.propose(agent, [forAgent!, theirs!].map((id) => ({ operation: "update" as const, object: "Contact", id, fields: { Phone: "+1 555 0100" } })));

  // Someone else changes one record (a later SystemModstamp, and a title that is no longer what was written).
  await new Promise((resolve) => setTimeout(resolve, 5));
  await crm.updateSobjectRecord("Contact", theirs!, { Title: "Theirs" });

  const gridRow = (id: string) => run.table.records.findIndex((r) => String(r.Id) === id);
  run.edits.stage(gridRow(forGrid!), title, "From the grid");
  run.edits.stage(gridRow(theirs!), title, "From the grid");
  const committed = await run.edits.commit(crm);
  assert.deepEqual([committed.saved, committed.conflicts], [1, 1]);
  assert.equal(run.edits.rowMark(gridRow(theirs!))!.state, "conflict");

  const applied = await sets.apply(agent, /Change set (cs-\w+)/.exec(proposal)![1]!);
  assert.match(applied, /1 of 2 changes written/);
  assert.match(applied, new RegExp(`not written \\(conflict\\): update Contact ${theirs} — changed in the org`));

  // The revert of the person's write: the agent changed only a phone, so its record's title is restored; the grid
  // and someone else changed the title since, so those are named with the field and left alone.
  const plan = revertPlan(entry, await currentRecords(crm, "Contact", all, ["Title"]));
  assert.deepEqual(plan, { restore: [{ id: forAgent, fields: { Title: "Old" } }], changedSince: [{ id: forGrid, fields: ["Title"] }, { id: theirs, fields: ["Title"] }] });

  const now = await currentRecords(crm, "Contact", all, ["Title", "Phone"]);
  const of = (id: string) => now.get(id.slice(0, 15))!;
  assert.deepEqual([of(forGrid!).Title, of(forAgent!).Phone], ["From the grid", "+1 555 0100"]);
  assert.deepEqual([of(theirs!).Title, of(theirs!).Phone ?? null], ["Theirs", null], "the record someone changed keeps their work");
});

test("changed since written: as written restores, as before was reverted (or never landed), anything else is someone's change, gone is deleted", () => {
  const write = { before: { Title: "Old", Amount__c: "12.50" }, after: { Title: "New", Amount__c: "13" } };
  assert.deepEqual(sinceWritten({ title: "New", amount__c: 13 }, write), { state: "asWritten" }, "field names in the org's case, numbers in the org's form");
  assert.deepEqual(sinceWritten({ Title: "Old", Amount__c: 12.5 }, write), { state: "asBefore", fields: ["Title", "Amount__c"] });
  assert.deepEqual(sinceWritten({ Title: "Other", Amount__c: 13 }, write), { state: "changed", fields: ["Title"] });
  assert.deepEqual(sinceWritten(undefined, write), { state: "deleted" });
});

test("current values are read only with names and IDs that are names and IDs: a hostile history or run record sends nothing", async () => {
  const crm = await demoClient(emu());
  let sent = 0;
  crm.on("request", () => sent++);
  await assert.rejects(currentRecords(crm, "Contact", ["003000000000001AAA' OR Name != '"], ["Title"]), /Contact: "003000000000001AAA' OR Name != '" is not a record ID/);
  await assert.rejects(currentRecords(crm, "Contact WHERE Id != null", ["003000000000001AAA"]), /object 'Contact WHERE Id != null' is not an sObject API name/);
  await assert.rejects(currentRecords(crm, "Contact", ["003000000000001AAA"], ["Title FROM User --"]), /a field of Contact 'Title FROM User --' is not an sObject API name/);
  assert.equal(sent, 0);
});

test("Write History's revert of a hand-edited history names the bad ID and reads nothing", async () => {
  const crm = await demoClient(emu());
  const entry: JournalEntry = { id: "e", time: "", orgKey: "o", alias: "a", kind: "updated", object: "Contact", summary: "", records: [{ id: "x') OR (Id != '", before: { Title: "a" }, after: { Title: "b" }, ok: true }] };
  await assert.rejects(currentRecords(crm, entry.object!, entry.records.map((r) => r.id!), ["Title"]), /is not a record ID/);
});
