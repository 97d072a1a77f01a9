/**
 * One run of a statement for the results panel: the first page, then more pages on request ("Fetch
 * more", "Fetch all" with progress and cancel), the rows kept in a ResultTable. No VS Code here.
 */
import * as l10n from "@vscode/l10n";
import { CommandRefusal } from "../platform/errorMessages";
import type { Crm, QueryExplain } from "../client";
import { get18CharId, isRecordId } from "../client/ids";
import { ResultTable, type ChildPath, type ChildResult } from "../shared/resultTable";
import type { RunSpec } from "../shared/runSpec";
import { editableQuery, selectColumns, stripComments } from "../soql/runText";
import { GridEdits, STAMP_FIELD } from "./gridEdits";

export type { RunSpec };

/** An 18-character value whose checksum holds is a record ID (a name of 18 letters almost never is). */
export const looksLikeRecordId = (value: string) => value.length === 18 && isRecordId(value) && get18CharId(value.slice(0, 15)) === value;

type QueryClient = Pick<Crm, "soqlQuery" | "toolingQuery" | "search">;

/** A child subquery's rows shown as a table, with their own staged edits. */
export interface ChildView {
  table: ResultTable;
  edits: GridEdits;
  result: ChildResult;
}
interface Page {
  records: Record<string, unknown>[];
  totalSize: number;
  done: boolean;
  nextRecordsUrl?: string;
}

export class QueryRun {
  readonly table: ResultTable;
  totalSize = 0;
  private nextRecordsUrl?: string;
  /** Milliseconds the first page took (what a person compares between runs). */
  elapsedMs = 0;
  readonly ranAt = new Date();
  private fetching?: AbortController;
  /** Edits staged in the grid (cells edit once the panel has marked the editable columns). */
  readonly edits: GridEdits;
  /** The object whose records the rows are, or why they cannot be edited. */
  readonly editing: { object: string } | { reason: string };

  private constructor(private readonly crm: QueryClient, readonly spec: RunSpec, text: string, private readonly batchSize?: number) {
    const editable = spec.api === "soql" ? editableQuery(text, STAMP_FIELD)
      : { reason: spec.api === "sosl" ? l10n.t("Search results are read-only here: run a SOQL query to edit records.") : l10n.t("Tooling API results are read-only here.") };
    this.editing = "reason" in editable ? editable : { object: editable.object };
    this.sent = "reason" in editable ? text : editable.text;
    this.childHidden = "reason" in editable || !editable.addedToChildren ? [] : [STAMP_FIELD];
    this.table = new ResultTable({ columns: selectColumns(text, spec.api), isId: looksLikeRecordId, hidden: "reason" in editable || !editable.added ? [] : [STAMP_FIELD] });
    this.edits = new GridEdits(this.table);
  }

  /** The statement as sent (with the SystemModstamp an editing grid reads). */
  readonly sent: string;
  private readonly childHidden: string[];
  /** Child tables shown so far, by path, with their own staged edits. */
  private readonly children = new Map<string, ChildView>();

  /** The child rows at a path (a record, a subquery column, deeper a child row and its column), kept with their edits while the run lives. */
  childView(path: ChildPath): ChildView | undefined {
    const result = this.table.childResult(path);
    if (!result) return undefined;
    const key = JSON.stringify(path);
    let view = this.children.get(key);
    if (!view || view.result !== result) {
      const table = this.table.childTable(result, this.childHidden);
      view = { table, edits: new GridEdits(table), result };
      this.children.set(key, view);
    }
    return view;
  }

  /** Reads the child rows the org left out of a child result (its nextRecordsUrl), page by page, into the result and its table. */
  async loadRemainingChildren(path: ChildPath): Promise<ChildView | undefined> {
    const view = this.childView(path);
    while (view?.result.nextRecordsUrl && view.result.done === false) {
      const page = await this.crm.soqlQuery(view.result.nextRecordsUrl, { nextRecordsUrl: true });
      view.result.records.push(...page.records);
      view.result.done = page.done;
      view.result.nextRecordsUrl = page.nextRecordsUrl;
      view.table.append(page.records);
    }
    return view;
  }

  /** Every set of staged edits: the rows', then each child table's. */
  get allEdits(): GridEdits[] {
    return [this.edits, ...[...this.children.values()].map((c) => c.edits)];
  }

  /** Staged cells and records, child tables included. */
  get staged(): { cells: number; rows: number } {
    return this.allEdits.reduce((sum, e) => ({ cells: sum.cells + e.count.cells, rows: sum.rows + e.count.rows }), { cells: 0, rows: 0 });
  }

  /** The statement's plans, when it was explained. */
  plan?: QueryExplain;

  /** Asks the org how it would run the statement, reading no rows. */
  static async explain(crm: QueryClient & Pick<Crm, "explain">, spec: RunSpec): Promise<QueryRun> {
    const text = stripComments(spec.text);
    if (!text) throw new RangeError(l10n.t("The statement is empty (only comments). Write a SELECT statement to explain."));
    if (spec.api === "sosl") throw new RangeError(l10n.t("A search has no query plan: only SELECT statements can be explained."));
    const run = new QueryRun(crm, spec, text);
    const started = performance.now();
    run.plan = await crm.explain(text, { tooling: spec.api === "tooling" });
    run.elapsedMs = performance.now() - started;
    return run;
  }

  /** Runs the statement and keeps its first page; `batchSize` asks the org for pages of that many rows (200–2,000). */
  static async start(crm: QueryClient, spec: RunSpec, batchSize?: number): Promise<QueryRun> {
    const text = stripComments(spec.text);
    if (!text) throw new RangeError(l10n.t("The statement is empty (only comments). Write a SELECT or FIND statement to run."));
    const run = new QueryRun(crm, spec, text, batchSize);
    const started = performance.now();
    const page: Page = spec.api === "sosl"
      ? await crm.search(text).then((r) => ({ records: r.searchRecords, totalSize: r.searchRecords.length, done: true }))
      : spec.api === "tooling" ? await crm.toolingQuery(text) : await crm.soqlQuery(run.sent, { replaceQuotes: false, batchSize });
    run.elapsedMs = performance.now() - started;
    run.take(page);
    return run;
  }

  private take(page: Page): void {
    this.totalSize = page.totalSize;
    this.nextRecordsUrl = page.done ? undefined : page.nextRecordsUrl;
    this.table.append(page.records);
  }

  get fetched(): number {
    return this.table.records.length;
  }

  get more(): boolean {
    return !!this.nextRecordsUrl;
  }

  get isFetching(): boolean {
    return !!this.fetching;
  }

  /**
   * Fetches the next page, or every remaining page with `all`; `onPage` hears after each one. A cancel
   * keeps the pages already fetched. Resolves false when it was cancelled.
   */
  async fetch(options: { all: boolean; onPage?: () => void }): Promise<boolean> {
    if (this.fetching) throw new CommandRefusal(l10n.t("Rows are already being fetched; cancel that first."));
    if (!this.nextRecordsUrl) return true;
    const controller = new AbortController();
    this.fetching = controller;
    try {
      do {
        const page = await this.crm.soqlQuery(this.nextRecordsUrl!, { nextRecordsUrl: true, signal: controller.signal, batchSize: this.batchSize });
        if (controller.signal.aborted) return false;
        this.take(page);
        options.onPage?.();
      } while (options.all && this.nextRecordsUrl);
      return true;
    } catch (err) {
      if (controller.signal.aborted) return false;
      throw err;
    } finally {
      this.fetching = undefined;
    }
  }

  cancel(): void {
    this.fetching?.abort();
  }
}
