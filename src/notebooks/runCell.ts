/**
 * One notebook cell run on an org: its binds filled in, its statement sent, its answer kept as the cell's output —
 * the org's row count and the first rows, flattened to columns (a parent's field as `Account.Name`). The same for
 * VS Code and for `crm-data`; a refusal of the org's is the output's error. No VS Code here.
 */
import * as l10n from "@vscode/l10n";
import type { Crm } from "../client";
import { applyBinds } from "../soql/library";
import type { CellOutput, NotebookCell, OutputValue } from "./notebookFile";

/** Rows an output keeps: a glance, not the result (Open in Results has every row). */
export const OUTPUT_ROWS = 50;

type Row = Record<string, unknown>;

/** A record's values by column: parents flattened with dots, child rows counted, anything else as text. */
function flatten(record: Row, prefix = "", into: Record<string, OutputValue> = {}): Record<string, OutputValue> {
  for (const [key, value] of Object.entries(record)) {
    if (key === "attributes") continue;
    const column = prefix + key;
    if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean") into[column] = value;
    else if (value && typeof value === "object" && Array.isArray((value as { records?: unknown }).records)) into[column] = `${(value as { totalSize?: number }).totalSize ?? (value as { records: unknown[] }).records.length} rows`;
    else if (value && typeof value === "object" && !Array.isArray(value)) flatten(value as Row, `${column}.`, into);
    else into[column] = value === undefined ? null : JSON.stringify(value);
  }
  return into;
}

/** Rows as columns and lines, the columns in the order they first appear. */
function table(records: Row[]): { columns: string[]; data: OutputValue[][] } {
  const flat = records.map((r) => flatten(r));
  const columns: string[] = [];
  for (const row of flat) for (const c of Object.keys(row)) if (!columns.includes(c)) columns.push(c);
  return { columns, data: flat.map((row) => columns.map((c) => row[c] ?? null)) };
}

export async function runCell(crm: Crm, cell: NotebookCell, binds: Record<string, string>, options: { org: string; signal?: AbortSignal; now?: () => Date }): Promise<CellOutput> {
  const ranAt = (options.now?.() ?? new Date()).toISOString();
  const output = (rows: number, records: Row[]): CellOutput => ({ org: options.org, ranAt, rows, ...table(records.slice(0, OUTPUT_ROWS)) });
  try {
    if (cell.kind === "sosl") {
      const found = (await crm.search(cell.source.trim(), { signal: options.signal })).searchRecords;
      return output(found.length, found.map((r) => ({ type: (r.attributes as { type?: string } | undefined)?.type ?? null, ...r })));
    }
    if (cell.kind !== "soql") throw new TypeError(l10n.t("A {0} cell does not run", cell.kind));
    const page = await crm.soqlQuery<Row>(applyBinds(cell.source.trim(), binds), { replaceQuotes: false, signal: options.signal });
    return output(page.totalSize, page.records);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    return { org: options.org, ranAt, rows: 0, columns: [], data: [], error: crm.redact(err as Error).message };
  }
}
