/**
 * The Query Results panel: one per source (a scratch document, or the search command). The host keeps
 * the rows in a QueryRun; the webview asks for windows of the current view and never holds them all.
 */
import * as vscode from "vscode";
import { readSettings } from "../platform/settings";
import { MAX_WINDOW_ROWS, parseResultsRequest, type ExportFormatName, type HostToResults, type ResultsSummary, type ResultsToHost } from "../shared/protocol";
import { tokenize } from "../soql/statements";
import { PanelSet, type Panel, type PanelDeps, type PanelTarget } from "./panels";
import { QueryRun, type RunSpec } from "./queryRun";
import { formatCount } from "../platform/numbers";

export type ResultsPanels = PanelSet<ResultsToHost, QueryRun, HostToResults>;

export interface ResultsHooks {
  /** A run's first page arrived (history records it). */
  onRun(orgKey: string, run: QueryRun): void;
  /** Exports every row of the statement to a file the person picks. */
  exportRows(orgKey: string, spec: RunSpec, format: ExportFormatName): Promise<void>;
  /** Opens what an ID names: a knowledge article's details, else the record. */
  openId(orgKey: string, id: string): Promise<void>;
}

/** The panel's target for a statement run from `source` (a document URI, or a command's name). */
export function resultsTarget(orgKey: string, source: string, spec: RunSpec): PanelTarget {
  return { orgKey, id: source, spec };
}

/** The statement a results panel runs (none: an empty query, which the org refuses with its own words). */
export const specOf = (target: PanelTarget): RunSpec => target.spec ?? { api: "soql", text: "" };

/** A short name for the tab and the export file: the object the outer query reads, or "Search". */
export function subjectOf(spec: RunSpec): string {
  return spec.api === "sosl" ? "Search" : tokenize(spec.text).scopes[0]?.from ?? "Query";
}

export function resultsPanels(deps: PanelDeps, hooks: ResultsHooks): ResultsPanels {
  const aliasOf = (orgKey: string) => deps.manager.registry.get(orgKey)?.alias ?? "Removed org";

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
  });

  const update = (run: QueryRun, target: PanelTarget): HostToResults => ({ type: "results", summary: summary(target, run) });

  async function fetchRows(panel: Panel<ResultsToHost, QueryRun, HostToResults>, run: QueryRun, all: boolean): Promise<void> {
    const report = () => panel.post({ type: "progress", fetched: run.fetched, totalSize: run.totalSize });
    const fetching = run.fetch({ all, onPage: report });
    panel.show(update(run, panel.target)); // shows the Cancel button
    const completed = await fetching.finally(() => panel.data === run && panel.show(update(run, panel.target)));
    if (!completed) panel.post({ type: "notice", text: `Stopped: ${formatCount(run.fetched)} of ${formatCount(run.totalSize)} rows fetched.` });
  }

  const title = (target: PanelTarget) => `${aliasOf(target.orgKey)}: ${subjectOf(specOf(target))} results`;

  return new PanelSet<ResultsToHost, QueryRun, HostToResults>({
    viewType: "crm.results",
    script: "results",
    noun: "Query results",
    title,
    parseRequest: parseResultsRequest,
    read: async (target, previous) => {
      previous?.cancel();
      const run = await QueryRun.start((await deps.manager.session(target.orgKey)).crm, specOf(target), readSettings().queryPageSize);
      hooks.onRun(target.orgKey, run);
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
          const rows = run.table.window(request.start, Math.min(request.count, MAX_WINDOW_ROWS));
          return panel.post({ type: "rows", viewVersion: run.table.version, start: request.start, rows });
        }
        case "view":
          run.table.setView({ sort: request.sort, filter: request.filter });
          return panel.show(update(run, panel.target));
        case "children": {
          const table = run.table.childTable(request.index, request.column);
          return table && panel.post({ type: "children", index: request.index, column: request.column, table });
        }
        case "copy": {
          const rows = Math.min(request.range.bottom, run.table.viewSize - 1) - request.range.top + 1;
          await vscode.env.clipboard.writeText(run.table.tsv(request.range));
          return panel.post({ type: "notice", text: `Copied ${formatCount(Math.max(rows, 0))} ${rows === 1 ? "row" : "rows"} as tab-separated text with headers.` });
        }
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
}
