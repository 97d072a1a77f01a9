/**
 * Messages between the extension host and its webviews. Both sides validate what they receive:
 * a webview is a separate document, so its messages are untrusted input like any other.
 */

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

export type HostToOrgInfo =
  | { type: "loading" }
  | { type: "orgInfo"; info: OrgInfoView }
  | { type: "error"; message: string };

export type OrgInfoToHost = { type: "ready" } | { type: "refresh" } | { type: "openInBrowser" };

const isRecord = (raw: unknown): raw is Record<string, unknown> => !!raw && typeof raw === "object" && !Array.isArray(raw);
const allStrings = (record: Record<string, unknown>, keys: readonly string[]) => keys.every((k) => typeof record[k] === "string");

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
function parseCommonUpdate(msg: Record<string, unknown>): { type: "loading" } | { type: "error"; message: string } | undefined {
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
  fetchedAt: string;
}

export const ARTICLE_ACTIONS = ["edit", "publish", "archive", "createDraft", "openInBrowser"] as const;
export type ArticleAction = (typeof ARTICLE_ACTIONS)[number];

export type HostToArticle = { type: "loading" } | { type: "article"; article: ArticleDetailsView } | { type: "error"; message: string };
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
    listOf(value.versions, (v) => allStrings(v, ["id", "publishStatus", "title"]) && isFiniteNumber(v.versionNumber))
  );
}

export function parseArticleUpdate(raw: unknown): HostToArticle | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === "article" && isArticleView(raw.article)) return { type: "article", article: raw.article };
  return parseCommonUpdate(raw);
}
