import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletedWrite, Crm } from "../../../src/client";
import { editorFor, parseCellInput, parseTsv, type CellEditor } from "../../../src/shared/cellInput";
import { markEditableColumns, recordRef } from "../../../src/webviews/gridEdits";
import { QueryRun } from "../../../src/webviews/queryRun";
import { layoutStore } from "../../../src/webviews/columnLayouts";
import { useEmulator, demoClient } from "../../helpers/emulator";
import { MemoryState } from "../fakes";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

/** A run of the statement with its columns marked from the org's describe, as the results panel does. */
async function editingRun(text: string): Promise<QueryRun> {
  const c = await crm();
  const run = await QueryRun.start(c, { api: "soql", text });
  const global = (await c.getAllSobjects())!;
  const prefix = (name: string) => global.sobjects.find((s) => s.name === name)?.keyPrefix ?? undefined;
  if ("reason" in run.editing) markEditableColumns(run.table, run.editing);
  else markEditableColumns(run.table, { object: run.editing.object, fields: (await c.describeObject(run.editing.object))!.fields, keyPrefixOf: prefix });
  return run;
}
const col = (run: QueryRun, path: string) => run.table.columns.findIndex((c) => c.path === path);
const viewRowOf = (run: QueryRun, index: number) => run.table.window(0, run.table.viewSize).findIndex((r) => r.index === index);

test("cell input: numbers keep the field's scale, picklists their values, lookups their objects, dates their shape", () => {
  const money = editorFor({ name: "Amount__c", type: "currency", scale: 2 })!;
  assert.deepEqual(parseCellInput("1,234.5", money), { ok: true, value: 1234.5 });
  assert.match((parseCellInput("1.234", money) as { error: string }).error, /at most 2 digits after the decimal point/);
  assert.match((parseCellInput("lots", money) as { error: string }).error, /takes a number; “lots” is not one/);
  const status: CellEditor = editorFor({ name: "Status__c", type: "picklist", restrictedPicklist: true, picklistValues: [{ value: "Draft" }, { value: "Paid" }, { value: "Old", active: false }] })!;
  assert.deepEqual(status.options, ["Draft", "Paid"]);
  assert.deepEqual(parseCellInput("paid", status), { ok: true, value: "Paid" });
  assert.match((parseCellInput("Old", status) as { error: string }).error, /not a value of Status__c; choose one of Draft, Paid/);
  const tags = editorFor({ name: "Tags__c", type: "multipicklist", picklistValues: [{ value: "Urgent" }, { value: "Export" }] })!;
  assert.deepEqual(parseCellInput("export; urgent;export", tags), { ok: true, value: "Export;Urgent" });
  const account = editorFor({ name: "AccountId", type: "reference" }, ["001"])!;
  assert.deepEqual(parseCellInput("001000000000001", account), { ok: true, value: "001000000000001AAA" });
  assert.match((parseCellInput("003000000000001AAA", account) as { error: string }).error, /points to another kind of record/);
  assert.match((parseCellInput("001000000000001ZZZ", account) as { error: string }).error, /last three characters do not match/);
  const day = editorFor({ name: "Birthdate", type: "date" })!;
  assert.deepEqual(parseCellInput("2024-02-29", day), { ok: true, value: "2024-02-29" });
  assert.equal(parseCellInput("2023-02-29", day).ok, false);
  const when = editorFor({ name: "Due__c", type: "datetime" })!;
  assert.deepEqual(parseCellInput("2026-05-01T14:30:00Z", when), { ok: true, value: "2026-05-01T14:30:00.000+0000" });
  assert.deepEqual(parseCellInput("yes", editorFor({ name: "IsClosed", type: "boolean" })!), { ok: true, value: true });
  assert.equal(editorFor({ name: "Body__c", type: "textarea", extraTypeInfo: "richtextarea" }), undefined, "rich text is edited in its tab");
  assert.deepEqual(parseTsv('a\t"b\tc"\n"line\nbreak"\t"say ""hi"""\r\n'), [["a", "b\tc"], ["line\nbreak", 'say "hi"']]);
});

test("an editing run reads SystemModstamp without showing it; columns say whether and why they edit", async () => {
  const run = await editingRun("SELECT Id, Name, Amount__c, Status__c, Tags__c, Due_Date__c, Account__r.Name, Account__c FROM Invoice__c ORDER BY Name");
  assert.match(run.sent, /, SystemModstamp FROM Invoice__c/);
  assert.ok(!run.table.columns.some((c) => c.path === "SystemModstamp"), "the stamp is not a column");
  assert.equal(run.table.columns[col(run, "Amount__c")]!.editor?.kind, "number");
  assert.equal(run.table.columns[col(run, "Status__c")]!.editor?.kind, "picklist");
  assert.equal(run.table.columns[col(run, "Account__c")]!.editor?.prefixes?.[0], "001");
  assert.match(run.table.columns[col(run, "Id")]!.readOnly!, /ID cannot be changed/);
  assert.match(run.table.columns[col(run, "Account__r.Name")]!.readOnly!, /related Account__r record/);
  const aggregate = await editingRun("SELECT Status__c, COUNT(Id) n FROM Invoice__c GROUP BY Status__c");
  assert.match(aggregate.table.columns[0]!.readOnly!, /GROUP BY/);
  assert.equal(aggregate.edits.stage(0, 0, "Paid"), aggregate.table.columns[0]!.readOnly);
});

test("staging: edits overlay the fetched cells with marks; equal values unstage; bad text is refused with the field's rule", async () => {
  const run = await editingRun("SELECT Id, Name, Amount__c, Status__c FROM Invoice__c ORDER BY Name LIMIT 5");
  const amount = col(run, "Amount__c"), status = col(run, "Status__c");
  const fetched = run.table.records[0]!.Amount__c;
  assert.equal(run.edits.stage(0, amount, "abc"), "Amount__c takes a number; “abc” is not one.");
  assert.equal(run.edits.stage(0, amount, "99.5"), undefined);
  assert.equal(run.edits.stage(0, status, "Overdue"), undefined);
  assert.deepEqual(run.edits.count, { cells: run.table.records[0]!.Status__c === "Overdue" ? 1 : 2, rows: 1 });
  const [row] = run.edits.decorate(run.table.window(viewRowOf(run, 0), 1));
  assert.equal(row!.cells[amount], 99.5);
  assert.equal(row!.marks![amount]!.state, "staged");
  assert.equal(row!.marks![amount]!.note, `Was: ${fetched}`);
  run.edits.stage(0, amount, String(fetched));
  assert.equal(run.edits.decorate(run.table.window(viewRowOf(run, 0), 1))[0]!.marks?.[amount], undefined, "typing the fetched value back unstages the cell");
  run.edits.discard();
  assert.deepEqual(run.edits.count, { cells: 0, rows: 0 });
});

test("paste: a spreadsheet block stages many cells from the active cell; a single value fills the selection; bad cells are listed", async () => {
  const run = await editingRun("SELECT Id, Name, Amount__c, Status__c FROM Invoice__c ORDER BY Name LIMIT 6");
  const amount = col(run, "Amount__c");
  const after = (c: number) => run.table.columns.map((_, i) => i).slice(c);
  const outcome = run.edits.paste("10\tPaid\n20\tSent\nnope\tSomething", { row: 0, columns: after(amount) });
  assert.equal(outcome.staged, 4);
  assert.deepEqual(outcome.errors, ["Row 3, Amount__c: Amount__c takes a number; “nope” is not one.", "Row 3, Status__c: “Something” is not a value of Status__c; choose one of Draft, Sent, Paid, Overdue."]);
  const first = run.edits.decorate(run.table.window(0, 2));
  assert.deepEqual(first.map((r) => [r.cells[amount], r.cells[amount + 1]]), [[10, "Paid"], [20, "Sent"]]);
  run.edits.discard();
  const fill = run.edits.paste("7", { row: 0, columns: after(amount) }, { top: 2, bottom: 4, columns: [amount] });
  assert.equal(fill.staged, 3);
  assert.deepEqual(run.edits.decorate(run.table.window(2, 3)).map((r) => r.cells[amount]), [7, 7, 7]);
  run.edits.discard();
  const own = run.edits.paste("Amount__c\tStatus__c\n5\tDraft", { row: 0, columns: after(amount) });
  assert.equal(own.staged, 2, "the heading line of a copy from the grid is not pasted");
  run.edits.discard();
  const reordered = run.edits.paste("Draft\t9", { row: 0, columns: [amount + 1, amount] });
  assert.deepEqual(run.edits.decorate(run.table.window(0, 1)).map((r) => [r.cells[amount], r.cells[amount + 1]]), [[9, "Draft"]], "pasted into the columns in the order shown");
  assert.equal(reordered.staged, 2);
});

test("review: fetched and staged values as two aligned texts, one block a record", async () => {
  const run = await editingRun("SELECT Id, Name, Amount__c, Status__c FROM Invoice__c ORDER BY Name LIMIT 3");
  const [amount, status] = [col(run, "Amount__c"), col(run, "Status__c")];
  run.edits.stage(1, status, "Paid");
  run.edits.stage(1, amount, "1");
  const { fetched, staged } = run.edits.review();
  const id = recordRef(run.table.records[1]!)!.id!;
  assert.equal(staged, `Invoice__c ${id}\n  Amount__c: 1\n  Status__c: Paid\n`);
  assert.equal(fetched, `Invoice__c ${id}\n  Amount__c: ${run.table.records[1]!.Amount__c ?? ""}\n  Status__c: ${run.table.records[1]!.Status__c ?? ""}\n`);
});

test("commit: saved rows take their values, a refused row keeps its edit with the org's message, a row changed in the org is not overwritten", async () => {
  const c = await crm();
  const run = await editingRun("SELECT Id, FirstName, LastName, Title, LeadSource FROM Contact ORDER BY LastName LIMIT 3");
  const [last, title, source] = [col(run, "LastName"), col(run, "Title"), col(run, "LeadSource")];
  const ids = run.table.records.map((r) => recordRef(r)!.id!);
  run.edits.stage(0, title, "Head of Support");
  run.edits.stage(0, source, "Web");
  run.edits.stage(1, last, ""); // the org requires a last name
  run.edits.stage(2, title, "Mine");
  await c.updateSobjectRecord("Contact", ids[2]!, { Title: "Theirs" }); // someone else, meanwhile
  const written: CompletedWrite[] = [];
  const listen = (write: CompletedWrite) => written.push(write);
  c.on("write", listen);
  const outcome = await run.edits.commit(c).finally(() => c.off("write", listen));
  assert.deepEqual({ ...outcome }, { saved: 1, created: 0, deleted: 0, refused: 1, conflicts: 1, writes: 1, reads: 2 });
  const rows = run.edits.decorate(run.table.window(0, 3).sort((a, b) => a.index - b.index));
  assert.equal(rows[0]!.row!.state, "saved");
  assert.equal(rows[0]!.marks![title]!.state, "saved");
  assert.equal(rows[1]!.row!.state, "refused");
  assert.match(rows[1]!.row!.note!, /Required fields are missing: \[LastName\]/);
  assert.equal(rows[1]!.marks![last]!.state, "refused", "the refusal sits on the field it names");
  assert.equal(rows[1]!.cells[last], null, "the refused edit stays staged");
  assert.equal(rows[2]!.row!.state, "conflict");
  assert.equal(rows[2]!.cells[title], "Mine", "the conflicting edit stays staged");
  assert.equal((await c.getSobjectRecord("Contact", ids[2]!, { fields: ["Title"] })).Title, "Theirs", "not overwritten");
  assert.equal((await c.getSobjectRecord("Contact", ids[0]!, { fields: ["LeadSource"] })).LeadSource, "Web");
  // The values each update replaced travel on its write's record, of the records it names.
  assert.deepEqual(written.map((w) => Object.keys(w.before ?? {})), [[ids[0], ids[1]]]);
  assert.deepEqual(Object.keys(written[0]!.before![ids[0]!]!).sort(), ["LeadSource", "Title"]);

  // Overwrite sends the edit anyway; the saved row can be edited and committed again without a false conflict.
  assert.equal(run.edits.overwrite(2), true);
  run.edits.discard(1);
  run.edits.stage(0, title, "Director of Support");
  const again = await run.edits.commit(c);
  assert.deepEqual([again.saved, again.conflicts], [2, 0]);
  assert.equal((await c.getSobjectRecord("Contact", ids[2]!, { fields: ["Title"] })).Title, "Mine");
  assert.equal((await c.getSobjectRecord("Contact", ids[0]!, { fields: ["Title"] })).Title, "Director of Support");
});

test("commit with allOrNone: one refusal leaves every row of its request unwritten and staged", async () => {
  const c = await crm();
  const run = await editingRun("SELECT Id, LastName, Title FROM Contact ORDER BY LastName DESC LIMIT 2");
  run.edits.stage(0, col(run, "Title"), "Atomic");
  run.edits.stage(1, col(run, "LastName"), "");
  const outcome = await run.edits.commit(c, { allOrNone: true });
  assert.deepEqual([outcome.saved, outcome.refused], [0, 2]);
  assert.deepEqual(run.edits.count, { cells: 2, rows: 2 });
  assert.match(run.edits.rowMark(0)!.note!, /rolled back/);
});

test("clone stages inserts that commit as new records; deleted rows are marked and take no edits", async () => {
  const c = await crm();
  const run = await editingRun("SELECT Id, LastName, Title FROM Contact ORDER BY LastName LIMIT 1");
  const [copy] = run.edits.clone([0]);
  assert.equal(run.edits.rowMark(copy!)!.state, "inserted");
  run.edits.stage(copy!, col(run, "LastName"), "Clone of the first");
  const outcome = await run.edits.commit(c);
  assert.equal(outcome.created, 1);
  const id = recordRef(run.table.records[copy!]!)!.id!;
  assert.equal((await c.getSobjectRecord("Contact", id, { fields: ["LastName"] })).LastName, "Clone of the first");
  const results = await c.collections.remove([id]);
  run.edits.deleted([copy!], results);
  assert.equal(run.edits.rowMark(copy!)!.state, "deleted");
  assert.equal(run.edits.stage(copy!, col(run, "Title"), "x"), "This record was deleted.");
});

test("staged deletes: shown in the review, checked like updates at commit (a record changed since stays), discarded rows kept", async () => {
  const c = await crm();
  const run = await editingRun("SELECT Id, LastName, Title FROM Contact ORDER BY LastName LIMIT 4");
  const [last, title] = [col(run, "LastName"), col(run, "Title")];
  const ids = run.table.records.map((r) => recordRef(r)!.id!);
  run.edits.stage(0, title, "Dropped with the row");
  run.edits.stage(3, title, "Kept, saved");
  assert.equal(run.edits.stageDelete([0, 1, 2, 2]), 3, "each saved record once");
  assert.deepEqual(run.edits.count, { cells: 4, rows: 4 }, "three deletions and one edited cell");
  assert.equal(run.edits.rowMark(0)!.state, "toDelete");
  assert.match(run.edits.stage(1, title, "x")!, /staged for deletion: Discard its row to keep it/);
  const review = run.edits.review(1);
  assert.equal(review.fetched, `Contact ${ids[1]}\n  LastName: ${String(run.table.records[1]!.LastName)}\n  Title: ${String(run.table.records[1]!.Title ?? "")}\n`);
  assert.equal(review.staged, `Contact ${ids[1]}\n  (deleted: to the org's Recycle Bin)\n`);
  run.edits.discard(2);
  assert.equal(run.edits.rowMark(2), undefined, "a discarded deletion leaves the row as fetched");
  await c.updateSobjectRecord("Contact", ids[1]!, { Title: "Changed meanwhile" });

  const outcome = await run.edits.commit(c);
  assert.deepEqual({ ...outcome }, { saved: 1, created: 0, deleted: 1, refused: 0, conflicts: 1, writes: 2, reads: 2 });
  assert.equal(run.edits.rowMark(0)!.state, "deleted");
  assert.equal(run.edits.rowMark(1)!.state, "conflict");
  const alive = async (id: string) => (await c.soqlQuery(`SELECT Id FROM Contact WHERE Id = '${id}'`)).records.length === 1;
  assert.deepEqual([await alive(ids[0]!), await alive(ids[1]!), await alive(ids[2]!)], [false, true, true]);
  assert.equal((await c.getSobjectRecord("Contact", ids[3]!, { fields: ["Title"] })).Title, "Kept, saved");

  // Overwrite: the person has looked, and deletes it anyway.
  assert.equal(run.edits.overwrite(1), true);
  assert.equal(run.edits.rowMark(1)!.state, "toDelete", "still staged for deletion");
  const again = await run.edits.commit(c);
  assert.deepEqual([again.deleted, again.conflicts], [1, 0]);
  assert.equal(await alive(ids[1]!), false);
  assert.deepEqual(run.edits.count, { cells: 0, rows: 0 });
  assert.equal(run.edits.stage(0, last, "x"), "This record was deleted.");
});

test("a commit of 1,000 edits sends ⌈1,000 / 200⌉ writes and as many stamp reads, plus one to refresh the last saves", async () => {
  const c = await crm();
  await c.collections.create("Contact", Array.from({ length: 1000 }, (_, i) => ({ LastName: `Grid ${String(i).padStart(4, "0")}` })));
  const run = await editingRun("SELECT Id, LastName, Title FROM Contact WHERE LastName LIKE 'Grid %' ORDER BY LastName");
  await run.fetch({ all: true });
  assert.equal(run.fetched, 1000);
  const title = col(run, "Title");
  for (let i = 0; i < 1000; i++) run.edits.stage(i, title, `T${i}`);
  const before = emu().requests.length;
  const outcome = await run.edits.commit(c);
  const sent = emu().requests.slice(before);
  assert.equal(sent.filter((r) => r.method === "PATCH" && /composite\/sobjects/.test(r.path)).length, 5);
  assert.equal(outcome.writes, 5);
  assert.equal(outcome.reads, 6);
  assert.equal(outcome.saved, 1000);
});

test("column layouts are remembered per statement (spacing aside), a default layout forgets, the oldest make way", async () => {
  const state = new MemoryState();
  const layouts = layoutStore(state);
  const spec = { api: "soql" as const, text: "SELECT Id, Name\n  FROM Account" };
  const layout = { hidden: ["Name"], order: ["Name", "Id"], frozen: 1 };
  await layouts.set(spec, layout);
  assert.deepEqual(layouts.get({ api: "soql", text: "SELECT Id, Name FROM Account" }), layout, "the same statement, however it is spaced");
  assert.deepEqual(layouts.get({ api: "tooling", text: spec.text }), { hidden: [], order: [], frozen: 0 }, "another API is another statement");
  await layouts.set(spec, { hidden: [], order: [], frozen: 0 });
  assert.deepEqual(layouts.get(spec), { hidden: [], order: [], frozen: 0 });
  for (let i = 0; i < 205; i++) await layouts.set({ api: "soql", text: `SELECT Id FROM Account LIMIT ${i}` }, layout);
  assert.equal(Object.keys(state.get("crm.grid.layouts", {})).length, 200);
  assert.deepEqual(layouts.get({ api: "soql", text: "SELECT Id FROM Account LIMIT 0" }), { hidden: [], order: [], frozen: 0 }, "the oldest went first");
  assert.deepEqual(layouts.get({ api: "soql", text: "SELECT Id FROM Account LIMIT 204" }), layout);
});
