/**
 * Edits staged in a results grid, and their commit. The host keeps this beside the run's ResultTable: cells
 * edited or pasted are checked against their field and staged (never sent one by one); Review Changes
 * compares them with the fetched values; Commit sends them through sObject Collections, 200 records a
 * request, after checking that no row changed in the org since it was fetched (its SystemModstamp, which
 * the editing grid reads with every row). Refused rows keep their edits and show the org's message;
 * conflicting rows are not written. No VS Code here: tested in Node.
 */
import * as l10n from "@vscode/l10n";
import type { SaveResult } from "../client";
import { commitRecords, STAMP_FIELD, type CommitOptions as RecordCommitOptions, type RecordOutcome, type RecordWrite, type RecordWriter } from "../client/records";
import { sameValue } from "../client/sameValue";
import { editorFor, parseCellInput, parseTsv } from "../shared/cellInput";
import { valueAt, type Cell, type CellMark, type CellRange, type ResultRow, type ResultTable, type RowMark } from "../shared/resultTable";

type Json = Record<string, unknown>;
type Value = Exclude<Cell, object>;

/** The field an editing grid reads with every row to tell whether it changed since (added when absent). */
export { STAMP_FIELD };

/** What a commit needs of the client. */
export type EditClient = RecordWriter;

export type CommitOptions = Pick<RecordCommitOptions, "allOrNone" | "signal" | "onProgress">;

export interface CommitOutcome {
  saved: number;
  created: number;
  deleted: number;
  refused: number;
  conflicts: number;
  /** Requests sent: collection writes, and the SystemModstamp reads of the conflict check. */
  writes: number;
  reads: number;
}

export interface PasteOutcome {
  staged: number;
  /** Cells left as they were, and why (row and column named as the grid shows them). */
  errors: string[];
}

/** A record's type and ID from the API's `attributes` (present whether or not the query selected Id). */
export function recordRef(record: Json): { type: string; id?: string } | undefined {
  const attributes = record.attributes as { type?: unknown; url?: unknown } | undefined;
  if (typeof attributes?.type !== "string") return undefined;
  const id = typeof attributes.url === "string" ? attributes.url.slice(attributes.url.lastIndexOf("/") + 1) : undefined;
  return { type: attributes.type, ...(id ? { id } : {}) };
}


export class GridEdits {
  /** Staged values: record index → column index → value. */
  private readonly staged = new Map<number, Map<number, Value>>();
  private readonly rowMarks = new Map<number, RowMark>();
  /** Refusals and saves by record and column (staged cells are marked from `staged`). */
  private readonly cellMarks = new Map<number, Map<number, CellMark>>();
  /** The stamp to compare with, where it is no longer the fetched one (after a save of ours, or Overwrite). */
  private readonly stamps = new Map<number, string>();

  constructor(private readonly table: ResultTable) {}

  /** Rows staged for deletion (a row to delete holds no staged values). */
  private readonly doomed = new Set<number>();

  /** Staged changes — each cell, and each row to delete — and the rows they are in. */
  get count(): { cells: number; rows: number } {
    let cells = this.doomed.size;
    for (const row of this.staged.values()) cells += row.size;
    return { cells, rows: this.staged.size + this.doomed.size };
  }

  rowMark(index: number): RowMark | undefined {
    return this.rowMarks.get(index);
  }

  private fetched(index: number, column: number): unknown {
    return valueAt(this.table.records[index]!, this.table.columns[column]!.path);
  }

  /** Why a cell cannot take an edit, or undefined when it can. */
  refusal(index: number, column: number): string | undefined {
    const col = this.table.columns[column];
    const record = this.table.records[index];
    if (!col || !record) return l10n.t("There is no such cell.");
    if (!col.editor) return col.readOnly ?? l10n.t("This column cannot be edited.");
    const mark = this.rowMarks.get(index)?.state;
    if (mark === "deleted") return l10n.t("This record was deleted.");
    if (this.doomed.has(index)) return l10n.t("This record is staged for deletion: Discard its row to keep it.");
    if (!recordRef(record)) return l10n.t("This row is not a record.");
    return undefined;
  }

  /** Checks text typed into a cell and stages it; the reason when it cannot be staged. */
  stage(index: number, column: number, text: string): string | undefined {
    const refused = this.refusal(index, column);
    if (refused) return refused;
    const parsed = parseCellInput(text, this.table.columns[column]!.editor!);
    if (!parsed.ok) return parsed.error;
    this.stageValue(index, column, parsed.value);
    return undefined;
  }

  /** Stages a value already checked; a value equal to the fetched one (and not on a new row) unstages the cell. */
  stageValue(index: number, column: number, value: Value): void {
    const row = this.staged.get(index) ?? new Map<number, Value>();
    if (sameValue(value, this.fetched(index, column)) && this.rowMarks.get(index)?.state !== "inserted") row.delete(column);
    else row.set(column, value);
    if (row.size) this.staged.set(index, row);
    else this.staged.delete(index);
    this.cellMarks.get(index)?.delete(column);
    if (this.rowMarks.get(index)?.state === "saved" || this.rowMarks.get(index)?.state === "refused") this.rowMarks.delete(index);
  }

  /**
   * Pastes tab-separated text (a block copied from a spreadsheet) with its top-left at a view row and the first
   * of `columns` (the columns shown from there on, in order). One value pasted over a larger selection fills it.
   * A first line naming the columns (a copy from this grid) is skipped.
   */
  paste(text: string, at: { row: number; columns: number[] }, selection?: CellRange): PasteOutcome {
    let block = parseTsv(text);
    let { row: top, columns: targets } = at;
    const columns = this.table.columns;
    const named = (h: string, i: number) => { const c = columns[targets[i]!]; return !!c && [c.path, c.label].some((n) => n?.toLowerCase() === h.trim().toLowerCase()); };
    if (block.length > 1 && block[0]!.every(named)) block = block.slice(1);
    if (block.length === 1 && block[0]!.length === 1 && selection) {
      const value = block[0]![0]!;
      block = Array.from({ length: selection.bottom - selection.top + 1 }, () => selection.columns.map(() => value));
      top = selection.top;
      targets = selection.columns;
    }
    const outcome: PasteOutcome = { staged: 0, errors: [] };
    block.forEach((values, r) => {
      const index = this.table.recordIndexAt(top + r);
      if (index === undefined) return;
      values.forEach((value, c) => {
        const column = targets[c];
        if (column === undefined || column >= columns.length) return;
        const error = this.stage(index, column, value);
        if (error) outcome.errors.push(`Row ${top + r + 1}, ${columns[column]!.label ?? columns[column]!.path}: ${error}`);
        else outcome.staged++;
      });
    });
    return outcome;
  }

  /** Discards staged edits: one cell, one row (column omitted), or everything (index omitted). */
  discard(index?: number, column?: number): void {
    if (index === undefined) {
      for (const i of [...this.staged.keys(), ...this.doomed]) this.discard(i);
      return;
    }
    if (this.doomed.delete(index)) this.rowMarks.delete(index);
    if (column === undefined || this.staged.get(index)?.size === 1 && this.staged.get(index)?.has(column)) {
      this.staged.delete(index);
      if (this.rowMarks.get(index)?.state !== "inserted") this.rowMarks.delete(index);
    } else this.staged.get(index)?.delete(column);
    this.cellMarks.get(index)?.clear();
  }

  /** Rows of a window with staged values in place of fetched ones, and their marks. */
  decorate(rows: ResultRow[]): ResultRow[] {
    return rows.map((row) => {
      const staged = this.staged.get(row.index);
      const marks = this.cellMarks.get(row.index);
      const mark = this.rowMarks.get(row.index);
      if (!staged && !marks?.size && !mark) return row;
      const cells = [...row.cells];
      const cellMarks: Record<number, CellMark> = {};
      for (const [c, m] of marks ?? []) cellMarks[c] = m;
      for (const [c, value] of staged ?? []) {
        const before = this.fetched(row.index, c);
        cells[c] = value;
        cellMarks[c] = { state: cellMarks[c]?.state === "refused" ? "refused" : "staged", note: cellMarks[c]?.state === "refused" ? cellMarks[c]!.note : `Was: ${before === null || before === undefined ? "(empty)" : String(before)}` };
      }
      return { ...row, cells, ...(Object.keys(cellMarks).length ? { marks: cellMarks } : {}), ...(mark ? { row: mark } : {}) };
    });
  }

  /** The staged rows (or one of them) as two aligned texts, fetched and staged, for a diff editor. */
  review(only?: number): { fetched: string; staged: string } {
    const fetched: string[] = [];
    const staged: string[] = [];
    const columns = this.table.columns;
    for (const [index, cells] of [...this.staged].filter(([i]) => only === undefined || i === only).sort((a, b) => a[0] - b[0])) {
      const ref = recordRef(this.table.records[index]!);
      const heading = this.rowMarks.get(index)?.state === "inserted" ? l10n.t("New {0} (row {1})", ref?.type ?? l10n.t("record"), index + 1) : `${ref?.type ?? l10n.t("Record")} ${ref?.id ?? ""}`.trim();
      fetched.push(heading);
      staged.push(heading);
      for (const [c, value] of [...cells].sort((a, b) => a[0] - b[0])) {
        const name = columns[c]!.editor?.field ?? columns[c]!.path;
        const before = this.rowMarks.get(index)?.state === "inserted" ? undefined : this.fetched(index, c);
        fetched.push(`  ${name}: ${before === undefined || before === null ? "" : String(before)}`);
        staged.push(`  ${name}: ${value === null ? "" : String(value)}`);
      }
      fetched.push("");
      staged.push("");
    }
    for (const index of [...this.doomed].filter((i) => only === undefined || i === only).sort((a, b) => a - b)) {
      const ref = recordRef(this.table.records[index]!)!;
      fetched.push(`${ref.type} ${ref.id}`, ...this.table.columns.filter((c) => c.editor).map((c) => `  ${c.editor!.field}: ${String(valueAt(this.table.records[index]!, c.path) ?? "")}`), "");
      staged.push(`${ref.type} ${ref.id}`, `  ${l10n.t("(deleted: to the org's Recycle Bin)")}`, "");
    }
    return { fetched: fetched.join("\n"), staged: staged.join("\n") };
  }

  private fieldsOf(index: number): Json {
    const fields: Json = {};
    for (const [c, value] of this.staged.get(index) ?? []) fields[this.table.columns[c]!.editor!.field] = value;
    return fields;
  }

  /** The record ID of a fetched row (a row the grid commits always has one). */
  private idOf(index: number): string {
    return recordRef(this.table.records[index]!)!.id!;
  }

  private stampOf(index: number): unknown {
    return this.stamps.get(index) ?? valueAt(this.table.records[index]!, STAMP_FIELD);
  }

  /** The org's stamps of rows found changed by the last commit. */
  private readonly conflictStamps = new Map<number, string>();

  /** Accepts the org's newer version of a conflicting row: its edits go out on the next commit. */
  overwrite(index: number): boolean {
    const stamp = this.conflictStamps.get(index);
    if (!stamp) return false;
    this.stamps.set(index, stamp);
    this.conflictStamps.delete(index);
    if (this.doomed.has(index)) this.markDoomed(index);
    else this.rowMarks.delete(index);
    return true;
  }

  /**
   * Stages saved records' rows for deletion (their staged values dropped); how many. The delete goes out with
   * the next commit, checked like an update: a record changed in the org since it was read is not deleted.
   */
  stageDelete(indexes: number[]): number {
    let staged = 0;
    for (const index of indexes) {
      const state = this.rowMarks.get(index)?.state;
      if (!recordRef(this.table.records[index] ?? {})?.id || state === "deleted" || state === "inserted" || this.doomed.has(index)) continue;
      this.staged.delete(index);
      this.cellMarks.delete(index);
      this.doomed.add(index);
      this.markDoomed(index);
      staged++;
    }
    return staged;
  }

  private markDoomed(index: number): void {
    this.rowMarks.set(index, { state: "toDelete", note: l10n.t("Staged for deletion: Commit deletes it, Discard keeps it.") });
  }

  /** Writes what is staged (the records kit's commit engine). Rows changed in the org since they were fetched are marked, not written. */
  async commit(client: EditClient, options: CommitOptions = {}): Promise<CommitOutcome> {
    const pending = [...this.staged.keys()].filter((i) => this.rowMarks.get(i)?.state !== "deleted");
    const inserts = pending.filter((i) => this.rowMarks.get(i)?.state === "inserted");
    const rows = [...pending.filter((i) => !inserts.includes(i)), ...this.doomed, ...inserts];
    const writes: RecordWrite[] = rows.map((i) => {
      const object = recordRef(this.table.records[i]!)!.type;
      if (this.rowMarks.get(i)?.state === "inserted") return { operation: "create", object, fields: this.fieldsOf(i) };
      if (this.doomed.has(i)) return { operation: "delete", object, id: this.idOf(i), stamp: this.stampOf(i) };
      return { operation: "update", object, id: this.idOf(i), stamp: this.stampOf(i), fields: this.fieldsOf(i), before: this.beforeValues(i) };
    });
    const outcome: CommitOutcome = { saved: 0, created: 0, deleted: 0, refused: 0, conflicts: 0, writes: 0, reads: 0 };
    const committed = await commitRecords(client, writes, {
      allOrNone: options.allOrNone, signal: options.signal, onProgress: options.onProgress,
      onOutcome: (n, result) => this.settleWrite(rows[n]!, writes[n]!, result, outcome),
      // A saved row's new stamp: a later commit of it compares with this one.
      onStamp: (n, stamp) => this.stamps.set(rows[n]!, stamp),
    });
    return { ...outcome, writes: committed.writes, reads: committed.reads };
  }

  /** Takes what became of a row's write: its marks, its values, and the counts. */
  private settleWrite(index: number, write: RecordWrite, result: RecordOutcome, outcome: CommitOutcome): void {
    if (result.state === "conflict") {
      outcome.conflicts++;
      if (result.stamp) this.conflictStamps.set(index, result.stamp);
      this.rowMarks.set(index, { state: "conflict", note: result.why === "deleted" ? l10n.t("Deleted in the org since it was fetched: nothing was written.") : l10n.t("Changed in the org since it was fetched (now stamped {0}): not written. Compare, then Overwrite to send your edits anyway.", String(result.stamp)) });
      return;
    }
    if (write.operation === "delete") {
      // A refused delete stays staged (like a refused update), marked with the org's reason.
      if (result.state === "written") {
        this.doomed.delete(index);
        outcome.deleted++;
      } else outcome.refused++;
      this.deleted([index], [result.result]);
      return;
    }
    if (write.operation === "create" && result.state === "written" && result.result.id) {
      const record = this.table.records[index]!;
      record.attributes = { type: write.object, url: `/sobjects/${write.object}/${result.result.id}` };
      if (this.table.columns.some((c) => c.path === "Id")) record.Id = result.result.id;
    }
    if (this.settle(index, result.result)) outcome[write.operation === "create" ? "created" : "saved"]++;
    else outcome.refused++;
  }

  /** The fetched values of a row's staged fields. */
  beforeValues(index: number): Json {
    const before: Json = {};
    for (const c of this.staged.get(index)?.keys() ?? []) before[this.table.columns[c]!.editor!.field] = this.fetched(index, c) ?? null;
    return before;
  }

  /** Takes one record's result: a save becomes the fetched value; a refusal stays staged with the org's message. */
  private settle(index: number, result: SaveResult): boolean {
    const cells = this.staged.get(index) ?? new Map<number, Value>();
    const marks = new Map<number, CellMark>();
    if (result.success) {
      const record = this.table.records[index]!;
      for (const [c, value] of cells) {
        setValue(record, this.table.columns[c]!.path, value);
        marks.set(c, { state: "saved" });
      }
      this.staged.delete(index);
      this.rowMarks.set(index, { state: "saved" });
    } else {
      const message = result.errors.map((e) => e.message).join(" ") || l10n.t("The org refused this record.");
      for (const [c] of cells) {
        const field = this.table.columns[c]!.editor!.field.toLowerCase();
        const own = result.errors.filter((e) => e.fields?.some((f) => f.toLowerCase() === field));
        if (own.length) marks.set(c, { state: "refused", note: own.map((e) => e.message).join(" ") });
      }
      this.rowMarks.set(index, { state: "refused", note: message });
    }
    this.cellMarks.set(index, marks);
    return result.success;
  }

  /** New rows copying the editable values of these records, staged as inserts; their indexes. */
  clone(indexes: number[]): number[] {
    const created: number[] = [];
    for (const index of indexes) {
      const ref = recordRef(this.table.records[index]!);
      if (!ref) continue;
      this.table.append([{ attributes: { type: ref.type } }]);
      const copy = this.table.records.length - 1;
      this.rowMarks.set(copy, { state: "inserted" });
      this.table.columns.forEach((column, c) => {
        const value = this.fetched(index, c);
        if (column.editor && value !== null && value !== undefined && typeof value !== "object") this.stageValue(copy, c, value as Value);
      });
      created.push(copy);
    }
    return created;
  }

  /** A new row of `type` with these values staged in their columns (matched by field, any case), as an insert; its index. */
  insert(type: string, values: Record<string, Value>): number {
    this.table.append([{ attributes: { type } }]);
    const index = this.table.records.length - 1;
    this.rowMarks.set(index, { state: "inserted" });
    for (const [field, value] of Object.entries(values)) {
      const column = this.table.columns.findIndex((c) => c.editor && c.editor.field.toLowerCase() === field.toLowerCase());
      if (column >= 0) this.stageValue(index, column, value);
    }
    return index;
  }

  /** Takes the results of deleting rows: deleted ones are marked and lose their edits; refused ones say why. */
  deleted(indexes: number[], results: SaveResult[]): void {
    indexes.forEach((index, n) => {
      const result = results[n];
      if (result?.success) {
        this.staged.delete(index);
        this.cellMarks.delete(index);
        this.rowMarks.set(index, { state: "deleted" });
      } else this.rowMarks.set(index, { state: "refused", note: result?.errors.map((e) => e.message).join(" ") || l10n.t("The org did not delete this record.") });
    });
  }
}

/** Sets a top-level field of a record (editable cells are the record's own fields). */
function setValue(record: Json, path: string, value: Value): void {
  const key = Object.keys(record).find((k) => k.toLowerCase() === path.toLowerCase()) ?? path;
  record[key] = value;
}

/** Field facts the column editors need (a FieldDescribe has them). */
type DescribedField = import("../shared/cellInput").EditableField & { updateable?: boolean; calculated?: boolean; referenceTo?: string[] | null };

/**
 * Marks each column editable (with its editor) or read-only (with the reason shown on hover). Only the
 * record's own updateable fields edit; parent paths, IDs, formulas and child results do not.
 */
export function markEditableColumns(table: ResultTable, editing: { object: string; fields: DescribedField[]; keyPrefixOf: (object: string) => string | undefined } | { reason: string }): void {
  for (const column of table.columns) {
    delete column.editor;
    delete column.readOnly;
    if (column.kind === "children") continue;
    if ("reason" in editing) {
      column.readOnly = editing.reason;
      continue;
    }
    if (column.path.includes(".")) {
      column.readOnly = l10n.t("A field of the related {0} record: open that record to edit it.", column.path.split(".")[0]!);
      continue;
    }
    const field = editing.fields.find((f) => f.name.toLowerCase() === column.path.toLowerCase());
    if (!field) column.readOnly = l10n.t("Not a field of {0} (an alias or a computed value).", editing.object);
    else if (field.name === "Id") column.readOnly = l10n.t("A record's ID cannot be changed.");
    else if (!field.updateable || field.calculated) column.readOnly = l10n.t("{0} is read-only in the org (a formula, a system field, or no edit access).", field.name);
    else {
      const prefixes = (field.referenceTo ?? []).map(editing.keyPrefixOf).filter((p): p is string => !!p);
      const editor = editorFor(field, prefixes);
      if (editor) column.editor = editor;
      else column.readOnly = l10n.t("{0} ({1}) is edited in its record's tab, not in the grid.", field.name, field.type);
    }
  }
}
