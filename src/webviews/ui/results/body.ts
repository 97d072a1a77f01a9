/** The grid's rows: asking the host for windows of them, fitting the widths, drawing the rows on screen (only those whose data changed are drawn again). */
import * as l10n from "@vscode/l10n";
import { el } from "../dom";
import { type ResultRow } from "../../../shared/resultTable";
import { childBlock, toggleChildren } from "./children";
import { BLOCK, MAX_BLOCKS, OVERSCAN, type Grid, labelOf, activeAt, rowTop, rowAt, totalHeight, rowOf, isSelected, cellId, sameRow } from "./model";
import { applyWidths, frozenLefts } from "./columns";
import { drawsWith, schedule } from "./drawing";
import { send, page } from "./page";
import { count, rowsText, stateLabel } from "./text";

export function request(g: Grid, first: number, last: number): void {
  for (let b = Math.floor(first / BLOCK); b <= Math.floor(last / BLOCK); b++) {
    if (g.blocks.has(b) || g.requested.has(b) || b * BLOCK >= g.summary.viewSize) continue;
    g.requested.add(b);
    send({ type: "rows", start: b * BLOCK, count: BLOCK });
  }
}

/** Reads again the windows held (after edits were staged or committed); they stay shown until the new ones arrive. */
export function rereadHeld(g: Grid): void {
  for (const b of g.blocks.keys()) {
    g.requested.add(b);
    send({ type: "rows", start: b * BLOCK, count: BLOCK });
  }
}

const measure = document.createElement("canvas").getContext("2d")!;

/** Widths that fit the header and the first rows' values, within reason. */
function fitWidths(g: Grid, rows: ResultRow[]): void {
  g.autoWidths = false;
  measure.font = getComputedStyle(page.scroller ?? document.body).font;
  g.widths = g.summary.columns.map((column, c) => {
    if (column.kind === "children") return g.widths[c]!;
    const texts = [`${labelOf(column)}     `, ...rows.map((r) => { const v = r.cells[c]; return v === null || typeof v === "object" ? "" : typeof v === "number" ? count.format(v) : String(v); })];
    return Math.max(60, Math.min(360, Math.ceil(Math.max(...texts.map((t) => measure.measureText(t).width)) + 16)));
  });
  applyWidths(g);
}

export function receive(g: Grid, start: number, rows: ResultRow[]): void {
  if (g.autoWidths) fitWidths(g, rows);
  const block = Math.floor(start / BLOCK);
  g.requested.delete(block);
  const held = g.blocks.get(block);
  g.blocks.set(block, rows);
  // Forget the windows farthest from where the person is.
  const here = Math.floor(rowAt(g, page.scroller?.scrollTop ?? 0) / BLOCK);
  while (g.blocks.size > MAX_BLOCKS) {
    const farthest = [...g.blocks.keys()].sort((a, b) => Math.abs(b - here) - Math.abs(a - here))[0]!;
    g.blocks.delete(farthest);
  }
  for (let v = start; v < start + rows.length; v++) {
    // The row being edited keeps its editor; a row that came back unchanged keeps its node (and a click on it).
    if (g.editing?.row === v || sameRow(held?.[v - start], rows[v - start])) continue;
    g.rendered.get(v)?.remove();
    g.rendered.delete(v);
  }
  schedule();
}

// ---- drawing ---------------------------------------------------------------------------------

const ROW_ICONS: Record<string, string> = { inserted: "add", saved: "check", refused: "error", conflict: "warning", deleted: "trash", toDelete: "trash" };

export function cellNode(g: Grid, v: number, pos: number, row: ResultRow | undefined, lefts: number[]): HTMLElement {
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

export function rowNode(g: Grid, v: number): HTMLElement {
  const row = rowOf(g, v);
  const node = el("div", { role: "row", class: "row", "aria-rowindex": String(v + 2), "data-row": String(v) });
  if (row?.row?.state === "deleted" || row?.row?.state === "toDelete") node.classList.add(row.row.state === "deleted" ? "deleted" : "to-delete");
  node.style.transform = `translateY(${rowTop(g, v)}px)`;
  node.append(gutterNode(v, row));
  const lefts = frozenLefts(g);
  g.visible.forEach((_, pos) => node.append(cellNode(g, v, pos, row, lefts)));
  const open = g.expanded.get(v);
  if (open) node.append(childBlock(g, v, open));
  return node;
}

export function draw(): void {
  const g = page.grid;
  if (!g || !page.scroller || !page.body) return;
  page.body.style.height = `${totalHeight(g)}px`;
  const first = Math.max(0, rowAt(g, page.scroller.scrollTop) - OVERSCAN);
  const last = Math.min(g.summary.viewSize - 1, rowAt(g, page.scroller.scrollTop + page.scroller.clientHeight) + OVERSCAN);
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
  page.body.append(fragment);
  const active = activeAt(g);
  const activeCell = document.getElementById(cellId(active.row, g.visible[active.pos] ?? 0));
  if (activeCell) page.scroller.setAttribute("aria-activedescendant", activeCell.id);
  else page.scroller.removeAttribute("aria-activedescendant");
}

// The frames every module asks for (drawing.ts) draw the rows here.
drawsWith(draw);
