/**
 * Query Results (browser side): a virtualized grid. The host keeps the rows; this script asks for
 * windows of the current view around what is on screen and keeps a bounded cache of them, so 50,000
 * rows scroll like 50. Cells are DOM text, never HTML.
 *
 * Editing: an editable cell opens an editor by its field's type (F2, Enter, double-click or typing); the
 * text is checked here as the host will check it, then staged at the host, which holds every edit. Paste
 * stages a spreadsheet block; Delete clears the selected cells. Columns can be hidden, moved and frozen
 * (the host remembers the layout per statement); several ranges can be selected at once (Ctrl/Cmd+click).
 */
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import { parseCellInput, type CellEditor } from "../../shared/cellInput";
import { COPY_FORMATS, EXPORT_FORMAT_NAMES, parseResultsUpdate, type ColumnLayout, type CopyFormat, type ResultsSummary, type ResultsToHost, type RowAction } from "../protocol/results";
import { type PlanView } from "../../shared/runSpec";
import type { Cell, CellRange, ChildPath, ChildTable, ResultColumn, ResultRow } from "../../shared/resultTable";
import * as l10n from "@vscode/l10n";
import { button, connect, displayLocale, el, panelTarget, showMessage } from "./dom";

const vscode = connect<ResultsToHost>();
const app = document.getElementById("app")!;
const send = (message: ResultsToHost) => vscode.postMessage(message);
const refresh = () => send({ type: "refresh" });

const ROW_HEIGHT = 24;
const BLOCK = 200; // rows per window request
const MAX_BLOCKS = 24; // cached windows kept (about 5,000 rows)
const OVERSCAN = 8;
const CHILD_ROWS_SHOWN = 8;
const GUTTER = 64;

const count = new Intl.NumberFormat(displayLocale);
/** "1 row", "12 rows": whole phrases, so a language can word each. */
const rowsText = (n: number) => (n === 1 ? l10n.t("1 row") : l10n.t("{0} rows", count.format(n)));
/** What a row or cell mark says (the host's states, in the display language). */
const STATE_LABELS: Record<string, string> = { inserted: l10n.t("Inserted"), saved: l10n.t("Saved"), refused: l10n.t("Refused"), conflict: l10n.t("Conflict"), deleted: l10n.t("Deleted"), staged: l10n.t("Staged") };
const stateLabel = (state: string) => STATE_LABELS[state] ?? state;
/** The copy and export formats' names (a language may write them its own way). */
const FORMAT_LABELS: Record<CopyFormat | (typeof EXPORT_FORMAT_NAMES)[number], string> = {
  tsv: l10n.t("TSV"), csv: l10n.t("CSV"), json: l10n.t("JSON"), markdown: l10n.t("Markdown"), xlsx: l10n.t("XLSX"), ndjson: l10n.t("NDJSON"),
};

/** A cell by view row and position among the columns shown. */
interface At {
  row: number;
  pos: number;
}
/** One selected range: from its anchor to its active cell. */
interface Selection {
  anchor: At;
  active: At;
}

/** A row's child table, and the tables nested in it that are open (by path; a table once it arrives). */
interface Expansion {
  column: number;
  path: ChildPath;
  open: Set<string>;
  tables: Map<string, ChildTable>;
}

interface Grid {
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

let grid: Grid | undefined;
let scroller: HTMLElement | undefined;
let body: HTMLElement | undefined;
let header: HTMLElement | undefined;
let status: HTMLElement | undefined;
let notice: HTMLElement | undefined;
let selectionLine: HTMLElement | undefined;
let stagedLine: HTMLElement | undefined;
let frame = 0;

const labelOf = (c: ResultColumn) => c.label ?? c.path;
const current = (g: Grid) => g.selections[g.selections.length - 1]!;
const activeAt = (g: Grid) => current(g).active;
const columnAt = (g: Grid, pos: number) => g.summary.columns[g.visible[pos]!];

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

function childHeight(entry: Expansion): number {
  const root = entry.tables.get(JSON.stringify(entry.path));
  const nested = entry.open.size > 1;
  const rows = nested ? CHILD_ROWS_SHOWN + 6 : root ? Math.min(root.rows.length, CHILD_ROWS_SHOWN) : 1;
  return (rows + 2) * ROW_HEIGHT + 12 + (root?.more ? ROW_HEIGHT : 0); // caption, header, rows, padding (the box scrolls beyond)
}

function sortedExpansions(g: Grid): [number, number][] {
  return [...g.expanded.entries()].map(([row, e]) => [row, childHeight(e)] as [number, number]).sort((a, b) => a[0] - b[0]);
}

function rowTop(g: Grid, row: number): number {
  let extra = 0;
  for (const [r, h] of sortedExpansions(g)) if (r < row) extra += h;
  return row * ROW_HEIGHT + extra;
}

function rowAt(g: Grid, y: number): number {
  let extra = 0;
  for (const [r, h] of sortedExpansions(g)) {
    if (y >= (r + 1) * ROW_HEIGHT + extra + h) extra += h;
    else if (y >= (r + 1) * ROW_HEIGHT + extra) return r; // inside r's child table
    else break;
  }
  return Math.max(0, Math.floor((y - extra) / ROW_HEIGHT));
}

const totalHeight = (g: Grid) => rowTop(g, g.summary.viewSize);

// ---- rows from the host ----------------------------------------------------------------------

function rowOf(g: Grid, v: number): ResultRow | undefined {
  return g.blocks.get(Math.floor(v / BLOCK))?.[v % BLOCK];
}

function request(g: Grid, first: number, last: number): void {
  for (let b = Math.floor(first / BLOCK); b <= Math.floor(last / BLOCK); b++) {
    if (g.blocks.has(b) || g.requested.has(b) || b * BLOCK >= g.summary.viewSize) continue;
    g.requested.add(b);
    send({ type: "rows", start: b * BLOCK, count: BLOCK });
  }
}

/** Reads again the windows held (after edits were staged or committed); they stay shown until the new ones arrive. */
function rereadHeld(g: Grid): void {
  for (const b of g.blocks.keys()) {
    g.requested.add(b);
    send({ type: "rows", start: b * BLOCK, count: BLOCK });
  }
}

const measure = document.createElement("canvas").getContext("2d")!;

/** Widths that fit the header and the first rows' values, within reason. */
function fitWidths(g: Grid, rows: ResultRow[]): void {
  g.autoWidths = false;
  measure.font = getComputedStyle(scroller ?? document.body).font;
  g.widths = g.summary.columns.map((column, c) => {
    if (column.kind === "children") return g.widths[c]!;
    const texts = [`${labelOf(column)}     `, ...rows.map((r) => { const v = r.cells[c]; return v === null || typeof v === "object" ? "" : typeof v === "number" ? count.format(v) : String(v); })];
    return Math.max(60, Math.min(360, Math.ceil(Math.max(...texts.map((t) => measure.measureText(t).width)) + 16)));
  });
  applyWidths(g);
}

function receive(g: Grid, start: number, rows: ResultRow[]): void {
  if (g.autoWidths) fitWidths(g, rows);
  const block = Math.floor(start / BLOCK);
  g.requested.delete(block);
  g.blocks.set(block, rows);
  // Forget the windows farthest from where the person is.
  const here = Math.floor(rowAt(g, scroller?.scrollTop ?? 0) / BLOCK);
  while (g.blocks.size > MAX_BLOCKS) {
    const farthest = [...g.blocks.keys()].sort((a, b) => Math.abs(b - here) - Math.abs(a - here))[0]!;
    g.blocks.delete(farthest);
  }
  for (let v = start; v < start + rows.length; v++) {
    if (g.editing?.row === v) continue; // the row being edited keeps its editor
    g.rendered.get(v)?.remove();
    g.rendered.delete(v);
  }
  schedule();
}

// ---- drawing ---------------------------------------------------------------------------------

function schedule(): void {
  if (!frame) frame = requestAnimationFrame(() => ((frame = 0), draw()));
}

/** Left offsets of the frozen columns (they stick beside the row numbers while the rest scrolls). */
function frozenLefts(g: Grid): number[] {
  const lefts: number[] = [];
  let left = GUTTER;
  for (let pos = 0; pos < Math.min(g.summary.layout.frozen, g.visible.length); pos++) {
    lefts.push(left);
    left += g.widths[g.visible[pos]!]!;
  }
  return lefts;
}

function applyWidths(g: Grid): void {
  // CSSOM custom property, not a style attribute: the CSP allows no inline styles.
  const widths = g.visible.map((c) => g.widths[c]!);
  app.style.setProperty("--columns", `${GUTTER}px ${widths.map((w) => `${w}px`).join(" ")}`);
  app.style.setProperty("--grid-width", `${GUTTER + widths.reduce((a, b) => a + b, 0)}px`);
  // Frozen columns stick at offsets that follow the widths before them (moved in place: a drag holds its handle).
  const lefts = frozenLefts(g);
  for (const cell of app.querySelectorAll<HTMLElement>(".cell.frozen")) {
    const pos = Number(cell.getAttribute("aria-colindex")) - 2;
    if (lefts[pos] !== undefined) cell.style.left = `${lefts[pos]}px`;
  }
}

const inRange = (value: number, a: number, b: number) => value >= Math.min(a, b) && value <= Math.max(a, b);
const isSelected = (g: Grid, row: number, pos: number) => g.selections.some((s) => inRange(row, s.anchor.row, s.active.row) && inRange(pos, s.anchor.pos, s.active.pos));
const cellId = (row: number, col: number) => `cell-${row}-${col}`;

const ROW_ICONS: Record<string, string> = { inserted: "add", saved: "check", refused: "error", conflict: "warning", deleted: "trash" };

function cellNode(g: Grid, v: number, pos: number, row: ResultRow | undefined, lefts: number[]): HTMLElement {
  const c = g.visible[pos]!;
  const column = g.summary.columns[c]!;
  const cell = row ? row.cells[c] : undefined;
  const node = el("div", { role: "gridcell", id: cellId(v, c), "aria-colindex": String(pos + 2), "data-pos": String(pos) });
  const classes = ["cell"];
  if (cell === null) classes.push("empty");
  else if (typeof cell === "number") {
    classes.push("number");
    node.append(count.format(cell));
  } else if (typeof cell === "boolean") {
    classes.push("boolean");
    node.append(String(cell));
  }
  else if (typeof cell === "object" && cell) {
    classes.push("children");
    const open = g.expanded.get(v)?.column === c;
    node.setAttribute("aria-expanded", String(open));
    node.append(el("span", { class: `codicon codicon-chevron-${open ? "down" : "right"}`, "aria-hidden": "true" }), rowsText(cell.children));
    if (cell.more) node.append(el("span", { class: "more", title: l10n.t("More child rows exist on the org") }, ` ${l10n.t("+more")}`));
    node.addEventListener("click", () => toggleChildren(g, v, c));
  } else if (typeof cell === "string") {
    if (column.ids) {
      const link = el("a", { href: "#", "data-id": cell, tabindex: "-1" }, cell);
      link.addEventListener("click", (e) => (e.preventDefault(), send({ type: "openId", id: cell })));
      node.append(link);
    } else node.append(cell);
    node.title = cell;
  } else if (cell === undefined) classes.push("pending");
  if (g.summary.editObject && column.kind === "value") {
    node.setAttribute("aria-readonly", String(!column.editor));
    if (column.editor) classes.push("editable");
    else if (column.readOnly) node.title = [node.title, l10n.t("Read-only: {0}", column.readOnly)].filter(Boolean).join("\n");
  }
  const mark = row?.marks?.[c];
  if (mark) {
    classes.push(mark.state);
    if (mark.note) node.title = mark.state === "refused" ? l10n.t("Refused: {0}", mark.note) : mark.state === "staged" ? l10n.t("Staged. {0}", mark.note) : mark.note;
  }
  if (isSelected(g, v, pos)) classes.push("selected");
  const active = activeAt(g);
  if (v === active.row && pos === active.pos) {
    classes.push("active");
    node.setAttribute("aria-selected", "true");
  }
  if (pos < lefts.length) {
    classes.push("frozen");
    node.style.left = `${lefts[pos]}px`;
  }
  node.className = classes.join(" ");
  return node;
}

function gutterNode(v: number, row: ResultRow | undefined): HTMLElement {
  const gutter = el("div", { role: "rowheader", class: "cell gutter" });
  const mark = row?.row;
  if (mark) {
    gutter.classList.add(mark.state);
    gutter.title = mark.note ? `${stateLabel(mark.state)}: ${mark.note}` : stateLabel(mark.state);
    gutter.append(el("span", { class: `codicon codicon-${ROW_ICONS[mark.state] ?? "circle-filled"}`, "aria-label": stateLabel(mark.state) }), " ");
  }
  gutter.append(count.format(v + 1));
  return gutter;
}

function rowNode(g: Grid, v: number): HTMLElement {
  const row = rowOf(g, v);
  const node = el("div", { role: "row", class: "row", "aria-rowindex": String(v + 2), "data-row": String(v) });
  if (row?.row?.state === "deleted") node.classList.add("deleted");
  node.style.transform = `translateY(${rowTop(g, v)}px)`;
  node.append(gutterNode(v, row));
  const lefts = frozenLefts(g);
  g.visible.forEach((_, pos) => node.append(cellNode(g, v, pos, row, lefts)));
  const open = g.expanded.get(v);
  if (open) node.append(childBlock(g, v, open));
  return node;
}

function childBlock(g: Grid, v: number, entry: Expansion): HTMLElement {
  const column = g.summary.columns[entry.column]!;
  const box = el("div", { class: "child", role: "region", "aria-label": l10n.t("{0} of row {1}", labelOf(column), count.format(v + 1)) });
  box.style.height = `${childHeight(entry)}px`;
  box.append(childTableNode(g, entry, entry.path, labelOf(column)));
  return box;
}

/** One child table (and, under a row, the tables nested in it that are open). */
function childTableNode(g: Grid, entry: Expansion, path: ChildPath, label: string): HTMLElement {
  const t = entry.tables.get(JSON.stringify(path));
  if (!t) return el("p", { class: "muted" }, l10n.t("Reading…"));
  const caption = el("caption", {}, `${label} · ${ofRowsText(t.rows.length, t.total)}`);
  if (t.more) {
    const more = el("button", { type: "button", class: "link-button" }, l10n.t("Load remaining rows"));
    more.addEventListener("click", () => ((more.disabled = true), (more.textContent = l10n.t("Loading…")), send({ type: "moreChildren", path })));
    caption.append(" · ", more);
  }
  const table = el("table", {}, caption, el("thead", {}, el("tr", {}, ...t.columns.map((c) => el("th", { scope: "col", ...(c.readOnly && t.editObject ? { title: l10n.t("Read-only: {0}", c.readOnly) } : {}) }, labelOf(c))))));
  const tbody = el("tbody");
  for (const row of t.rows) {
    const tr = el("tr", row.row?.state === "deleted" ? { class: "deleted" } : {});
    if (row.row) tr.title = row.row.note ? `${stateLabel(row.row.state)}: ${row.row.note}` : stateLabel(row.row.state);
    const nested: HTMLElement[] = [];
    row.cells.forEach((cell, i) => {
      const c = t.columns[i]!;
      const td = el("td", {}, cell === null || typeof cell === "object" ? "" : String(cell));
      const mark = row.marks?.[i];
      if (mark) {
        td.classList.add(mark.state);
        if (mark.note) td.title = mark.note;
      }
      if (cell !== null && typeof cell === "object") {
        const childPath = [...path, row.index, c.path];
        const key = JSON.stringify(childPath);
        const open = entry.open.has(key);
        const toggle = el("button", { type: "button", class: "link-button", "aria-expanded": String(open) }, el("span", { class: `codicon codicon-chevron-${open ? "down" : "right"}`, "aria-hidden": "true" }), `${count.format(cell.children)} ${cell.children === 1 ? "row" : "rows"}${cell.more ? " +more" : ""}`);
        toggle.addEventListener("click", () => {
          if (open) entry.open.delete(key);
          else {
            entry.open.add(key);
            send({ type: "children", path: childPath });
          }
          redraw();
        });
        td.append(toggle);
        if (open) nested.push(el("tr", { class: "nested" }, el("td", { colspan: String(t.columns.length) }, childTableNode(g, entry, childPath, labelOf(c)))));
      } else if (c.ids && typeof cell === "string") {
        const link = el("a", { href: "#" }, cell);
        link.addEventListener("click", (e) => (e.preventDefault(), send({ type: "openId", id: cell })));
        td.replaceChildren(link);
      }
      if (t.editObject && c.editor && row.row?.state !== "deleted") {
        td.classList.add("editable");
        td.tabIndex = 0;
        td.setAttribute("aria-label", l10n.t("{0}: {1} (editable)", labelOf(c), td.textContent ?? ""));
        const edit = () => startChildEdit(g, td, path, row, i, c.editor!);
        td.addEventListener("dblclick", edit);
        td.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === "F2") && (e.preventDefault(), edit()));
      }
      tr.append(td);
    });
    tbody.append(tr, ...nested);
  }
  table.append(tbody);
  return table;
}

/** Edits a child table's cell in place; the host stages it in that table's own edits. */
function startChildEdit(g: Grid, td: HTMLElement, path: ChildPath, row: ResultRow, column: number, editor: CellEditor): void {
  const value = row.cells[column];
  if (editor.kind === "checkbox") {
    send({ type: "childEdit", path, index: row.index, column, text: String(value !== true) });
    return;
  }
  openEditor(g, {
    cell: td, editor, value, at: { row: -1, pos: -1 }, refocus: () => td.focus(),
    accept: (text, parsed) => {
      row.cells[column] = parsed;
      row.marks = { ...row.marks, [column]: { state: "staged" } };
      send({ type: "childEdit", path, index: row.index, column, text });
    },
  });
}

/** Asks again for every child table open (after edits were staged or committed). */
function rereadChildren(g: Grid): void {
  for (const entry of g.expanded.values()) for (const key of entry.open) send({ type: "children", path: JSON.parse(key) as ChildPath });
}

function draw(): void {
  const g = grid;
  if (!g || !scroller || !body) return;
  body.style.height = `${totalHeight(g)}px`;
  const first = Math.max(0, rowAt(g, scroller.scrollTop) - OVERSCAN);
  const last = Math.min(g.summary.viewSize - 1, rowAt(g, scroller.scrollTop + scroller.clientHeight) + OVERSCAN);
  request(g, first, last);
  for (const [v, node] of g.rendered) {
    if ((v >= first && v <= last) || g.editing?.row === v) continue;
    node.remove();
    g.rendered.delete(v);
  }
  const fragment = document.createDocumentFragment();
  for (let v = first; v <= last; v++) {
    if (g.rendered.has(v)) continue;
    const node = rowNode(g, v);
    g.rendered.set(v, node);
    fragment.append(node);
  }
  body.append(fragment);
  const active = activeAt(g);
  const activeCell = document.getElementById(cellId(active.row, g.visible[active.pos] ?? 0));
  if (activeCell) scroller.setAttribute("aria-activedescendant", activeCell.id);
  else scroller.removeAttribute("aria-activedescendant");
}

/** Throws away the drawn rows (after a selection, expansion or data change) and draws again; the header too when columns changed. */
function redraw(columnsChanged = false): void {
  const g = grid;
  if (!g) return;
  g.editing?.close();
  for (const node of g.rendered.values()) node.remove();
  g.rendered.clear();
  if (columnsChanged && header) header.replaceChildren(...headerCells(g));
  schedule();
}

// ---- interaction -----------------------------------------------------------------------------

function toggleChildren(g: Grid, v: number, c: number): void {
  if (g.expanded.get(v)?.column === c) g.expanded.delete(v);
  else {
    const row = rowOf(g, v);
    if (!row) return;
    const path = [row.index, g.summary.columns[c]!.path];
    g.expanded.set(v, { column: c, path, open: new Set([JSON.stringify(path)]), tables: new Map() });
    send({ type: "children", path });
  }
  redraw();
}

/** Moves the active cell; `extend` grows the current range, `add` starts another range beside the others. */
function moveTo(g: Grid, row: number, pos: number, mode: { extend?: boolean; add?: boolean } = {}): void {
  const rows = g.summary.viewSize, cols = g.visible.length;
  const active = { row: Math.max(0, Math.min(rows - 1, row)), pos: Math.max(0, Math.min(cols - 1, pos)) };
  if (mode.extend) current(g).active = active;
  else if (mode.add) g.selections.push({ anchor: active, active });
  else g.selections = [{ anchor: active, active }];
  // Keep the active cell on screen.
  const top = rowTop(g, active.row);
  if (top < scroller!.scrollTop + ROW_HEIGHT) scroller!.scrollTop = Math.max(0, top - ROW_HEIGHT);
  else if (top + ROW_HEIGHT > scroller!.scrollTop + scroller!.clientHeight) scroller!.scrollTop = top + 2 * ROW_HEIGHT - scroller!.clientHeight;
  paintSelection(g);
  schedule();
  statsSoon(g);
}

/** Marks the selected and the active cell on the rows drawn (without rebuilding them: a click must land on the node it pressed). */
function paintSelection(g: Grid): void {
  const active = activeAt(g);
  for (const [v, node] of g.rendered) {
    for (const cell of node.querySelectorAll<HTMLElement>(":scope > [role=gridcell]")) {
      const pos = Number(cell.dataset.pos);
      cell.classList.toggle("selected", isSelected(g, v, pos));
      const isActive = v === active.row && pos === active.pos;
      cell.classList.toggle("active", isActive);
      if (isActive) cell.setAttribute("aria-selected", "true");
      else cell.removeAttribute("aria-selected");
    }
  }
  const activeCell = document.getElementById(cellId(active.row, g.visible[active.pos] ?? 0));
  if (activeCell) scroller?.setAttribute("aria-activedescendant", activeCell.id);
}

/** The selected ranges as the host reads them: view rows and the data columns shown in them, in order. */
function ranges(g: Grid): CellRange[] {
  return g.selections.map((s) => ({
    top: Math.min(s.anchor.row, s.active.row),
    bottom: Math.max(s.anchor.row, s.active.row),
    columns: g.visible.slice(Math.min(s.anchor.pos, s.active.pos), Math.max(s.anchor.pos, s.active.pos) + 1),
  }));
}

let copyFormat: CopyFormat = "tsv";
const copySelection = (g: Grid, format = copyFormat) => send({ type: "copy", ranges: ranges(g), format });

let statsTimer = 0;
/** Asks for the selection's figures once the selection settles (a drag moves it many times). */
function statsSoon(g: Grid): void {
  clearTimeout(statsTimer);
  statsTimer = window.setTimeout(() => grid === g && send({ type: "stats", ranges: ranges(g) }), 120);
}

function rowAction(g: Grid, action: RowAction): void {
  send({ type: "rowAction", action, rows: ranges(g).map((r) => ({ top: r.top, bottom: r.bottom })) });
}

function onKey(e: KeyboardEvent): void {
  const g = grid;
  if (!g || !g.summary.viewSize || g.editing) return;
  const page = Math.max(1, Math.floor(scroller!.clientHeight / ROW_HEIGHT) - 1);
  const { row, pos } = activeAt(g);
  const mod = e.ctrlKey || e.metaKey;
  const last = g.visible.length - 1;
  const extend = { extend: e.shiftKey };
  const keys: Record<string, () => void> = {
    ArrowDown: () => moveTo(g, mod ? g.summary.viewSize - 1 : row + 1, pos, extend),
    ArrowUp: () => moveTo(g, mod ? 0 : row - 1, pos, extend),
    ArrowRight: () => moveTo(g, row, mod ? last : pos + 1, extend),
    ArrowLeft: () => moveTo(g, row, mod ? 0 : pos - 1, extend),
    PageDown: () => moveTo(g, row + page, pos, extend),
    PageUp: () => moveTo(g, row - page, pos, extend),
    Home: () => moveTo(g, mod ? 0 : row, 0, extend),
    End: () => moveTo(g, mod ? g.summary.viewSize - 1 : row, last, extend),
    Enter: () => activate(g),
    F2: () => startEdit(g, row, pos),
    " ": () => activate(g),
    Delete: () => clearSelection(g),
    Backspace: () => clearSelection(g),
  };
  if (mod && e.key.toLowerCase() === "a") {
    g.selections = [{ anchor: { row: 0, pos: 0 }, active: { row: g.summary.viewSize - 1, pos: last } }];
    paintSelection(g);
    statsSoon(g);
  } else if (keys[e.key] && !(e.altKey && e.key.startsWith("Arrow"))) keys[e.key]!();
  else if (e.key.length === 1 && !mod && !e.altKey && editable(g, row, pos) && columnAt(g, pos)!.editor!.kind !== "checkbox") startEdit(g, row, pos, e.key); // typing replaces the value
  else return;
  e.preventDefault();
}

/** Enter on a cell: edit it, open the ID it holds, or show / hide its child rows. */
function activate(g: Grid): void {
  const { row, pos } = activeAt(g);
  const c = g.visible[pos]!;
  const cell = rowOf(g, row)?.cells[c];
  const column = g.summary.columns[c];
  if (cell && typeof cell === "object") toggleChildren(g, row, c);
  else if (editable(g, row, pos)) startEdit(g, row, pos);
  else if (typeof cell === "string" && column?.ids) send({ type: "openId", id: cell });
}

function cellFromEvent(e: MouseEvent): At | undefined {
  const cell = (e.target as HTMLElement).closest<HTMLElement>("[role=gridcell]");
  const rowNode = cell?.closest<HTMLElement>("[data-row]");
  return cell && rowNode && cell.dataset.pos !== undefined ? { row: Number(rowNode.dataset.row), pos: Number(cell.dataset.pos) } : undefined;
}

// ---- editing ---------------------------------------------------------------------------------

function editable(g: Grid, v: number, pos: number): boolean {
  const column = columnAt(g, pos);
  const row = rowOf(g, v);
  return !!(g.summary.editObject && column?.editor && row && row.row?.state !== "deleted");
}

/** A staged value shown at once (the host's answer follows); `note` says what it was. */
function showStaged(g: Grid, v: number, c: number, value: Cell): void {
  const row = rowOf(g, v);
  if (!row) return;
  row.cells[c] = value;
  row.marks = { ...row.marks, [c]: { state: "staged" } };
  g.rendered.get(v)?.remove();
  g.rendered.delete(v);
  schedule();
}

function stage(g: Grid, v: number, c: number, text: string, value: Cell): void {
  const row = rowOf(g, v);
  if (!row) return;
  showStaged(g, v, c, value);
  send({ type: "edit", index: row.index, column: c, text });
}

/** ISO datetime → the local "YYYY-MM-DDTHH:MM:SS" a datetime-local input shows. */
function localDateTime(iso: string): string {
  const d = new Date(iso.replace(/\+0000$/, "Z"));
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function editorElement(editor: CellEditor, value: Cell | undefined, typed?: string): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  const text = typed ?? (value === null || value === undefined || typeof value === "object" ? "" : String(value));
  const label = l10n.t("Edit {0}", editor.field);
  if (editor.kind === "picklist" || editor.kind === "multipicklist") {
    const multi = editor.kind === "multipicklist";
    const chosen = new Set(multi ? text.split(";").filter(Boolean) : [text]);
    const options = [...(editor.options ?? [])];
    for (const v of chosen) if (v && !options.includes(v)) options.push(v); // a value the picklist no longer offers stays shown
    const select = el("select", { "aria-label": label, class: multi ? "editor popup" : "editor" });
    if (multi) {
      select.multiple = true;
      select.size = Math.min(8, Math.max(3, options.length));
    } else select.append(el("option", { value: "" }, l10n.t("(none)")));
    for (const o of options) {
      const option = el("option", { value: o }, o);
      option.selected = chosen.has(o);
      select.append(option);
    }
    return select;
  }
  if (editor.kind === "textarea") {
    const area = el("textarea", { "aria-label": label, class: "editor popup", rows: "5" });
    area.value = text;
    return area;
  }
  const input = el("input", { "aria-label": label, class: "editor", type: editor.kind === "date" ? "date" : editor.kind === "datetime" ? "datetime-local" : "text" });
  if (editor.kind === "datetime") input.step = "1";
  if (editor.kind === "number") input.inputMode = "decimal";
  input.value = editor.kind === "datetime" && typed === undefined ? localDateTime(text) : text;
  return input;
}

function editorValue(node: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): string {
  if (node instanceof HTMLSelectElement && node.multiple) return [...node.selectedOptions].map((o) => o.value).join(";");
  return node.value;
}

/** Opens the cell's editor (a checkbox toggles at once). `typed` starts it with that text; `error` shows why the last text was refused. */
function startEdit(g: Grid, v: number, pos: number, typed?: string, error?: string): void {
  if (!editable(g, v, pos)) {
    const column = columnAt(g, pos);
    if (g.summary.editObject && column?.kind === "value" && notice) notice.textContent = l10n.t("Read-only: {0}", column.readOnly ?? l10n.t("this cell cannot be edited."));
    return;
  }
  const c = g.visible[pos]!;
  const editor = g.summary.columns[c]!.editor!;
  const value = rowOf(g, v)!.cells[c];
  if (editor.kind === "checkbox" && typed === undefined && !error) {
    stage(g, v, c, String(value !== true), value !== true);
    return;
  }
  g.editing?.close();
  // The row may be waiting for its frame (the active cell just moved onto it): draw it now.
  if (!document.getElementById(cellId(v, c))) draw();
  const cellNode = document.getElementById(cellId(v, c));
  if (!cellNode) return;
  openEditor(g, {
    cell: cellNode, editor, value, typed, error, at: { row: v, pos }, refocus: () => scroller?.focus(),
    accept: (text, parsed, key) => {
      stage(g, v, c, text, parsed);
      if (key?.tab) moveTo(g, v, pos + (key.shift ? -1 : 1));
      else if (key) moveTo(g, v + (key.shift ? -1 : 1), pos);
    },
  });
}

interface EditorRequest {
  cell: HTMLElement;
  editor: CellEditor;
  value: Cell | undefined;
  typed?: string;
  error?: string;
  /** Where the grid's editor is (child tables: nowhere in the grid). */
  at: At;
  refocus: () => void;
  /** A checked value: its text, the value, and the key that kept it (Enter or Tab, with Shift); none on blur. */
  accept: (text: string, value: Cell, key?: { tab: boolean; shift: boolean }) => void;
}

/** An editor over a cell: Enter or Tab keeps a value the field can take (else says why), Escape cancels, leaving keeps it. */
function openEditor(g: Grid, request: EditorRequest): void {
  g.editing?.close();
  const { cell, editor } = request;
  const input = editorElement(editor, request.value, request.typed);
  const message = el("div", { class: "edit-error", role: "alert" }, request.error ?? "");
  if (!request.error) message.hidden = true;
  const host = el("div", { class: "edit-host" }, input, message);
  cell.classList.add("editing");
  cell.append(host);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    host.remove();
    cell.classList.remove("editing");
    if (g.editing?.close === close) g.editing = undefined;
    request.refocus();
  };
  g.editing = { ...request.at, close };
  const commit = (key?: { tab: boolean; shift: boolean }) => {
    const text = editorValue(input);
    const parsed = parseCellInput(text, editor);
    if (!parsed.ok) {
      message.textContent = parsed.error;
      message.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    close();
    request.accept(text, parsed.value, key);
  };
  input.addEventListener("keydown", (e) => {
    e.stopPropagation();
    const k = e as KeyboardEvent;
    if (k.key === "Escape") {
      e.preventDefault();
      close();
    } else if (k.key === "Enter") {
      if (input instanceof HTMLTextAreaElement && (k.shiftKey || k.altKey)) return; // a new line in a long text
      e.preventDefault();
      commit({ tab: false, shift: k.shiftKey });
    } else if (k.key === "Tab") {
      e.preventDefault();
      commit({ tab: true, shift: k.shiftKey });
    }
  });
  input.addEventListener("blur", () => setTimeout(() => !closed && document.activeElement !== input && commit(), 0));
  input.focus();
  if (input instanceof HTMLInputElement && request.typed !== undefined) input.setSelectionRange(input.value.length, input.value.length);
}

/** Delete or Backspace over a selection: every editable selected cell is staged empty (a checkbox false). */
function clearSelection(g: Grid): void {
  if (!g.summary.editObject) return;
  const range = ranges(g)[g.selections.length - 1]!;
  send({ type: "paste", row: range.top, columns: range.columns, text: "", selection: range });
}

// ---- columns: sort, resize, hide, move, freeze ---------------------------------------------

function saveLayout(g: Grid, change: (layout: ColumnLayout, paths: string[]) => ColumnLayout): void {
  const paths = g.visible.map((c) => g.summary.columns[c]!.path);
  send({ type: "layout", layout: change({ ...g.summary.layout, order: g.summary.layout.order.length ? g.summary.layout.order : paths }, paths) });
}

function columnMenu(g: Grid, pos: number, anchor: HTMLElement): void {
  document.querySelector(".column-menu")?.remove();
  const path = columnAt(g, pos)!.path;
  const frozen = g.summary.layout.frozen;
  const items: [string, string, () => void][] = [
    [l10n.t("Hide Column"), "eye-closed", () => saveLayout(g, (l) => ({ ...l, hidden: [...l.hidden, path], frozen: Math.min(l.frozen, g.visible.length - 1) }))],
    [l10n.t("Move Left"), "arrow-left", () => moveColumn(g, pos, -1)],
    [l10n.t("Move Right"), "arrow-right", () => moveColumn(g, pos, 1)],
    frozen > pos ? [l10n.t("Unfreeze Columns"), "unlock", () => saveLayout(g, (l) => ({ ...l, frozen: 0 }))] : [l10n.t("Freeze Columns Up to Here"), "lock", () => saveLayout(g, (l) => ({ ...l, frozen: pos + 1 }))],
  ];
  const menu = el("div", { class: "column-menu", role: "menu", "aria-label": l10n.t("{0} column", path) });
  for (const [label, icon, run] of items) {
    const item = el("button", { type: "button", role: "menuitem" }, el("span", { class: `codicon codicon-${icon}`, "aria-hidden": "true" }), ` ${label}`);
    item.addEventListener("click", () => (menu.remove(), run()));
    menu.append(item);
  }
  menu.addEventListener("keydown", (e) => {
    const buttons = [...menu.querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "Escape") {
      menu.remove();
      anchor.focus();
    } else if (e.key === "ArrowDown") buttons[(at + 1) % buttons.length]!.focus();
    else if (e.key === "ArrowUp") buttons[(at - 1 + buttons.length) % buttons.length]!.focus();
    else return;
    e.preventDefault();
  });
  const box = anchor.getBoundingClientRect();
  menu.style.top = `${box.bottom + 2}px`;
  menu.style.left = `${Math.max(0, Math.min(box.left, window.innerWidth - 240))}px`;
  document.body.append(menu);
  menu.querySelector("button")?.focus();
  setTimeout(() => document.addEventListener("mousedown", (e) => !menu.contains(e.target as Node) && menu.remove(), { once: true }), 0);
}

function moveColumn(g: Grid, pos: number, by: number): void {
  const to = pos + by;
  if (to < 0 || to >= g.visible.length) return;
  saveLayout(g, (l, paths) => {
    const order = [...paths];
    [order[pos], order[to]] = [order[to]!, order[pos]!];
    const hidden = g.summary.columns.filter((_, i) => !g.visible.includes(i)).map((c) => c.path);
    return { ...l, order: [...order, ...hidden] };
  });
}

function headerCells(g: Grid): HTMLElement[] {
  const lefts = frozenLefts(g);
  return [el("div", { role: "columnheader", class: "cell gutter head" }, "#"), ...g.visible.map((c, pos) => headerCell(g, g.summary.columns[c]!, c, pos, lefts))];
}

function headerCell(g: Grid, column: ResultColumn, c: number, pos: number, lefts: number[]): HTMLElement {
  const sort = g.summary.sort;
  const direction = sort?.column === c ? (sort.descending ? "descending" : "ascending") : "none";
  const title = column.editor ? l10n.t("{0} — sort (editable)", column.path)
    : column.readOnly && g.summary.editObject ? l10n.t("{0} — sort — read-only: {1}", column.path, column.readOnly) : l10n.t("{0} — sort", column.path);
  const label = el("button", { type: "button", class: "sort", title }, labelOf(column));
  if (direction !== "none") label.append(el("span", { class: `codicon codicon-arrow-${direction === "ascending" ? "up" : "down"}`, "aria-hidden": "true" }));
  label.addEventListener("click", () => {
    // ascending → descending → fetch order
    const next = direction === "none" ? { column: c, descending: false } : direction === "ascending" ? { column: c, descending: true } : undefined;
    send({ type: "view", filter: g.summary.filter, ...(next ? { sort: next } : {}) });
  });
  label.addEventListener("keydown", (e) => {
    // Alt+←/→ narrows or widens the column; Alt+Shift+←/→ moves it.
    if (!e.altKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    e.preventDefault();
    if (e.shiftKey) moveColumn(g, pos, e.key === "ArrowRight" ? 1 : -1);
    else resize(g, c, g.widths[c]! + (e.key === "ArrowRight" ? 24 : -24));
  });
  const menuButton = el("button", { type: "button", class: "column-menu-button", "aria-label": l10n.t("{0} column menu", column.path), title: l10n.t("Hide, move or freeze") }, el("span", { class: "codicon codicon-kebab-vertical", "aria-hidden": "true" }));
  menuButton.addEventListener("click", (e) => (e.stopPropagation(), columnMenu(g, pos, menuButton)));
  const handle = el("div", { class: "resize", "aria-hidden": "true", title: l10n.t("Drag to resize") });
  handle.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const startX = e.clientX, startWidth = g.widths[c]!;
    const move = (m: PointerEvent) => resize(g, c, startWidth + m.clientX - startX);
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", () => handle.removeEventListener("pointermove", move), { once: true });
  });
  const node = el("div", { role: "columnheader", class: `cell head${column.editor ? " editable" : ""}`, "aria-sort": direction, "aria-colindex": String(pos + 2) }, label, menuButton, handle);
  if (pos < lefts.length) {
    node.classList.add("frozen");
    node.style.left = `${lefts[pos]}px`;
  }
  return node;
}

function resize(g: Grid, c: number, width: number): void {
  g.autoWidths = false;
  g.widths[c] = Math.max(48, Math.min(1200, Math.round(width)));
  applyWidths(g);
}

// ---- the page --------------------------------------------------------------------------------

function statusText(s: ResultsSummary): string {
  const parts = [ofRowsText(s.fetched, s.totalSize)];
  if (s.filter) parts.push(l10n.t("{0} match “{1}”", count.format(s.viewSize), s.filter));
  parts.push(l10n.t("first page in {0} ms", count.format(s.elapsedMs)), l10n.t("ran {0}", new Date(s.ranAt).toLocaleTimeString(displayLocale)));
  if (s.more) parts.push(l10n.t("more rows on the org"));
  return parts.join(" · ");
}

/** "12 of 320 rows" (one sentence per number, so a language can word each). */
function ofRowsText(shown: number, total: number): string {
  return total === 1 ? l10n.t("{0} of 1 row", count.format(shown)) : l10n.t("{0} of {1} rows", count.format(shown), count.format(total));
}

function stagedText(cells: number, rows: number): string {
  if (!cells) return l10n.t("No staged edits");
  const edits = cells === 1 ? l10n.t("1 staged edit") : l10n.t("{0} staged edits", count.format(cells));
  return rows === 1 ? l10n.t("{0} in 1 record", edits) : l10n.t("{0} in {1} records", edits, count.format(rows));
}

function toolbar(s: ResultsSummary): HTMLElement {
  const bar = el("div", { class: "actions", role: "toolbar", "aria-label": l10n.t("Results actions") }, button(l10n.t("Run Again"), "refresh", refresh));
  if (s.fetching) bar.append(el("progress", { max: String(s.totalSize), value: String(s.fetched), "aria-label": l10n.t("Rows fetched") }), button(l10n.t("Cancel"), "debug-stop", () => send({ type: "cancel" })));
  else if (s.more) bar.append(button(l10n.t("Fetch More"), "chevron-down", () => send({ type: "fetchMore" })), button(l10n.t("Fetch All"), "cloud-download", () => send({ type: "fetchAll" })));
  const format = el("select", { class: "copy-format", "aria-label": l10n.t("Copy as") });
  for (const f of COPY_FORMATS) {
    const option = el("option", { value: f }, FORMAT_LABELS[f]);
    option.selected = f === copyFormat;
    format.append(option);
  }
  format.addEventListener("change", () => (copyFormat = format.value as CopyFormat));
  bar.append(button(l10n.t("Copy"), "copy", () => grid && copySelection(grid), { disabled: !s.viewSize }), format);
  for (const f of EXPORT_FORMAT_NAMES) bar.append(button(l10n.t("Export {0}", FORMAT_LABELS[f]), "save", () => send({ type: "export", format: f })));
  if (s.layout.hidden.length) bar.append(button(l10n.t("Show {0} Hidden", count.format(s.layout.hidden.length)), "eye", () => send({ type: "layout", layout: { ...s.layout, hidden: [] } })));
  return bar;
}

/** The editing bar: staged count, review, commit, discard, and the row actions. */
function editBar(s: ResultsSummary): HTMLElement {
  stagedLine = el("span", { class: "staged-count", role: "status" }, stagedText(s.staged.cells, s.staged.rows));
  const on = (action: () => void) => () => grid && action();
  const discard = (scope: "cell" | "row") => on(() => {
    const g = grid!;
    const row = rowOf(g, activeAt(g).row);
    if (row) send({ type: "discard", index: row.index, ...(scope === "cell" ? { column: g.visible[activeAt(g).pos]! } : {}) });
  });
  return el("div", { class: "actions edit-actions", role: "toolbar", "aria-label": l10n.t("Edit {0} records", s.editObject ?? "") },
    stagedLine,
    button(l10n.t("Review Changes"), "diff", () => send({ type: "review" })),
    button(l10n.t("Commit"), "check", () => send({ type: "commit" }), { primary: true }),
    button(l10n.t("Discard Cell"), "discard", discard("cell")),
    button(l10n.t("Discard Row"), "discard", discard("row")),
    button(l10n.t("Discard All"), "clear-all", () => send({ type: "discard" })),
    el("span", { class: "separator", "aria-hidden": "true" }),
    button(l10n.t("Delete Rows"), "trash", on(() => rowAction(grid!, "delete"))),
    button(l10n.t("Clone Rows"), "copy", on(() => rowAction(grid!, "clone"))),
    button(l10n.t("Open Records"), "go-to-file", on(() => rowAction(grid!, "open"))),
    button(l10n.t("Compare Rows"), "diff-multiple", on(() => rowAction(grid!, "compareRows"))),
    button(l10n.t("Compare"), "diff-single", on(() => rowAction(grid!, "compare"))),
    button(l10n.t("Overwrite"), "warning", on(() => rowAction(grid!, "overwrite"))),
  );
}

/** The statement's query plans: what they advise, then each plan, the one the org uses first. */
function planSection(plan: PlanView, open: boolean): HTMLElement {
  const warnings = plan.advice.filter((a) => a.severity === "warning").length;
  const summary = el("summary", {}, !warnings ? l10n.t("Query plan") : warnings === 1 ? l10n.t("Query plan · 1 warning") : l10n.t("Query plan · {0} warnings", count.format(warnings)));
  const advice = el("ul", { class: "plan-advice" }, ...plan.advice.map((a) => el("li", { class: a.severity }, el("span", { class: `codicon codicon-${a.severity === "warning" ? "warning" : "info"}`, "aria-hidden": "true" }), ` ${a.message}`)));
  const head = ["", l10n.t("Leading operation"), l10n.t("Relative cost"), l10n.t("Cardinality"), l10n.t("sObject cardinality"), l10n.t("Fields"), l10n.t("Notes")];
  const table = el("table", { class: "plans" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...plan.plans.map((p, i) => el("tr", i === 0 ? { class: "used" } : {},
      el("td", {}, i === 0 ? l10n.t("used") : ""), el("td", {}, p.leadingOperationType), el("td", { class: p.relativeCost > 1 ? "number costly" : "number" }, String(p.relativeCost)),
      el("td", { class: "number" }, count.format(p.cardinality)), el("td", { class: "number" }, `${count.format(p.sobjectCardinality)} ${p.sobjectType}`),
      el("td", {}, p.fields.join(", ")), el("td", {}, p.notes.join("; "))))));
  const section = el("details", { class: "plan" }, summary, ...(plan.advice.length ? [advice] : []), table);
  section.open = open;
  return section;
}

function build(s: ResultsSummary, previous: Grid | undefined): void {
  // A reload runs again what the panel shows now (the document may have run another statement since it opened).
  vscode.setState({ ...panelTarget(), spec: { api: s.api, text: s.query } });
  const sameRun = previous && previous.summary.ranAt === s.ranAt && previous.summary.query === s.query;
  previous?.editing?.close();
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
  g.selections = g.selections.map((sel) => ({ anchor: { ...sel.anchor, pos: Math.min(sel.anchor.pos, g.visible.length - 1) }, active: { ...sel.active, pos: Math.min(sel.active.pos, g.visible.length - 1) } }));
  while (g.widths.length < s.columns.length) g.widths.push(initialWidth(s.columns[g.widths.length]!));
  grid = g;
  applyWidths(g);

  const filter = el("vscode-textfield" as keyof HTMLElementTagNameMap, { class: "filter", placeholder: l10n.t("Filter fetched rows"), "aria-label": l10n.t("Filter fetched rows"), value: s.filter }) as HTMLElement & { value: string };
  let timer = 0;
  filter.addEventListener("input", () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => send({ type: "view", filter: filter.value, ...(g.summary.sort ? { sort: g.summary.sort } : {}) }), 200);
  });

  const title = `${s.alias} · ${s.api === "sosl" ? l10n.t("SOSL search") : s.api === "tooling" ? l10n.t("Tooling API query") : l10n.t("SOQL query")}`;
  const query = el("details", { class: "query" }, el("summary", {}, l10n.t("Statement")), el("pre", {}, s.query));
  status = el("p", { class: "status", role: "status" }, statusText(s));
  selectionLine = el("span", { class: "selection-stats", "aria-live": "polite" });
  notice = el("p", { class: "notice", "aria-live": "polite" }, s.notice ?? "");
  const bars = s.editObject ? [toolbar(s), editBar(s)] : [toolbar(s)];
  const plan = s.plan ? [planSection(s.plan, !!s.explainOnly || s.plan.advice.some((a) => a.severity === "warning"))] : [];

  if (s.explainOnly) {
    app.replaceChildren(el("header", {}, el("h1", {}, `${s.alias} · ${l10n.t("Query plan")}`), button(l10n.t("Explain Again"), "refresh", refresh)), query, ...plan,
      el("p", { class: "message" }, l10n.t("Explained, not run: no rows were read. Run the statement (its CodeLens, or Ctrl+Enter) to read them.")), notice);
    query.open = true;
    return;
  }
  if (!s.columns.length || !s.fetched) {
    app.replaceChildren(el("header", {}, el("h1", {}, title), ...bars), status, query, ...plan, el("p", { class: "message" }, l10n.t("No rows.")), notice);
    return;
  }
  header = el("div", { role: "row", class: "row header", "aria-rowindex": "1" }, ...headerCells(g));
  body = el("div", { class: "body", role: "rowgroup" });
  const oldScroll = sameRun && scroller ? { top: scroller.scrollTop, left: scroller.scrollLeft } : { top: 0, left: 0 };
  scroller = el("div", {
    class: "grid", role: "grid", tabindex: "0", "aria-label": s.editObject ? l10n.t("Rows of {0} (editable: F2 or Enter edits a cell)", title) : l10n.t("Rows of {0}", title),
    "aria-rowcount": String(s.viewSize + 1), "aria-colcount": String(g.visible.length + 1), "aria-multiselectable": "true",
    ...(s.editObject ? { "aria-readonly": "false" } : { "aria-readonly": "true" }),
  }, el("div", { role: "rowgroup", class: "sticky" }, header), body);
  scroller.addEventListener("scroll", schedule, { passive: true });
  scroller.addEventListener("keydown", onKey);
  scroller.addEventListener("dblclick", (e) => {
    const at = cellFromEvent(e);
    if (at) startEdit(g, at.row, at.pos);
  });
  scroller.addEventListener("mousedown", (e) => {
    if ((e.target as HTMLElement).closest(".edit-host")) return;
    const at = cellFromEvent(e);
    if (!at) return;
    moveTo(g, at.row, at.pos, { extend: e.shiftKey, add: (e.ctrlKey || e.metaKey) && !e.shiftKey });
    const drag = (m: MouseEvent) => {
      const over = cellFromEvent(m);
      const active = activeAt(g);
      if (over && (over.row !== active.row || over.pos !== active.pos)) moveTo(g, over.row, over.pos, { extend: true });
    };
    scroller!.addEventListener("mousemove", drag);
    window.addEventListener("mouseup", () => scroller!.removeEventListener("mousemove", drag), { once: true });
  });
  app.replaceChildren(el("header", {}, el("h1", {}, title), ...bars), el("div", { class: "status-line" }, status, selectionLine), query, ...plan, filter, scroller, notice);
  scroller.scrollTop = oldScroll.top;
  scroller.scrollLeft = oldScroll.left;
  schedule();
  statsSoon(g);
}

// Ctrl/Cmd+C (or Edit → Copy) over the grid copies the selection through the host, which holds every row.
document.addEventListener("copy", (e) => {
  if (!grid || !scroller?.contains(document.activeElement) || grid.editing) return;
  e.preventDefault();
  copySelection(grid, "tsv");
});

// Ctrl/Cmd+V over an editable grid stages the pasted block from the active cell (one value fills a larger selection).
document.addEventListener("paste", (e) => {
  const g = grid;
  if (!g?.summary.editObject || !scroller?.contains(document.activeElement) || g.editing) return;
  const text = e.clipboardData?.getData("text/plain");
  if (text === undefined) return;
  e.preventDefault();
  const range = ranges(g)[g.selections.length - 1]!;
  const single = range.top === range.bottom && range.columns.length === 1;
  const { row, pos } = activeAt(g);
  send({ type: "paste", row: single ? row : range.top, columns: g.visible.slice(single ? pos : g.visible.indexOf(range.columns[0]!)), text, ...(single ? {} : { selection: range }) });
});

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parseResultsUpdate(event.data);
  if (!message) return;
  switch (message.type) {
    case "loading": case "running": case "error": case "failed": {
      grid?.editing?.close();
      grid = undefined;
      const failed = message.type === "error" || message.type === "failed";
      const heading = message.type === "running" || message.type === "failed" ? (document.title = message.title) : undefined;
      showMessage(app, failed ? message.message : l10n.t("Running the statement…"), failed ? "error" : "info", refresh, heading);
      if (message.type === "running" || message.type === "failed") {
        // Recorded now too, in case the run fails: a reload then tries the same statement again.
        vscode.setState({ ...panelTarget(), spec: { api: message.api, text: message.query } });
        // The org's message points into the statement (Row:1 Column:8): show it.
        app.append(el("pre", { class: "statement", "aria-label": failed ? l10n.t("The statement that failed") : l10n.t("The statement running") }, message.query));
      }
      break;
    }
    case "results": {
      const focused = !!scroller?.contains(document.activeElement);
      build(message.summary, grid);
      if (focused) scroller?.focus();
      break;
    }
    case "rows":
      if (grid && message.viewVersion === grid.summary.viewVersion) receive(grid, message.start, message.rows);
      break;
    case "children": {
      const key = JSON.stringify(message.path);
      const entry = grid && [...grid.expanded.values()].find((e) => e.open.has(key));
      if (entry) {
        entry.tables.set(key, message.table);
        redraw();
      }
      break;
    }
    case "progress":
      if (status && grid) status.textContent = l10n.t("Fetching… {0}", ofRowsText(message.fetched, message.totalSize));
      app.querySelector("progress")?.setAttribute("value", String(message.fetched));
      break;
    case "notice":
      if (notice) notice.textContent = message.text;
      break;
    case "stats":
      if (selectionLine) selectionLine.textContent = l10n.t("Selection: {0}", message.text);
      break;
    case "edits":
      if (grid) {
        grid.summary = { ...grid.summary, staged: { cells: message.cells, rows: message.rows } };
        if (stagedLine) stagedLine.textContent = stagedText(message.cells, message.rows);
        rereadHeld(grid);
        rereadChildren(grid);
        statsSoon(grid);
      }
      break;
    case "editRefused": {
      const g = grid;
      if (!g) break;
      if (notice) notice.textContent = message.message;
      if (message.path) {
        send({ type: "children", path: message.path }); // the table shows again what is staged
        break;
      }
      const v = [...g.blocks.entries()].flatMap(([b, rows]) => rows.map((r, i) => [b * BLOCK + i, r.index] as const)).find(([, index]) => index === message.index)?.[0];
      const pos = g.visible.indexOf(message.column);
      if (v !== undefined && pos >= 0) {
        rereadHeld(g);
        moveTo(g, v, pos);
        requestAnimationFrame(() => startEdit(g, v, pos, message.text, message.message));
      }
      break;
    }
  }
});

vscode.postMessage({ type: "ready" });
