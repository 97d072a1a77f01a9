/**
 * Messages between the extension host and its webviews. Both sides validate what they receive:
 * a webview is a separate document, so its messages are untrusted input like any other.
 */

import type { CellRange, ChildPath, ChildTable, ResultColumn, ResultRow } from "./resultTable";

/** One limit as the Org Info panel draws it. */
export interface LimitBar {
  name: string;
  label: string;
  used: number;
  max: number;
  /** used / max in [0, 1]; 0 when max is 0. */
  pressure: number;
}

export interface OrgInfoView {
  alias: string;
  instanceUrl: string;
  apiVersion: string;
  user: { name: string; username: string; email: string; userId: string; locale: string };
  limits: LimitBar[];
  fetchedAt: string;
}

export type HostToOrgInfo = CommonUpdate | { type: "orgInfo"; info: OrgInfoView };

export type OrgInfoToHost = { type: "ready" } | { type: "refresh" } | { type: "openInBrowser" };

const isRecord = (raw: unknown): raw is Record<string, unknown> => !!raw && typeof raw === "object" && !Array.isArray(raw);
const allStrings = (record: Record<string, unknown>, keys: readonly string[]) => keys.every((k) => typeof record[k] === "string");

// ---- What every panel shares -----------------------------------------------------------------

/** The host's messages every panel understands. */
export type CommonUpdate = { type: "loading" } | { type: "error"; message: string };

/** What identifies a panel's entity; saved as the webview's state so a reload can reopen it. */
export interface PanelTarget {
  orgKey: string;
  /** The entity within the org (empty for org-wide panels; a results panel's source). */
  id: string;
  /** A results panel: the statement it runs. */
  spec?: RunSpec;
}

/** A saved panel state if it names a target (a state saved as `params: { api, text }` by an earlier version is read too). */
export function parsePanelTarget(raw: unknown): PanelTarget | undefined {
  if (!isRecord(raw) || typeof raw.orgKey !== "string" || typeof raw.id !== "string") return undefined;
  const spec = isRecord(raw.spec) ? raw.spec : isRecord(raw.params) ? raw.params : undefined;
  if (spec === undefined) return { orgKey: raw.orgKey, id: raw.id };
  return isQueryApi(spec.api) && typeof spec.text === "string" ? { orgKey: raw.orgKey, id: raw.id, spec: { api: spec.api, text: spec.text, ...(spec.explain === true ? { explain: true } : {}) } } : undefined;
}

/** The webview's message if it is one the Org Info panel understands; otherwise undefined. */
export function parseOrgInfoRequest(raw: unknown): OrgInfoToHost | undefined {
  const type = isRecord(raw) ? raw.type : undefined;
  return type === "ready" || type === "refresh" || type === "openInBrowser" ? { type } : undefined;
}

const isFiniteNumber = (n: unknown) => typeof n === "number" && Number.isFinite(n);

function isLimitBar(value: unknown): value is LimitBar {
  return isRecord(value) && allStrings(value, ["name", "label"]) && [value.used, value.max, value.pressure].every(isFiniteNumber);
}

function isOrgInfoView(value: unknown): value is OrgInfoView {
  return (
    isRecord(value) && allStrings(value, ["alias", "instanceUrl", "apiVersion", "fetchedAt"]) &&
    isRecord(value.user) && allStrings(value.user, ["name", "username", "email", "userId", "locale"]) &&
    Array.isArray(value.limits) && value.limits.every(isLimitBar)
  );
}

/** The host's `loading` and `error` messages, which every panel shares. */
function parseCommonUpdate(msg: Record<string, unknown>): CommonUpdate | undefined {
  if (msg.type === "loading") return { type: "loading" };
  if (msg.type === "error" && typeof msg.message === "string") return { type: "error", message: msg.message };
  return undefined;
}

/** The host's message if it is well formed; otherwise undefined (the webview ignores it). */
export function parseOrgInfoUpdate(raw: unknown): HostToOrgInfo | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === "orgInfo" && isOrgInfoView(raw.info)) return { type: "orgInfo", info: raw.info };
  return parseCommonUpdate(raw);
}

// ---- Article Details -------------------------------------------------------------------------

export interface ArticleDetailsView {
  id: string;
  knowledgeArticleId: string;
  title: string;
  articleNumber: string;
  versionNumber: number;
  publishStatus: string;
  validationStatus: string;
  language: string;
  urlName: string;
  summary: string;
  viewScore: number | null;
  dates: { label: string; value: string }[];
  dataCategories: { group: string; category: string }[];
  /** Rich-text fields as the CRM stores them (images as data: URIs); untrusted: the webview sanitizes. */
  richText: { field: string; label: string; html: string }[];
  versions: { id: string; versionNumber: number; publishStatus: string; title: string }[];
  /** The master language and each translation (empty on an org with one knowledge language). */
  languages: { id: string; label: string; publishStatus: string; versionNumber: number; stale: boolean; master: boolean }[];
  fetchedAt: string;
}

export const ARTICLE_ACTIONS = ["edit", "publish", "archive", "createDraft", "openInBrowser", "translate", "compare"] as const;
export type ArticleAction = (typeof ARTICLE_ACTIONS)[number];

export type HostToArticle = CommonUpdate | { type: "article"; article: ArticleDetailsView };
export type ArticleToHost = { type: "ready" } | { type: "refresh" } | { type: "action"; action: ArticleAction } | { type: "openVersion"; id: string };

const RECORD_ID = /^[a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?$/;

export function parseArticleRequest(raw: unknown): ArticleToHost | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === "ready" || raw.type === "refresh") return { type: raw.type };
  if (raw.type === "action" && ARTICLE_ACTIONS.includes(raw.action as ArticleAction)) return { type: "action", action: raw.action as ArticleAction };
  if (raw.type === "openVersion" && typeof raw.id === "string" && RECORD_ID.test(raw.id)) return { type: "openVersion", id: raw.id };
  return undefined;
}

function isArticleView(value: unknown): value is ArticleDetailsView {
  if (!isRecord(value)) return false;
  const listOf = (list: unknown, ok: (item: Record<string, unknown>) => boolean) => Array.isArray(list) && list.every((item) => isRecord(item) && ok(item));
  return (
    allStrings(value, ["id", "knowledgeArticleId", "title", "articleNumber", "publishStatus", "validationStatus", "language", "urlName", "summary", "fetchedAt"]) &&
    isFiniteNumber(value.versionNumber) && (value.viewScore === null || isFiniteNumber(value.viewScore)) &&
    listOf(value.dates, (d) => allStrings(d, ["label", "value"])) &&
    listOf(value.dataCategories, (c) => allStrings(c, ["group", "category"])) &&
    listOf(value.richText, (r) => allStrings(r, ["field", "label", "html"])) &&
    listOf(value.versions, (v) => allStrings(v, ["id", "publishStatus", "title"]) && isFiniteNumber(v.versionNumber)) &&
    listOf(value.languages, (l) => allStrings(l, ["id", "label", "publishStatus"]) && isFiniteNumber(l.versionNumber) && typeof l.stale === "boolean" && typeof l.master === "boolean")
  );
}

export function parseArticleUpdate(raw: unknown): HostToArticle | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === "article" && isArticleView(raw.article)) return { type: "article", article: raw.article };
  return parseCommonUpdate(raw);
}

// ---- Query results ---------------------------------------------------------------------------

export interface ResultsSummary {
  alias: string;
  api: QueryApiName;
  query: string;
  columns: ResultColumn[];
  /** Rows fetched so far, and the total the org reported. */
  fetched: number;
  totalSize: number;
  /** More pages exist on the org. */
  more: boolean;
  fetching: boolean;
  viewSize: number;
  viewVersion: number;
  sort?: { column: number; descending: boolean };
  filter: string;
  elapsedMs: number;
  ranAt: string;
  /** The rows are records of this object and their editable cells can be edited (absent: a read-only result). */
  editObject?: string;
  /** Edits staged and not yet committed. */
  staged: { cells: number; rows: number };
  /** Column layout remembered for this statement. */
  layout: ColumnLayout;
  /** Said once, when the run is first shown (what a revert staged). */
  notice?: string;
  /** The statement's query plans, when it was explained (alone, or before the run). */
  plan?: PlanView;
  /** Explained only: no rows were read. */
  explainOnly?: boolean;
}

/** Which columns a person hid, the order they put them in and how many stay frozen at the left (by path). */
export interface ColumnLayout {
  hidden: string[];
  order: string[];
  frozen: number;
}

export const COPY_FORMATS = ["tsv", "csv", "json", "markdown"] as const;
export type CopyFormat = (typeof COPY_FORMATS)[number];
export const ROW_ACTIONS = ["delete", "clone", "open", "compare", "compareRows", "overwrite"] as const;
export type RowAction = (typeof ROW_ACTIONS)[number];

export const QUERY_APIS = ["soql", "tooling", "sosl"] as const;
export type QueryApiName = (typeof QUERY_APIS)[number];
export function isQueryApi(value: unknown): value is QueryApiName {
  return QUERY_APIS.includes(value as QueryApiName);
}

/** A statement a results panel runs, and the API it runs on. */
export interface RunSpec {
  api: QueryApiName;
  /** The statement as written (comments are removed before it is sent). */
  text: string;
  /** Only ask the org how it would run the statement (its query plan); read no rows. */
  explain?: boolean;
}

/** A statement's query plans as the panel shows them, with what they advise. */
export interface PlanView {
  plans: { leadingOperationType: string; relativeCost: number; cardinality: number; sobjectCardinality: number; sobjectType: string; fields: string[]; notes: string[] }[];
  advice: { severity: "warning" | "info"; message: string }[];
}
export const EXPORT_FORMAT_NAMES = ["csv", "xlsx", "json", "ndjson"] as const;
export type ExportFormatName = (typeof EXPORT_FORMAT_NAMES)[number];

/** The most rows one `rows` message carries: the webview asks for windows, never for everything. */
export const MAX_WINDOW_ROWS = 500;

export type HostToResults =
  | CommonUpdate
  /**
   * A run starts: the statement and API, which the panel shows (and records for a reload) while it waits.
   * `title` names what runs (the panel's heading): a failure must not keep the previous statement's.
   */
  | { type: "running"; api: QueryApiName; query: string; title: string }
  /** A run failed: why, and the statement that failed. */
  | { type: "failed"; message: string; api: QueryApiName; query: string; title: string }
  | { type: "results"; summary: ResultsSummary }
  | { type: "rows"; viewVersion: number; start: number; rows: ResultRow[] }
  | { type: "children"; path: ChildPath; table: ChildTable }
  | { type: "progress"; fetched: number; totalSize: number }
  | { type: "notice"; text: string }
  /** Staged edits changed: the new counts (the webview reads again the rows it holds). */
  | { type: "edits"; cells: number; rows: number }
  /** An edit could not be staged: the editor opens again with the text and the reason. */
  | { type: "editRefused"; index: number; column: number; text: string; message: string; path?: ChildPath }
  /** Count, and sum, average, min and max of the numbers, of the selected cells. */
  | { type: "stats"; text: string };

export type ResultsToHost =
  | { type: "ready" }
  | { type: "refresh" }
  | { type: "rows"; start: number; count: number }
  | { type: "view"; sort?: { column: number; descending: boolean }; filter: string }
  /** The child rows at a path: a record, its subquery column, deeper a child row and its subquery column. */
  | { type: "children"; path: ChildPath }
  /** Read the child rows the org left out (the child result's nextRecordsUrl). */
  | { type: "moreChildren"; path: ChildPath }
  /** An edit of a child table's cell (its row and column in that table). */
  | { type: "childEdit"; path: ChildPath; index: number; column: number; text: string }
  | { type: "copy"; ranges: CellRange[]; format: CopyFormat }
  | { type: "stats"; ranges: CellRange[] }
  | { type: "edit"; index: number; column: number; text: string }
  /** Pasted text: its top-left at view `row` and the first of `columns` (those shown from there on, in order). */
  | { type: "paste"; row: number; columns: number[]; text: string; selection?: CellRange }
  | { type: "discard"; index?: number; column?: number }
  | { type: "review" }
  | { type: "commit" }
  /** A row action on the rows of these view spans. */
  | { type: "rowAction"; action: RowAction; rows: { top: number; bottom: number }[] }
  | { type: "layout"; layout: ColumnLayout }
  | { type: "fetchMore" }
  | { type: "fetchAll" }
  | { type: "cancel" }
  | { type: "export"; format: ExportFormatName }
  | { type: "openId"; id: string };

const isIndex = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;

export function parseResultsRequest(raw: unknown): ResultsToHost | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case "ready": case "refresh": case "fetchMore": case "fetchAll": case "cancel":
      return { type: raw.type };
    case "rows":
      return isIndex(raw.start) && isIndex(raw.count) && raw.count <= MAX_WINDOW_ROWS ? { type: "rows", start: raw.start, count: raw.count } : undefined;
    case "view": {
      if (typeof raw.filter !== "string") return undefined;
      if (raw.sort === undefined) return { type: "view", filter: raw.filter };
      const sort = raw.sort;
      return isRecord(sort) && isIndex(sort.column) && typeof sort.descending === "boolean" ? { type: "view", filter: raw.filter, sort: { column: sort.column, descending: sort.descending } } : undefined;
    }
    case "children": case "moreChildren":
      return isChildPath(raw.path) ? { type: raw.type, path: raw.path } : undefined;
    case "childEdit":
      return isChildPath(raw.path) && isIndex(raw.index) && isIndex(raw.column) && typeof raw.text === "string"
        ? { type: "childEdit", path: raw.path, index: raw.index, column: raw.column, text: raw.text } : undefined;
    case "copy": {
      const ranges = rangesOf(raw.ranges);
      return ranges && COPY_FORMATS.includes(raw.format as CopyFormat) ? { type: "copy", ranges, format: raw.format as CopyFormat } : undefined;
    }
    case "stats": {
      const ranges = rangesOf(raw.ranges);
      return ranges ? { type: "stats", ranges } : undefined;
    }
    case "edit":
      return isIndex(raw.index) && isIndex(raw.column) && typeof raw.text === "string" ? { type: "edit", index: raw.index, column: raw.column, text: raw.text } : undefined;
    case "paste": {
      const selection = raw.selection === undefined ? undefined : rangeOf(raw.selection);
      if (!isIndex(raw.row) || !isColumnList(raw.columns) || typeof raw.text !== "string" || (raw.selection !== undefined && !selection)) return undefined;
      return { type: "paste", row: raw.row, columns: raw.columns, text: raw.text, ...(selection ? { selection } : {}) };
    }
    case "discard":
      if ((raw.index !== undefined && !isIndex(raw.index)) || (raw.column !== undefined && !isIndex(raw.column))) return undefined;
      return { type: "discard", ...(raw.index !== undefined ? { index: raw.index as number } : {}), ...(raw.column !== undefined ? { column: raw.column as number } : {}) };
    case "review": case "commit":
      return { type: raw.type };
    case "rowAction": {
      const spans = Array.isArray(raw.rows) && raw.rows.length <= 64 ? raw.rows.map((r) => (isRecord(r) && isIndex(r.top) && isIndex(r.bottom) && r.top <= r.bottom ? { top: r.top, bottom: r.bottom } : undefined)) : undefined;
      return ROW_ACTIONS.includes(raw.action as RowAction) && spans?.length && spans.every((r) => !!r)
        ? { type: "rowAction", action: raw.action as RowAction, rows: spans as { top: number; bottom: number }[] } : undefined;
    }
    case "layout":
      return isLayout(raw.layout) ? { type: "layout", layout: raw.layout } : undefined;
    case "export":
      return EXPORT_FORMAT_NAMES.includes(raw.format as ExportFormatName) ? { type: "export", format: raw.format as ExportFormatName } : undefined;
    case "openId":
      return typeof raw.id === "string" && RECORD_ID.test(raw.id) ? { type: "openId", id: raw.id } : undefined;
    default:
      return undefined;
  }
}

const isColumnList = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.length <= 5000 && v.every(isIndex);

function rangeOf(r: unknown): CellRange | undefined {
  return isRecord(r) && isIndex(r.top) && isIndex(r.bottom) && r.top <= r.bottom && isColumnList(r.columns) ? { top: r.top, bottom: r.bottom, columns: r.columns } : undefined;
}

function rangesOf(raw: unknown): CellRange[] | undefined {
  if (!Array.isArray(raw) || !raw.length || raw.length > 64) return undefined;
  const ranges = raw.map(rangeOf);
  return ranges.every((r): r is CellRange => !!r) ? ranges : undefined;
}

/** A record index, then subquery column and child row in turn, ending on a column; at most 5 levels (SOQL's own limit). */
const isChildPath = (p: unknown): p is ChildPath =>
  Array.isArray(p) && p.length % 2 === 0 && p.length >= 2 && p.length <= 10 && p.every((x, i) => (i % 2 === 0 ? isIndex(x) : typeof x === "string" && x.length > 0 && x.length < 200));

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isLayout = (l: unknown): l is ColumnLayout => isRecord(l) && isStringList(l.hidden) && isStringList(l.order) && isIndex(l.frozen);

const isCell = (c: unknown) => c === null || ["string", "number", "boolean"].includes(typeof c) || (isRecord(c) && isFiniteNumber(c.children) && typeof c.more === "boolean");
const isEditor = (e: unknown) => isRecord(e) && typeof e.field === "string" && typeof e.kind === "string" && (e.options === undefined || isStringList(e.options));
const isColumn = (c: unknown) => isRecord(c) && typeof c.path === "string" && (c.kind === "value" || c.kind === "children") && typeof c.ids === "boolean" && (c.label === undefined || typeof c.label === "string") &&
  (c.editor === undefined || isEditor(c.editor)) && (c.readOnly === undefined || typeof c.readOnly === "string");
const isMark = (m: unknown) => isRecord(m) && typeof m.state === "string" && (m.note === undefined || typeof m.note === "string");
const isRow = (r: unknown) => isRecord(r) && isIndex(r.index) && Array.isArray(r.cells) && r.cells.every(isCell) &&
  (r.marks === undefined || (isRecord(r.marks) && Object.values(r.marks).every(isMark))) && (r.row === undefined || isMark(r.row));

const isPlanView = (p: unknown): p is PlanView =>
  isRecord(p) && Array.isArray(p.plans) && p.plans.every((x) => isRecord(x) && typeof x.leadingOperationType === "string" && [x.relativeCost, x.cardinality, x.sobjectCardinality].every(isFiniteNumber) && typeof x.sobjectType === "string" && isStringList(x.fields) && isStringList(x.notes)) &&
  Array.isArray(p.advice) && p.advice.every((a) => isRecord(a) && (a.severity === "warning" || a.severity === "info") && typeof a.message === "string");

function isSummary(s: unknown): s is ResultsSummary {
  return (
    isRecord(s) && allStrings(s, ["alias", "query", "filter", "ranAt"]) && isQueryApi(s.api) &&
    Array.isArray(s.columns) && s.columns.every(isColumn) &&
    [s.fetched, s.totalSize, s.viewSize, s.viewVersion, s.elapsedMs].every(isFiniteNumber) && typeof s.more === "boolean" && typeof s.fetching === "boolean" &&
    (s.sort === undefined || (isRecord(s.sort) && isIndex(s.sort.column) && typeof s.sort.descending === "boolean")) &&
    (s.editObject === undefined || typeof s.editObject === "string") && isRecord(s.staged) && isIndex(s.staged.cells) && isIndex(s.staged.rows) && isLayout(s.layout) &&
    (s.notice === undefined || typeof s.notice === "string") && (s.plan === undefined || isPlanView(s.plan)) && (s.explainOnly === undefined || typeof s.explainOnly === "boolean")
  );
}

export function parseResultsUpdate(raw: unknown): HostToResults | undefined {
  if (!isRecord(raw)) return undefined;
  switch (raw.type) {
    case "results": return isSummary(raw.summary) ? { type: "results", summary: raw.summary } : undefined;
    case "rows":
      return isIndex(raw.viewVersion) && isIndex(raw.start) && Array.isArray(raw.rows) && raw.rows.every(isRow)
        ? { type: "rows", viewVersion: raw.viewVersion, start: raw.start, rows: raw.rows as ResultRow[] } : undefined;
    case "children": {
      const t = raw.table;
      const ok = isChildPath(raw.path) && isRecord(t) && Array.isArray(t.columns) && t.columns.every(isColumn) &&
        Array.isArray(t.rows) && t.rows.every(isRow) && isFiniteNumber(t.total) && typeof t.more === "boolean" && (t.editObject === undefined || typeof t.editObject === "string");
      return ok ? { type: "children", path: raw.path as ChildPath, table: t as unknown as ChildTable } : undefined;
    }
    case "progress": return isIndex(raw.fetched) && isIndex(raw.totalSize) ? { type: "progress", fetched: raw.fetched, totalSize: raw.totalSize } : undefined;
    case "notice": return typeof raw.text === "string" ? { type: "notice", text: raw.text } : undefined;
    case "stats": return typeof raw.text === "string" ? { type: "stats", text: raw.text } : undefined;
    case "edits":
      return isIndex(raw.cells) && isIndex(raw.rows) ? { type: "edits", cells: raw.cells, rows: raw.rows } : undefined;
    case "editRefused":
      return isIndex(raw.index) && isIndex(raw.column) && allStrings(raw, ["text", "message"]) && (raw.path === undefined || isChildPath(raw.path))
        ? { type: "editRefused", index: raw.index, column: raw.column, text: raw.text as string, message: raw.message as string, ...(raw.path ? { path: raw.path as ChildPath } : {}) } : undefined;
    case "running":
      return allStrings(raw, ["query", "title"]) && isQueryApi(raw.api) ? { type: "running", api: raw.api, query: raw.query as string, title: raw.title as string } : undefined;
    case "failed":
      return allStrings(raw, ["message", "query", "title"]) && isQueryApi(raw.api)
        ? { type: "failed", message: raw.message as string, api: raw.api, query: raw.query as string, title: raw.title as string } : undefined;
    default: return parseCommonUpdate(raw);
  }
}

// ---- Article body preview --------------------------------------------------------------------

export interface PreviewView {
  title: string;
  /** The document's HTML as typed (images as data: URIs); untrusted: the webview sanitizes. */
  html: string;
}

export type HostToPreview = CommonUpdate | { type: "preview"; preview: PreviewView };
export type PreviewToHost = { type: "ready" } | { type: "refresh" };

export function parsePreviewRequest(raw: unknown): PreviewToHost | undefined {
  const type = isRecord(raw) ? raw.type : undefined;
  return type === "ready" || type === "refresh" ? { type } : undefined;
}

export function parsePreviewUpdate(raw: unknown): HostToPreview | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === "preview" && isRecord(raw.preview) && allStrings(raw.preview, ["title", "html"])) return { type: "preview", preview: { title: raw.preview.title as string, html: raw.preview.html as string } };
  return parseCommonUpdate(raw);
}
