/**
 * Exports to Excel (.xlsx) through ExcelJS's streaming workbook writer: each row is committed to the file as
 * it is written, so memory stays flat whatever the row count. Excel's limits are kept and reported: at most
 * 1,048,576 rows a sheet (more rows go on to further sheets), 16,384 columns, 32,767 characters a cell (longer
 * text is cut, and the cells cut are counted). No VS Code here: tested in Node.
 */
import { rename, rm } from "node:fs/promises";
import * as l10n from "@vscode/l10n";
import { cellOf, childJson, ResultTable, type ResultColumn } from "../shared/resultTable";

type Json = Record<string, unknown>;

/** The part of ExcelJS's WorkbookWriter this export uses (the module ships no types for its stream writer). */
interface WorkbookWriter {
  addWorksheet(name: string): { addRow(values: unknown[]): { commit(): void }; commit(): void };
  commit(): Promise<void>;
}

export const EXCEL_MAX_ROWS = 1_048_576;
export const EXCEL_MAX_COLUMNS = 16_384;
export const EXCEL_MAX_CELL_TEXT = 32_767;

export interface XlsxOptions {
  columns?: { path: string; label?: string }[];
  signal?: AbortSignal;
  onProgress?: (rows: number) => void;
  /** Rows a sheet holds, header included (Excel's limit unless a test says otherwise). */
  maxRowsPerSheet?: number;
}

export interface XlsxResult {
  rows: number;
  sheets: number;
  /** Cells whose text was longer than Excel allows, cut to its limit. */
  cutCells: number;
}

/** A cell as Excel stores it: numbers and booleans as such, child rows as JSON, long text cut. */
function excelValue(record: Json, column: ResultColumn, cut: () => void): unknown {
  const value = column.kind === "children" ? childJson(record, column.path) : cellOf(record, column);
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text.length <= EXCEL_MAX_CELL_TEXT) return text;
  cut();
  return text.slice(0, EXCEL_MAX_CELL_TEXT);
}

/** Writes every page to `file` as a workbook (into `<file>.part`, renamed when complete; removed when cancelled or failed). */
export async function exportXlsx(pages: AsyncIterable<Json[]>, file: string, options: XlsxOptions = {}): Promise<XlsxResult> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Writer = require("exceljs/lib/stream/xlsx/workbook-writer") as new (options: { filename: string; useStyles: boolean; useSharedStrings: boolean }) => WorkbookWriter;
  const partial = `${file}.part`;
  const workbook = new Writer({ filename: partial, useStyles: false, useSharedStrings: false });
  const perSheet = options.maxRowsPerSheet ?? EXCEL_MAX_ROWS;
  let columns: ResultColumn[] | undefined;
  let sheet: ReturnType<WorkbookWriter["addWorksheet"]> | undefined;
  let sheetRows = 0;
  const result: XlsxResult = { rows: 0, sheets: 0, cutCells: 0 };
  const newSheet = () => {
    sheet?.commit();
    result.sheets++;
    sheet = workbook.addWorksheet(result.sheets === 1 ? "Rows" : `Rows (${result.sheets})`);
    sheet.addRow(columns!.map((c) => c.label ?? c.path)).commit();
    sheetRows = 1;
  };
  try {
    for await (const records of pages) {
      options.signal?.throwIfAborted();
      if (!columns) {
        const sample = new ResultTable({ columns: options.columns ?? [] });
        sample.append(records);
        columns = sample.columns;
        if (columns.length > EXCEL_MAX_COLUMNS) throw new RangeError(l10n.t("Excel holds at most {0} columns a sheet; these rows have {1}. Export them as CSV instead.", EXCEL_MAX_COLUMNS, columns.length));
        newSheet();
      }
      for (const record of records) {
        if (sheetRows >= perSheet) newSheet();
        sheet!.addRow(columns.map((c) => excelValue(record, c, () => result.cutCells++))).commit();
        sheetRows++;
        result.rows++;
      }
      options.onProgress?.(result.rows);
    }
    options.signal?.throwIfAborted();
    if (!columns) {
      columns = (options.columns ?? []).map((c) => ({ path: c.path, label: c.label, kind: "value", ids: false }) as ResultColumn);
      newSheet();
    }
    sheet!.commit();
    await workbook.commit();
    await rename(partial, file);
    return result;
  } catch (err) {
    await workbook.commit().catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
}
