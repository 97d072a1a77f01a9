import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { EXCEL_MAX_CELL_TEXT, exportXlsx } from "../../../src/webviews/xlsxExport";
import { demoClient, useEmulator } from "../../helpers/emulator";

const emu = useEmulator();
const sheetValues = (sheet: ExcelJS.Worksheet) => sheet.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1));

test("an Excel export holds the query's rows: parents as columns, numbers as numbers, every page streamed", async () => {
  const crm = await demoClient(emu());
  const file = path.join(await mkdtemp(path.join(tmpdir(), "crm-xlsx-")), "contacts.xlsx");
  async function* pages() { for await (const page of crm.queryPages("SELECT Id, Name, Account.Name FROM Contact ORDER BY Name", { batchSize: 200 })) yield page.records; }
  const result = await exportXlsx(pages(), file, { columns: [{ path: "Id" }, { path: "Name" }, { path: "Account.Name" }] });
  const contacts = emu().seeded.store.liveRecords("Contact").sort((a, b) => String(a.Name).localeCompare(String(b.Name)));
  assert.deepEqual(result, { rows: contacts.length, sheets: 1, cutCells: 0 });
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const rows = sheetValues(book.worksheets[0]!);
  assert.deepEqual(rows[0], ["Id", "Name", "Account.Name"]);
  assert.equal(rows.length - 1, contacts.length);
  assert.deepEqual(rows[1]!.slice(0, 2), [contacts[0]!.Id, contacts[0]!.Name]);
  crm.close();
});

test("Excel's limits are kept and counted: more rows go to further sheets, text beyond a cell's limit is cut; a cancel leaves no file", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-xlsx-"));
  const file = path.join(dir, "limits.xlsx");
  const long = "x".repeat(EXCEL_MAX_CELL_TEXT + 10);
  async function* pages() { yield Array.from({ length: 7 }, (_, i) => ({ Name: i === 3 ? long : `Row ${i}`, Amount: i * 1.5, Active: i % 2 === 0 })); }
  const result = await exportXlsx(pages(), file, { columns: [{ path: "Name" }, { path: "Amount" }, { path: "Active" }], maxRowsPerSheet: 4 });
  assert.deepEqual(result, { rows: 7, sheets: 3, cutCells: 1 });
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  assert.deepEqual(book.worksheets.map((s) => s.name), ["Rows", "Rows (2)", "Rows (3)"]);
  assert.deepEqual(sheetValues(book.worksheets[0]!), [["Name", "Amount", "Active"], ["Row 0", 0, true], ["Row 1", 1.5, false], ["Row 2", 3, true]]);
  assert.equal((sheetValues(book.worksheets[1]!)[1]![0] as string).length, EXCEL_MAX_CELL_TEXT, "cut to the limit");
  assert.deepEqual(sheetValues(book.worksheets[2]!), [["Name", "Amount", "Active"], ["Row 6", 9, true]], "each sheet starts with the header");

  const controller = new AbortController();
  const cancelled = path.join(dir, "cancelled.xlsx");
  async function* endless() { for (;;) { yield [{ Name: "again" }]; controller.abort(); } }
  await assert.rejects(exportXlsx(endless(), cancelled, { signal: controller.signal }));
  assert.ok(!existsSync(cancelled) && !existsSync(`${cancelled}.part`));
});
