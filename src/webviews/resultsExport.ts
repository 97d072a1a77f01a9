/**
 * Exports of a query's rows to CSV, JSON or NDJSON, written page by page as the pages arrive (one page
 * in memory at a time, the file's write buffer respected), into `<file>.part` renamed when complete:
 * a cancelled or failed export leaves no half-written file behind. No VS Code here: tested in Node.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { csvRows } from "../client/csv";
import type { ExportFormatName as ExportFormat } from "./protocol/results";
import { cellOf, cellText, childJson, ResultTable, type ResultColumn } from "../shared/resultTable";

type Json = Record<string, unknown>;

/** RFC 4180: a field with a comma, quote, line break or edge spaces is quoted, quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of a record: parent paths flattened, a child subquery's rows as JSON in one field. */
export function csvLine(record: Json, columns: ResultColumn[]): string {
  return columns.map((c) => csvField(c.kind === "children" ? childJson(record, c.path) : cellText(cellOf(record, c)))).join(",");
}

/** Turns pages of records into the text of one format: a header (CSV, JSON's bracket), each page, a trailer. */
interface Encoder {
  page(records: Json[], first: boolean): string;
  end(wroteAny: boolean): string;
}

function encoder(format: ExportFormat, declaredColumns: { path: string; label?: string }[]): Encoder {
  if (format === "ndjson") return { page: (records) => records.map((r) => `${JSON.stringify(r)}\n`).join(""), end: () => "" };
  if (format === "json") {
    return {
      page: (records, first) => records.map((r, i) => `${first && i === 0 ? "[\n" : ",\n"}${JSON.stringify(r)}`).join(""),
      end: (wroteAny) => (wroteAny ? "\n]\n" : "[]\n"),
    };
  }
  let columns: ResultColumn[] | undefined;
  const header = () => `${columns!.map((c) => csvField(c.label ?? c.path)).join(",")}\r\n`;
  return {
    page: (records) => {
      let head = "";
      if (!columns) {
        // The columns are fixed by the statement and the first page (the header is written before any later page).
        const sample = new ResultTable({ columns: declaredColumns });
        sample.append(records);
        columns = sample.columns;
        head = header();
      }
      return head + records.map((r) => `${csvLine(r, columns!)}\r\n`).join("");
    },
    end: () => (columns ? "" : declaredColumns.length ? `${declaredColumns.map((c) => csvField(c.label ?? c.path)).join(",")}\r\n` : ""),
  };
}

/** How a Bulk CSV value is typed for the export: the field types of the queried object (others stay text). */
export type FieldTypes = ReadonlyMap<string, string>;

const NUMBER_TYPES = new Set(["int", "double", "currency", "percent", "long"]);

/** A Bulk text value typed as REST types it (empty is null). */
function typed(text: string, type: string | undefined): unknown {
  if (text === "") return null;
  if (type === "boolean") return text === "true";
  return type && NUMBER_TYPES.has(type) && text.trim() !== "" && !Number.isNaN(Number(text)) ? Number(text) : text;
}

/**
 * Records from a Bulk query job's CSV (the header first, then every set's lines), shaped as the REST API
 * shapes them — parents nested, the queried object's numbers and booleans typed — so every export format
 * reads the same. The header is compiled once into one setter per column; no intermediate row objects.
 */
export async function* bulkRecords(csv: AsyncIterable<string>, types: FieldTypes): AsyncGenerator<Json> {
  let setters: ((record: Json, text: string) => void)[] | undefined;
  for await (const chunk of csv) {
    for (const line of csvRows(chunk)) {
      if (!setters) {
        setters = line.map((column) => {
          const parts = column.split(".");
          const type = parts.length === 1 ? types.get(column.toLowerCase()) : undefined;
          const last = parts.at(-1)!;
          return (record: Json, text: string) => {
            let target = record;
            for (let i = 0; i < parts.length - 1; i++) target = (target[parts[i]!] ??= {}) as Json;
            target[last] = typed(text, type);
          };
        });
        continue;
      }
      const record: Json = {};
      for (let i = 0; i < setters.length; i++) setters[i]!(record, line[i] ?? "");
      yield record;
    }
  }
}

/** Groups rows into pages for the writers (one page in memory at a time). */
export async function* inPages<T>(rows: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let page: T[] = [];
  for await (const row of rows) {
    page.push(row);
    if (page.length >= size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

export interface ExportOptions {
  format: ExportFormat;
  /** The statement's columns in SELECT order (CSV header); more come from the first page. */
  columns?: { path: string; label?: string }[];
  signal?: AbortSignal;
  /** Called after each page is written, with the rows written so far. */
  onProgress?: (rows: number) => void;
}

/** Writes every page to `file`; resolves with the number of rows written. */
export async function exportPages(pages: AsyncIterable<Json[]>, file: string, options: ExportOptions): Promise<{ rows: number }> {
  const partial = `${file}.part`;
  const out = createWriteStream(partial, { encoding: "utf8" });
  const failed = new Promise<never>((_, reject) => out.once("error", reject));
  failed.catch(() => undefined); // observed below; never an unhandled rejection
  const write = async (text: string) => {
    if (text && !out.write(text)) await Promise.race([once(out, "drain"), failed]);
  };
  const encode = encoder(options.format, options.columns ?? []);
  let rows = 0;
  try {
    for await (const records of pages) {
      options.signal?.throwIfAborted();
      await write(encode.page(records, rows === 0));
      rows += records.length;
      options.onProgress?.(rows);
    }
    options.signal?.throwIfAborted();
    await write(encode.end(rows > 0));
    out.end();
    await Promise.race([once(out, "finish"), failed]);
    await rename(partial, file);
    return { rows };
  } catch (err) {
    out.destroy();
    // The file may still be opening: wait until the stream has closed it, or it would appear after the rm.
    if (!out.closed) await once(out, "close").catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
}
