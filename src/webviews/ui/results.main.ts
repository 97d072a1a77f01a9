/**
 * Query Results (browser side): a virtualized grid. The host keeps the rows; this script asks for
 * windows of the current view around what is on screen and keeps a bounded cache of them, so 50,000
 * rows scroll like 50. Cells are DOM text, never HTML.
 */
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import { EXPORT_FORMAT_NAMES, parseResultsUpdate, type ResultsSummary, type ResultsToHost } from "../../shared/protocol";
import type { Cell, ChildTable, ResultColumn, ResultRow } from "../../shared/resultTable";
import { button, connect, el, panelTarget, showMessage } from "./dom";

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

const count = new Intl.NumberFormat();

interface Grid {
  summary: ResultsSummary;
  widths: number[];
  blocks: Map<number, ResultRow[]>;
  requested: Set<number>;
  /** Expanded child tables by view row: the column and, once it arrives, the table. */
  expanded: Map<number, { column: number; table?: ChildTable }>;
  anchor: { row: number; col: number };
  active: { row: number; col: number };
  rendered: Map<number, HTMLElement>;
  /** Column widths still follow the content (until the first rows arrive or a person resizes). */
  autoWidths: boolean;
}

let grid: Grid | undefined;
let scroller: HTMLElement | undefined;
let body: HTMLElement | undefined;
let header: HTMLElement | undefined;
let status: HTMLElement | undefined;
let notice: HTMLElement | undefined;
let frame = 0;


const labelOf = (c: ResultColumn) => c.label ?? c.path;

function initialWidth(c: ResultColumn): number {
  if (c.kind === "children") return 130;
  return Math.min(320, Math.max(90, labelOf(c).length * 8 + 40));
}

// ---- geometry: fixed-height rows plus the expanded child tables between them ----------------

function childHeight(entry: { table?: ChildTable }): number {
  const rows = entry.table ? Math.min(entry.table.rows.length, CHILD_ROWS_SHOWN) : 1;
  return (rows + 2) * ROW_HEIGHT + 12; // caption, header, rows, padding
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

const measure = document.createElement("canvas").getContext("2d")!;

/** Widths that fit the header and the first rows' values, within reason. */
function fitWidths(g: Grid, rows: ResultRow[]): void {
  g.autoWidths = false;
  measure.font = getComputedStyle(scroller ?? document.body).font;
  g.widths = g.summary.columns.map((column, c) => {
    if (column.kind === "children") return g.widths[c]!;
    const texts = [`${labelOf(column)}   `, ...rows.map((r) => { const v = r.cells[c]; return v === null || typeof v === "object" ? "" : typeof v === "number" ? count.format(v) : String(v); })];
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
    g.rendered.get(v)?.remove();
    g.rendered.delete(v);
  }
  schedule();
}

// ---- drawing ---------------------------------------------------------------------------------

function schedule(): void {
  if (!frame) frame = requestAnimationFrame(() => ((frame = 0), draw()));
}

function applyWidths(g: Grid): void {
  // CSSOM custom property, not a style attribute: the CSP allows no inline styles.
  app.style.setProperty("--columns", `${GUTTER}px ${g.widths.map((w) => `${w}px`).join(" ")}`);
  app.style.setProperty("--grid-width", `${GUTTER + g.widths.reduce((a, b) => a + b, 0)}px`);
}

const inRange = (value: number, a: number, b: number) => value >= Math.min(a, b) && value <= Math.max(a, b);
const cellId = (row: number, col: number) => `cell-${row}-${col}`;

function cellNode(g: Grid, v: number, c: number, cell: Cell | undefined, column: ResultColumn): HTMLElement {
  const node = el("div", { role: "gridcell", id: cellId(v, c), "aria-colindex": String(c + 2) });
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
    node.append(el("span", { class: `codicon codicon-chevron-${open ? "down" : "right"}`, "aria-hidden": "true" }), `${count.format(cell.children)} ${cell.children === 1 ? "row" : "rows"}`);
    if (cell.more) node.append(el("span", { class: "more", title: "More child rows exist on the org" }, " +more"));
    node.addEventListener("click", () => toggleChildren(g, v, c));
  } else if (typeof cell === "string") {
    if (column.ids) {
      const link = el("a", { href: "#", "data-id": cell, tabindex: "-1" }, cell);
      link.addEventListener("click", (e) => (e.preventDefault(), send({ type: "openId", id: cell })));
      node.append(link);
    } else node.append(cell);
    node.title = cell;
  } else if (cell === undefined) classes.push("pending");
  const { anchor, active } = g;
  if (inRange(v, anchor.row, active.row) && inRange(c, anchor.col, active.col)) classes.push("selected");
  if (v === active.row && c === active.col) {
    classes.push("active");
    node.setAttribute("aria-selected", "true");
  }
  node.className = classes.join(" ");
  return node;
}

function rowNode(g: Grid, v: number): HTMLElement {
  const row = rowOf(g, v);
  const node = el("div", { role: "row", class: "row", "aria-rowindex": String(v + 2), "data-row": String(v) });
  node.style.transform = `translateY(${rowTop(g, v)}px)`;
  node.append(el("div", { role: "rowheader", class: "cell gutter" }, count.format(v + 1)));
  g.summary.columns.forEach((column, c) => node.append(cellNode(g, v, c, row ? row.cells[c] : undefined, column)));
  const open = g.expanded.get(v);
  if (open) node.append(childBlock(g, v, open));
  return node;
}

function childBlock(g: Grid, v: number, entry: { column: number; table?: ChildTable }): HTMLElement {
  const column = g.summary.columns[entry.column]!;
  const box = el("div", { class: "child", role: "region", "aria-label": `${labelOf(column)} of row ${v + 1}` });
  box.style.height = `${childHeight(entry)}px`;
  const t = entry.table;
  if (!t) return box.appendChild(el("p", { class: "muted" }, "Reading…")), box;
  const caption = `${labelOf(column)} · ${count.format(t.rows.length)} of ${count.format(t.total)} ${t.total === 1 ? "row" : "rows"}${t.more ? " · more on the org (Export fetches every child row)" : ""}`;
  const table = el("table", {}, el("caption", {}, caption), el("thead", {}, el("tr", {}, ...t.columns.map((c) => el("th", { scope: "col" }, labelOf(c))))));
  const tbody = el("tbody");
  for (const cells of t.rows) {
    tbody.append(el("tr", {}, ...cells.map((cell, i) => {
      const td = el("td", {}, cell === null ? "" : typeof cell === "object" ? `${cell.children} rows` : String(cell));
      if (t.columns[i]?.ids && typeof cell === "string") {
        const link = el("a", { href: "#" }, cell);
        link.addEventListener("click", (e) => (e.preventDefault(), send({ type: "openId", id: cell })));
        td.replaceChildren(link);
      }
      return td;
    })));
  }
  table.append(tbody);
  box.append(table);
  return box;
}

function draw(): void {
  const g = grid;
  if (!g || !scroller || !body) return;
  body.style.height = `${totalHeight(g)}px`;
  const first = Math.max(0, rowAt(g, scroller.scrollTop) - OVERSCAN);
  const last = Math.min(g.summary.viewSize - 1, rowAt(g, scroller.scrollTop + scroller.clientHeight) + OVERSCAN);
  request(g, first, last);
  for (const [v, node] of g.rendered) {
    if (v >= first && v <= last) continue;
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
  const active = document.getElementById(cellId(g.active.row, g.active.col));
  if (active) scroller.setAttribute("aria-activedescendant", active.id);
  else scroller.removeAttribute("aria-activedescendant");
}

/** Throws away the drawn rows (after a selection, expansion or data change) and draws again. */
function redraw(): void {
  if (!grid) return;
  for (const node of grid.rendered.values()) node.remove();
  grid.rendered.clear();
  schedule();
}

// ---- interaction -----------------------------------------------------------------------------

function toggleChildren(g: Grid, v: number, c: number): void {
  if (g.expanded.get(v)?.column === c) g.expanded.delete(v);
  else {
    const row = rowOf(g, v);
    if (!row) return;
    g.expanded.set(v, { column: c });
    send({ type: "children", index: row.index, column: c });
  }
  redraw();
}

function moveTo(g: Grid, row: number, col: number, extend: boolean): void {
  const rows = g.summary.viewSize, cols = g.summary.columns.length;
  g.active = { row: Math.max(0, Math.min(rows - 1, row)), col: Math.max(0, Math.min(cols - 1, col)) };
  if (!extend) g.anchor = { ...g.active };
  // Keep the active cell on screen.
  const top = rowTop(g, g.active.row);
  if (top < scroller!.scrollTop + ROW_HEIGHT) scroller!.scrollTop = Math.max(0, top - ROW_HEIGHT);
  else if (top + ROW_HEIGHT > scroller!.scrollTop + scroller!.clientHeight) scroller!.scrollTop = top + 2 * ROW_HEIGHT - scroller!.clientHeight;
  paintSelection(g);
  schedule();
}

/** Marks the selected and the active cell on the rows drawn (without rebuilding them: a click must land on the node it pressed). */
function paintSelection(g: Grid): void {
  const { anchor, active } = g;
  for (const [v, rowNode] of g.rendered) {
    for (const cell of rowNode.querySelectorAll<HTMLElement>(":scope > [role=gridcell]")) {
      const c = Number(cell.getAttribute("aria-colindex")) - 2;
      cell.classList.toggle("selected", inRange(v, anchor.row, active.row) && inRange(c, anchor.col, active.col));
      const isActive = v === active.row && c === active.col;
      cell.classList.toggle("active", isActive);
      if (isActive) cell.setAttribute("aria-selected", "true");
      else cell.removeAttribute("aria-selected");
    }
  }
  const activeCell = document.getElementById(cellId(active.row, active.col));
  if (activeCell) scroller?.setAttribute("aria-activedescendant", activeCell.id);
}

function copySelection(g: Grid): void {
  const { anchor, active } = g;
  send({ type: "copy", range: { top: Math.min(anchor.row, active.row), bottom: Math.max(anchor.row, active.row), left: Math.min(anchor.col, active.col), right: Math.max(anchor.col, active.col) } });
}

function onKey(e: KeyboardEvent): void {
  const g = grid;
  if (!g || !g.summary.viewSize) return;
  const page = Math.max(1, Math.floor(scroller!.clientHeight / ROW_HEIGHT) - 1);
  const { row, col } = g.active;
  const mod = e.ctrlKey || e.metaKey;
  const keys: Record<string, () => void> = {
    ArrowDown: () => moveTo(g, mod ? g.summary.viewSize - 1 : row + 1, col, e.shiftKey),
    ArrowUp: () => moveTo(g, mod ? 0 : row - 1, col, e.shiftKey),
    ArrowRight: () => moveTo(g, row, mod ? g.summary.columns.length - 1 : col + 1, e.shiftKey),
    ArrowLeft: () => moveTo(g, row, mod ? 0 : col - 1, e.shiftKey),
    PageDown: () => moveTo(g, row + page, col, e.shiftKey),
    PageUp: () => moveTo(g, row - page, col, e.shiftKey),
    Home: () => moveTo(g, mod ? 0 : row, 0, e.shiftKey),
    End: () => moveTo(g, mod ? g.summary.viewSize - 1 : row, g.summary.columns.length - 1, e.shiftKey),
    Enter: () => activate(g),
    " ": () => activate(g),
  };
  if (mod && e.key.toLowerCase() === "a") {
    g.anchor = { row: 0, col: 0 };
    g.active = { row: g.summary.viewSize - 1, col: g.summary.columns.length - 1 };
    paintSelection(g);
  } else if (keys[e.key]) keys[e.key]!();
  else return;
  e.preventDefault();
}

/** Enter on a cell: open the ID it holds, or show / hide its child rows. */
function activate(g: Grid): void {
  const cell = rowOf(g, g.active.row)?.cells[g.active.col];
  const column = g.summary.columns[g.active.col];
  if (cell && typeof cell === "object") toggleChildren(g, g.active.row, g.active.col);
  else if (typeof cell === "string" && column?.ids) send({ type: "openId", id: cell });
}

function cellFromEvent(e: MouseEvent): { row: number; col: number } | undefined {
  const cell = (e.target as HTMLElement).closest<HTMLElement>("[role=gridcell]");
  const match = cell && /^cell-(\d+)-(\d+)$/.exec(cell.id);
  return match ? { row: Number(match[1]), col: Number(match[2]) } : undefined;
}

function headerCell(g: Grid, column: ResultColumn, c: number): HTMLElement {
  const sort = g.summary.sort;
  const direction = sort?.column === c ? (sort.descending ? "descending" : "ascending") : "none";
  const label = el("button", { type: "button", class: "sort", title: `${column.path} — sort` }, labelOf(column));
  if (direction !== "none") label.append(el("span", { class: `codicon codicon-arrow-${direction === "ascending" ? "up" : "down"}`, "aria-hidden": "true" }));
  label.addEventListener("click", () => {
    // ascending → descending → fetch order
    const next = direction === "none" ? { column: c, descending: false } : direction === "ascending" ? { column: c, descending: true } : undefined;
    send({ type: "view", filter: g.summary.filter, ...(next ? { sort: next } : {}) });
  });
  label.addEventListener("keydown", (e) => {
    // Alt+←/→ narrows or widens the column for keyboard users.
    if (!e.altKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    e.preventDefault();
    resize(g, c, g.widths[c]! + (e.key === "ArrowRight" ? 24 : -24));
  });
  const handle = el("div", { class: "resize", "aria-hidden": "true", title: "Drag to resize" });
  handle.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const startX = e.clientX, startWidth = g.widths[c]!;
    const move = (m: PointerEvent) => resize(g, c, startWidth + m.clientX - startX);
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", () => handle.removeEventListener("pointermove", move), { once: true });
  });
  return el("div", { role: "columnheader", class: "cell head", "aria-sort": direction, "aria-colindex": String(c + 2) }, label, handle);
}

function resize(g: Grid, c: number, width: number): void {
  g.autoWidths = false;
  g.widths[c] = Math.max(48, Math.min(1200, Math.round(width)));
  applyWidths(g);
}

// ---- the page --------------------------------------------------------------------------------

function statusText(s: ResultsSummary): string {
  const parts = [`${count.format(s.fetched)} of ${count.format(s.totalSize)} ${s.totalSize === 1 ? "row" : "rows"}`];
  if (s.filter) parts.push(`${count.format(s.viewSize)} match “${s.filter}”`);
  parts.push(`first page in ${count.format(s.elapsedMs)} ms`, `ran ${new Date(s.ranAt).toLocaleTimeString()}`);
  if (s.more) parts.push("more rows on the org");
  return parts.join(" · ");
}

function toolbar(s: ResultsSummary): HTMLElement {
  const bar = el("div", { class: "actions", role: "toolbar", "aria-label": "Results actions" }, button("Run Again", "refresh", refresh));
  if (s.fetching) bar.append(el("progress", { max: String(s.totalSize), value: String(s.fetched), "aria-label": "Rows fetched" }), button("Cancel", "debug-stop", () => send({ type: "cancel" })));
  else if (s.more) bar.append(button("Fetch More", "chevron-down", () => send({ type: "fetchMore" })), button("Fetch All", "cloud-download", () => send({ type: "fetchAll" })));
  bar.append(button("Copy", "copy", () => grid && copySelection(grid), { disabled: !s.viewSize }));
  for (const format of EXPORT_FORMAT_NAMES) bar.append(button(`Export ${format.toUpperCase()}`, "save", () => send({ type: "export", format })));
  return bar;
}

function build(s: ResultsSummary, previous: Grid | undefined): void {
  // A reload runs again what the panel shows now (the document may have run another statement since it opened).
  vscode.setState({ ...panelTarget(), spec: { api: s.api, text: s.query } });
  const sameRun = previous && previous.summary.ranAt === s.ranAt && previous.summary.query === s.query;
  const g: Grid = {
    summary: s,
    widths: sameRun ? previous.widths : s.columns.map(initialWidth),
    blocks: new Map(),
    requested: new Set(),
    // Expansions belong to view rows: they survive new pages, not a new sort or filter.
    expanded: sameRun && JSON.stringify(previous.summary.sort) === JSON.stringify(s.sort) && previous.summary.filter === s.filter ? previous.expanded : new Map(),
    anchor: sameRun ? previous.anchor : { row: 0, col: 0 },
    active: sameRun ? previous.active : { row: 0, col: 0 },
    rendered: new Map(),
    autoWidths: !sameRun,
  };
  while (g.widths.length < s.columns.length) g.widths.push(initialWidth(s.columns[g.widths.length]!));
  grid = g;
  applyWidths(g);

  const filter = el("vscode-textfield" as keyof HTMLElementTagNameMap, { class: "filter", placeholder: "Filter fetched rows", "aria-label": "Filter fetched rows", value: s.filter }) as HTMLElement & { value: string };
  let timer = 0;
  filter.addEventListener("input", () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => send({ type: "view", filter: filter.value, ...(g.summary.sort ? { sort: g.summary.sort } : {}) }), 200);
  });

  const title = `${s.alias} · ${s.api === "sosl" ? "SOSL search" : s.api === "tooling" ? "Tooling API query" : "SOQL query"}`;
  const query = el("details", { class: "query" }, el("summary", {}, "Statement"), el("pre", {}, s.query));
  status = el("p", { class: "status", role: "status" }, statusText(s));
  notice = el("p", { class: "notice", "aria-live": "polite" });

  if (!s.columns.length || !s.fetched) {
    app.replaceChildren(el("header", {}, el("h1", {}, title), toolbar(s)), status, query, el("p", { class: "message" }, "No rows."), notice);
    return;
  }
  header = el("div", { role: "row", class: "row header", "aria-rowindex": "1" }, el("div", { role: "columnheader", class: "cell gutter head" }, "#"), ...s.columns.map((c, i) => headerCell(g, c, i)));
  body = el("div", { class: "body", role: "rowgroup" });
  const oldScroll = sameRun && scroller ? scroller.scrollTop : 0;
  scroller = el("div", {
    class: "grid", role: "grid", tabindex: "0", "aria-label": `Rows of ${title}`,
    "aria-rowcount": String(s.viewSize + 1), "aria-colcount": String(s.columns.length + 1), "aria-multiselectable": "true",
  }, el("div", { role: "rowgroup", class: "sticky" }, header), body);
  scroller.addEventListener("scroll", schedule, { passive: true });
  scroller.addEventListener("keydown", onKey);
  scroller.addEventListener("mousedown", (e) => {
    const at = cellFromEvent(e);
    if (!at) return;
    moveTo(g, at.row, at.col, e.shiftKey);
    const drag = (m: MouseEvent) => {
      const over = cellFromEvent(m);
      if (over && (over.row !== g.active.row || over.col !== g.active.col)) moveTo(g, over.row, over.col, true);
    };
    scroller!.addEventListener("mousemove", drag);
    window.addEventListener("mouseup", () => scroller!.removeEventListener("mousemove", drag), { once: true });
  });
  app.replaceChildren(el("header", {}, el("h1", {}, title), toolbar(s)), status, query, filter, scroller, notice);
  scroller.scrollTop = oldScroll;
  schedule();
}

// Ctrl/Cmd+C (or Edit → Copy) over the grid copies the selection through the host, which holds every row.
document.addEventListener("copy", (e) => {
  if (!grid || !scroller?.contains(document.activeElement)) return;
  e.preventDefault();
  copySelection(grid);
});

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parseResultsUpdate(event.data);
  if (!message) return;
  switch (message.type) {
    case "loading": case "running": case "error": case "failed": {
      grid = undefined;
      const failed = message.type === "error" || message.type === "failed";
      const heading = message.type === "running" || message.type === "failed" ? (document.title = message.title) : undefined;
      showMessage(app, failed ? message.message : "Running the statement…", failed ? "error" : "info", refresh, heading);
      if (message.type === "running" || message.type === "failed") {
        // Recorded now too, in case the run fails: a reload then tries the same statement again.
        vscode.setState({ ...panelTarget(), spec: { api: message.api, text: message.query } });
        // The org's message points into the statement (Row:1 Column:8): show it.
        app.append(el("pre", { class: "statement", "aria-label": failed ? "The statement that failed" : "The statement running" }, message.query));
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
      const entry = grid && [...grid.expanded.entries()].find(([v, e]) => e.column === message.column && rowOf(grid!, v)?.index === message.index);
      if (entry) {
        entry[1].table = message.table;
        redraw();
      }
      break;
    }
    case "progress":
      if (status && grid) status.textContent = `Fetching… ${count.format(message.fetched)} of ${count.format(message.totalSize)} rows`;
      app.querySelector("progress")?.setAttribute("value", String(message.fetched));
      break;
    case "notice":
      if (notice) notice.textContent = message.text;
      break;
  }
});

vscode.postMessage({ type: "ready" });
