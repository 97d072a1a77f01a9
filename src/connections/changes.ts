/**
 * What a write the org accepted changed, read from the documented resource it went to (REST sObject rows,
 * sObject Collections, Knowledge Management, the knowledge invocable actions, Connect feed elements and
 * comments), its body and its answer. Views, panels and documents refresh exactly what a change names,
 * whichever command, tree, panel or document sent it. No VS Code here: tested in Node.
 */
import type { CompletedWrite } from "../client";

export type ChangeKind = "created" | "updated" | "deleted" | "published" | "archived" | "posted" | "commented" | "written";

/** Which data it touches; `unknown` (a composite request, an unrecognised resource) may touch any. */
export type ChangeArea = "records" | "knowledge" | "feeds" | "unknown";

export interface OrgChange {
  kind: ChangeKind;
  area: ChangeArea;
  /** The sObject written, where the resource says (Account, Knowledge__kav, FeedItem). */
  object?: string;
  /** The records it names: written, created, published or commented on (article versions or master IDs for knowledge). */
  ids: string[];
  method: string;
  path: string;
  /** Knowledge: a draft made from a published article took it offline (`unpublish`). */
  unpublished?: boolean;
  /** The write itself (absent for a change the org made later, such as a Bulk import): the write history reads it. */
  write?: CompletedWrite;
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const idOf = (v: unknown): string | undefined => (isJson(v) && typeof v.id === "string" ? v.id : undefined);
const strings = (values: unknown[]): string[] => [...new Set(values.filter((v): v is string => typeof v === "string" && v.length > 0))];

/** A knowledge article type: `Knowledge__kav`, `FAQ__kav`, the standard `KnowledgeArticleVersion`, their category selections. */
const isKnowledgeObject = (name: string) => /(?:__kav|^KnowledgeArticleVersion|__DataCategorySelection)$/i.test(name);

const DATA = /^\/services\/data\/v\d+\.\d+(\/.*)$/;

export function changeOf(write: CompletedWrite): OrgChange | undefined {
  const resource = DATA.exec(write.path)?.[1];
  if (!resource) return undefined; // OAuth and other non-data resources change no data a view shows
  // A Bulk ingest job changes data later, when the org has processed it: whoever ran it says what changed then.
  if (resource.startsWith("/jobs/")) return undefined;
  const base = { method: write.method, path: write.path };
  const body = isJson(write.body) ? write.body : {};
  const inputs = list(body.inputs).filter(isJson);
  const kindOfMethod: ChangeKind = write.method === "POST" ? "created" : write.method === "DELETE" ? "deleted" : "updated";

  // sObject rows: /sobjects/{Object}, /sobjects/{Object}/{id}, /sobjects/{Object}/{externalIdField}/{value} (upsert).
  let m = /^\/sobjects\/(\w+)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(resource);
  if (m) {
    const [, object, id, externalValue] = m as unknown as [string, string, string | undefined, string | undefined];
    const upsert = externalValue !== undefined;
    const kind: ChangeKind = upsert ? (write.status === 201 ? "created" : "updated") : kindOfMethod;
    const knowledge = isKnowledgeObject(object);
    // A data category selection names its article version as ParentId.
    const ids = strings([upsert ? undefined : id, idOf(write.data), knowledge ? body.ParentId : undefined]);
    return { ...base, kind, area: knowledge ? "knowledge" : "records", object, ids };
  }

  // sObject Collections: records named in the body (create, update, upsert) or answered with IDs.
  if (/^\/composite\/sobjects(?:\/|$)/.test(resource)) {
    const records = list(body.records).filter(isJson);
    const types = strings(records.map((r) => (isJson(r.attributes) ? r.attributes.type : undefined)));
    const ids = strings([...records.map((r) => r.Id ?? r.id), ...list(write.data).map(idOf)]);
    const object = types.length === 1 ? types[0] : undefined;
    const area: ChangeArea = types.length && types.every((t) => !isKnowledgeObject(t)) ? "records" : types.some(isKnowledgeObject) ? "knowledge" : "unknown";
    return { ...base, kind: kindOfMethod, area, object, ids };
  }

  // Knowledge Management: master versions (a new draft; publish, archive or edit a version; delete).
  m = /^\/knowledgeManagement\/articleVersions\/masterVersions(?:\/([^/]+))?$/.exec(resource);
  if (m) {
    const status = body.publishStatus;
    const kind: ChangeKind = write.method === "PATCH" ? (status === "Online" ? "published" : status === "Archived" ? "archived" : "updated") : kindOfMethod;
    return { ...base, kind, area: "knowledge", ids: strings([m[1], body.articleId, idOf(write.data)]) };
  }

  // Knowledge Management: translations (submitted for an article; a translation version unpublished, changed or deleted).
  m = /^\/knowledgeManagement\/articleVersions\/translations(?:\/([^/]+))?$/.exec(resource);
  if (m) return { ...base, kind: kindOfMethod, area: "knowledge", ids: strings([m[1], body.articleId]) };

  // The knowledge invocable actions.
  m = /^\/actions\/standard\/(\w+)$/.exec(resource);
  if (m && /knowledge/i.test(m[1]!)) {
    const action = m[1]!.toLowerCase();
    const outputs = list(write.data).filter(isJson).map((r) => (isJson(r.outputValues) ? r.outputValues : {}));
    if (action === "publishknowledgearticles") return { ...base, kind: "published", area: "knowledge", ids: strings(inputs.flatMap((i) => list(i.articleVersionIdList))) };
    if (action === "archiveknowledgearticles") return { ...base, kind: "archived", area: "knowledge", ids: strings(inputs.flatMap((i) => list(i.articleVersionIdList))) };
    if (action === "createdraftfromonlineknowledgearticle") {
      return { ...base, kind: "created", area: "knowledge", ids: strings([...inputs.flatMap((i) => [i.articleId, i.articleVersionId]), ...outputs.map((o) => o.DraftId ?? o.draftId)]), unpublished: inputs.some((i) => i.unpublish === true) };
    }
    return { ...base, kind: "written", area: "knowledge", ids: strings(inputs.map((i) => i.articleId)) };
  }

  // Connect: a post (to a user, group or record feed), a comment on a feed element.
  m = /^(?:\/connect\/communities\/\w+)?\/chatter\/feed-elements(?:\/(\w+)\/capabilities\/comments\/items)?$/.exec(resource);
  if (m && write.method === "POST") {
    if (m[1]) return { ...base, kind: "commented", area: "feeds", object: "FeedComment", ids: strings([m[1], idOf(write.data)]) };
    return { ...base, kind: "posted", area: "feeds", object: "FeedItem", ids: strings([idOf(write.data), body.subjectId]) };
  }
  if (/^(?:\/connect\/communities\/\w+)?\/chatter\//.test(resource)) return { ...base, kind: "written", area: "feeds", ids: [] };

  return { ...base, kind: "written", area: "unknown", ids: [] };
}

/**
 * Whether a change can alter what is shown of an article version: it names the version, its master article or
 * another version of it (publishing a new version archives the one shown). A change naming nothing may.
 */
export function touchesArticle(change: OrgChange, article: { id: string; knowledgeArticleId?: string; versions?: { id: string }[]; languages?: { id: string }[] }): boolean {
  if (change.area !== "knowledge" && change.area !== "unknown") return false;
  if (!change.ids.length) return true;
  const shown = new Set([article.id, article.knowledgeArticleId, ...[...(article.versions ?? []), ...(article.languages ?? [])].map((v) => v.id)].filter((id): id is string => !!id).map((id) => id.slice(0, 15)));
  return change.ids.some((id) => shown.has(id.slice(0, 15)));
}
