/** The query results panel's messages (see common.ts). */
import * as z from "zod/mini";
import type { CellEditor } from "../../shared/cellInput";
import type { CellRange, ChildPath, ChildTable, ResultColumn, ResultRow } from "../../shared/resultTable";
import { planView, queryApi } from "../../shared/runSpec";
import { commonUpdates, index, parserOf, recordId } from "./common";

/** The most rows one `rows` message carries: the webview asks for windows, never for everything. */
export const MAX_WINDOW_ROWS = 500;

export const COPY_FORMATS = ["tsv", "csv", "json", "markdown"] as const;
export type CopyFormat = (typeof COPY_FORMATS)[number];
export const ROW_ACTIONS = ["delete", "clone", "open", "compare", "compareRows", "overwrite"] as const;
export type RowAction = (typeof ROW_ACTIONS)[number];
export const EXPORT_FORMAT_NAMES = ["csv", "xlsx", "json", "ndjson"] as const;
export type ExportFormatName = (typeof EXPORT_FORMAT_NAMES)[number];

// ---- the results model's pieces, as they cross (their types are the model's: the schemas are checked against them)

/** A record index, then subquery column and child row in turn, ending on a column; at most 5 levels (SOQL's own limit). */
const childPath = z.array(z.union([index, z.string()])).check(z.refine((p) =>
  p.length % 2 === 0 && p.length >= 2 && p.length <= 10 && p.every((x, i) => (i % 2 === 0 ? typeof x === "number" : typeof x === "string" && x.length > 0 && x.length < 200))));
const columnList = z.array(index).check(z.minLength(1), z.maxLength(5000));
const cellRange = z.object({ top: index, bottom: index, columns: columnList }).check(z.refine((r) => r.top <= r.bottom));
const cellRanges = z.array(cellRange).check(z.minLength(1), z.maxLength(64));
const cellEditor = z.object({
  field: z.string(),
  kind: z.enum(["text", "textarea", "number", "checkbox", "date", "datetime", "picklist", "multipicklist", "reference"]),
  scale: z.optional(z.number()),
  length: z.optional(z.number()),
  options: z.optional(z.array(z.string())),
  restricted: z.optional(z.boolean()),
  prefixes: z.optional(z.array(z.string())),
});
const resultColumn = z.object({
  path: z.string(),
  kind: z.enum(["value", "children"]),
  label: z.optional(z.string()),
  ids: z.boolean(),
  editor: z.optional(cellEditor),
  readOnly: z.optional(z.string()),
});
const cell = z.union([z.string(), z.number(), z.boolean(), z.null(), z.object({ children: z.number(), more: z.boolean() })]);
const resultRow = z.object({
  index,
  cells: z.array(cell),
  marks: z.optional(z.record(z.string(), z.object({ state: z.enum(["staged", "refused", "saved"]), note: z.optional(z.string()) }))),
  row: z.optional(z.object({ state: z.enum(["inserted", "saved", "refused", "conflict", "deleted", "toDelete"]), note: z.optional(z.string()) })),
});
const childTable = z.object({ columns: z.array(resultColumn), rows: z.array(resultRow), total: z.number(), more: z.boolean(), editObject: z.optional(z.string()) });
const columnLayout = z.object({ hidden: z.array(z.string()), order: z.array(z.string()), frozen: index });
const sort = z.object({ column: index, descending: z.boolean() });

// What crosses is what the model holds: a schema and its model type may not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inStep: [Same<z.infer<typeof cellEditor>, CellEditor>, Same<z.infer<typeof resultColumn>, ResultColumn>, Same<z.infer<typeof childPath>, ChildPath>, Same<z.infer<typeof cellRange>, CellRange>] = [true, true, true, true];
const fits: [z.infer<typeof resultRow> extends ResultRow ? true : false, z.infer<typeof childTable> extends ChildTable ? true : false] = [true, true];
void inStep;
void fits;

/** Which columns a person hid, the order they put them in and how many stay frozen at the left (by path). */
export type ColumnLayout = z.infer<typeof columnLayout>;

const resultsSummary = z.object({
  alias: z.string(),
  api: queryApi,
  query: z.string(),
  columns: z.array(resultColumn),
  /** Rows fetched so far, and the total the org reported. */
  fetched: z.number(),
  totalSize: z.number(),
  /** More pages exist on the org. */
  more: z.boolean(),
  fetching: z.boolean(),
  viewSize: z.number(),
  viewVersion: z.number(),
  sort: z.optional(sort),
  filter: z.string(),
  elapsedMs: z.number(),
  ranAt: z.string(),
  /** The rows are records of this object and their editable cells can be edited (absent: a read-only result). */
  editObject: z.optional(z.string()),
  /** Edits staged and not yet committed. */
  staged: z.object({ cells: index, rows: index }),
  /** Column layout remembered for this statement. */
  layout: columnLayout,
  /** Said once, when the run is first shown (what a revert staged). */
  notice: z.optional(z.string()),
  /** The statement's query plans, when it was explained (alone, or before the run). */
  plan: z.optional(planView),
  /** Explained only: no rows were read. */
  explainOnly: z.optional(z.boolean()),
});
export type ResultsSummary = z.infer<typeof resultsSummary>;

const hostToResults = z.discriminatedUnion("type", [
  ...commonUpdates,
  /**
   * A run starts: the statement and API, which the panel shows (and records for a reload) while it waits.
   * `title` names what runs (the panel's heading): a failure must not keep the previous statement's.
   */
  z.object({ type: z.literal("running"), api: queryApi, query: z.string(), title: z.string() }),
  /** A run failed: why, and the statement that failed. */
  z.object({ type: z.literal("failed"), message: z.string(), api: queryApi, query: z.string(), title: z.string() }),
  z.object({ type: z.literal("results"), summary: resultsSummary }),
  z.object({ type: z.literal("rows"), viewVersion: index, start: index, rows: z.array(resultRow) }),
  z.object({ type: z.literal("children"), path: childPath, table: childTable }),
  z.object({ type: z.literal("notice"), text: z.string() }),
  /** Staged edits changed: the new counts (the webview reads again the rows it holds). */
  z.object({ type: z.literal("edits"), cells: index, rows: index }),
  /** An edit could not be staged: the editor opens again with the text and the reason. */
  z.object({ type: z.literal("editRefused"), index, column: index, text: z.string(), message: z.string(), path: z.optional(childPath) }),
  /** Count, and sum, average, min and max of the numbers, of the selected cells. */
  z.object({ type: z.literal("stats"), text: z.string() }),
]);
export type HostToResults = z.infer<typeof hostToResults>;

const plain = <T extends string>(type: T) => z.object({ type: z.literal(type) });
const resultsToHost = z.discriminatedUnion("type", [
  plain("ready"), plain("refresh"), plain("fetchMore"), plain("fetchAll"), plain("cancel"), plain("review"), plain("commit"),
  z.object({ type: z.literal("rows"), start: index, count: index.check(z.lte(MAX_WINDOW_ROWS)) }),
  z.object({ type: z.literal("view"), sort: z.optional(sort), filter: z.string() }),
  /** The child rows at a path: a record, its subquery column, deeper a child row and its subquery column. */
  z.object({ type: z.literal("children"), path: childPath }),
  /** Read the child rows the org left out (the child result's nextRecordsUrl). */
  z.object({ type: z.literal("moreChildren"), path: childPath }),
  /** An edit of a child table's cell (its row and column in that table). */
  z.object({ type: z.literal("childEdit"), path: childPath, index, column: index, text: z.string() }),
  z.object({ type: z.literal("copy"), ranges: cellRanges, format: z.enum(COPY_FORMATS) }),
  z.object({ type: z.literal("stats"), ranges: cellRanges }),
  z.object({ type: z.literal("edit"), index, column: index, text: z.string() }),
  /** Pasted text: its top-left at view `row` and the first of `columns` (those shown from there on, in order). */
  z.object({ type: z.literal("paste"), row: index, columns: columnList, text: z.string(), selection: z.optional(cellRange) }),
  z.object({ type: z.literal("discard"), index: z.optional(index), column: z.optional(index) }),
  /** A row action on the rows of these view spans. */
  z.object({ type: z.literal("rowAction"), action: z.enum(ROW_ACTIONS), rows: z.array(z.object({ top: index, bottom: index }).check(z.refine((r) => r.top <= r.bottom))).check(z.minLength(1), z.maxLength(64)) }),
  z.object({ type: z.literal("layout"), layout: columnLayout }),
  z.object({ type: z.literal("export"), format: z.enum(EXPORT_FORMAT_NAMES) }),
  z.object({ type: z.literal("openId"), id: recordId }),
]);
export type ResultsToHost = z.infer<typeof resultsToHost>;

export const parseResultsUpdate = parserOf(hostToResults);
export const parseResultsRequest = parserOf(resultsToHost);
