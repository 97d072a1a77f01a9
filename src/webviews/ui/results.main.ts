/**
 * Query Results (browser side): a virtualized grid. The host keeps the rows; this script asks for
 * windows of the current view around what is on screen and keeps a bounded cache of them, so 50,000
 * rows scroll like 50. Cells are DOM text, never HTML.
 *
 * Editing: an editable cell opens an editor by its field's type (F2, Enter, double-click or typing); the
 * text is checked here as the host will check it, then staged at the host, which holds every edit. Paste
 * stages a spreadsheet block; Delete clears the selected cells. Columns can be hidden, moved and frozen
 * (the host remembers the layout per statement); several ranges can be selected at once (Ctrl/Cmd+click).
 *
 * A new summary of the same grid (rows fetched, edits staged) patches the page: only the figures and the
 * rows whose data changed are drawn again, so a click, a selection or an open editor survives rows
 * streaming in. The parts live in ./results: the state (model), the rows (body), child tables, editors,
 * columns, the toolbar and the keys.
 */
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import * as l10n from "@vscode/l10n";
import { parseResultsUpdate, type ResultsSummary } from "../protocol/results";
import { button, el, panelTarget, showMessage } from "./dom";
import { receive, rereadHeld } from "./results/body";
import { redraw, schedule } from "./results/drawing";
import { moveTo, statsSoon } from "./results/selection";
import { rereadChildren } from "./results/children";
import { applyWidths, headerCells } from "./results/columns";
import { startEdit } from "./results/editors";
import { cellFromEvent, onKey } from "./results/keys";
import { BLOCK, activeAt, gridFor, isSameRun, patchable, ranges, type Grid } from "./results/model";
import { app, host, page, refresh, send } from "./results/page";
import { stagedText, statusText } from "./results/text";
import { copySelection, editBar, planSection, toolbar } from "./results/toolbar";

/** Shows a summary: a patch when it is the grid on the page with new figures, else the page built for it. */
function show(s: ResultsSummary): void {
  const shown = page.grid;
  if (shown && patchable(shown.summary, s)) return patch(shown, s);
  // Focus stays in the grid across a rebuild only while the grid has it: a rebuild that arrives while a picker or
  // an editor has the focus (a refresh after a commit) must not take it — a picker that loses it closes.
  const focused = document.hasFocus() && !!page.scroller?.contains(document.activeElement);
  build(s, shown);
  if (focused) page.scroller?.focus();
}

/** The same grid with new figures: the nodes, the selection, an open editor, the scroll and the focus stay. */
function patch(g: Grid, s: ResultsSummary): void {
  const before = g.summary;
  g.summary = s;
  page.status!.textContent = statusText(s);
  if (s.notice) page.notice!.textContent = s.notice;
  if (page.stagedLine) page.stagedLine.textContent = stagedText(s.staged.cells, s.staged.rows);
  // The toolbar is made again only when its buttons change (a fetch starts or ends); its progress moves in place.
  if (before.fetching !== s.fetching || before.more !== s.more || !before.viewSize !== !s.viewSize) page.toolbar?.replaceWith((page.toolbar = toolbar(s)));
  else page.toolbar?.querySelector("progress")?.setAttribute("value", String(s.fetched));
  page.scroller?.setAttribute("aria-rowcount", String(s.viewSize + 1));
  if (s.viewVersion !== before.viewVersion) {
    // The windows held are read again in the new version (answers to the old one are dropped); rows that
    // come back unchanged keep their nodes.
    g.requested.clear();
    rereadHeld(g);
  }
  schedule();
}

function build(s: ResultsSummary, previous: Grid | undefined): void {
  // A reload runs again what the panel shows now (the document may have run another statement since it opened).
  host.setState({ ...panelTarget(), spec: { api: s.api, text: s.query } });
  previous?.editing?.close();
  const sameRun = isSameRun(previous, s);
  const g = gridFor(s, previous);
  page.grid = g;
  applyWidths(g);

  const filter = el("vscode-textfield" as keyof HTMLElementTagNameMap, { class: "filter", placeholder: l10n.t("Filter fetched rows"), "aria-label": l10n.t("Filter fetched rows"), value: s.filter }) as HTMLElement & { value: string };
  let timer = 0;
  filter.addEventListener("input", () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => send({ type: "view", filter: filter.value, ...(g.summary.sort ? { sort: g.summary.sort } : {}) }), 200);
  });

  const title = `${s.alias} · ${s.api === "sosl" ? l10n.t("SOSL search") : s.api === "tooling" ? l10n.t("Tooling API query") : l10n.t("SOQL query")}`;
  const query = el("details", { class: "query" }, el("summary", {}, l10n.t("Statement")), el("pre", {}, s.query));
  page.status = el("p", { class: "status", role: "status" }, statusText(s));
  page.selectionLine = el("span", { class: "selection-stats", "aria-live": "polite" });
  page.notice = el("p", { class: "notice", "aria-live": "polite" }, s.notice ?? "");
  page.toolbar = toolbar(s);
  page.stagedLine = undefined;
  const bars = s.editObject ? [page.toolbar, editBar(s)] : [page.toolbar];
  const plan = s.plan ? [planSection(s.plan, !!s.explainOnly || s.plan.advice.some((a) => a.severity === "warning"))] : [];

  if (s.explainOnly) {
    app.replaceChildren(el("header", {}, el("h1", {}, `${s.alias} · ${l10n.t("Query plan")}`), button(l10n.t("Explain Again"), "refresh", refresh)), query, ...plan,
      el("p", { class: "message" }, l10n.t("Explained, not run: no rows were read. Run the statement (its CodeLens, or Ctrl+Enter) to read them.")), page.notice);
    query.open = true;
    return;
  }
  if (!s.columns.length || !s.fetched) {
    app.replaceChildren(el("header", {}, el("h1", {}, title), ...bars), page.status, query, ...plan, el("p", { class: "message" }, l10n.t("No rows.")), page.notice);
    return;
  }
  page.header = el("div", { role: "row", class: "row header", "aria-rowindex": "1" }, ...headerCells(g));
  page.body = el("div", { class: "body", role: "rowgroup" });
  const oldScroll = sameRun && page.scroller ? { top: page.scroller.scrollTop, left: page.scroller.scrollLeft } : { top: 0, left: 0 };
  page.scroller = el("div", {
    class: "grid", role: "grid", tabindex: "0", "aria-label": s.editObject ? l10n.t("Rows of {0} (editable: F2 or Enter edits a cell)", title) : l10n.t("Rows of {0}", title),
    "aria-rowcount": String(s.viewSize + 1), "aria-colcount": String(g.visible.length + 1), "aria-multiselectable": "true",
    ...(s.editObject ? { "aria-readonly": "false" } : { "aria-readonly": "true" }),
  }, el("div", { role: "rowgroup", class: "sticky" }, page.header), page.body);
  page.scroller.addEventListener("scroll", schedule, { passive: true });
  page.scroller.addEventListener("keydown", onKey);
  page.scroller.addEventListener("dblclick", (e) => {
    const at = cellFromEvent(e);
    if (at) startEdit(g, at.row, at.pos);
  });
  page.scroller.addEventListener("mousedown", (e) => {
    if ((e.target as HTMLElement).closest(".edit-host")) return;
    const at = cellFromEvent(e);
    if (!at) return;
    moveTo(g, at.row, at.pos, { extend: e.shiftKey, add: (e.ctrlKey || e.metaKey) && !e.shiftKey });
    const drag = (m: MouseEvent) => {
      const over = cellFromEvent(m);
      const active = activeAt(g);
      if (over && (over.row !== active.row || over.pos !== active.pos)) moveTo(g, over.row, over.pos, { extend: true });
    };
    page.scroller!.addEventListener("mousemove", drag);
    window.addEventListener("mouseup", () => page.scroller!.removeEventListener("mousemove", drag), { once: true });
  });
  app.replaceChildren(el("header", {}, el("h1", {}, title), ...bars), el("div", { class: "status-line" }, page.status, page.selectionLine), query, ...plan, filter, page.scroller, page.notice);
  page.scroller.scrollTop = oldScroll.top;
  page.scroller.scrollLeft = oldScroll.left;
  schedule();
  statsSoon(g);
}

// Ctrl/Cmd+C (or Edit → Copy) over the grid copies the selection through the host, which holds every row.
document.addEventListener("copy", (e) => {
  if (!page.grid || !page.scroller?.contains(document.activeElement) || page.grid.editing) return;
  e.preventDefault();
  copySelection(page.grid, "tsv");
});

// Ctrl/Cmd+V over an editable grid stages the pasted block from the active cell (one value fills a larger selection).
document.addEventListener("paste", (e) => {
  const g = page.grid;
  if (!g?.summary.editObject || !page.scroller?.contains(document.activeElement) || g.editing) return;
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
      page.grid?.editing?.close();
      page.grid = undefined;
      const failed = message.type === "error" || message.type === "failed";
      const heading = message.type === "running" || message.type === "failed" ? (document.title = message.title) : undefined;
      showMessage(app, failed ? message.message : l10n.t("Running the statement…"), failed ? "error" : "info", refresh, heading);
      if (message.type === "running" || message.type === "failed") {
        // Recorded now too, in case the run fails: a reload then tries the same statement again.
        host.setState({ ...panelTarget(), spec: { api: message.api, text: message.query } });
        // The org's message points into the statement (Row:1 Column:8): show it.
        app.append(el("pre", { class: "statement", "aria-label": failed ? l10n.t("The statement that failed") : l10n.t("The statement running") }, message.query));
      }
      break;
    }
    case "results":
      show(message.summary);
      break;
    case "rows":
      if (page.grid && message.viewVersion === page.grid.summary.viewVersion) receive(page.grid, message.start, message.rows);
      break;
    case "children": {
      const key = JSON.stringify(message.path);
      const entry = page.grid && [...page.grid.expanded.values()].find((e) => e.open.has(key));
      if (entry) {
        entry.tables.set(key, message.table);
        redraw();
      }
      break;
    }
    case "notice":
      if (page.notice) page.notice.textContent = message.text;
      break;
    case "stats":
      if (page.selectionLine) page.selectionLine.textContent = l10n.t("Selection: {0}", message.text);
      break;
    case "edits":
      if (page.grid) {
        page.grid.summary = { ...page.grid.summary, staged: { cells: message.cells, rows: message.rows } };
        if (page.stagedLine) page.stagedLine.textContent = stagedText(message.cells, message.rows);
        rereadHeld(page.grid);
        rereadChildren(page.grid);
        statsSoon(page.grid);
      }
      break;
    case "editRefused": {
      const g = page.grid;
      if (!g) break;
      if (page.notice) page.notice.textContent = message.message;
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

host.postMessage({ type: "ready" });
