import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { parsePanelTarget } from "../../../src/webviews/protocol/common";
import { MAX_WINDOW_ROWS, parseResultsRequest, parseResultsUpdate } from "../../../src/webviews/protocol/results";
import "../../../src/client/bulk";
import { ResultTable, withoutAttributes } from "../../../src/shared/resultTable";
import { bulkRefusal, selectColumns, stripComments } from "../../../src/soql/runText";
import { bulkRecords, csvField, exportPages, inPages } from "../../../src/webviews/resultsExport";
import { looksLikeRecordId, QueryRun } from "../../../src/webviews/queryRun";
import { copyText, selectionStats } from "../../../src/webviews/gridCopy";
import { GridEdits } from "../../../src/webviews/gridEdits";
import { demoClient, useEmulator } from "../../helpers/emulator";

const emu = useEmulator();

const rec = (type: string, fields: Record<string, unknown>) => ({ attributes: { type, url: `/x/${type}` }, ...fields });

test("columns follow the SELECT order with parent paths flattened, whatever order or case the rows use", () => {
  const table = new ResultTable({ columns: selectColumns("SELECT name, Owner.Name, Id, (SELECT LastName FROM Contacts) FROM Account", "soql") });
  table.append([
    rec("Account", { Id: "001A", Name: "Acme", Owner: rec("User", { Name: "Ada" }), Contacts: { totalSize: 2, done: true, records: [rec("Contact", { LastName: "A" }), rec("Contact", { LastName: "B" })] } }),
    rec("Account", { Id: "001B", Name: "Beta", Owner: null, Contacts: null }),
  ]);
  assert.deepEqual(table.columns.map((c) => [c.path, c.kind]), [["Name", "value"], ["Owner.Name", "value"], ["Id", "value"], ["Contacts", "children"]]);
  assert.deepEqual(table.window(0, 10).map((r) => r.cells), [
    ["Acme", "Ada", "001A", { children: 2, more: false }],
    ["Beta", null, "001B", null],
  ]);
});

test("without a usable statement the rows decide the columns (aggregates, TYPEOF, searches)", () => {
  assert.equal(selectColumns("SELECT COUNT(Id) c, StageName FROM Opportunity GROUP BY StageName", "soql"), undefined);
  assert.equal(selectColumns("SELECT TYPEOF What WHEN Account THEN Name END FROM Event", "soql"), undefined);
  const search = new ResultTable({ columns: selectColumns("FIND {acme}", "sosl") });
  search.append([rec("Account", { Id: "001A", Name: "Acme" }), rec("Contact", { Id: "003A", Email: "a@acme.test" })]);
  assert.deepEqual(search.columns.map((c) => c.label ?? c.path), ["Type", "Id", "Name", "Email"]);
  assert.deepEqual(search.window(1, 1)[0]!.cells, ["Contact", "003A", null, "a@acme.test"]);
});

test("sort and filter work on the fetched rows; empty cells sort last both ways; windows are slices of the view", () => {
  const table = new ResultTable({ columns: [{ path: "Name" }, { path: "Amount" }] });
  table.append([rec("X", { Name: "b10", Amount: 5 }), rec("X", { Name: "b9", Amount: null }), rec("X", { Name: "a", Amount: 30 }), rec("X", { Name: "B2", Amount: -1 })]);
  table.setView({ sort: { column: 0, descending: false } });
  assert.deepEqual(table.window(0, 10).map((r) => r.cells[0]), ["a", "B2", "b9", "b10"], "natural, case-insensitive order");
  table.setView({ sort: { column: 1, descending: true } });
  assert.deepEqual(table.window(0, 10).map((r) => r.cells[1]), [30, 5, -1, null]);
  table.setView({ sort: { column: 1, descending: false } });
  assert.deepEqual(table.window(0, 10).map((r) => r.cells[1]), [-1, 5, 30, null]);
  const before = table.version;
  assert.equal(table.setView({ filter: " B " }), 3, "the filter is trimmed and case-insensitive");
  assert.ok(table.version > before, "a new view has a new version");
  assert.deepEqual(table.window(1, 1).map((r) => [r.index, r.cells[0]]), [[1, "b9"]], "rows keep their fetch index");
  assert.deepEqual(table.window(2, 100).length, 1, "a window past the end is cut short");
});

test("copy: TSV, CSV, JSON and Markdown of the selected ranges, a header line each, awkward values kept whole; selection figures", () => {
  const table = new ResultTable({ columns: [{ path: "Name" }, { path: "Note" }, { path: "Kids" }, { path: "N" }] });
  table.append([
    rec("X", { Name: "tab\there", Note: 'say "hi" | ok', Kids: { totalSize: 1, done: true, records: [rec("Y", { A: 1 })] }, N: 2 }),
    rec("X", { Name: "two\nlines", Note: null, Kids: null, N: 5.5 }),
  ]);
  const edits = new GridEdits(table);
  const all = [{ top: 0, bottom: 1, columns: [0, 1, 2] }];
  assert.equal(copyText(table, edits, all, "tsv").text, 'Name\tNote\tKids\n"tab\there"\t"say ""hi"" | ok"\t"[{""A"":1}]"\n"two\nlines"\t\t');
  assert.equal(copyText(table, edits, [{ top: 1, bottom: 5, columns: [1] }], "tsv").text, "Note\n", "only the chosen columns; rows past the end are ignored");
  assert.equal(copyText(table, edits, all, "csv").text, 'Name,Note,Kids\r\ntab\there,"say ""hi"" | ok","[{""A"":1}]"\r\n"two\nlines",,');
  assert.deepEqual(JSON.parse(copyText(table, edits, all, "json").text), [{ Name: "tab\there", Note: 'say "hi" | ok', Kids: [{ A: 1 }] }, { Name: "two\nlines", Note: null, Kids: null }]);
  assert.equal(copyText(table, edits, [{ top: 0, bottom: 1, columns: [1] }], "markdown").text, "| Note |\n| --- |\n| say \"hi\" \\| ok |\n|  |");
  const two = copyText(table, edits, [{ top: 0, bottom: 0, columns: [0] }, { top: 1, bottom: 1, columns: [3] }], "tsv");
  assert.deepEqual([two.text, two.rows], ["Name\n\"tab\there\"\n\nN\n5.5", 2], "several ranges, one block each");
  assert.equal(selectionStats(table, edits, [{ top: 0, bottom: 1, columns: [3] }, { top: 0, bottom: 1, columns: [0, 1, 2, 3] }]), "8 cells · 2 numbers · sum 7.5 · average 3.75 · min 2 · max 5.5");
});

test("child subquery cells open their own flattened table, at any depth, by path", () => {
  const table = new ResultTable({ columns: [{ path: "Name" }, { path: "Contacts" }] });
  const cases = { totalSize: 1, done: true, records: [rec("Case", { CaseNumber: "00001" })] };
  table.append([rec("Account", { Name: "Acme", Contacts: { totalSize: 250, done: false, nextRecordsUrl: "/next", records: [rec("Contact", { LastName: "A", Account: rec("Account", { Name: "Acme" }), Cases: cases })] } })]);
  assert.deepEqual(table.window(0, 1)[0]!.cells[1], { children: 1, more: true });
  const contacts = table.childResult([0, "Contacts"])!;
  assert.deepEqual([contacts.totalSize, contacts.done], [250, false]);
  const child = table.childTable(contacts);
  assert.deepEqual(child.columns.map((c) => c.path), ["LastName", "Account.Name", "Cases"]);
  assert.deepEqual(child.window(0, 1)[0]!.cells, ["A", "Acme", { children: 1, more: false }]);
  assert.equal(table.childResult([0, "Contacts", 0, "Cases"]), cases, "a grandchild table by its path");
  assert.equal(table.childResult([0, "Name"]), undefined, "a value column has no child table");
  assert.equal(table.childResult([0, "Contacts", 5, "Cases"]), undefined, "no such child row");
});

test("ID columns are recognised by the 18-character checksum, not by name", () => {
  assert.ok(looksLikeRecordId("001D000000IqhSLIAZ"));
  assert.ok(!looksLikeRecordId("001D000000IqhSLAAA"), "wrong checksum");
  assert.ok(!looksLikeRecordId("ABCDEFGHIJKLMNOPQR"), "18 letters are a name");
  const table = new ResultTable({ columns: [{ path: "Id" }, { path: "Code" }], isId: looksLikeRecordId });
  table.append([rec("X", { Id: "001D000000IqhSLIAZ", Code: "ABCDEFGHIJKLMNOPQR" })]);
  assert.deepEqual(table.columns.map((c) => c.ids), [true, false]);
  table.append([rec("X", { Id: "0053h000002xQ5sAAE", Code: "001D000000IqhSLIAZ" })]);
  assert.deepEqual(table.columns.map((c) => c.ids), [true, false], "one non-ID value anywhere keeps the column plain");
});

test("comments are removed before a statement is sent, quotes kept", () => {
  assert.equal(stripComments("SELECT Id -- the key\nFROM Account // all of them\nWHERE Name = 'a--b // c';"), "SELECT Id \nFROM Account \nWHERE Name = 'a--b // c'");
});

test("protocol: the host refuses windows over the cap, malformed ranges and non-ID links; the webview refuses malformed rows", () => {
  assert.deepEqual(parseResultsRequest({ type: "rows", start: 0, count: MAX_WINDOW_ROWS }), { type: "rows", start: 0, count: MAX_WINDOW_ROWS });
  assert.equal(parseResultsRequest({ type: "rows", start: 0, count: 50_000 }), undefined, "never the whole result in one message");
  assert.equal(parseResultsRequest({ type: "rows", start: -1, count: 10 }), undefined);
  assert.equal(parseResultsRequest({ type: "copy", range: { top: 5, bottom: 1, left: 0, right: 0 } }), undefined);
  assert.equal(parseResultsRequest({ type: "openId", id: "javascript:alert(1)" }), undefined);
  assert.equal(parseResultsRequest({ type: "export", format: "pdf" }), undefined);
  assert.deepEqual(parseResultsRequest({ type: "export", format: "xlsx" }), { type: "export", format: "xlsx" }, "Excel is a format the panel may ask for");
  assert.deepEqual(parseResultsRequest({ type: "view", filter: "x", sort: { column: 2, descending: true } }), { type: "view", filter: "x", sort: { column: 2, descending: true } });
  assert.equal(parseResultsRequest({ type: "view", filter: "x", sort: { column: "Name" } }), undefined);
  assert.equal(parseResultsUpdate({ type: "rows", viewVersion: 1, start: 0, rows: [{ index: 0, cells: [{ evil: true }] }] }), undefined);
  assert.ok(parseResultsUpdate({ type: "rows", viewVersion: 1, start: 0, rows: [{ index: 0, cells: ["a", 1, true, null, { children: 2, more: false }] }] }));
  assert.deepEqual(parseResultsUpdate({ type: "running", api: "sosl", query: "FIND {x}", title: "Demo: Search results" }), { type: "running", api: "sosl", query: "FIND {x}", title: "Demo: Search results" });
  assert.equal(parseResultsUpdate({ type: "running", api: "graphql", query: "{}", title: "x" }), undefined);
  assert.equal(parseResultsUpdate({ type: "running", api: "soql", query: "SELECT Id FROM Account" }), undefined, "a run names what runs");
  assert.deepEqual(parseResultsUpdate({ type: "failed", message: "MALFORMED_QUERY", api: "soql", query: "SELEC", title: "Demo: Query results" }), { type: "failed", message: "MALFORMED_QUERY", api: "soql", query: "SELEC", title: "Demo: Query results" });
});

test("a panel's saved target: the run spec is a typed value; a state saved by an earlier version still reopens; anything else is refused", () => {
  const spec = { api: "tooling" as const, text: "SELECT Id FROM ApexClass" };
  assert.deepEqual(parsePanelTarget({ orgKey: "k", id: "file:///a.soql", spec }), { orgKey: "k", id: "file:///a.soql", spec });
  assert.deepEqual(parsePanelTarget({ orgKey: "k", id: "search", params: { api: "sosl", text: "FIND {x}" } }), { orgKey: "k", id: "search", spec: { api: "sosl", text: "FIND {x}" } });
  assert.deepEqual(parsePanelTarget({ orgKey: "k", id: "ka0000000000001AAA", extra: 1 }), { orgKey: "k", id: "ka0000000000001AAA" });
  for (const bad of [null, "k", { orgKey: "k" }, { orgKey: "k", id: "x", spec: { api: "graphql", text: "{}" } }, { orgKey: "k", id: "x", spec: { api: "soql" } }]) assert.equal(parsePanelTarget(bad), undefined, JSON.stringify(bad));
});

test("CSV fields: commas, quotes, line breaks and edge spaces are quoted; plain text is not", () => {
  assert.deepEqual(["plain", "a,b", 'say "x"', "two\nlines", "cr\rhere", " lead", "trail ", ""].map(csvField), ["plain", '"a,b"', '"say ""x"""', '"two\nlines"', '"cr\rhere"', '" lead"', '"trail "', ""]);
});

async function* pagesOf(...pages: Record<string, unknown>[][]) {
  for (const page of pages) yield page;
}

test("exports: CSV, JSON and NDJSON written from pages match the source rows exactly", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-export-"));
  const rows = [
    rec("Account", { Id: "001A", Name: 'Comma, "quoted"\nand a line', Amount: 1.5, Active: true, Owner: rec("User", { Name: "Ada" }), Contacts: { totalSize: 1, done: true, records: [rec("Contact", { LastName: "Lovelace" })] } }),
    rec("Account", { Id: "001B", Name: "Plain", Amount: null, Active: false, Owner: null, Contacts: null }),
    rec("Account", { Id: "001C", Name: "Third page", Amount: 0, Active: false, Owner: rec("User", { Name: "Grace" }), Contacts: null }),
  ];
  const columns = selectColumns("SELECT Id, Name, Amount, Active, Owner.Name, (SELECT LastName FROM Contacts) FROM Account", "soql");
  for (const format of ["csv", "json", "ndjson"] as const) {
    const file = path.join(dir, `out.${format}`);
    const progress: number[] = [];
    const result = await exportPages(pagesOf(rows.slice(0, 2), [], rows.slice(2)), file, { format, columns, onProgress: (n) => progress.push(n) });
    assert.equal(result.rows, 3);
    assert.deepEqual(progress, [2, 2, 3], `${format}: progress after every page`);
    const text = await readFile(file, "utf8");
    if (format === "json") assert.deepEqual(JSON.parse(text), rows);
    if (format === "ndjson") assert.deepEqual(text.trimEnd().split("\n").map((l) => JSON.parse(l)), rows);
    if (format === "csv") {
      const parsed = parseCsv(text, { columns: true }) as Record<string, string>[];
      assert.deepEqual(Object.keys(parsed[0]!), ["Id", "Name", "Amount", "Active", "Owner.Name", "Contacts"]);
      assert.deepEqual(parsed.map((r) => [r.Id, r.Name, r.Amount, r.Active, r["Owner.Name"]]), [["001A", 'Comma, "quoted"\nand a line', "1.5", "true", "Ada"], ["001B", "Plain", "", "false", ""], ["001C", "Third page", "0", "false", "Grace"]]);
      assert.deepEqual(JSON.parse(parsed[0]!.Contacts!), withoutAttributes((rows[0] as unknown as { Contacts: { records: unknown[] } }).Contacts.records));
    }
  }
  assert.equal((await readFile(path.join(dir, "empty.json"), "utf8").catch(() => "")), "");
  await exportPages(pagesOf([]), path.join(dir, "empty.json"), { format: "json" });
  assert.deepEqual(JSON.parse(await readFile(path.join(dir, "empty.json"), "utf8")), []);
});

test("a cancelled export leaves no file behind, not even the partial one", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-export-"));
  const controller = new AbortController();
  async function* endless() {
    for (let i = 0; ; i++) {
      if (i === 3) controller.abort();
      yield [rec("X", { Id: String(i) })];
    }
  }
  await assert.rejects(exportPages(endless(), path.join(dir, "big.csv"), { format: "csv", signal: controller.signal }), { name: "AbortError" });
  assert.deepEqual(await readdir(dir), []);
});

test("a run against the emulator: first page, fetch more, fetch all with progress, cancel keeps what came", async () => {
  const crm = await demoClient(emu());
  const run = await QueryRun.start(crm, { api: "soql", text: "SELECT Id, Name, Owner.Name FROM Contact // every contact" });
  const total = emu().seeded.store.liveRecords("Contact").length;
  assert.equal(run.totalSize, total);
  // The emulator's default page is 2,000 rows; ask for small pages to see paging.
  const paged = await QueryRun.start(crm, { api: "soql", text: "SELECT Id, Name FROM Contact" }, 200);
  assert.deepEqual([paged.fetched, paged.more], [200, true]);
  let pages = 0;
  assert.equal(await paged.fetch({ all: true, onPage: () => pages++ }), true);
  assert.deepEqual([paged.fetched, paged.more, pages], [total, false, Math.ceil(total / 200) - 1]);
  assert.equal(new Set(paged.table.records.map((r) => r.Id)).size, total, "every row once");
  assert.ok(paged.table.columns.find((c) => c.path === "Id")!.ids, "the Id column links");

  const cancelled = await QueryRun.start(crm, { api: "soql", text: "SELECT Id FROM Contact" }, 200);
  const fetching = cancelled.fetch({ all: true });
  assert.ok(cancelled.isFetching);
  cancelled.cancel(); // while the next page is on its way
  assert.equal(await fetching, false);
  assert.deepEqual([cancelled.fetched, cancelled.more, cancelled.isFetching], [200, true, false], "the rows fetched before the cancel stay; more can still be fetched");
  assert.equal(await cancelled.fetch({ all: false }), true);
  assert.equal(cancelled.fetched, total);
});

test("tooling and search runs use their own endpoints", async () => {
  const crm = await demoClient(emu());
  const tooling = await QueryRun.start(crm, { api: "tooling", text: "SELECT Id, Name FROM ApexClass ORDER BY Name" });
  assert.deepEqual(tooling.table.window(0, 10).map((r) => r.cells[1]), ["AccountService", "FeedNotifier", "KnowledgePublisher"]);
  const search = await QueryRun.start(crm, { api: "sosl", text: "FIND {Acme*} RETURNING Account(Id, Name)" });
  assert.ok(search.fetched > 0);
  assert.equal(search.table.columns[0]!.label, "Type");
  assert.ok(search.table.window(0, 100).every((r) => r.cells[0] === "Account"));
  await assert.rejects(QueryRun.start(crm, { api: "soql", text: "-- nothing but a comment" }), /statement is empty/);
});

test("an export through a Bulk API job writes the same CSV as one through REST pages, and types JSON values as REST does", async () => {
  const crm = await demoClient(emu());
  const soql = "SELECT Id, Name, Amount__c, Event_Type__c, Note__c FROM Usage_Event__c";
  const dir = await mkdtemp(path.join(tmpdir(), "crm-bulk-export-"));
  const columns = selectColumns(soql, "soql");
  async function* restPages() { for await (const page of crm.queryPages(soql)) yield page.records; }
  const types = new Map([["amount__c", "currency"], ["name", "string"]]);

  const viaRest = await exportPages(restPages(), path.join(dir, "rest.csv"), { format: "csv", columns });
  const viaBulk = await exportPages(inPages(bulkRecords(crm.bulk.queryCsv(soql, { poll: { intervalMs: 20 } }), types), 2000), path.join(dir, "bulk.csv"), { format: "csv", columns });
  assert.equal(viaBulk.rows, 60_000);
  assert.equal(viaBulk.rows, viaRest.rows);
  assert.equal(await readFile(path.join(dir, "bulk.csv"), "utf8"), await readFile(path.join(dir, "rest.csv"), "utf8"));
  async function* sets() { yield 'Id,Amount__c,Account.Name,Flag__c,Note__c\na0U000000000001AAA,12.5,Acme,true,\n'; yield 'a0U000000000002AAA,,,false,"a ""b"", c"\n'; }
  const records = [];
  for await (const record of bulkRecords(sets(), new Map([["amount__c", "currency"], ["flag__c", "boolean"]]))) records.push(record);
  assert.deepEqual(records, [
    { Id: "a0U000000000001AAA", Amount__c: 12.5, Account: { Name: "Acme" }, Flag__c: true, Note__c: null },
    { Id: "a0U000000000002AAA", Amount__c: null, Account: { Name: null }, Flag__c: false, Note__c: 'a "b", c' },
  ], "typed as REST types them; the header only once, in the first set");
  crm.close();
});

test("which statements a Bulk query job can run", () => {
  assert.equal(bulkRefusal("SELECT Id, Account.Name FROM Contact WHERE Name LIKE 'A%' ORDER BY Name"), undefined);
  assert.match(bulkRefusal("SELECT Id, (SELECT Id FROM Cases) FROM Contact")!, /child subquery/);
  assert.match(bulkRefusal("SELECT COUNT(Id) FROM Contact")!, /aggregates/);
  assert.match(bulkRefusal("SELECT LeadSource, COUNT(Id) FROM Contact GROUP BY LeadSource")!, /GROUP BY/);
  assert.match(bulkRefusal("SELECT Id FROM Contact LIMIT 5 OFFSET 10")!, /OFFSET/);
  assert.match(bulkRefusal("SELECT FROM")!, /does not parse/);
});
