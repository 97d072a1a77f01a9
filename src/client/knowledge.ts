/**
 * Knowledge article operations. Each takes the client first (`knowledge.publishArticle(crm, id)`); the same
 * functions are bound on `crm.knowledge` (`crm.knowledge.publishArticle(id)`).
 */
import { ARTICLE_SORT_FIELDS, type ArticleSortField, DEFAULT_ARTICLE_PAGE_SIZE, DEFAULT_KNOWLEDGE_SOBJECT, type SortOrder } from "./constants";
import type { Crm, QueryResult } from "./crm";
import { deprecated } from "./deprecated";
import { CrmError, DataMismatchError, MissingRequiredDataError } from "./errors";
import { requireRecordId, requireSobjectName } from "./ids";
import { soqlLiteral } from "./soql-text";
import type { CreateResult, KnowledgeArticle, KnowledgeArticleVersion, KnowledgeMasterVersion, KnowledgeSettings, TranslationVersion } from "./shapes";
import type { CrmResponse } from "./transport";
import { plugIn, type Bound } from "./plugins";

const MASTER_VERSIONS = "/knowledgeManagement/articleVersions/masterVersions";
const TRANSLATIONS = "/knowledgeManagement/articleVersions/translations";

import { compareVersions, preflightPublish } from "./versions";
import { knowledgeActionIntent, masterVersionIntent, recordIntent, translationIntent } from "./intent";

export { preflightPublish, compareVersions };

export type ArticleData = Record<string, unknown>;

/** One result of a knowledge invocable action (publish, archive, draft from online). */
export interface ActionResult {
  actionName: string;
  errors: { statusCode?: string; message: string }[] | null;
  isSuccess: boolean;
  outputValues: Record<string, unknown>;
}

function sobjectOf(sobject: string | undefined): string {
  return sobject === undefined ? DEFAULT_KNOWLEDGE_SOBJECT : requireSobjectName(sobject);
}

/** The knowledgeArticles endpoint serves only the standard article type. */
function checkKnowledgeArticlesEndpoint(sobject: string | undefined, useKnowledgeArticlesEndpoint: boolean | undefined): string {
  const resolved = sobjectOf(sobject);
  if (useKnowledgeArticlesEndpoint && sobject !== undefined && resolved !== DEFAULT_KNOWLEDGE_SOBJECT) {
    throw new DataMismatchError(`The knowledgeArticles endpoint cannot be used with the sObject '${resolved}'; leave sobject unset or set useKnowledgeArticlesEndpoint to false`);
  }
  return resolved;
}

function checkArticleData(data: unknown, requireTitleAndUrl: boolean): ArticleData {
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new TypeError("articleData must be an object of article fields such as { Title, UrlName, Summary }");
  const fields = data as ArticleData;
  if (!Object.keys(fields).length) throw new MissingRequiredDataError("articleData has no fields to write", "articleData");
  if (requireTitleAndUrl) {
    for (const field of ["Title", "UrlName"]) {
      if (typeof fields[field] !== "string" || !(fields[field] as string).trim()) {
        throw new MissingRequiredDataError(`articleData needs '${field}' (a non-empty string) to create an article`, field);
      }
    }
  }
  return fields;
}

/** Looks an article up by exact title: its number (default), its version ID, or both; "" when none. */
export interface ExistingArticleOptions {
  sobject?: string;
  returnId?: boolean;
  returnIdAndNumber?: boolean;
  includeArchived?: boolean;
}
export async function checkForExistingArticle(crm: Crm, title: string, options: ExistingArticleOptions & { returnIdAndNumber: true; returnId?: false }): Promise<[id: string, articleNumber: string]>;
export async function checkForExistingArticle(crm: Crm, title: string, options: ExistingArticleOptions & { returnId: true }): Promise<string>;
export async function checkForExistingArticle(crm: Crm, title: string, options?: ExistingArticleOptions & { returnId?: false; returnIdAndNumber?: false }): Promise<string>;
export async function checkForExistingArticle(crm: Crm, title: string, options: ExistingArticleOptions = {}): Promise<string | [string, string]> {
  if (typeof title !== "string" || !title) throw new TypeError("title must be a non-empty string");
  const sobject = sobjectOf(options.sobject);
  let soql = `SELECT Id, ArticleNumber FROM ${sobject} WHERE Title = ${soqlLiteral(title)}`;
  if (!options.includeArchived) soql += " AND PublishStatus != 'Archived'";
  const result = await crm.soqlQuery<{ Id: string; ArticleNumber: string }>(soql, { replaceQuotes: false });
  const first = result.records[0];
  if (!first) return options.returnIdAndNumber && !options.returnId ? ["", ""] : "";
  if (options.returnId) return first.Id;
  if (options.returnIdAndNumber) return [first.Id, first.ArticleNumber];
  return first.ArticleNumber;
}

function articleNumberQuery(articleNumber: string | number, sobject: string): string {
  if (typeof articleNumber !== "string" && typeof articleNumber !== "number") throw new TypeError("articleNumber must be a string or a number");
  const text = String(articleNumber).trim();
  if (!text) throw new TypeError("articleNumber must not be empty");
  // Article numbers are zero-padded to nine digits; pad instead of the original's loose LIKE match.
  const exact = /^\d+$/.test(text) && text.length < 9 ? text.padStart(9, "0") : text;
  return `SELECT Id, KnowledgeArticleId FROM ${sobject} WHERE ArticleNumber = ${soqlLiteral(exact)} ORDER BY LastModifiedDate DESC LIMIT 1`;
}

/** The relative sObject URL of the newest version with this article number; "" when none. */
export async function getArticleUriFromNumber(crm: Crm, articleNumber: string | number, options: { sobject?: string } = {}): Promise<string> {
  const result = await crm.soqlQuery<{ attributes: { url: string } }>(articleNumberQuery(articleNumber, sobjectOf(options.sobject)), { replaceQuotes: false });
  return result.records[0]?.attributes.url ?? "";
}

const articleUriFromNumberViaOption = deprecated({
  since: "0.1.0", replacement: "knowledge.getArticleUriFromNumber", removal: "1.0.0", name: "getArticleIdFromNumber({ returnUri: true })", stackLevel: 2,
})(getArticleUriFromNumber);

/** The version ID of the newest version with this article number; "" when none. */
export async function getArticleIdFromNumber(crm: Crm, articleNumber: string | number, options: { sobject?: string; returnUri?: boolean } = {}): Promise<string> {
  if (options.returnUri) return articleUriFromNumberViaOption(crm, articleNumber, { sobject: options.sobject });
  const result = await crm.soqlQuery<{ Id: string }>(articleNumberQuery(articleNumber, sobjectOf(options.sobject)), { replaceQuotes: false });
  return result.records[0]?.Id ?? "";
}

export interface ArticlesListPage {
  articles: Record<string, unknown>[];
  currentPageUrl: string;
  nextPageUrl: string | null;
  pageNumber: number;
}

/**
 * Published articles through the knowledgeArticles resource. `query` is its search text (the `q`
 * parameter); without it the articles are listed by `sort`.
 */
export async function getArticlesList(
  crm: Crm,
  options: { query?: string; sort?: ArticleSortField; order?: SortOrder; pageSize?: number; pageNum?: number; language?: string } = {},
): Promise<ArticlesListPage> {
  const { query, sort, order, pageSize = DEFAULT_ARTICLE_PAGE_SIZE, pageNum = 1, language = "en-US" } = options;
  if (sort !== undefined && !ARTICLE_SORT_FIELDS.includes(sort)) throw new RangeError(`sort must be one of ${ARTICLE_SORT_FIELDS.join(", ")}, got '${String(sort)}'`);
  const orderUpper = order === undefined ? undefined : String(order).toUpperCase();
  if (orderUpper !== undefined && orderUpper !== "ASC" && orderUpper !== "DESC") throw new RangeError(`order must be 'ASC' or 'DESC', got '${String(order)}'`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw new RangeError(`pageSize must be a whole number from 1 to 100, got ${String(pageSize)}`);
  if (!Number.isInteger(pageNum) || pageNum < 1) throw new RangeError(`pageNum must be a whole number of 1 or more, got ${String(pageNum)}`);
  return crm.getJson(await crm.apiPath("/support/knowledgeArticles"), {
    params: { q: query || undefined, sort, order: orderUpper, pageSize, pageNumber: pageNum },
    headers: { "Accept-Language": language },
  });
}

export interface ArticleVersionListOptions {
  publishStatus: "Draft" | "Online" | "Archived";
  sort?: ArticleSortField;
  order?: SortOrder;
  pageSize?: number;
  pageNum?: number;
  /** Only titles containing this text (case-insensitive). */
  titleContains?: string;
  sobject?: string;
  fields?: string[];
}

/** Beyond the spec: one page of article versions in any state, through SOQL (for the Knowledge tree). */
export async function listArticleVersions(crm: Crm, options: ArticleVersionListOptions): Promise<QueryResult<KnowledgeArticleVersion> & { hasMore: boolean }> {
  const sobject = sobjectOf(options.sobject);
  const pageSize = options.pageSize ?? DEFAULT_ARTICLE_PAGE_SIZE;
  const pageNum = options.pageNum ?? 1;
  if (!["Draft", "Online", "Archived"].includes(options.publishStatus)) throw new RangeError(`publishStatus must be Draft, Online or Archived, got '${String(options.publishStatus)}'`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200) throw new RangeError(`pageSize must be a whole number from 1 to 200, got ${String(pageSize)}`);
  if (!Number.isInteger(pageNum) || pageNum < 1) throw new RangeError(`pageNum must be 1 or more, got ${String(pageNum)}`);
  const sort = options.sort ?? "LastPublishedDate";
  if (!ARTICLE_SORT_FIELDS.includes(sort)) throw new RangeError(`sort must be one of ${ARTICLE_SORT_FIELDS.join(", ")}, got '${String(sort)}'`);
  const order = (options.order ?? "DESC").toUpperCase();
  if (order !== "ASC" && order !== "DESC") throw new RangeError(`order must be 'ASC' or 'DESC', got '${String(options.order)}'`);
  const sortField = sort === "ViewScore" ? "ArticleTotalViewCount" : sort;
  const fields = options.fields ?? ["Id", "KnowledgeArticleId", "ArticleNumber", "Title", "UrlName", "VersionNumber", "PublishStatus", "ValidationStatus", "LastPublishedDate", "CreatedDate", "LastModifiedDate"];
  // An article's translations are rows of their own; the groups list each article once, in its master language.
  let where = `PublishStatus = ${soqlLiteral(options.publishStatus)} AND IsMasterLanguage = true`;
  if (options.titleContains) where += ` AND Title LIKE ${soqlLiteral(`%${options.titleContains.replace(/[%_]/g, (c) => `\\${c}`)}%`)}`;
  // One row more than a page tells whether another page exists without a COUNT().
  const soql = `SELECT ${fields.join(", ")} FROM ${sobject} WHERE ${where} ORDER BY ${sortField} ${order} NULLS LAST, Id LIMIT ${pageSize + 1} OFFSET ${(pageNum - 1) * pageSize}`;
  const result = await crm.soqlQuery<KnowledgeArticleVersion>(soql, { replaceQuotes: false });
  const hasMore = result.records.length > pageSize;
  return { ...result, records: result.records.slice(0, pageSize), hasMore };
}

/** Beyond the spec: every version of one article in its master language (draft, online, archived), newest first; translations: getTranslations. */
export async function getVersionsOfArticle(crm: Crm, knowledgeArticleId: string, options: { sobject?: string } = {}): Promise<KnowledgeArticleVersion[]> {
  requireRecordId(knowledgeArticleId, "knowledgeArticleId");
  const soql = `SELECT Id, KnowledgeArticleId, ArticleNumber, Title, UrlName, Language, VersionNumber, PublishStatus, ValidationStatus, LastPublishedDate, LastModifiedDate FROM ${sobjectOf(options.sobject)} WHERE KnowledgeArticleId = ${soqlLiteral(knowledgeArticleId)} AND IsMasterLanguage = true ORDER BY VersionNumber DESC`;
  return (await crm.soqlQuery<KnowledgeArticleVersion>(soql, { replaceQuotes: false })).records;
}

/** Beyond the spec: the data categories assigned to an article version, as group and category names. */
export async function getDataCategorySelections(crm: Crm, articleId: string, options: { sobject?: string } = {}): Promise<{ group: string; category: string }[]> {
  requireRecordId(articleId, "articleId");
  const selection = sobjectOf(options.sobject).replace(/__kav$/, "__DataCategorySelection");
  const result = await crm.soqlQuery<{ DataCategoryGroupName: string; DataCategoryName: string }>(`SELECT DataCategoryGroupName, DataCategoryName FROM ${selection} WHERE ParentId = ${soqlLiteral(articleId)}`, { replaceQuotes: false });
  return result.records.map((r) => ({ group: r.DataCategoryGroupName, category: r.DataCategoryName }));
}

/** An article version's fields (sObject API), or the published article's view (knowledgeArticles API). */
export async function getArticleDetails(crm: Crm, articleId: string, options: { sobject?: string; useKnowledgeArticlesEndpoint: true }): Promise<Record<string, unknown>>;
export async function getArticleDetails(crm: Crm, articleId: string, options?: { sobject?: string; useKnowledgeArticlesEndpoint?: false }): Promise<KnowledgeArticleVersion>;
export async function getArticleDetails(crm: Crm, articleId: string, options?: { sobject?: string; useKnowledgeArticlesEndpoint?: boolean }): Promise<KnowledgeArticleVersion | Record<string, unknown>>;
export async function getArticleDetails(crm: Crm, articleId: string, options: { sobject?: string; useKnowledgeArticlesEndpoint?: boolean } = {}): Promise<KnowledgeArticleVersion | Record<string, unknown>> {
  requireRecordId(articleId, "articleId");
  const sobject = checkKnowledgeArticlesEndpoint(options.sobject, options.useKnowledgeArticlesEndpoint);
  if (options.useKnowledgeArticlesEndpoint) {
    return crm.getJson(await crm.apiPath(`/support/knowledgeArticles/${articleId}`), { headers: { "Accept-Language": "en-US" } });
  }
  return crm.getJson(await crm.apiPath(`/sobjects/${sobject}/${articleId}`));
}

/** ValidationStatus of an article (from given details or fetched); "" when the field is absent. */
export async function getValidationStatus(
  crm: Crm,
  options: { articleId?: string; articleDetails?: Record<string, unknown>; sobject?: string; useKnowledgeArticlesEndpoint?: boolean },
): Promise<string> {
  if (!options || (!options.articleId && !options.articleDetails)) throw new MissingRequiredDataError("getValidationStatus needs articleId or articleDetails", "articleId");
  const details = options.articleDetails ?? (await getArticleDetails(crm, options.articleId!, options));
  const status = details.ValidationStatus;
  return typeof status === "string" ? status : "";
}

/** Article-level facts (which versions are online, draft, archived) from knowledgeManagement. */
export async function getArticleMetadata(crm: Crm, articleId: string): Promise<KnowledgeArticle> {
  requireRecordId(articleId, "articleId");
  return crm.getJson(await crm.apiPath(`/knowledgeManagement/articles/${articleId}`));
}

/** A version's master-version record (state, number, what can be done with it). */
export async function getArticleVersion(crm: Crm, articleId: string): Promise<KnowledgeMasterVersion> {
  requireRecordId(articleId, "articleId");
  return crm.getJson(await crm.apiPath(`${MASTER_VERSIONS}/${articleId}`));
}

/**
 * A link to the article in the org's UI. Without `style`, Lightning for Knowledge__kav or a Lightning
 * base URL, Classic for another article type on another host (as the original library chooses).
 */
export async function getArticleUrl(
  crm: Crm,
  options: { articleId?: string; articleNumber?: string | number; sobject?: string; style?: "lightning" | "classic" },
): Promise<string> {
  if (!options || (!options.articleId && (options.articleNumber === undefined || options.articleNumber === ""))) {
    throw new MissingRequiredDataError("getArticleUrl needs articleId or articleNumber", "articleId");
  }
  const sobject = sobjectOf(options.sobject);
  if (options.style !== undefined && options.style !== "lightning" && options.style !== "classic") {
    throw new RangeError(`style must be 'lightning' or 'classic', got '${String(options.style)}'`);
  }
  let id = options.articleId;
  if (!id) {
    id = await getArticleIdFromNumber(crm, options.articleNumber!, { sobject });
    if (!id) throw new CrmError(`No article has the number ${String(options.articleNumber)}`);
  }
  requireRecordId(id, "articleId");
  if (!crm.baseUrl) await crm.apiPath();
  const base = crm.baseUrl!;
  // As the original: Lightning for the standard article type or a Lightning host, else the Classic page.
  const style = options.style ?? (sobject === DEFAULT_KNOWLEDGE_SOBJECT || base.includes("lightning") ? "lightning" : "classic");
  return style === "lightning" ? `${base}/lightning/r/${sobject}/${id}/view` : `${base}/knowledge/publishing/articleDraftDetail.apexp?id=${id}`;
}

/** Creates a draft article; resolves to its version ID, or the whole response with `fullResponse`. */
export async function createArticle(crm: Crm, articleData: ArticleData, options: { sobject?: string; fullResponse: true }): Promise<CreateResult>;
export async function createArticle(crm: Crm, articleData: ArticleData, options?: { sobject?: string; fullResponse?: false }): Promise<string>;
export async function createArticle(crm: Crm, articleData: ArticleData, options: { sobject?: string; fullResponse?: boolean } = {}): Promise<string | CreateResult> {
  const data = checkArticleData(articleData, true);
  const response = await crm.createSobjectRecord(sobjectOf(options.sobject), data);
  return options.fullResponse ? response : response.id;
}

/** Updates a draft's fields (any subset). Resolves to true, or `[true, status]` with `includeStatusCode`. */
export interface UpdateArticleOptions {
  sobject?: string;
  includeStatusCode?: boolean;
  ifUnmodifiedSince?: Date;
}
export async function updateArticle(crm: Crm, recordId: string, articleData: ArticleData, options: UpdateArticleOptions & { includeStatusCode: true }): Promise<[ok: boolean, status: number]>;
export async function updateArticle(crm: Crm, recordId: string, articleData: ArticleData, options?: UpdateArticleOptions & { includeStatusCode?: false }): Promise<boolean>;
export async function updateArticle(crm: Crm, recordId: string, articleData: ArticleData, options: UpdateArticleOptions = {}): Promise<boolean | [boolean, number]> {
  requireRecordId(recordId, "recordId");
  const data = checkArticleData(articleData, false);
  const response = await crm.updateSobjectRecord(sobjectOf(options.sobject), recordId, data, { ifUnmodifiedSince: options.ifUnmodifiedSince });
  const ok = response.status === 204 || response.status === 200;
  return options.includeStatusCode ? [ok, response.status] : ok;
}

function actionFailure(result: ActionResult | undefined, what: string): CrmError {
  const itemWords = result ? Object.values(result.outputValues ?? {}).filter((v) => typeof v === "string" && v !== "Success") : [];
  const words = result?.errors?.map((e) => e.message) ?? itemWords;
  return new CrmError(`${what} failed: ${words.join("; ") || "the org gave no reason"}`);
}

/** A draft from the online version (the article stays online unless `unpublish`). Resolves to the action result. */
export async function createDraftFromOnlineArticle(crm: Crm, articleId: string, options: { unpublish?: boolean } = {}): Promise<ActionResult[]> {
  requireRecordId(articleId, "articleId");
  const data = await createDraftsFromOnlineArticles(crm, [articleId], options);
  if (!data[0]?.isSuccess) throw actionFailure(data[0], `Creating a draft from the online version of ${articleId}`);
  return data;
}

/** The most inputs one request to an action carries here (the org's collections take as many records). */
export const ACTION_INPUTS_LIMIT = 200;

/**
 * Drafts from the online versions of several articles, in one request per 200 (the action takes a list of
 * inputs): each article's result in the order given, a refused one with its reason (`isSuccess` false).
 */
export async function createDraftsFromOnlineArticles(crm: Crm, articleIds: string[], options: { unpublish?: boolean } = {}): Promise<ActionResult[]> {
  if (!Array.isArray(articleIds)) throw new TypeError("articleIds must be an array of article IDs (kA…)");
  articleIds.forEach((id, i) => requireRecordId(id, `articleIds[${i}]`));
  const results: ActionResult[] = [];
  for (let from = 0; from < articleIds.length; from += ACTION_INPUTS_LIMIT) {
    const inputs = articleIds.slice(from, from + ACTION_INPUTS_LIMIT).map((articleId) => ({ action: "EDIT_AS_DRAFT_ARTICLE", unpublish: options.unpublish ?? false, articleId }));
    const response = await crm.request<ActionResult[]>("POST", await crm.apiPath("/actions/standard/createDraftFromOnlineKnowledgeArticle"), { inputs }, { intent: knowledgeActionIntent("createDraftFromOnlineKnowledgeArticle", inputs) });
    const data = response.data;
    if (!Array.isArray(data) || data.length !== inputs.length) throw new CrmError(`createDraftFromOnlineKnowledgeArticle answered ${Array.isArray(data) ? data.length : "no"} results for ${inputs.length} articles`);
    results.push(...data);
  }
  return results;
}

/**
 * A new draft from the master article (KnowledgeArticleId): given directly, read from `articleData`,
 * or looked up from a version ID. Resolves to the draft's version ID, or the response with `fullResponse`.
 */
export interface DraftFromMasterOptions {
  articleId?: string;
  knowledgeArticleId?: string;
  articleData?: ArticleData;
  sobject?: string;
  fullResponse?: boolean;
}
export async function createDraftFromMasterVersion(crm: Crm, options: DraftFromMasterOptions & { fullResponse: true }): Promise<Record<string, unknown>>;
export async function createDraftFromMasterVersion(crm: Crm, options: DraftFromMasterOptions & { fullResponse?: false }): Promise<string>;
export async function createDraftFromMasterVersion(crm: Crm, options: DraftFromMasterOptions): Promise<string | Record<string, unknown>> {
  if (!options || (!options.articleId && !options.knowledgeArticleId && !options.articleData)) {
    throw new MissingRequiredDataError("createDraftFromMasterVersion needs articleId, knowledgeArticleId or articleData", "knowledgeArticleId");
  }
  let masterId = options.knowledgeArticleId ?? (options.articleData?.KnowledgeArticleId as string | undefined);
  if (!masterId && options.articleId) {
    const details = await getArticleDetails(crm, options.articleId, { sobject: options.sobject });
    masterId = details.KnowledgeArticleId as string | undefined;
  }
  if (!masterId) throw new MissingRequiredDataError("The KnowledgeArticleId of the article could not be found", "knowledgeArticleId");
  requireRecordId(masterId, "knowledgeArticleId");
  const response = await crm.request<Record<string, unknown>>("POST", await crm.apiPath(MASTER_VERSIONS), { articleId: masterId }, { intent: masterVersionIntent("POST", undefined, { articleId: masterId }) });
  const body = response.data ?? {};
  return options.fullResponse ? body : String(body.id ?? "");
}

/** Publishes a draft as a major (default) or minor version. Resolves to true, or the response with `fullResponse`. */
export async function publishArticle(crm: Crm, articleId: string, options: { majorVersion?: boolean; fullResponse: true }): Promise<CrmResponse>;
export async function publishArticle(crm: Crm, articleId: string, options?: { majorVersion?: boolean; fullResponse?: false }): Promise<boolean>;
export async function publishArticle(crm: Crm, articleId: string, options: { majorVersion?: boolean; fullResponse?: boolean } = {}): Promise<boolean | CrmResponse> {
  requireRecordId(articleId, "articleId");
  const body: Record<string, string> = { publishStatus: "Online" };
  if (options.majorVersion ?? true) body.versionNumber = "NextVersion";
  const response = await crm.request("PATCH", await crm.apiPath(`${MASTER_VERSIONS}/${articleId}`), body, { intent: masterVersionIntent("PATCH", articleId, body) });
  return options.fullResponse ? response : response.status === 204;
}

/**
 * Publishes several drafts in one call. Resolves to the action results, whose `outputValues` say per
 * article (by 15-character ID) "Success" or why not; a partial failure does not raise.
 */
export async function publishMultipleArticles(crm: Crm, articleIdList: string[], options: { majorVersion?: boolean } = {}): Promise<ActionResult[]> {
  if (!Array.isArray(articleIdList) || !articleIdList.length) {
    throw new MissingRequiredDataError("articleIdList must be a non-empty array of article version IDs", "articleIdList");
  }
  articleIdList.forEach((id, i) => requireRecordId(id, `articleIdList[${i}]`));
  const inputs = [{ articleVersionIdList: articleIdList, pubAction: options.majorVersion ?? true ? "PUBLISH_ARTICLE_NEW_VERSION" : "PUBLISH_ARTICLE" }];
  const response = await crm.request<ActionResult[]>("POST", await crm.apiPath("/actions/standard/publishKnowledgeArticles"), { inputs }, { intent: knowledgeActionIntent("publishKnowledgeArticles", inputs) });
  const data = response.data ?? [];
  if (data[0]?.errors?.length) throw actionFailure(data[0], "Publishing the articles");
  return data;
}

/** Archives a published version (HTTP 204 on success). */
export async function archiveArticle(crm: Crm, articleId: string): Promise<CrmResponse> {
  requireRecordId(articleId, "articleId");
  const body = { publishStatus: "Archived" };
  return crm.request("PATCH", await crm.apiPath(`${MASTER_VERSIONS}/${articleId}`), body, { intent: masterVersionIntent("PATCH", articleId, body) });
}

/** Deletes a draft (through knowledgeManagement by default, or the sObject API). */
export async function deleteArticleDraft(crm: Crm, versionId: string, options: { sobject?: string; useKnowledgeManagementEndpoint?: boolean } = {}): Promise<CrmResponse> {
  requireRecordId(versionId, "versionId");
  const sobject = sobjectOf(options.sobject);
  const viaKnowledgeManagement = options.useKnowledgeManagementEndpoint ?? true;
  const endpoint = viaKnowledgeManagement ? `${MASTER_VERSIONS}/${versionId}` : `/sobjects/${sobject}/${versionId}`;
  return crm.request("DELETE", await crm.apiPath(endpoint), undefined, { intent: viaKnowledgeManagement ? masterVersionIntent("DELETE", versionId, undefined) : recordIntent("delete", sobject, { id: versionId }) });
}

/** Assigns a data category (group and category by unique name) to a draft version. */
export async function assignDataCategory(crm: Crm, articleId: string, categoryGroupName: string, categoryName: string, options: { sobject?: string } = {}): Promise<{ id: string; success: boolean; errors: unknown[] }> {
  requireRecordId(articleId, "articleId");
  if (typeof categoryGroupName !== "string" || !categoryGroupName) throw new TypeError("categoryGroupName must be the data category group's unique name");
  if (typeof categoryName !== "string" || !categoryName) throw new TypeError("categoryName must be the data category's unique name");
  const selection = sobjectOf(options.sobject).replace(/__kav$/, "__DataCategorySelection");
  return crm.createSobjectRecord(selection, { ParentId: articleId, DataCategoryGroupName: categoryGroupName, DataCategoryName: categoryName });
}

export interface DataCategory {
  name: string;
  label: string;
  childCategories: DataCategory[];
}

/** Beyond the spec: the org's data category groups with their category trees (for pickers). */
export async function getDataCategoryGroups(crm: Crm): Promise<{ name: string; label: string; topCategories: DataCategory[] }[]> {
  const body = await crm.getJson<{ categoryGroups: { name: string; label: string; topCategories: DataCategory[] }[] }>(
    await crm.apiPath("/support/dataCategoryGroups"),
    { params: { sObjectName: "KnowledgeArticleVersion", topCategoriesOnly: "false" } },
  );
  return body.categoryGroups ?? [];
}

// ---- translations (Knowledge Management translations resource and the knowledge actions) ----

/** Beyond the spec: the org's knowledge languages — the master language and which languages are active. */
export async function getKnowledgeSettings(crm: Crm): Promise<KnowledgeSettings> {
  return crm.getJson(await crm.apiPath("/knowledgeManagement/settings"));
}

const TRANSLATION_FIELDS = "Id, KnowledgeArticleId, ArticleNumber, Title, UrlName, Language, VersionNumber, PublishStatus, ValidationStatus, MasterVersionId, AssignedToId, LastPublishedDate, LastModifiedDate";

/**
 * Beyond the spec: the translations of one or more articles (KnowledgeArticleId), every language and state
 * (draft, published, archived), in one query per 200 articles.
 */
export async function getTranslations(crm: Crm, knowledgeArticleIds: string | string[], options: { sobject?: string } = {}): Promise<TranslationVersion[]> {
  const ids = typeof knowledgeArticleIds === "string" ? [knowledgeArticleIds] : knowledgeArticleIds;
  if (!Array.isArray(ids)) throw new TypeError("knowledgeArticleIds must be an article ID or an array of them");
  ids.forEach((id, i) => requireRecordId(id, `knowledgeArticleIds[${i}]`));
  const out: TranslationVersion[] = [];
  for (let i = 0; i < ids.length; i += 200) {
    const list = ids.slice(i, i + 200).map(soqlLiteral).join(", ");
    const soql = `SELECT ${TRANSLATION_FIELDS} FROM ${sobjectOf(options.sobject)} WHERE KnowledgeArticleId IN (${list}) AND IsMasterLanguage = false ORDER BY Language, VersionNumber DESC`;
    out.push(...(await crm.soqlQuery<TranslationVersion>(soql, { replaceQuotes: false })).records);
  }
  return out;
}

export interface TranslationAssignment {
  language: string;
  /** A user or queue ID; the org's default assignee for the language when absent. */
  assigneeId?: string;
  dueDate?: string;
}

/**
 * Submits an article (its KnowledgeArticleId) for translation into one or more languages, each a draft
 * copied from the published master (or the language's published translation). Resolves to the new drafts.
 * The org refuses inactive languages, the master language, and a language that already has a draft.
 */
export async function submitForTranslation(
  crm: Crm, knowledgeArticleId: string, languages: string | (string | TranslationAssignment)[], options: { sendEmailNotification?: boolean; sobject?: string } = {},
): Promise<TranslationVersion[]> {
  requireRecordId(knowledgeArticleId, "knowledgeArticleId");
  const list = typeof languages === "string" ? [languages] : languages;
  if (!Array.isArray(list) || !list.length) throw new MissingRequiredDataError("languages must name at least one language code, such as 'fr' or 'de'", "languages");
  const assignments = list.map((entry, i) => {
    const a = typeof entry === "string" ? { language: entry } : entry;
    if (!a || typeof a.language !== "string" || !/^[a-z]{2,3}(?:_[A-Z]{2})?$/.test(a.language)) throw new TypeError(`languages[${i}] must be a language code such as 'fr' or 'pt_BR', got ${JSON.stringify(a?.language ?? entry)}`);
    if (a.assigneeId !== undefined) requireRecordId(a.assigneeId, `languages[${i}].assigneeId`);
    return { language: a.language, ...(a.assigneeId ? { assigneeId: a.assigneeId } : {}), ...(a.dueDate ? { dueDate: a.dueDate } : {}) };
  });
  const body = { articleId: knowledgeArticleId, assignments, sendEmailNotification: options.sendEmailNotification ?? false };
  await crm.request("POST", await crm.apiPath(TRANSLATIONS), body, { intent: translationIntent("POST", undefined, body) });
  // The resource documents no answer body: the drafts are read back by article and language.
  const wanted = new Set(assignments.map((a) => a.language));
  return (await getTranslations(crm, knowledgeArticleId, options)).filter((t) => t.PublishStatus === "Draft" && wanted.has(t.Language));
}

/**
 * Publishes draft translations (the publishKnowledgeArticles action with PUBLISH_TRANSLATION; the REST
 * translations resource has no publish). Resolves to the action results, per version "Success" or why not.
 */
export async function publishTranslations(crm: Crm, versionIds: string[]): Promise<ActionResult[]> {
  if (!Array.isArray(versionIds) || !versionIds.length) throw new MissingRequiredDataError("versionIds must be a non-empty array of translation version IDs", "versionIds");
  versionIds.forEach((id, i) => requireRecordId(id, `versionIds[${i}]`));
  const inputs = [{ articleVersionIdList: versionIds, pubAction: "PUBLISH_TRANSLATION" }];
  const response = await crm.request<ActionResult[]>("POST", await crm.apiPath("/actions/standard/publishKnowledgeArticles"), { inputs }, { intent: knowledgeActionIntent("publishKnowledgeArticles", inputs) });
  const data = response.data ?? [];
  if (data[0]?.errors?.length) throw actionFailure(data[0], "Publishing the translations");
  return data;
}

/** Publishes one draft translation; raises with the org's reason when it is refused. */
export async function publishTranslation(crm: Crm, versionId: string): Promise<void> {
  const [result] = await publishTranslations(crm, [versionId]);
  if (!result?.isSuccess) throw actionFailure(result, `Publishing the translation ${versionId}`);
}

/** A draft of a published translation (kept online unless `unpublish`). Resolves to the draft's version ID. */
export async function createDraftFromOnlineTranslation(crm: Crm, versionId: string, options: { unpublish?: boolean; sobject?: string } = {}): Promise<string> {
  requireRecordId(versionId, "versionId");
  const inputs = [{ action: "EDIT_AS_DRAFT_TRANSLATION", unpublish: options.unpublish ?? false, articleVersionId: versionId }];
  const response = await crm.request<ActionResult[]>("POST", await crm.apiPath("/actions/standard/createDraftFromOnlineKnowledgeArticle"), { inputs }, { intent: knowledgeActionIntent("createDraftFromOnlineKnowledgeArticle", inputs) });
  const result = response.data?.[0];
  if (!result?.isSuccess) throw actionFailure(result, `Creating a draft of the translation ${versionId}`);
  const draftId = result.outputValues?.DraftId;
  if (typeof draftId === "string") return draftId;
  // Not every org names the draft in its answer: find it by the translation's article and language.
  const online = await getArticleDetails(crm, versionId, { sobject: options.sobject });
  const drafts = await getTranslations(crm, String(online.KnowledgeArticleId), options);
  return drafts.find((t) => t.Language === online.Language && t.PublishStatus === "Draft")?.Id ?? "";
}

/** Deletes a draft (or archived) translation version; a published one must be unpublished first. */
export async function deleteTranslation(crm: Crm, versionId: string): Promise<CrmResponse> {
  requireRecordId(versionId, "versionId");
  return crm.request("DELETE", await crm.apiPath(`${TRANSLATIONS}/${versionId}`), undefined, { intent: translationIntent("DELETE", versionId, undefined) });
}

/** Takes a published translation offline as a draft (the translations resource's `publishStatus: draft`). */
export async function unpublishTranslation(crm: Crm, versionId: string): Promise<CrmResponse> {
  requireRecordId(versionId, "versionId");
  const body = { publishStatus: "draft" };
  return crm.request("PATCH", await crm.apiPath(`${TRANSLATIONS}/${versionId}`), body, { intent: translationIntent("PATCH", versionId, body) });
}

/** Marks a draft translation complete (ready to publish) or back in progress. */
export async function setTranslationComplete(crm: Crm, versionId: string, complete: boolean): Promise<CrmResponse> {
  requireRecordId(versionId, "versionId");
  if (typeof complete !== "boolean") throw new TypeError("complete must be true or false");
  return crm.request("PATCH", await crm.apiPath(`${TRANSLATIONS}/${versionId}`), { complete }, { intent: translationIntent("PATCH", versionId, { complete }) });
}

/** The functions this module adds to every client as `crm.knowledge`. */
const api = { preflightPublish, compareVersions, checkForExistingArticle, getArticleUriFromNumber, getArticleIdFromNumber, getArticlesList, listArticleVersions, getVersionsOfArticle, getDataCategorySelections, getArticleDetails, getValidationStatus, getArticleMetadata, getArticleVersion, getArticleUrl, createArticle, updateArticle, createDraftFromOnlineArticle, createDraftsFromOnlineArticles, createDraftFromMasterVersion, publishArticle, publishMultipleArticles, archiveArticle, deleteArticleDraft, assignDataCategory, getDataCategoryGroups, getKnowledgeSettings, getTranslations, submitForTranslation, publishTranslations, publishTranslation, createDraftFromOnlineTranslation, deleteTranslation, unpublishTranslation, setTranslationComplete };
plugIn("knowledge", api);
declare module "./crm" {
  interface Crm {
    /** Knowledge: articles, versions, translations, data categories. */
    readonly knowledge: Bound<typeof api>;
  }
}
