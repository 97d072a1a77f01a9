/** Knowledge: article versions and their state rules (crm-rest-api.md §4). */
import { get18CharId, isRecordId } from "../client/ids";
import { type Ctx, type Route, type Reply, json, noContent, notFound, bodyObject } from "./context";
import type { WriteHooks } from "./data";
import type { DataCategoryNode } from "./seed";
import { ApiError } from "./soql";
import { sfDateTime, type Rec, type Store } from "./store";

const KAV = "Knowledge__kav";
const ACTION_REFUSED = "You can't perform this action. Be sure the action is valid for the current state of the article, and that you have permission to perform it.";
const URL_NAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

const refused = (message = ACTION_REFUSED) => new ApiError(400, "INVALID_OPERATION", message);

/** A translation is a version row in another language than the article's master language. */
const isTranslation = (v: Rec) => v.IsMasterLanguage === false;

/** The master-language versions of an article (its translations are rows of their own). */
function versions(store: Store, articleId: string): Rec[] {
  return store.liveRecords(KAV).filter((v) => v.KnowledgeArticleId === articleId && !isTranslation(v));
}

function translations(store: Store, articleId: string, language?: unknown): Rec[] {
  return store.liveRecords(KAV).filter((v) => v.KnowledgeArticleId === articleId && isTranslation(v) && (language === undefined || v.Language === language));
}

function versionOr404(store: Store, id: string): Rec {
  const found = store.find(id);
  if (!found || found.def.name !== KAV) throw notFound();
  return found.rec;
}

function checkUrlName(value: unknown) {
  if (typeof value === "string" && !URL_NAME_RE.test(value)) {
    throw new ApiError(400, "FIELD_INTEGRITY_EXCEPTION", "URL Name: use only letters, numbers and hyphens, and don't start or end with a hyphen.", ["UrlName"]);
  }
}

/** Publishes a draft: major archives the current online version; minor replaces it. */
function publish(store: Store, draft: Rec, major: boolean, userId: string) {
  if (draft.PublishStatus !== "Draft" || isTranslation(draft)) throw refused();
  const now = store.clock();
  const online = versions(store, String(draft.KnowledgeArticleId)).find((v) => v.PublishStatus === "Online");
  if (online) {
    if (major) {
      online.PublishStatus = "Archived";
      online.IsLatestVersion = false;
      online.ArchivedDate = sfDateTime(now);
    } else {
      draft.VersionNumber = online.VersionNumber;
      online.IsDeleted = true;
    }
    store.touch(online, userId);
  }
  draft.PublishStatus = "Online";
  draft.IsLatestVersion = true;
  stampPublished(store, draft, userId);
}

/** Publishing is the version's latest change: its publication time is its new LastModifiedDate. */
function stampPublished(store: Store, version: Rec, userId: string) {
  store.touch(version, userId);
  version.LastPublishedDate = version.LastModifiedDate;
  version.FirstPublishedDate ??= version.LastModifiedDate;
}

/** Archiving an article archives its published translations with it. */
function archive(store: Store, version: Rec, userId: string) {
  if (version.PublishStatus !== "Online" || isTranslation(version)) throw refused();
  for (const v of [version, ...translations(store, String(version.KnowledgeArticleId)).filter((t) => t.PublishStatus === "Online")]) {
    v.PublishStatus = "Archived";
    v.ArchivedDate = sfDateTime(store.clock());
    store.touch(v, userId);
  }
}

/** The org's knowledge languages: a translation must be into an active one other than the master language. */
function checkTranslationLanguage(ctx: Ctx, language: unknown): string {
  const { defaultLanguage, languages } = ctx.org.seeded.knowledgeLanguages;
  const known = languages.find((l) => l.name === language);
  if (typeof language !== "string" || !known) throw new ApiError(400, "INVALID_LANGUAGE", "The language code is not valid or not supported by Knowledge.", ["language"]);
  if (!known.active) throw new ApiError(400, "INVALID_LANGUAGE", "Invalid language code. Check that the language is included in your Knowledge language settings.", ["language"]);
  if (language === defaultLanguage) throw new ApiError(400, "INVALID_LANGUAGE", "An article can't be translated into its master language.", ["language"]);
  return language;
}

/** A copy of a version as a new draft row (the caller says what differs). */
function copyAsDraft(store: Store, from: Rec, values: Record<string, unknown>, userId: string): Rec {
  const copy: Record<string, unknown> = { ...from };
  for (const key of ["Id", "CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById", "SystemModstamp", "IsDeleted"]) delete copy[key];
  return store.insert(KAV, { ...copy, PublishStatus: "Draft", IsLatestVersion: true, ArchivedDate: null, ...values }, userId);
}

/**
 * Submit for translation: a draft in the language, copied from its published translation where there is one,
 * else from the master (published, or its draft). One draft per language: a second submission is refused.
 */
function submitForTranslation(ctx: Ctx, articleId: string, language: string, assignment: { assigneeId?: unknown; dueDate?: unknown }): Rec {
  const masters = versions(ctx.store, articleId);
  const source = masters.find((v) => v.PublishStatus === "Online") ?? masters.find((v) => v.PublishStatus === "Draft");
  if (!source) throw refused("Only an article with a published or draft version can be submitted for translation.");
  const existing = translations(ctx.store, articleId, language);
  if (existing.some((t) => t.PublishStatus === "Draft")) throw refused(`A draft translation of this article into ${language} already exists. Edit or delete that draft first.`);
  const from = existing.find((t) => t.PublishStatus === "Online") ?? source;
  return copyAsDraft(ctx.store, from, {
    Language: language, IsMasterLanguage: false, MasterVersionId: source.Id, VersionNumber: source.VersionNumber, ValidationStatus: "Not Validated",
    LastPublishedDate: null, AssignedToId: assignment.assigneeId || ctx.user.Id, AssignmentDueDate: assignment.dueDate || null,
  }, ctx.user.Id);
}

/** Publishing a translation: the master must be published; the language's previous published translation is archived. */
function publishTranslation(store: Store, draft: Rec, userId: string) {
  if (draft.PublishStatus !== "Draft" || !isTranslation(draft)) throw refused();
  if (!versions(store, String(draft.KnowledgeArticleId)).some((v) => v.PublishStatus === "Online")) throw refused("Publish the master article before its translations.");
  const now = sfDateTime(store.clock());
  for (const online of translations(store, String(draft.KnowledgeArticleId), draft.Language).filter((t) => t.PublishStatus === "Online")) {
    online.PublishStatus = "Archived";
    online.IsLatestVersion = false;
    online.ArchivedDate = now;
    store.touch(online, userId);
  }
  draft.PublishStatus = "Online";
  stampPublished(store, draft, userId);
}

/** A published translation edited as a draft: a copy, or (unpublish) the published version itself. */
function draftFromOnlineTranslation(store: Store, online: Rec, unpublish: boolean, userId: string): Rec {
  if (!isTranslation(online) || online.PublishStatus !== "Online") throw refused();
  if (translations(store, String(online.KnowledgeArticleId), online.Language).some((t) => t.PublishStatus === "Draft")) throw refused(`A draft translation into ${String(online.Language)} already exists.`);
  if (!unpublish) return copyAsDraft(store, online, {}, userId);
  online.PublishStatus = "Draft";
  store.touch(online, userId);
  return online;
}

/** Draft from the online version: a copy with the next version number, or the online version itself when unpublishing. */
function draftFromOnline(store: Store, articleId: string, unpublish: boolean, userId: string): Rec {
  const all = versions(store, articleId);
  if (all.some((v) => v.PublishStatus === "Draft")) throw refused("A draft version of this article already exists. Edit or delete that draft first.");
  const online = all.find((v) => v.PublishStatus === "Online");
  if (!online) throw refused("This article has no published version to create a draft from.");
  if (unpublish) {
    online.PublishStatus = "Draft";
    store.touch(online, userId);
    return online;
  }
  const maxVersion = Math.max(...all.map((v) => Number(v.VersionNumber)));
  const draft = copyAsDraft(store, online, { VersionNumber: maxVersion + 1 }, userId);
  for (const selection of store.liveRecords("Knowledge__DataCategorySelection").filter((s) => s.ParentId === online.Id)) {
    store.insert("Knowledge__DataCategorySelection", { ParentId: draft.Id, DataCategoryGroupName: selection.DataCategoryGroupName, DataCategoryName: selection.DataCategoryName }, userId);
  }
  return draft;
}

function masterVersionBody(ctx: Ctx, v: Rec) {
  const base = `/services/data/v${ctx.version}`;
  const status = String(v.PublishStatus);
  return {
    additionalInformation: {
      canArchive: status === "Online", canDelete: status !== "Online", canEdit: status === "Draft", canPublish: status === "Draft", canTranslate: status !== "Archived",
      data: `${base}/sobjects/${KAV}/${v.Id}`, lastVersion: v.IsLatestVersion === true, masterVersion: true, summary: v.Summary, title: v.Title, type: KAV,
      url: `${base}/knowledgeManagement/articleVersions/masterVersions/${v.Id}`,
    },
    archiveScheduleDate: null, articleId: v.KnowledgeArticleId, articleNumber: v.ArticleNumber, articleVersionId: v.Id, assigneeId: null,
    dueDate: null, instruction: null, language: v.Language, locked: false, publishScheduleDate: null, publishStatus: status, versionNumber: v.VersionNumber,
  };
}

function zDate(value: unknown): string | null {
  return value ? String(value).replace(/\.\d{3}\+0000$/, "Z") : null;
}

function categoryGroupsOf(ctx: Ctx, versionId: string) {
  const selections = ctx.store.liveRecords("Knowledge__DataCategorySelection").filter((s) => s.ParentId === versionId);
  const groups = new Map<string, { groupName: string; groupLabel: string; selectedCategories: unknown[] }>();
  for (const s of selections) {
    const group = ctx.org.seeded.categoryGroups.find((g) => g.name === s.DataCategoryGroupName);
    const entry = groups.get(String(s.DataCategoryGroupName)) ?? { groupName: String(s.DataCategoryGroupName), groupLabel: group?.label ?? String(s.DataCategoryGroupName), selectedCategories: [] };
    entry.selectedCategories.push({
      categoryName: s.DataCategoryName, categoryLabel: findCategory(group?.root, String(s.DataCategoryName))?.label ?? s.DataCategoryName,
      url: `/services/data/v${ctx.version}/support/dataCategoryGroups/${s.DataCategoryGroupName}/dataCategories/${s.DataCategoryName}?sObjectName=KnowledgeArticleVersion`,
    });
    groups.set(String(s.DataCategoryGroupName), entry);
  }
  return [...groups.values()];
}

function findCategory(node: DataCategoryNode | undefined, name: string): DataCategoryNode | undefined {
  if (!node) return undefined;
  if (node.name === name) return node;
  for (const child of node.children) {
    const hit = findCategory(child, name);
    if (hit) return hit;
  }
  return undefined;
}

function articleSummary(ctx: Ctx, v: Rec) {
  return {
    id: v.KnowledgeArticleId, articleNumber: v.ArticleNumber, articleType: KAV, title: v.Title, urlName: v.UrlName, summary: v.Summary ?? null,
    url: `/services/data/v${ctx.version}/support/knowledgeArticles/${v.KnowledgeArticleId}`, viewCount: v.ArticleTotalViewCount ?? 0,
    viewScore: v.ViewScore__c ?? 0, upVoteCount: 0, downVoteCount: 0, lastPublishedDate: zDate(v.LastPublishedDate), categoryGroups: categoryGroupsOf(ctx, v.Id),
  };
}

function requireLanguage(ctx: Ctx) {
  const language = ctx.headers["accept-language"];
  if (typeof language !== "string" || !language.trim()) {
    throw new ApiError(400, "INVALID_LANGUAGE", "The language code is not valid or not supported by Knowledge.");
  }
  const code = language.split(",")[0]!.trim().toLowerCase();
  if (!/^[a-z]{2}(-[a-z]{2})?$/.test(code)) throw new ApiError(400, "INVALID_LANGUAGE", "The language code is not valid or not supported by Knowledge.");
  if (!["en-us", "en"].includes(code)) throw new ApiError(400, "INVALID_LANGUAGE", "Invalid language code. Check that the language is included in your Knowledge language settings.");
}

function listArticles(ctx: Ctx): Reply {
  requireLanguage(ctx);
  const q = ctx.query.get("q");
  const sort = ctx.query.get("sort") ?? (q ? null : "LastPublishedDate");
  const order = (ctx.query.get("order") ?? "DESC").toUpperCase();
  const pageSize = Number(ctx.query.get("pageSize") ?? 20);
  const pageNumber = Number(ctx.query.get("pageNumber") ?? 1);
  if (sort && !["LastPublishedDate", "CreatedDate", "Title", "ViewScore"].includes(sort)) throw new ApiError(400, "INVALID_FILTER_VALUE", `Invalid sort value: ${sort}`);
  if (!["ASC", "DESC"].includes(order)) throw new ApiError(400, "INVALID_FILTER_VALUE", `Invalid order value: ${order}`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw new ApiError(400, "INVALID_FILTER_VALUE", "pageSize must be between 1 and 100");
  if (!Number.isInteger(pageNumber) || pageNumber < 1) throw new ApiError(400, "INVALID_FILTER_VALUE", "pageNumber must be 1 or more");
  const words = q?.toLowerCase().replace(/[*?]/g, "").split(/\s+/).filter(Boolean) ?? [];
  let online = ctx.store.liveRecords(KAV).filter((v) => v.PublishStatus === "Online" && v.IsMasterLanguage !== false);
  if (words.length) online = online.filter((v) => words.every((w) => `${v.Title} ${v.Summary ?? ""} ${v.Answer__c ?? ""}`.toLowerCase().includes(w)));
  const key = { LastPublishedDate: "LastPublishedDate", CreatedDate: "CreatedDate", Title: "Title", ViewScore: "ViewScore__c" }[sort ?? "LastPublishedDate"]!;
  online.sort((a, b) => {
    const c = String(a[key] ?? "").localeCompare(String(b[key] ?? ""), "en", { numeric: true, sensitivity: "base" });
    return order === "ASC" ? c : -c;
  });
  if (key === "ViewScore__c") online.sort((a, b) => (order === "ASC" ? 1 : -1) * (Number(a[key]) - Number(b[key])));
  const start = (pageNumber - 1) * pageSize;
  const page = online.slice(start, start + pageSize);
  const url = (n: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of ctx.query) if (k !== "pageNumber") params.set(k, v);
    if (n !== 1) params.set("pageNumber", String(n));
    const s = params.toString();
    return `/services/data/v${ctx.version}/support/knowledgeArticles${s ? `?${s}` : ""}`;
  };
  return json(200, {
    articles: page.map((v) => articleSummary(ctx, v)),
    currentPageUrl: url(pageNumber),
    nextPageUrl: start + pageSize < online.length ? url(pageNumber + 1) : null,
    pageNumber,
  });
}

function articleDetail(ctx: Ctx, key: string): Reply {
  requireLanguage(ctx);
  const byUrlName = ctx.query.get("isUrlName") === "true" || !isRecordId(key);
  const online = ctx.store.liveRecords(KAV).find((v) => v.PublishStatus === "Online" && (byUrlName ? v.UrlName === key : v.KnowledgeArticleId === (key.length === 15 ? get18CharId(key) : key)));
  if (!online) throw notFound();
  const person = (id: unknown) => {
    const u = ctx.store.find(String(id))?.rec;
    return u ? { id: u.Id, firstName: u.FirstName, lastName: u.LastName, email: u.Email, isActive: u.IsActive, userName: u.Username, url: `/services/data/v${ctx.version}/chatter/users/${u.Id}` } : null;
  };
  const views = Number(online.ArticleTotalViewCount ?? 0);
  return json(200, {
    ...articleSummary(ctx, online),
    createdDate: zDate(online.ArticleCreatedDate), lastModifiedDate: zDate(online.LastModifiedDate), versionNumber: online.VersionNumber,
    createdBy: person(online.CreatedById), lastModifiedBy: person(online.LastModifiedById),
    allViewCount: views, allViewScore: online.ViewScore__c ?? 0, appViewCount: views, appViewScore: online.ViewScore__c ?? 0, appUpVoteCount: 0, appDownVoteCount: 0,
    cspViewCount: 0, cspViewScore: 0, cspUpVoteCount: 0, cspDownVoteCount: 0, pkbViewCount: 0, pkbViewScore: 0, pkbUpVoteCount: 0, pkbDownVoteCount: 0,
    prmViewCount: 0, prmViewScore: 0, prmUpVoteCount: 0, prmDownVoteCount: 0,
    layoutItems: [
      { name: "Answer__c", label: "Answer", type: "RICH_TEXT_AREA", value: online.Answer__c ?? null },
      { name: "Summary", label: "Summary", type: "TEXT", value: online.Summary ?? null },
      { name: "IsVisibleInPkb", label: "Visible in Public Knowledge Base", type: "CHECKBOX", value: String(online.IsVisibleInPkb === true) },
    ],
  });
}

function categoryTree(node: DataCategoryNode, group: string, ctx: Ctx): Record<string, unknown> {
  return {
    childCategories: node.children.map((c) => categoryTree(c, group, ctx)), label: node.label, name: node.name,
    url: `/services/data/v${ctx.version}/support/dataCategoryGroups/${group}/dataCategories/${node.name}?sObjectName=KnowledgeArticleVersion`,
  };
}

type ActionInput = Record<string, unknown>;

function runAction(ctx: Ctx, name: string): Reply {
  const body = bodyObject(ctx);
  if (!Array.isArray(body.inputs) || !body.inputs.length) throw new ApiError(400, "JSON_PARSER_ERROR", "The inputs property must be a non-empty array");
  const results = (body.inputs as ActionInput[]).map((input) => {
    const result = { actionName: name, errors: null as unknown, isSuccess: true, outputValues: {} as Record<string, unknown>, version: 1 };
    const perVersion = (fn: (v: Rec) => void) => {
      const list = input.articleVersionIdList;
      if (!Array.isArray(list) || !list.length) {
        result.isSuccess = false;
        result.errors = [{ statusCode: "REQUIRED_FIELD_MISSING", message: "Missing required input parameter: articleVersionIdList", fields: [] }];
        return;
      }
      for (const id of list) {
        const key = String(id).slice(0, 15);
        try {
          fn(versionOr404(ctx.store, String(id)));
          result.outputValues[key] = "Success";
        } catch (err) {
          result.isSuccess = false;
          result.outputValues[key] = err instanceof ApiError && err.status !== 404 ? err.message : ACTION_REFUSED;
        }
      }
    };
    switch (name) {
      case "publishKnowledgeArticles": {
        const pubAction = String(input.pubAction ?? "PUBLISH_ARTICLE");
        if (!["PUBLISH_ARTICLE", "PUBLISH_ARTICLE_NEW_VERSION", "PUBLISH_TRANSLATION"].includes(pubAction)) {
          result.isSuccess = false;
          result.errors = [{ statusCode: "INVALID_API_INPUT", message: `Invalid pubAction: ${pubAction}`, fields: [] }];
          break;
        }
        perVersion((v) => (pubAction === "PUBLISH_TRANSLATION" ? publishTranslation(ctx.store, v, ctx.user.Id) : publish(ctx.store, v, pubAction === "PUBLISH_ARTICLE_NEW_VERSION", ctx.user.Id)));
        break;
      }
      case "submitKnowledgeArticleForTranslation": {
        const found = ctx.store.find(String(input.articleId ?? ""));
        const missing = ["articleId", "language", "assigneeId"].filter((k) => !input[k]);
        try {
          if (missing.length) throw new ApiError(400, "REQUIRED_FIELD_MISSING", `Missing required input parameter: ${missing.join(", ")}`);
          if (found?.def.name !== "KnowledgeArticle") throw new ApiError(400, "INVALID_API_INPUT", `Invalid article ID: ${String(input.articleId)}`);
          submitForTranslation(ctx, found.rec.Id, checkTranslationLanguage(ctx, input.language), { assigneeId: input.assigneeId, dueDate: input.dueDate });
          result.outputValues = { articleId: input.articleId, language: input.language };
        } catch (err) {
          result.isSuccess = false;
          result.outputValues = null as unknown as Record<string, unknown>;
          result.errors = [{ statusCode: err instanceof ApiError ? err.errorCode : "INVALID_API_INPUT", message: (err as Error).message, fields: [] }];
        }
        break;
      }
      case "archiveKnowledgeArticles":
        perVersion((v) => archive(ctx.store, v, ctx.user.Id));
        break;
      case "deleteKnowledgeArticles":
        perVersion((v) => {
          if (v.PublishStatus === "Online") throw refused();
          v.IsDeleted = true;
        });
        break;
      case "createDraftFromOnlineKnowledgeArticle": {
        const translation = input.action === "EDIT_AS_DRAFT_TRANSLATION";
        // A translation is named by its version ID; the master by its article ID (or a version of it).
        const given = String((translation ? input.articleVersionId : input.articleId ?? input.articleVersionId) ?? "");
        const found = ctx.store.find(given);
        const articleId = found?.def.name === KAV ? String(found.rec.KnowledgeArticleId) : found?.def.name === "KnowledgeArticle" && !translation ? found.rec.Id : undefined;
        if (!articleId || !["EDIT_AS_DRAFT_ARTICLE", "EDIT_AS_DRAFT_TRANSLATION"].includes(String(input.action))) {
          result.isSuccess = false;
          result.errors = [{ statusCode: "INVALID_API_INPUT", message: articleId ? `Invalid action: ${String(input.action)}` : `Invalid article ID: ${given}`, fields: [] }];
          break;
        }
        try {
          const draft = translation ? draftFromOnlineTranslation(ctx.store, found!.rec, input.unpublish === true, ctx.user.Id) : draftFromOnline(ctx.store, articleId, input.unpublish === true, ctx.user.Id);
          result.outputValues = { [given.slice(0, 15)]: "Success", DraftId: draft.Id };
        } catch (err) {
          result.isSuccess = false;
          result.outputValues = { [given.slice(0, 15)]: (err as Error).message };
        }
        break;
      }
      default:
        throw notFound();
    }
    return result;
  });
  return json(200, results);
}

export const knowledgeHooks: WriteHooks = {
  create: {
    [KAV]: (ctx, values) => {
      checkUrlName(values.UrlName);
      const master = ctx.store.insert("KnowledgeArticle", { ArticleNumber: String(ctx.store.liveRecords("KnowledgeArticle").length + 1001).padStart(9, "0") }, ctx.user.Id);
      const now = sfDateTime(ctx.store.clock());
      return ctx.store.insert(KAV, {
        ...values, KnowledgeArticleId: master.Id, ArticleNumber: master.ArticleNumber, PublishStatus: "Draft", VersionNumber: 1, IsLatestVersion: true,
        IsMasterLanguage: true, ValidationStatus: values.ValidationStatus ?? "Not Validated", Language: values.Language ?? "en_US", ArticleCreatedDate: now,
        ArticleTotalViewCount: 0, ViewScore__c: 0,
      }, ctx.user.Id);
    },
    Knowledge__DataCategorySelection: (ctx, values) => {
      const parent = versionOr404(ctx.store, String(values.ParentId));
      if (parent.PublishStatus !== "Draft") throw new ApiError(400, "INVALID_OPERATION", "Data categories can be assigned only to draft article versions.", ["ParentId"]);
      const group = ctx.org.seeded.categoryGroups.find((g) => g.name === values.DataCategoryGroupName);
      if (!group) throw new ApiError(400, "INVALID_DATA_CATEGORY_GROUP_REFERENCE", `Invalid data category group: ${String(values.DataCategoryGroupName)}`, ["DataCategoryGroupName"]);
      if (!findCategory(group.root, String(values.DataCategoryName))) throw new ApiError(400, "INVALID_DATA_CATEGORY_REFERENCE", `Invalid data category ${String(values.DataCategoryName)} in group ${group.name}`, ["DataCategoryName"]);
      return ctx.store.insert("Knowledge__DataCategorySelection", values, ctx.user.Id);
    },
  },
  update: {
    [KAV]: (_ctx, rec, values) => {
      if (rec.PublishStatus !== "Draft") throw new ApiError(400, "INVALID_OPERATION", "Only draft article versions can be edited. Create a draft from the published version first.");
      checkUrlName(values.UrlName);
      Object.assign(rec, values);
    },
  },
  remove: {
    [KAV]: (_ctx, rec) => {
      if (rec.PublishStatus !== "Draft") throw new ApiError(400, "INVALID_OPERATION", "Only draft article versions can be deleted this way. Archive published articles instead.");
    },
  },
};

const MV = /^\/knowledgeManagement\/articleVersions\/masterVersions/i;

/** The master article a Knowledge Management request names by `articleId`, or the org's 400. */
function articleNamed(ctx: Ctx, body: Record<string, unknown>): Rec {
  const articleId = String(body.articleId ?? "");
  const found = ctx.store.find(articleId);
  if (found?.def.name !== "KnowledgeArticle") throw new ApiError(400, "INVALID_ID_FIELD", `Invalid article ID: ${articleId}`, ["articleId"]);
  return found.rec;
}

export function knowledgeRoutes(): Route[] {
  return [
    {
      method: "POST", pattern: new RegExp(`${MV.source}\\/?$`, "i"),
      handler: (ctx) => {
        const draft = draftFromOnline(ctx.store, articleNamed(ctx, bodyObject(ctx)).Id, false, ctx.user.Id);
        return json(201, { ...masterVersionBody(ctx, draft), id: draft.Id });
      },
    },
    {
      method: "GET", pattern: new RegExp(`${MV.source}\\/?$`, "i"),
      handler: (ctx) => {
        const articleId = ctx.query.get("filterArticleId");
        const status = ctx.query.get("filterPublishStatus")?.toLowerCase();
        const list = ctx.store.liveRecords(KAV).filter((v) => (!articleId || String(v.KnowledgeArticleId).startsWith(articleId.slice(0, 15))) && (!status || String(v.PublishStatus).toLowerCase() === status));
        return json(200, { masterVersions: list.map((v) => masterVersionBody(ctx, v)) });
      },
    },
    { method: "GET", pattern: new RegExp(`${MV.source}\\/([^/]+)\\/?$`, "i"), handler: (ctx, [id]) => json(200, masterVersionBody(ctx, versionOr404(ctx.store, id!))) },
    {
      method: "PATCH", pattern: new RegExp(`${MV.source}\\/([^/]+)\\/?$`, "i"),
      handler: (ctx, [id]) => {
        const version = versionOr404(ctx.store, id!);
        const body = bodyObject(ctx);
        const status = String(body.publishStatus ?? "").toLowerCase();
        if (status === "online") publish(ctx.store, version, body.versionNumber === "NextVersion", ctx.user.Id);
        else if (status === "archived") archive(ctx.store, version, ctx.user.Id);
        else if (status === "draft") {
          if (version.PublishStatus !== "Online" || isTranslation(version)) throw refused();
          if (versions(ctx.store, String(version.KnowledgeArticleId)).some((v) => v.PublishStatus === "Draft")) throw refused("A draft version of this article already exists.");
          version.PublishStatus = "Draft";
          ctx.store.touch(version, ctx.user.Id);
        } else throw new ApiError(400, "JSON_PARSER_ERROR", `publishStatus must be Online, Archived or Draft, got ${JSON.stringify(body.publishStatus)}`);
        return noContent();
      },
    },
    deleteVersionRoute(MV, versionOr404, "Published versions can't be deleted. Archive the article first."),
    {
      method: "GET", pattern: /^\/knowledgeManagement\/articles\/([^/]+)\/?$/i,
      handler: (ctx, [id]) => {
        const master = ctx.store.find(id!);
        if (!master || master.def.name !== "KnowledgeArticle") throw notFound();
        const all = versions(ctx.store, master.rec.Id);
        const byStatus = (s: string) => all.find((v) => v.PublishStatus === s)?.Id ?? null;
        const online = byStatus("Online");
        return json(200, {
          articleId: master.rec.Id, articleNumber: master.rec.ArticleNumber, articleType: KAV, masterLanguage: ctx.org.seeded.knowledgeLanguages.defaultLanguage,
          onlineArticleMasterVersionId: online, draftArticleMasterVersionId: byStatus("Draft"), archivedArticleMasterVersionId: byStatus("Archived"),
          additionalInformation: {
            canArchive: !!online, canDelete: !online, canEdit: true, canPublish: !!byStatus("Draft"), canUnpublish: !!online,
            hasArchivedVersions: !!byStatus("Archived"), hasTranslations: translations(ctx.store, master.rec.Id).length > 0,
            urls: online ? { OnlineMasterVersion: `/services/data/v${ctx.version}/knowledgeManagement/articleVersions/masterVersions/${online}` } : {},
          },
        });
      },
    },
    {
      method: "GET", pattern: /^\/knowledgeManagement\/settings\/?$/i,
      handler: (ctx) => json(200, { defaultLanguage: ctx.org.seeded.knowledgeLanguages.defaultLanguage, knowledgeEnabled: true, languages: ctx.org.seeded.knowledgeLanguages.languages }),
    },
    ...translationRoutes(),
    { method: "POST", pattern: /^\/actions\/standard\/(\w+)\/?$/, handler: (ctx, [name]) => runAction(ctx, name!) },
    { method: "GET", pattern: /^\/support\/knowledgeArticles\/?$/, handler: (ctx) => listArticles(ctx) },
    { method: "GET", pattern: /^\/support\/knowledgeArticles\/([^/]+)\/?$/, handler: (ctx, [key]) => articleDetail(ctx, decodeURIComponent(key!)) },
    {
      method: "GET", pattern: /^\/support\/dataCategoryGroups\/?$/,
      handler: (ctx) => json(200, {
        categoryGroups: ctx.org.seeded.categoryGroups.map((g) => ({
          name: g.name, label: g.label, objectUsage: "KnowledgeArticleVersion", active: true,
          topCategories: [categoryTree(g.root, g.name, ctx)],
        })),
      }),
    },
    {
      method: "GET", pattern: /^\/support\/dataCategoryGroups\/([^/]+)\/dataCategories\/([^/]+)\/?$/,
      handler: (ctx, [group, category]) => {
        const g = ctx.org.seeded.categoryGroups.find((x) => x.name === group);
        const node = findCategory(g?.root, category!);
        if (!g || !node) throw notFound();
        return json(200, categoryTree(node, g.name, ctx));
      },
    },
  ];
}

const TR = /^\/knowledgeManagement\/articleVersions\/translations/i;

function translationOr404(store: Store, id: string): Rec {
  const version = versionOr404(store, id);
  if (!isTranslation(version)) throw notFound();
  return version;
}

/** Knowledge Management translations: submit (v43+ assignments, or the older single language), change, delete. */
function translationRoutes(): Route[] {
  return [
    {
      method: "POST", pattern: new RegExp(`${TR.source}\\/?$`, "i"),
      handler: (ctx) => {
        const body = bodyObject(ctx);
        const article = articleNamed(ctx, body);
        if ((body.assignments === undefined) === (body.language === undefined)) throw new ApiError(400, "JSON_PARSER_ERROR", "Give either language or assignments, not both");
        const assignments = (body.assignments === undefined ? [{ language: body.language }] : body.assignments) as Record<string, unknown>[];
        if (!Array.isArray(assignments) || !assignments.length) throw new ApiError(400, "JSON_PARSER_ERROR", "assignments must be a non-empty array");
        // Every language is checked before any draft is made: a submission is all or nothing.
        const languages = assignments.map((a) => checkTranslationLanguage(ctx, a?.language));
        for (const language of languages) {
          if (translations(ctx.store, article.Id, language).some((t) => t.PublishStatus === "Draft")) throw refused(`A draft translation of this article into ${language} already exists. Edit or delete that draft first.`);
        }
        assignments.forEach((a, i) => submitForTranslation(ctx, article.Id, languages[i]!, a));
        return { status: 201 };
      },
    },
    {
      method: "PATCH", pattern: new RegExp(`${TR.source}\\/([^/]+)\\/?$`, "i"),
      handler: (ctx, [id]) => {
        const version = translationOr404(ctx.store, id!);
        const body = bodyObject(ctx);
        if (body.publishStatus !== undefined) {
          // Only unpublishing is a field change here; a translation is published with the publishKnowledgeArticles action.
          if (String(body.publishStatus).toLowerCase() !== "draft") throw new ApiError(400, "INVALID_OPERATION", "Publish a translation with the publishKnowledgeArticles action (PUBLISH_TRANSLATION).");
          draftFromOnlineTranslation(ctx.store, version, true, ctx.user.Id);
        }
        if (body.complete !== undefined && version.PublishStatus !== "Draft") throw refused();
        if (body.assigneeId !== undefined || body.dueDate !== undefined) {
          if (version.PublishStatus !== "Draft") throw refused();
          Object.assign(version, { AssignedToId: body.assigneeId ?? version.AssignedToId, AssignmentDueDate: body.dueDate ?? version.AssignmentDueDate });
          ctx.store.touch(version, ctx.user.Id);
        }
        return noContent();
      },
    },
    deleteVersionRoute(TR, translationOr404, "A published translation can't be deleted. Unpublish it first."),
  ];
}

/** DELETE of a master version or a translation: anything but a published version, which the org refuses with `whenOnline`. */
function deleteVersionRoute(resource: RegExp, find: (store: Store, id: string) => Rec, whenOnline: string): Route {
  return {
    method: "DELETE", pattern: new RegExp(`${resource.source}\\/([^/]+)\\/?$`, "i"),
    handler: (ctx, [id]) => {
      const version = find(ctx.store, id!);
      if (version.PublishStatus === "Online") throw refused(whenOnline);
      version.IsDeleted = true;
      ctx.store.touch(version, ctx.user.Id);
      return noContent();
    },
  };
}
