import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletedWrite } from "../../../src/client";
import { ChangeSets } from "../../../src/agent/changeSets";
import { clientSchema } from "../../../src/agent/tools";
import { commitRecords, currentRecords, sinceWritten, type RecordWrite } from "../../../src/client/records";
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

test("the commit engine checks each chunk of 200 before writing it, says per record what became of it, and takes the new stamps of what it wrote", async () => {
  const crm = await demoClient(emu());
  const made = (await crm.collections.create("Contact", Array.from({ length: 450 }, (_, i) => ({ LastName: `Engine ${i}` })))).map((r) => r.id!);
  const read = await currentRecords(crm, "Contact", made);
  const stampOf = (id: string) => read.get(id.slice(0, 15))!.SystemModstamp;
  await new Promise((resolve) => setTimeout(resolve, 5));
  await crm.updateSobjectRecord("Contact", made[10]!, { Title: "Someone's" }); // changed meanwhile
  await crm.deleteSobjectRecord("Contact", made[300]!); // deleted meanwhile
  const writes: RecordWrite[] = [
    ...made.slice(0, 440).map((id, i) => ({ operation: "update" as const, object: "Contact", id, stamp: stampOf(id), fields: i === 5 ? { Email: "not an address" } : { Title: `T${i}` } })),
    ...made.slice(440).map((id) => ({ operation: "delete" as const, object: "Contact", id, stamp: stampOf(id) })),
    { operation: "create", object: "Account", fields: { Name: "Engine Co" } },
  ];
  const heard: number[] = [];
  const stamped = new Set<number>();
  const { outcomes, reads, writes: sent } = await commitRecords(crm, writes, { onOutcome: (i) => heard.push(i), onStamp: (i) => stamped.add(i) });

  assert.deepEqual([reads, sent], [4, 5], "3 checked chunks of Contact and one read of the last chunk's stamps; 3 updates, 1 delete, 1 create");
  assert.deepEqual(outcomes[10], { state: "conflict", why: "changed", stamp: String((await currentRecords(crm, "Contact", [made[10]!])).get(made[10]!.slice(0, 15))!.SystemModstamp) });
  assert.deepEqual(outcomes[300], { state: "conflict", why: "deleted" });
  assert.equal(outcomes[5]!.state, "refused");
  assert.match((outcomes[5] as { result: { errors: { message: string }[] } }).result.errors[0]!.message, /invalid email address/);
  assert.ok(outcomes.slice(440, 450).every((o) => o.state === "written"));
  assert.equal(outcomes[450]!.state, "written");
  assert.equal(outcomes.filter((o) => o.state === "written").length, 448);
  assert.equal(new Set(heard).size, 451, "every write's outcome is heard");
  // Every update written has its new stamp, which a later check accepts: committing the same records again is no conflict.
  const updated = writes.map((_, i) => i).filter((i) => i < 440 && outcomes[i]!.state === "written");
  assert.deepEqual([...stamped].sort((x, y) => x - y), updated);
  const again = await commitRecords(crm, updated.map((i) => ({ operation: "update" as const, object: "Contact", id: made[i]!, stamp: (outcomes[i] as { stamp: string }).stamp, fields: { Title: "Again" } })));
  assert.ok(again.outcomes.every((o) => o.state === "written"));
});
