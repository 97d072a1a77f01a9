/** The toolbars (run, fetch, copy, export; the editing bar) and the query plan section. */
import * as l10n from "@vscode/l10n";
import { el, button } from "../dom";
import { COPY_FORMATS, EXPORT_FORMAT_NAMES, type CopyFormat, type ResultsSummary, type RowAction } from "../../protocol/results";
import { type PlanView } from "../../../shared/runSpec";
import { type Grid, activeAt, rowOf, ranges } from "./model";
import { send, refresh, page } from "./page";
import { count, FORMAT_LABELS, stagedText } from "./text";

let copyFormat: CopyFormat = "tsv";
export const copySelection = (g: Grid, format = copyFormat) => send({ type: "copy", ranges: ranges(g), format });

function rowAction(g: Grid, action: RowAction): void {
  send({ type: "rowAction", action, rows: ranges(g).map((r) => ({ top: r.top, bottom: r.bottom })) });
}

export function toolbar(s: ResultsSummary): HTMLElement {
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
  bar.append(button(l10n.t("Copy"), "copy", () => page.grid && copySelection(page.grid), { disabled: !s.viewSize }), format);
  for (const f of EXPORT_FORMAT_NAMES) bar.append(button(l10n.t("Export {0}", FORMAT_LABELS[f]), "save", () => send({ type: "export", format: f })));
  if (s.layout.hidden.length) bar.append(button(l10n.t("Show {0} Hidden", count.format(s.layout.hidden.length)), "eye", () => send({ type: "layout", layout: { ...s.layout, hidden: [] } })));
  return bar;
}

/** The editing bar: staged count, review, commit, discard, and the row actions. */
export function editBar(s: ResultsSummary): HTMLElement {
  page.stagedLine = el("span", { class: "staged-count", role: "status" }, stagedText(s.staged.cells, s.staged.rows));
  const on = (action: () => void) => () => page.grid && action();
  const discard = (scope: "cell" | "row") => on(() => {
    const g = page.grid!;
    const row = rowOf(g, activeAt(g).row);
    if (row) send({ type: "discard", index: row.index, ...(scope === "cell" ? { column: g.visible[activeAt(g).pos]! } : {}) });
  });
  return el("div", { class: "actions edit-actions", role: "toolbar", "aria-label": l10n.t("Edit {0} records", s.editObject ?? "") },
    page.stagedLine,
    button(l10n.t("Review Changes"), "diff", () => send({ type: "review" })),
    button(l10n.t("Commit"), "check", () => send({ type: "commit" }), { primary: true }),
    button(l10n.t("Discard Cell"), "discard", discard("cell")),
    button(l10n.t("Discard Row"), "discard", discard("row")),
    button(l10n.t("Discard All"), "clear-all", () => send({ type: "discard" })),
    el("span", { class: "separator", "aria-hidden": "true" }),
    button(l10n.t("Delete Rows"), "trash", on(() => rowAction(page.grid!, "delete"))),
    button(l10n.t("Clone Rows"), "copy", on(() => rowAction(page.grid!, "clone"))),
    button(l10n.t("Open Records"), "go-to-file", on(() => rowAction(page.grid!, "open"))),
    button(l10n.t("Compare Rows"), "diff-multiple", on(() => rowAction(page.grid!, "compareRows"))),
    button(l10n.t("Compare"), "diff-single", on(() => rowAction(page.grid!, "compare"))),
    button(l10n.t("Overwrite"), "warning", on(() => rowAction(page.grid!, "overwrite"))),
  );
}

/** The statement's query plans: what they advise, then each plan, the one the org uses first. */
export function planSection(plan: PlanView, open: boolean): HTMLElement {
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
