/** Child tables under a row (a subquery's records), nested at any depth, with their own cell editing. */
import * as l10n from "@vscode/l10n";
import { el } from "../dom";
import { type CellEditor } from "../../../shared/cellInput";
import { type ChildPath, type ResultRow } from "../../../shared/resultTable";
import { redraw } from "./drawing";
import { openEditor } from "./editors";
import { type Expansion, type Grid, labelOf, childHeight, rowOf } from "./model";
import { send } from "./page";
import { count, stateLabel, ofRowsText } from "./text";

export function childBlock(g: Grid, v: number, entry: Expansion): HTMLElement {
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
export function rereadChildren(g: Grid): void {
  for (const entry of g.expanded.values()) for (const key of entry.open) send({ type: "children", path: JSON.parse(key) as ChildPath });
}

export function toggleChildren(g: Grid, v: number, c: number): void {
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

