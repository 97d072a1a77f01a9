/**
 * The rows of a query result as the results grid shows them: columns in SELECT order, parent paths
 * flattened (`Owner.Name`), child subquery results as cells holding a count, a view (sort and filter
 * over the fetched rows) and windows of that view. The extension host keeps this; the webview asks for
 * windows. Pure: tested in Node, and loaded in the browser by the grid benchmark.
 */
import type { CellEditor, CellValue } from "./cellInput";

/** A child subquery's result in a parent row: how many child rows were fetched, and whether more exist. */
export interface ChildCell {
  children: number;
  more: boolean;
}
export type Cell = CellValue | ChildCell;

export interface ResultColumn {
  /** The path in the record, as the API spells it (`Owner.Name`, `Contacts`, `expr0`). */
  path: string;
  kind: "value" | "children";
  /** Shown in the header instead of the path (`Type` for a search row's object). */
  label?: string;
  /** Every value is a record ID: the grid makes them links. */
  ids: boolean;
  /** The cells can be edited, like this. */
  editor?: CellEditor;
  /** Why the cells cannot be edited (shown on hover). */
  readOnly?: string;
}

/** What a cell shows beside its value: an edit waiting, a refusal, a save. */
export interface CellMark {
  state: "staged" | "refused" | "saved";
  /** The org's message for a refusal; the fetched value for a staged edit. */
  note?: string;
}

/** A row's state in an editing grid. */
export interface RowMark {
  state: "inserted" | "saved" | "refused" | "conflict" | "deleted" | "toDelete";
  note?: string;
}

export interface ResultRow {
  /** Index of the record among the fetched ones (stable across sorts and filters). */
  index: number;
  cells: Cell[];
  /** Cell marks by column index (an editing grid only). */
  marks?: Record<number, CellMark>;
  row?: RowMark;
}

export interface ChildTable {
  columns: ResultColumn[];
  rows: ResultRow[];
  /** The child result's own totalSize. */
  total: number;
  /** The org holds more child rows than arrived (the child result's nextRecordsUrl). */
  more: boolean;
  /** The rows are records of this object and their editable cells edit. */
  editObject?: string;
}

export interface ViewSpec {
  sort?: { column: number; descending: boolean };
  filter?: string;
}

/** Selected cells: view rows `top`…`bottom` of these columns, in the order shown (columns can be reordered and hidden). */
export interface CellRange {
  top: number;
  bottom: number;
  columns: number[];
}


type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
/** A child subquery's result inside a parent record, as the API gives it. */
export interface ChildResult {
  records: Json[];
  totalSize?: number;
  done?: boolean;
  nextRecordsUrl?: string;
}
/** Where a child result is: a record index, a subquery column, then (deeper) a child row and its subquery column. */
export type ChildPath = (number | string)[];

const isChildResult = (v: unknown): v is ChildResult => isObject(v) && Array.isArray(v.records);

/** A record's own key for `name`: the exact key, else one that differs only in case (SOQL is case-insensitive). */
function keyIn(record: Json, name: string): string | undefined {
  if (name in record) return name;
  const lower = name.toLowerCase();
  return Object.keys(record).find((k) => k.toLowerCase() === lower);
}

/** The value at a dotted path; undefined when a parent on the way is null or the path is absent. */
export function valueAt(record: Json, path: string): unknown {
  let current: unknown = record;
  for (const segment of path.split(".")) {
    if (!isObject(current)) return undefined;
    const key = keyIn(current, segment);
    if (key === undefined) return undefined;
    current = current[key];
  }
  return current;
}

/** The path as the API spells it in this record (case from the record), or undefined when absent. */
function spelledPath(record: Json, path: string): string | undefined {
  const out: string[] = [];
  let current: unknown = record;
  for (const segment of path.split(".")) {
    if (!isObject(current)) return undefined;
    const key = keyIn(current, segment);
    if (key === undefined) return undefined;
    out.push(key);
    current = current[key];
  }
  return out.join(".");
}

/** Flattened paths of one record in key order: parents expand into `Parent.Field`, child results stay one column. */
export function recordPaths(record: Json, prefix = ""): { path: string; kind: ResultColumn["kind"] }[] {
  const out: { path: string; kind: ResultColumn["kind"] }[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (key === "attributes") continue;
    const path = prefix + key;
    if (isChildResult(value)) out.push({ path, kind: "children" });
    else if (isObject(value)) out.push(...recordPaths(value, `${path}.`));
    else out.push({ path, kind: "value" });
  }
  return out;
}

export function cellOf(record: Json, column: Pick<ResultColumn, "path" | "kind">): Cell {
  const value = valueAt(record, column.path);
  if (value === undefined || value === null) return null;
  if (isChildResult(value)) return { children: value.records.length, more: value.done === false };
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return JSON.stringify(value); // compound fields (addresses, locations) read as their JSON
}

/** The text of a cell as the filter, TSV and CSV see it. */
export function cellText(cell: Cell): string {
  if (cell === null) return "";
  if (typeof cell === "object") return `${cell.children}${cell.more ? "+" : ""} rows`;
  return String(cell);
}

let collator: Intl.Collator | undefined;
/** Natural, case-insensitive order ("b9" before "b10"); the collator is built on first sort, not at load. */
const collate = (a: string, b: string) => (collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: "base" })).compare(a, b);

function compareCells(a: Cell, b: Cell): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1; // empty cells last either way
  if (typeof a === "object" && typeof b === "object") return a.children - b.children;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return collate(cellText(a), cellText(b));
}

export interface ResultTableOptions {
  /** Columns known from the statement (SELECT order); more are added as records reveal them. */
  columns?: { path: string; label?: string }[];
  /** Whether a value is a record ID (the host checks the checksum of 18-character IDs). */
  isId?: (value: string) => boolean;
  /** Paths read for the grid's own use and never shown (the SystemModstamp an editing grid adds). */
  hidden?: string[];
}

export class ResultTable {
  readonly columns: ResultColumn[] = [];
  readonly records: Json[] = [];
  /** Record indexes in view order (after filter and sort). */
  private view: number[] = [];
  private spec: ViewSpec = {};
  /** Bumped whenever the view changes, so windows of an older view can be told apart. */
  version = 0;
  private readonly isId: (value: string) => boolean;
  private readonly declared: { path: string; label?: string }[];
  private readonly hidden: Set<string>;
  /** Per column: has a value been seen, and was every value an ID. */
  private readonly idScan = new Map<ResultColumn, { seen: boolean; all: boolean }>();

  constructor(options: ResultTableOptions = {}) {
    this.isId = options.isId ?? (() => false);
    this.declared = options.columns ?? [];
    this.hidden = new Set((options.hidden ?? []).map((p) => p.toLowerCase()));
  }

  get viewSize(): number {
    return this.view.length;
  }

  get viewSpec(): ViewSpec {
    return this.spec;
  }

  /** Adds fetched records; columns grow to cover what they reveal; the view is re-applied. */
  append(records: Json[]): void {
    const first = this.records.length;
    for (const record of records) this.records.push(record);
    this.discoverColumns(records, first === 0);
    this.apply();
  }

  private discoverColumns(records: Json[], firstBatch: boolean): void {
    const byPath = new Map(this.columns.map((c) => [c.path.toLowerCase(), c]));
    const add = (path: string, kind: ResultColumn["kind"], label?: string) => {
      if (byPath.has(path.toLowerCase()) || this.hidden.has(path.toLowerCase())) return;
      const column: ResultColumn = { path, kind, ids: false, ...(label ? { label } : {}) };
      byPath.set(path.toLowerCase(), column);
      this.columns.push(column);
    };
    if (firstBatch) {
      for (const { path, label } of this.declared) {
        // The API's own spelling when some record has the path; a parent that is null everywhere keeps the statement's.
        const sample = records.find((r) => valueAt(r, path) !== undefined);
        const value = sample ? valueAt(sample, path) : undefined;
        add((sample && spelledPath(sample, path)) ?? path, isChildResult(value) ? "children" : "value", label);
      }
    }
    // Records can hold what the statement does not say (TYPEOF, SOSL rows of several objects).
    const seen = new Set<string>();
    for (const record of records) {
      const shape = Object.keys(record).join(",");
      if (seen.has(shape) && !Object.values(record).some(isObject)) continue; // flat rows of one shape: one look is enough
      seen.add(shape);
      for (const { path, kind } of recordPaths(record)) {
        // A parent that is null in this row shows up as its bare name; a declared Parent.Field already covers it.
        if (kind === "value" && valueAt(record, path) === null && this.columns.some((c) => c.path.toLowerCase().startsWith(`${path.toLowerCase()}.`))) continue;
        add(path, kind);
      }
    }
    // Only the new rows are scanned; a column added now was absent (empty) in the earlier ones.
    for (const column of this.columns) {
      if (column.kind !== "value") continue;
      const scan = this.idScan.get(column) ?? { seen: false, all: true };
      for (const record of records) {
        if (!scan.all) break;
        const value = valueAt(record, column.path);
        if (value === null || value === undefined) continue;
        scan.seen = true;
        scan.all = typeof value === "string" && this.isId(value);
      }
      this.idScan.set(column, scan);
      column.ids = scan.seen && scan.all;
    }
  }

  /** Sorts and filters the fetched records; returns the new view's size. */
  setView(spec: ViewSpec): number {
    this.spec = { ...spec, filter: spec.filter?.trim() || undefined };
    this.apply();
    return this.view.length;
  }

  private apply(): void {
    const { sort, filter } = this.spec;
    let indexes = this.records.map((_, i) => i);
    if (filter) {
      const needle = filter.toLowerCase();
      indexes = indexes.filter((i) => this.columns.some((c) => cellText(cellOf(this.records[i]!, c)).toLowerCase().includes(needle)));
    }
    const column = sort ? this.columns[sort.column] : undefined;
    if (sort && column) {
      const keys = new Map(indexes.map((i) => [i, cellOf(this.records[i]!, column)]));
      const direction = sort.descending ? -1 : 1;
      // Empty cells stay last in both directions; ties keep fetch order (Array#sort is stable).
      indexes.sort((a, b) => {
        const x = keys.get(a)!, y = keys.get(b)!;
        if (x === null || y === null) return compareCells(x, y);
        return direction * compareCells(x, y);
      });
    }
    this.view = indexes;
    this.version++;
  }

  /** The record shown at a row of the view. */
  recordIndexAt(viewRow: number): number | undefined {
    return this.view[viewRow];
  }

  /** Rows `start` … `start + count - 1` of the view. */
  window(start: number, count: number): ResultRow[] {
    const from = Math.max(0, Math.floor(start));
    const to = Math.min(this.view.length, from + Math.max(0, Math.floor(count)));
    const rows: ResultRow[] = [];
    for (let v = from; v < to; v++) {
      const index = this.view[v]!;
      rows.push({ index, cells: this.columns.map((c) => cellOf(this.records[index]!, c)) });
    }
    return rows;
  }

  /**
   * A child subquery's result at a path: a record of this table, then a subquery column, then (deeper) a
   * row of that child result and one of its subquery columns, and so on — `[12, "Contacts", 3, "Cases"]`.
   */
  childResult(path: ChildPath): ChildResult | undefined {
    let record = typeof path[0] === "number" ? this.records[path[0]] : undefined;
    for (let i = 1; record && i < path.length; i += 2) {
      const column = path[i];
      const result = typeof column === "string" ? valueAt(record, column) : undefined;
      if (!isChildResult(result)) return undefined;
      if (i === path.length - 1) return result;
      const row = path[i + 1];
      record = typeof row === "number" ? result.records[row] : undefined;
    }
    return undefined;
  }

  /** A table of a child result's rows, flattened like these rows (its records are the same objects). */
  childTable(result: ChildResult, hidden: string[] = []): ResultTable {
    const child = new ResultTable({ isId: this.isId, hidden });
    child.append(result.records);
    return child;
  }
}

/** A child subquery's rows as JSON (without the API's `attributes`), for text exports of a nested table. */
export function childJson(record: Json, path: string): string {
  const result = valueAt(record, path);
  if (!isChildResult(result)) return "";
  return JSON.stringify(result.records.map(withoutAttributes));
}

export function withoutAttributes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAttributes);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (k !== "attributes") out[k] = withoutAttributes(v);
  return out;
}
