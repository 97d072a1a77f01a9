/**
 * The Query Results panel: one per source (a scratch document, or the search command). The host keeps
 * the rows in a QueryRun; the webview asks for windows of the current view and never holds them all.
 */
import * as vscode from "vscode";
import { CancelledError } from "../client/errors";
import { describeError } from "../platform/errorMessages";
import { readSettings } from "../platform/settings";
import { MAX_WINDOW_ROWS, parseResultsRequest, type ColumnLayout, type ExportFormatName, type HostToResults, type ResultsSummary, type ResultsToHost, type RowAction } from "./protocol/results";
import { type PlanView } from "../shared/runSpec";
import { tokenize } from "../soql/statements";
import { stripComments } from "../soql/runText";
import { copyText, selectionStats } from "./gridCopy";
import { markEditableColumns, recordRef, type CommitOutcome } from "./gridEdits";
import type { ChildPath } from "../shared/resultTable";
import { PanelSet, type Panel, type PanelDeps, type PanelPlacement, type PanelTarget } from "./panels";
import type { QueryExplain } from "../client";
import { withWriteContext } from "../client/writeRecord";
import { planAdvice } from "../soql/planAdvice";
import { QueryRun, type RunSpec } from "./queryRun";
import { formatCount, recordsText, rowsText } from "../platform/numbers";

/** Where a results panel opens, and what to do with its run once read (a revert or a proposal stages its values): what to tell the person. */
export interface ResultsPlacement extends PanelPlacement {
  onFirstRun?: (run: QueryRun) => string;
}

/** The results panels: `open` may carry work for the run it starts, done once its rows are read. */
export class ResultsPanels extends PanelSet<ResultsToHost, QueryRun, HostToResults> {
  private readonly firstRuns = new Map<string, (run: QueryRun) => string>();

  override open(target: PanelTarget, options: ResultsPlacement = {}): Panel<ResultsToHost, QueryRun, HostToResults> {
    if (options.onFirstRun) this.firstRuns.set(target.id, options.onFirstRun);
    return super.open(target, options);
  }

  /** The work waiting for the run of a source, taken once. */
  takeFirstRun(source: string): ((run: QueryRun) => string) | undefined {
    const work = this.firstRuns.get(source);
    this.firstRuns.delete(source);
    return work;
  }
}

export interface ResultsHooks {
  /** A run's first page arrived (history records it). */
  onRun(orgKey: string, run: QueryRun): void;
  /** Exports every row of the statement to a file the person picks. */
  exportRows(orgKey: string, spec: RunSpec, format: ExportFormatName): Promise<void>;
  /** Opens what an ID names: a knowledge article's details, else the record. */
  openId(orgKey: string, id: string): Promise<void>;
  /** Opens two records of one object side by side, the right one editable. */
  compareRecords(orgKey: string, left: string, right: string): Promise<void>;
  /** Shows two texts side by side in a diff editor. */
  showDiff(left: { label: string; text: string }, right: { label: string; text: string }, title: string): Promise<void>;
  /** Column layouts remembered per statement. */
  layouts: { get(spec: RunSpec): ColumnLayout; set(spec: RunSpec, layout: ColumnLayout): Promise<void> };
  /** A statement was explained: the editor marks what its plan advises. */
  onPlan(source: string, spec: RunSpec, plan: QueryExplain): void;
}

type ResultsPanel = Panel<ResultsToHost, QueryRun, HostToResults>;

const cellsText = (n: number) => (n === 1 ? vscode.l10n.t("1 cell") : vscode.l10n.t("{0} cells", formatCount(n)));

/** What a commit did, in one line. */
export function commitSummary(o: CommitOutcome): string {
  const parts = [];
  if (o.saved) parts.push(vscode.l10n.t("{0} saved", recordsText(o.saved)));
  if (o.created) parts.push(vscode.l10n.t("{0} created", recordsText(o.created)));
  if (o.deleted) parts.push(vscode.l10n.t("{0} deleted", recordsText(o.deleted)));
  if (o.refused) parts.push(vscode.l10n.t("{0} refused by the org (their edits are still staged; hover a marked cell for the reason)", recordsText(o.refused)));
  if (o.conflicts) parts.push(vscode.l10n.t("{0} changed in the org since they were read, not written (Compare, or Overwrite to send your edits anyway)", recordsText(o.conflicts)));
  return parts.length ? `${parts.join("; ")}.` : vscode.l10n.t("Nothing was written.");
}

/** The source of a grid holding an agent's proposal: what is committed there is recorded as the agent's. */
export const AGENT_SOURCE = "agent:";

/** The panel's target for a statement run from `source` (a document URI, or a command's name). */
export function resultsTarget(orgKey: string, source: string, spec: RunSpec): PanelTarget {
  return { orgKey, id: source, spec };
}

/** The statement a results panel runs (none: an empty query, which the org refuses with its own words). */
export const specOf = (target: PanelTarget): RunSpec => target.spec ?? { api: "soql", text: "" };

/** A short name for the tab and the export file: the object the outer query reads, or "Search". */
export function subjectOf(spec: RunSpec): string {
  return spec.api === "sosl" ? vscode.l10n.t("Search") : tokenize(spec.text).scopes[0]?.from ?? vscode.l10n.t("Query");
}

export function resultsPanels(deps: PanelDeps, hooks: ResultsHooks): ResultsPanels {
  const aliasOf = (orgKey: string) => deps.manager.registry.get(orgKey)?.alias ?? vscode.l10n.t("Removed org");

  /** A message for the first showing of a run (what a revert staged). */
  const firstNotice = new WeakMap<QueryRun, string>();
  const noticeOf = (run: QueryRun) => {
    const notice = firstNotice.get(run);
    firstNotice.delete(run);
    return notice ? { notice } : {};
  };

  const summary = (target: PanelTarget, run: QueryRun): ResultsSummary => ({
    alias: aliasOf(target.orgKey),
    api: run.spec.api,
    query: run.spec.text,
    columns: run.table.columns,
    fetched: run.fetched,
    totalSize: run.totalSize,
    more: run.more,
    fetching: run.isFetching,
    viewSize: run.table.viewSize,
    viewVersion: run.table.version,
    sort: run.table.viewSpec.sort,
    filter: run.table.viewSpec.filter ?? "",
    elapsedMs: Math.round(run.elapsedMs),
    ranAt: run.ranAt.toISOString(),
    ...("object" in run.editing && run.table.columns.some((c) => c.editor) ? { editObject: run.editing.object } : {}),
    staged: run.staged,
    layout: hooks.layouts.get(run.spec),
    ...noticeOf(run),
    ...(run.plan ? { plan: planView(run) } : {}),
    ...(run.spec.explain ? { explainOnly: true } : {}),
  });

  const planView = (run: QueryRun): PlanView => ({
    plans: run.plan!.plans.map((p) => ({
      leadingOperationType: p.leadingOperationType, relativeCost: p.relativeCost, cardinality: p.cardinality, sobjectCardinality: p.sobjectCardinality,
      sobjectType: p.sobjectType, fields: p.fields ?? [], notes: (p.notes ?? []).map((n) => `${n.description}: ${n.fields.join(", ")}`),
    })),
    advice: planAdvice(run.plan!, stripComments(run.spec.text), readSettings().largeObjectRows),
  });

  const update = (run: QueryRun, target: PanelTarget): HostToResults => ({ type: "results", summary: summary(target, run) });

  async function fetchRows(panel: Panel<ResultsToHost, QueryRun, HostToResults>, run: QueryRun, all: boolean): Promise<void> {
    // Each page grows the grid where it stands (the page patches it: a click or an open editor stays).
    const fetching = run.fetch({ all, onPage: () => panel.data === run && panel.show(update(run, panel.target)) });
    panel.show(update(run, panel.target)); // shows the Cancel button
    const completed = await fetching.finally(() => panel.data === run && panel.show(update(run, panel.target)));
    if (!completed) panel.post({ type: "notice", text: vscode.l10n.t("Stopped: {0} of {1} rows fetched.", formatCount(run.fetched), formatCount(run.totalSize)) });
  }

  const title = (target: PanelTarget) => specOf(target).explain
    ? vscode.l10n.t("{0}: {1} plan", aliasOf(target.orgKey), subjectOf(specOf(target)))
    : vscode.l10n.t("{0}: {1} results", aliasOf(target.orgKey), subjectOf(specOf(target)));

  /** Marks which columns of a table edit, from its object's describe (a describe that cannot be read leaves it read-only). */
  async function markColumnsOf(session: Awaited<ReturnType<typeof deps.manager.session>>, table: QueryRun["table"], object: string): Promise<void> {
    try {
      const describe = await session.schema.describe(object);
      const objects = await session.schema.objects();
      const prefixOf = (name: string) => objects.find((o) => o.name === name)?.keyPrefix ?? undefined;
      markEditableColumns(table, { object, fields: describe.fields ?? [], keyPrefixOf: prefixOf });
    } catch (err) {
      markEditableColumns(table, { reason: vscode.l10n.t("The rows cannot be edited: {0} could not be described ({1}).", object, describeError(err).message ?? "") });
    }
  }

  const markColumns = (session: Awaited<ReturnType<typeof deps.manager.session>>, run: QueryRun) =>
    "reason" in run.editing ? markEditableColumns(run.table, run.editing) : markColumnsOf(session, run.table, run.editing.object);

  /** A child table's rows (staged values and marks in place), its editable columns marked from its object's describe. */
  async function postChild(panel: ResultsPanel, run: QueryRun, path: ChildPath): Promise<void> {
    const view = run.childView(path);
    if (!view) return;
    const object = view.result.records.map(recordRef).find((r) => r)?.type;
    if (!view.table.columns.some((c) => c.editor || c.readOnly)) {
      if ("reason" in run.editing || !object) markEditableColumns(view.table, { reason: "reason" in run.editing ? run.editing.reason : vscode.l10n.t("These rows are not records.") });
      else await markColumnsOf(await deps.manager.session(panel.target.orgKey), view.table, object);
    }
    const rows = view.edits.decorate(view.table.window(0, view.table.viewSize));
    const editObject = object && view.table.columns.some((c) => c.editor) ? { editObject: object } : {};
    panel.post({ type: "children", path, table: { columns: view.table.columns, rows, total: view.result.totalSize ?? view.result.records.length, more: view.result.done === false, ...editObject } });
  }

  const postEdits = (panel: ResultsPanel, run: QueryRun) => {
    panel.post({ type: "edits", ...run.staged });
    panel.keep(update(run, panel.target));
  };

  /** Runs a write of the grid; a failure becomes a notice and a message, never a lost grid (the edits stay staged). */
  async function writing(panel: ResultsPanel, run: QueryRun, action: "commit" | "delete", write: () => PromiseLike<string>): Promise<void> {
    let said: string;
    try {
      // A grid of an agent's proposal writes as the agent's work (Write History says so), whoever presses Commit.
      said = await (panel.target.id.startsWith(AGENT_SOURCE) ? withWriteContext({ by: "agent" }, write) : write());
    } catch (err) {
      const why = err instanceof CancelledError ? err.message : describeError(err, { orgAlias: panel.org?.alias, redactor: deps.redactor }).message ?? "";
      said = err instanceof CancelledError
        ? action === "commit" ? vscode.l10n.t("Commit cancelled: {0}.", why) : vscode.l10n.t("Delete cancelled: {0}.", why)
        : action === "commit" ? vscode.l10n.t("Commit failed: {0} Your edits are still staged.", why) : vscode.l10n.t("Delete failed: {0} Your edits are still staged.", why);
      if (!(err instanceof CancelledError)) void vscode.window.showErrorMessage(said);
    }
    // The grid is drawn again (rows may have been added, saved or deleted), then told what happened.
    panel.show(update(run, panel.target));
    postEdits(panel, run);
    panel.post({ type: "notice", text: said });
  }

  async function commit(panel: ResultsPanel, run: QueryRun): Promise<void> {
    const { cells, rows } = run.staged;
    if (!cells) return panel.post({ type: "notice", text: vscode.l10n.t("There are no staged edits to commit.") });
    const session = await deps.manager.session(panel.target.orgKey);
    await writing(panel, run, "commit", () => vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Committing {0} to {1}", recordsText(rows), aliasOf(panel.target.orgKey)), cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        const total: CommitOutcome = { saved: 0, created: 0, deleted: 0, refused: 0, conflicts: 0, writes: 0, reads: 0 };
        let before = 0;
        // The rows' edits, then each child table's: one after another, one progress for all.
        for (const edits of run.allEdits.filter((e) => e.count.cells)) {
          const base = before;
          const outcome = await edits.commit(session.crm, {
            allOrNone: readSettings().gridAllOrNone,
            signal: controller.signal,
            onProgress: (done) => {
              progress.report({ increment: ((base + done - before) / rows) * 100, message: vscode.l10n.t("{0} of {1}", formatCount(base + done), formatCount(rows)) });
              before = base + done;
            },
          });
          for (const key of Object.keys(total) as (keyof CommitOutcome)[]) total[key] += outcome[key];
        }
        return commitSummary(total);
      }));
  }

  /** Delete, clone, open, compare or overwrite the rows of these record indexes. */
  async function rowAction(panel: ResultsPanel, run: QueryRun, action: RowAction, indexes: number[]): Promise<void> {
    const refs = indexes.map((i) => ({ index: i, ref: run.table.records[i] && recordRef(run.table.records[i]!) })).filter((r) => r.ref?.id && run.edits.rowMark(r.index)?.state !== "deleted");
    const alias = aliasOf(panel.target.orgKey);
    switch (action) {
      case "clone": {
        const created = run.edits.clone(indexes);
        panel.show(update(run, panel.target));
        return panel.post({ type: "notice", text: created.length === 1
          ? vscode.l10n.t("1 new row staged as a copy at the end of the grid: edit it, then Commit to create the record.")
          : vscode.l10n.t("{0} new rows staged as copies at the end of the grid: edit them, then Commit to create the records.", formatCount(created.length)) });
      }
      case "delete": {
        if (!refs.length) return panel.post({ type: "notice", text: vscode.l10n.t("Select rows of saved records to delete.") });
        const object = refs[0]!.ref!.type;
        const question = refs.length === 1 ? vscode.l10n.t("Delete 1 {0} record from {1}?", object, alias) : vscode.l10n.t("Delete {0} {1} records from {2}?", formatCount(refs.length), object, alias);
        const remove = vscode.l10n.t("Delete");
        const choice = await vscode.window.showWarningMessage(question, { modal: true, detail: vscode.l10n.t("They go to the org's Recycle Bin.") }, remove);
        if (choice !== remove) return;
        const session = await deps.manager.session(panel.target.orgKey);
        return writing(panel, run, "delete", async () => {
          const results = await session.crm.collections.remove(refs.map((r) => r.ref!.id!));
          run.edits.deleted(refs.map((r) => r.index), results);
          const failed = results.filter((r) => !r.success).length;
          const deleted = vscode.l10n.t("{0} deleted", recordsText(results.length - failed));
          return failed ? vscode.l10n.t("{0}; {1} refused (hover the row number for the reason).", deleted, recordsText(failed)) : `${deleted}.`;
        });
      }
      case "open": {
        const shown = refs.slice(0, 20);
        for (const r of shown) await hooks.openId(panel.target.orgKey, r.ref!.id!);
        if (refs.length > shown.length) panel.post({ type: "notice", text: vscode.l10n.t("Opened the first {0} of {1} selected records.", formatCount(shown.length), formatCount(refs.length)) });
        return;
      }
      case "compare": {
        const row = refs[0];
        if (!row) return;
        const session = await deps.manager.session(panel.target.orgKey);
        const mine = run.edits.review(row.index);
        const fields = Object.keys(run.edits.beforeValues(row.index));
        const now = fields.length ? await session.crm.getSobjectRecord(row.ref!.type, row.ref!.id!, { fields }) : {};
        const theirs = [`${row.ref!.type} ${row.ref!.id}`, ...fields.map((f) => `  ${f}: ${now[f] === null || now[f] === undefined ? "" : String(now[f])}`), ""].join("\n");
        return hooks.showDiff({ label: vscode.l10n.t("In the org now"), text: theirs }, { label: vscode.l10n.t("Your edit"), text: mine.staged }, vscode.l10n.t("{0} {1}: the org ↔ your edit", row.ref!.type, row.ref!.id!));
      }
      case "compareRows": {
        if (refs.length !== 2) return panel.post({ type: "notice", text: vscode.l10n.t("Select two rows (Ctrl/Cmd+click the second) to compare their records.") });
        return hooks.compareRecords(panel.target.orgKey, refs[0]!.ref!.id!, refs[1]!.ref!.id!);
      }
      case "overwrite": {
        const done = indexes.filter((i) => run.edits.overwrite(i));
        postEdits(panel, run);
        return panel.post({ type: "notice", text: done.length ? vscode.l10n.t("{0} will be overwritten with your edits on the next Commit.", recordsText(done.length)) : vscode.l10n.t("Only rows marked as changed in the org can be overwritten.") });
      }
    }
  }

  const panels: ResultsPanels = new ResultsPanels({
    viewType: "crm.results",
    script: "results",
    noun: vscode.l10n.t("Query results"),
    title,
    parseRequest: parseResultsRequest,
    read: async (target, previous) => {
      const staged = previous?.staged.cells ?? 0;
      if (previous && staged) {
        const discardAndRun = vscode.l10n.t("Discard and Run");
        const question = staged === 1 ? vscode.l10n.t("Running the statement again discards 1 staged edit in {0}.", title(target))
          : vscode.l10n.t("Running the statement again discards {0} staged edits in {1}.", formatCount(staged), title(target));
        const choice = await vscode.window.showWarningMessage(question, { modal: true }, discardAndRun);
        if (choice !== discardAndRun) return previous;
      }
      previous?.cancel();
      const session = await deps.manager.session(target.orgKey);
      const spec = specOf(target);
      if (spec.explain) {
        const explained = await QueryRun.explain(session.crm, spec);
        hooks.onPlan(target.id, spec, explained.plan!);
        return explained;
      }
      // Explained first when the setting asks (a plan that cannot be read never stops the run).
      const plan = readSettings().explainBeforeRun && spec.api === "soql" ? await session.crm.explain(stripComments(spec.text)).catch(() => undefined) : undefined;
      const run = await QueryRun.start(session.crm, spec, readSettings().queryPageSize);
      if (plan) {
        run.plan = plan;
        hooks.onPlan(target.id, spec, plan);
      }
      await markColumns(session, run);
      hooks.onRun(target.orgKey, run);
      const notice = panels.takeFirstRun(target.id)?.(run);
      if (notice) firstNotice.set(run, notice);
      return run;
    },
    update,
    loading: (target) => {
      const spec = specOf(target);
      return { type: "running", api: spec.api, query: spec.text, title: title(target) };
    },
    failed: (target, message) => {
      const spec = specOf(target);
      return { type: "failed", message, api: spec.api, query: spec.text, title: title(target) };
    },
    handle: async (panel, request) => {
      const run = panel.data;
      if (!run) return;
      switch (request.type) {
        case "rows": {
          const rows = run.edits.decorate(run.table.window(request.start, Math.min(request.count, MAX_WINDOW_ROWS)));
          return panel.post({ type: "rows", viewVersion: run.table.version, start: request.start, rows });
        }
        case "view":
          run.table.setView({ sort: request.sort, filter: request.filter });
          return panel.show(update(run, panel.target));
        case "children":
          return postChild(panel, run, request.path);
        case "moreChildren":
          await run.loadRemainingChildren(request.path);
          return postChild(panel, run, request.path);
        case "childEdit": {
          const view = run.childView(request.path);
          const refused = view ? view.edits.stage(request.index, request.column, request.text) : vscode.l10n.t("Those child rows are no longer shown.");
          if (refused) return panel.post({ type: "editRefused", index: request.index, column: request.column, text: request.text, message: refused, path: request.path });
          await postChild(panel, run, request.path);
          return postEdits(panel, run);
        }
        case "copy": {
          const copied = copyText(run.table, run.edits, request.ranges, request.format);
          await vscode.env.clipboard.writeText(copied.text);
          const as = { tsv: vscode.l10n.t("tab-separated text"), csv: "CSV", json: "JSON", markdown: vscode.l10n.t("a Markdown table") }[request.format];
          return panel.post({ type: "notice", text: vscode.l10n.t("Copied {0} as {1} with headers.", rowsText(copied.rows), as) });
        }
        case "stats":
          return panel.post({ type: "stats", text: selectionStats(run.table, run.edits, request.ranges) });
        case "edit": {
          const refused = run.edits.stage(request.index, request.column, request.text);
          if (refused) return panel.post({ type: "editRefused", index: request.index, column: request.column, text: request.text, message: refused });
          return postEdits(panel, run);
        }
        case "paste": {
          const pasted = run.edits.paste(request.text, { row: request.row, columns: request.columns }, request.selection);
          postEdits(panel, run);
          const errors = pasted.errors.length ? ` ${vscode.l10n.t("{0} left as they were: {1}", cellsText(pasted.errors.length), `${pasted.errors.slice(0, 3).join(" ")}${pasted.errors.length > 3 ? " …" : ""}`)}` : "";
          return panel.post({ type: "notice", text: `${vscode.l10n.t("Pasted {0}.", cellsText(pasted.staged))}${errors}` });
        }
        case "discard":
          if (request.index === undefined) run.allEdits.forEach((e) => e.discard());
          else run.edits.discard(request.index, request.column);
          return postEdits(panel, run);
        case "review": {
          const { cells } = run.staged;
          if (!cells) return panel.post({ type: "notice", text: vscode.l10n.t("There are no staged edits to review.") });
          const texts = run.allEdits.map((e) => e.review());
          const join = (side: "fetched" | "staged") => texts.map((t) => t[side]).filter(Boolean).join("\n");
          const diffTitle = cells === 1 ? vscode.l10n.t("{0}: fetched ↔ staged (1 edit)", title(panel.target)) : vscode.l10n.t("{0}: fetched ↔ staged ({1} edits)", title(panel.target), formatCount(cells));
          return hooks.showDiff({ label: vscode.l10n.t("Fetched"), text: join("fetched") }, { label: vscode.l10n.t("Staged"), text: join("staged") }, diffTitle);
        }
        case "commit":
          return commit(panel, run);
        case "rowAction": {
          // View rows become records (each once, in view order), whatever spans overlap.
          const indexes = new Set<number>();
          for (const span of request.rows) {
            for (let v = span.top; v <= Math.min(span.bottom, run.table.viewSize - 1); v++) indexes.add(run.table.recordIndexAt(v)!);
          }
          return rowAction(panel, run, request.action, [...indexes]);
        }
        case "layout":
          await hooks.layouts.set(run.spec, request.layout);
          return panel.show(update(run, panel.target));
        case "fetchMore": case "fetchAll":
          return fetchRows(panel, run, request.type === "fetchAll");
        case "cancel":
          return run.cancel();
        case "export":
          return hooks.exportRows(panel.target.orgKey, run.spec, request.format);
        case "openId":
          return hooks.openId(panel.target.orgKey, request.id);
      }
    },
  }, deps);
  return panels;
}
