import { test } from "node:test";
import assert from "node:assert/strict";
import type { Crm } from "../../../src/client";
import { editableQuery } from "../../../src/soql/runText";
import { markEditableColumns, recordRef } from "../../../src/webviews/gridEdits";
import { QueryRun } from "../../../src/webviews/queryRun";
import { useEmulator, demoClient } from "../../helpers/emulator";

// The org sends 3 child rows a parent and a nextRecordsUrl for the rest, as orgs do for large child results.
const emu = useEmulator({ childBatchSize: 3 });
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

test("an editing statement reads SystemModstamp in the outer SELECT and its child subqueries, never in a semi-join", () => {
  const edited = editableQuery("SELECT Id, Name, (SELECT LastName, (SELECT CaseNumber FROM Cases) FROM Contacts) FROM Account WHERE Id IN (SELECT AccountId FROM Contact)", "SystemModstamp");
  assert.ok(!("reason" in edited));
  assert.equal(edited.text, "SELECT Id, Name, (SELECT LastName, (SELECT CaseNumber, SystemModstamp FROM Cases), SystemModstamp FROM Contacts), SystemModstamp FROM Account WHERE Id IN (SELECT AccountId FROM Contact)");
  assert.deepEqual([edited.added, edited.addedToChildren], [true, true]);
  const reads = editableQuery("SELECT Id, SystemModstamp, (SELECT LastName, SystemModstamp FROM Contacts) FROM Account", "SystemModstamp");
  assert.ok(!("reason" in reads) && !reads.added && !reads.addedToChildren, "a statement that reads the stamp is sent as written");
});

test("child tables: any depth by path; rows the org left out are loaded; a child row's edit commits to that child record", async () => {
  const c = await crm();
  const account = (await c.soqlQuery<{ Id: string }>("SELECT Id FROM Account WHERE Name = 'Acme Ltd'")).records[0]!.Id;
  for (let i = 0; i < 5; i++) await c.createSobjectRecord("Contact", { LastName: `Kid ${i}`, AccountId: account });
  const run = await QueryRun.start(c, { api: "soql", text: `SELECT Id, Name, (SELECT Id, LastName, Title FROM Contacts ORDER BY LastName) FROM Account WHERE Id = '${account}'` });
  const contacts = run.childView([0, "Contacts"])!;
  assert.equal(contacts.table.records.length, 3, "the org sent the first 3 child rows");
  assert.equal(contacts.result.done, false);
  assert.ok(!contacts.table.columns.some((c) => c.path === "SystemModstamp"), "the stamp read for the conflict check is not shown");
  await run.loadRemainingChildren([0, "Contacts"]);
  assert.equal(contacts.table.records.length, contacts.result.totalSize);
  assert.equal(contacts.result.done, true);
  assert.equal(run.childView([0, "Contacts"]), contacts, "the same view (and its staged edits) while the run lives");

  markEditableColumns(contacts.table, { object: "Contact", fields: (await c.describeObject("Contact"))!.fields, keyPrefixOf: () => "001" });
  const title = contacts.table.columns.findIndex((col) => col.path === "Title");
  const last = contacts.table.records.length - 1;
  assert.equal(contacts.edits.stage(last, title, "Loaded late"), undefined);
  assert.deepEqual(run.staged, { cells: 1, rows: 1 }, "the run counts child tables' edits too");
  const outcome = await contacts.edits.commit(c);
  assert.deepEqual([outcome.saved, outcome.conflicts], [1, 0]);
  const id = recordRef(contacts.table.records[last]!)!.id!;
  assert.equal((await c.getSobjectRecord("Contact", id, { fields: ["Title"] })).Title, "Loaded late");
  assert.equal(run.table.childResult([0, "Contacts"])!.records[last]!.Title, "Loaded late", "the parent row's child result shows the saved value");
});
