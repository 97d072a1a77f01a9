/** The results grid's state, apart from drawing: its shape, the view rows held, selections, expansions, geometry, and when a new summary patches it. No DOM here. */
import { type ColumnLayout, type ResultsSummary } from "../../protocol/results";
import { type CellRange, type ChildPath, type ChildTable, type ResultColumn, type ResultRow } from "../../../shared/resultTable";

export const ROW_HEIGHT = 24;
export const BLOCK = 200; // rows per window request
export const MAX_BLOCKS = 24; // cached windows kept (about 5,000 rows)
export const OVERSCAN = 8;
const CHILD_ROWS_SHOWN = 8;
export const GUTTER = 64;


export interface At {
  row: number;
  pos: number;
}
/** One selected range: from its anchor to its active cell. */
export interface Selection {
  anchor: At;
  active: At;
}

/** A row's child table, and the tables nested in it that are open (by path; a table once it arrives). */
export interface Expansion {
  column: number;
  path: ChildPath;
  open: Set<string>;
  tables: Map<string, ChildTable>;
}

export interface Grid {
  summary: ResultsSummary;
  /** Widths by data column. */
  widths: number[];
  /** Data columns in the order shown (hidden ones left out). */
  visible: number[];
  blocks: Map<number, ResultRow[]>;
  requested: Set<number>;
  /** Expanded child tables by view row. */
  expanded: Map<number, Expansion>;
  /** Selected ranges; the last is the one the keyboard moves. */
  selections: Selection[];
  rendered: Map<number, HTMLElement>;
  /** Column widths still follow the content (until the first rows arrive or a person resizes). */
  autoWidths: boolean;
  editing?: { row: number; pos: number; close(): void };
}

export const labelOf = (c: ResultColumn) => c.label ?? c.path;
export const current = (g: Grid) => g.selections[g.selections.length - 1]!;
export const activeAt = (g: Grid) => current(g).active;
export const columnAt = (g: Grid, pos: number) => g.summary.columns[g.visible[pos]!];

function initialWidth(c: ResultColumn): number {
  if (c.kind === "children") return 130;
  return Math.min(320, Math.max(90, labelOf(c).length * 8 + 40));
}

/** The columns shown, in order, from a remembered layout (columns it does not know keep their place at the end). */
function visibleColumns(columns: ResultColumn[], layout: ColumnLayout): number[] {
  const byPath = new Map(columns.map((c, i) => [c.path.toLowerCase(), i]));
  const ordered = layout.order.map((p) => byPath.get(p.toLowerCase())).filter((i): i is number => i !== undefined);
  const all = [...new Set([...ordered, ...columns.map((_, i) => i)])];
  const hidden = new Set(layout.hidden.map((p) => p.toLowerCase()));
  const shown = all.filter((i) => !hidden.has(columns[i]!.path.toLowerCase()));
  return shown.length ? shown : all; // never hide everything
}

// ---- geometry: fixed-height rows plus the expanded child tables between them ----------------

export function childHeight(entry: Expansion): number {
  const root = entry.tables.get(JSON.stringify(entry.path));
  const nested = entry.open.size > 1;
  const rows = nested ? CHILD_ROWS_SHOWN + 6 : root ? Math.min(root.rows.length, CHILD_ROWS_SHOWN) : 1;
  return (rows + 2) * ROW_HEIGHT + 12 + (root?.more ? ROW_HEIGHT : 0); // caption, header, rows, padding (the box scrolls beyond)
}

function sortedExpansions(g: Grid): [number, number][] {
  return [...g.expanded.entries()].map(([row, e]) => [row, childHeight(e)] as [number, number]).sort((a, b) => a[0] - b[0]);
}

export function rowTop(g: Grid, row: number): number {
  let extra = 0;
  for (const [r, h] of sortedExpansions(g)) if (r < row) extra += h;
  return row * ROW_HEIGHT + extra;
}

export function rowAt(g: Grid, y: number): number {
  let extra = 0;
  for (const [r, h] of sortedExpansions(g)) {
    if (y >= (r + 1) * ROW_HEIGHT + extra + h) extra += h;
    else if (y >= (r + 1) * ROW_HEIGHT + extra) return r; // inside r's child table
    else break;
  }
  return Math.max(0, Math.floor((y - extra) / ROW_HEIGHT));
}

export const totalHeight = (g: Grid) => rowTop(g, g.summary.viewSize);

export function rowOf(g: Grid, v: number): ResultRow | undefined {
  return g.blocks.get(Math.floor(v / BLOCK))?.[v % BLOCK];
}

const inRange = (value: number, a: number, b: number) => value >= Math.min(a, b) && value <= Math.max(a, b);
export const isSelected = (g: Grid, row: number, pos: number) => g.selections.some((s) => inRange(row, s.anchor.row, s.active.row) && inRange(pos, s.anchor.pos, s.active.pos));
export const cellId = (row: number, col: number) => `cell-${row}-${col}`;

/** The selected ranges as the host reads them: view rows and the data columns shown in them, in order. */
export function ranges(g: Grid): CellRange[] {
  return g.selections.map((s) => ({
    top: Math.min(s.anchor.row, s.active.row),
    bottom: Math.max(s.anchor.row, s.active.row),
    columns: g.visible.slice(Math.min(s.anchor.pos, s.active.pos), Math.max(s.anchor.pos, s.active.pos) + 1),
  }));
}

/** Whether a summary is of the run the grid shows (more rows, staged edits, a new sort: the same statement run once). */
export const isSameRun = (previous: Grid | undefined, s: ResultsSummary): previous is Grid =>
  !!previous && previous.summary.ranAt === s.ranAt && previous.summary.query === s.query;

/** The grid state for a summary; of the same run it keeps widths, selections and (same sort and filter) expansions. */
export function gridFor(s: ResultsSummary, previous: Grid | undefined): Grid {
  const sameRun = isSameRun(previous, s);
  const g: Grid = {
    summary: s,
    widths: sameRun ? previous.widths : s.columns.map(initialWidth),
    visible: visibleColumns(s.columns, s.layout),
    blocks: new Map(),
    requested: new Set(),
    // Expansions belong to view rows: they survive new pages, not a new sort or filter.
    expanded: sameRun && JSON.stringify(previous.summary.sort) === JSON.stringify(s.sort) && previous.summary.filter === s.filter ? previous.expanded : new Map(),
    selections: sameRun ? previous.selections : [{ anchor: { row: 0, pos: 0 }, active: { row: 0, pos: 0 } }],
    rendered: new Map(),
    autoWidths: !sameRun,
  };
  const last = g.visible.length - 1;
  g.selections = g.selections.map((sel) => ({ anchor: { ...sel.anchor, pos: Math.min(sel.anchor.pos, last) }, active: { ...sel.active, pos: Math.min(sel.active.pos, last) } }));
  while (g.widths.length < s.columns.length) g.widths.push(initialWidth(s.columns[g.widths.length]!));
  return g;
}

/** What a summary draws apart from its figures: when none of it changed, the grid is patched, not built again. */
const frameOf = (s: ResultsSummary) => JSON.stringify([
  s.ranAt, s.query, s.api, s.columns, s.layout, s.sort ?? null, s.filter, s.editObject ?? null, s.plan ?? null, !!s.explainOnly, s.columns.length > 0 && s.fetched > 0,
]);

/** Whether `next` only moves the figures of the grid showing `shown` (rows fetched, edits staged, a notice). */
export const patchable = (shown: ResultsSummary, next: ResultsSummary) => frameOf(shown) === frameOf(next);

/** Whether a row came back as it was (then its node, and a click on it, stay). */
export const sameRow = (a: ResultRow | undefined, b: ResultRow | undefined) => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);
