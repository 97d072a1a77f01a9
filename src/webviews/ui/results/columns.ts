/** The columns: their widths, and the header — sort, resize, and the column menu (hide, move, freeze), remembered per statement by the host. */
import * as l10n from "@vscode/l10n";
import { el } from "../dom";
import { type ColumnLayout } from "../../protocol/results";
import { type ResultColumn } from "../../../shared/resultTable";
import { GUTTER, type Grid, labelOf, columnAt } from "./model";
import { app, send } from "./page";

// ---- widths ----------------------------------------------------------------------------------

/** Left offsets of the frozen columns (they stick beside the row numbers while the rest scrolls). */
export function frozenLefts(g: Grid): number[] {
  const lefts: number[] = [];
  let left = GUTTER;
  for (let pos = 0; pos < Math.min(g.summary.layout.frozen, g.visible.length); pos++) {
    lefts.push(left);
    left += g.widths[g.visible[pos]!]!;
  }
  return lefts;
}

export function applyWidths(g: Grid): void {
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

export function headerCells(g: Grid): HTMLElement[] {
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
