/**
 * What a write means, said by the code that sends it: every write of the client carries a typed intent — its
 * kind, the object, the records it names, the fields it sets, and a summary in words — to `beforeWrite` (a
 * production guard asks about it) and to the `write` event (views and the write history follow it). The
 * client's functions state their intent; a raw `crm.request` gets one read from the documented resource it goes
 * to (`intentOf`), the only place that reads a write from its URL.
 */

export type WriteKind = "create" | "update" | "upsert" | "delete" | "publish" | "archive" | "draft" | "post" | "comment" | "load" | "batch" | "write";

/** Which data it touches; `unknown` (an unrecognised resource) may touch any. */
export type WriteArea = "records" | "knowledge" | "feeds" | "unknown";

/** The kind of resource it goes through: REST sObject rows, sObject Collections, the knowledge actions and resources, Connect, Bulk. */
export type WriteVia = "record" | "collection" | "knowledgeAction" | "masterVersion" | "translation" | "feed" | "bulk" | "composite" | "batch" | "other";

export interface WriteIntent {
  kind: WriteKind;
  area: WriteArea;
  via: WriteVia;
  /** The sObject, where there is one (Account, Knowledge__kav, FeedItem). */
  object?: string;
  /** The records it names (the written record first): before it is sent, those the request names; after, with the IDs the org answered. */
  ids: string[];
  /** The fields it sets. */
  fields: string[];
  /** How many records it writes, for a write of many (Collections, a knowledge action, a batch). */
  records?: number;
  /** A knowledge invocable action's name (publishKnowledgeArticles, …). */
  action?: string;
  /** A Bulk job's operation (insert, upsert, …). */
  operation?: string;
  /** A draft made from a published article takes it offline. */
  unpublishes?: boolean;
  /** The writes of a composite request, in order (its reads left out). */
  parts?: WriteIntent[];
  /** Read from a raw request: its method and resource (without the API version), to name it when nothing else can. */
  request?: { method: string; resource: string };
  /** In words: "update Account 001… (Name, Phone)", "publish 3 knowledge articles". */
  summary: string;
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const idOf = (v: unknown): string | undefined => (isJson(v) && typeof v.id === "string" ? v.id : undefined);
const strings = (values: unknown[]): string[] => [...new Set(values.filter((v): v is string => typeof v === "string" && v.length > 0))];
const fieldsOf = (body: unknown, leave: string[] = []) => (isJson(body) ? Object.keys(body).filter((k) => k !== "attributes" && !leave.includes(k)) : []);
const fieldList = (fields: string[]) => (fields.length ? ` (${fields.slice(0, 6).join(", ")}${fields.length > 6 ? ", …" : ""})` : "");
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many.replace("{n}", String(n)));

/** A knowledge article type: `Knowledge__kav`, `FAQ__kav`, the standard `KnowledgeArticleVersion`, their category selections. */
export const isKnowledgeObject = (name: string) => /(?:__kav|^KnowledgeArticleVersion|__DataCategorySelection)$/i.test(name);

/** One record through the REST sObject resource. */
export function recordIntent(kind: "create" | "update" | "delete" | "upsert", object: string, options: { id?: string; body?: unknown; externalId?: { field: string; value: string } } = {}): WriteIntent {
  const fields = fieldsOf(options.body);
  // A data category selection names its article version as ParentId.
  const ids = strings([options.id, isKnowledgeObject(object) && isJson(options.body) ? options.body.ParentId : undefined]);
  const summary = /DataCategorySelection$/.test(object)
    ? kind === "delete" ? "remove a data category from an article" : "assign a data category to an article"
    : kind === "create" ? `create a ${object} record${fieldList(fields)}`
      : kind === "update" ? `update ${object} ${options.id ?? ""}${fieldList(fields)}`
        : kind === "upsert" ? `upsert ${object} ${options.externalId?.field ?? ""} ${options.externalId?.value ?? ""}${fieldList(fields)}`
          : `delete ${object} ${options.id ?? ""}`;
  return { kind, area: isKnowledgeObject(object) ? "knowledge" : "records", via: "record", object, ids, fields, summary };
}

/** Records through sObject Collections (`records` the whole call's count, when it spans several requests). */
export function collectionIntent(kind: "create" | "update" | "delete", rows: { type?: unknown; id?: unknown; fields?: string[] }[], records = rows.length): WriteIntent {
  const types = strings(rows.map((r) => r.type));
  const object = types.length === 1 ? types[0] : undefined;
  const fields = [...new Set(rows.flatMap((r) => r.fields ?? []))];
  const area: WriteArea = types.length && types.every((t) => !isKnowledgeObject(t)) ? "records" : types.some(isKnowledgeObject) ? "knowledge" : "unknown";
  const what = object ? `${object} record` : "record";
  const summary = kind === "delete"
    ? records ? plural(records, "delete 1 record", "delete {n} records") : "delete records"
    : `${kind} ${plural(records, `1 ${what}`, `{n} ${what}s`)}${fieldList(fields)}`;
  return { kind, area, via: "collection", ...(object ? { object } : {}), ids: strings(rows.map((r) => r.id)), fields, records, summary };
}

const ACTION_WORDS: Record<string, [WriteKind, string]> = {
  publishknowledgearticles: ["publish", "publish"],
  archiveknowledgearticles: ["archive", "archive"],
  deleteknowledgearticles: ["delete", "delete"],
  createdraftfromonlineknowledgearticle: ["draft", "create a draft of"],
};

/** A knowledge invocable action (`/actions/standard/<action>`) with its inputs. */
export function knowledgeActionIntent(action: string, inputs: unknown[]): WriteIntent {
  const rows = inputs.filter(isJson);
  const [kind, words] = ACTION_WORDS[action.toLowerCase()] ?? ["write", ""];
  const ids = kind === "publish" || kind === "archive" ? strings(rows.flatMap((i) => list(i.articleVersionIdList)))
    : kind === "draft" ? strings(rows.flatMap((i) => [i.articleId, i.articleVersionId]))
      : strings(rows.map((i) => i.articleId));
  const n = Math.max(inputs.length, 1);
  const summary = words ? `${words} ${plural(n, "1 knowledge article", "{n} knowledge articles")}` : `run the ${action} action`;
  return { kind, area: "knowledge", via: "knowledgeAction", action, ids, fields: [], records: n, ...(rows.some((i) => i.unpublish === true) ? { unpublishes: true } : {}), summary };
}

/** Knowledge Management's master versions: a new draft (POST), a version changed, published or archived (PATCH), deleted. */
export function masterVersionIntent(method: string, versionId: string | undefined, body: unknown): WriteIntent {
  const status = isJson(body) ? body.publishStatus : undefined;
  const kind: WriteKind = method === "PATCH" ? (status === "Online" ? "publish" : status === "Archived" ? "archive" : "update") : method === "POST" ? "create" : method === "DELETE" ? "delete" : "update";
  const summary = versionId ? "change a knowledge article version" : "create a draft of a knowledge article";
  return { kind, area: "knowledge", via: "masterVersion", ids: strings([versionId, isJson(body) ? body.articleId : undefined]), fields: fieldsOf(body), summary };
}

/** Knowledge Management's translations: submitted for an article (POST), a translation version changed or deleted. */
export function translationIntent(method: string, versionId: string | undefined, body: unknown): WriteIntent {
  const kind: WriteKind = method === "POST" ? "create" : method === "DELETE" ? "delete" : "update";
  const summary = method === "POST" ? "submit a knowledge article for translation" : method === "DELETE" ? "delete a knowledge article translation" : "change a knowledge article translation";
  return { kind, area: "knowledge", via: "translation", ids: strings([versionId, isJson(body) ? body.articleId : undefined]), fields: fieldsOf(body), summary };
}

/** A Connect post to a feed (`subjectId`: the user, group or record, or "me"), or a comment on a feed element. */
export function feedIntent(kind: "post" | "comment", target: string | undefined): WriteIntent {
  return kind === "comment"
    ? { kind, area: "feeds", via: "feed", object: "FeedComment", ids: strings([target]), fields: [], summary: "comment on a feed post" }
    : { kind, area: "feeds", via: "feed", object: "FeedItem", ids: strings([target]), fields: [], summary: "post to a feed" };
}

/** A Bulk ingest job: its rows change the org later, when it processes them. */
export function bulkIntent(operation: string, object: string): WriteIntent {
  return { kind: "load", area: "records", via: "bulk", object, operation, ids: [], fields: [], summary: `${operation} ${object} records with the Bulk API` };
}

/** Several writes confirmed as one (`Crm.withConfirmedWrites`): what they change, in words. */
export function batchIntent(summary: string, options: { object?: string; records?: number; area?: WriteArea } = {}): WriteIntent {
  return { kind: "batch", area: options.area ?? "unknown", via: "batch", ...(options.object ? { object: options.object } : {}), ids: [], fields: [], ...(options.records ? { records: options.records } : {}), summary };
}

const DATA = /^\/services\/data\/v\d+\.\d+(\/.*)$/;

/**
 * The intent of a write read from the documented resource it goes to, for a raw `crm.request` (the client's own
 * functions state theirs). Undefined for a resource outside the data API (OAuth), which changes no data.
 */
export function intentOf(method: string, path: string, body?: unknown): WriteIntent | undefined {
  const resource = DATA.exec(path.split("?")[0]!)?.[1]?.replace(/^\/connect\/communities\/\w+(?=\/chatter\/)/, "");
  if (!resource) return undefined;
  return { ...readIntent(method, resource, path, body), request: { method, resource } };
}

function readIntent(method: string, resource: string, path: string, body: unknown): WriteIntent {
  const verb = method === "POST" ? "create" : method === "DELETE" ? "delete" : "update";
  let m = /^\/sobjects\/(\w+)(?:\/([^/]+))?(?:\/([^/]+))?\/?$/.exec(resource);
  if (m) {
    const [, object, id, externalValue] = m as unknown as [string, string, string | undefined, string | undefined];
    if (externalValue !== undefined) return recordIntent("upsert", object, { body, externalId: { field: id!, value: externalValue } });
    return recordIntent(verb, object, { id, body });
  }
  if (/^\/composite\/sobjects(?:\/|$)/.test(resource)) {
    const records = list(isJson(body) ? body.records : undefined).filter(isJson);
    return collectionIntent(verb, records.map((r) => ({ type: isJson(r.attributes) ? r.attributes.type : undefined, id: r.Id ?? r.id, fields: fieldsOf(r, ["Id"]) })));
  }
  if (/^\/composite\/?$/.test(resource) && isJson(body) && Array.isArray(body.compositeRequest)) {
    const parts = (body.compositeRequest as Json[]).filter((s) => s.method !== "GET" && s.method !== "HEAD")
      .map((s) => intentOf(String(s.method ?? "POST"), String(s.url ?? ""), s.body) ?? otherIntent(String(s.method ?? "POST"), String(s.url ?? ""), s.body));
    const area = parts.length && parts.every((p) => p.area === parts[0]!.area) ? parts[0]!.area : "unknown";
    return { kind: "write", area, via: "composite", ids: strings(parts.flatMap((p) => p.ids)), fields: [], parts, summary: parts.map((p) => p.summary).join("; ") };
  }
  if (/^\/jobs\/ingest\/?$/.test(resource) && isJson(body)) return bulkIntent(String(body.operation ?? "load"), String(body.object ?? ""));
  if (/^\/jobs\//.test(resource)) return { kind: "load", area: "records", via: "bulk", ids: [], fields: [], summary: `${method} ${resource}` };
  m = /^\/knowledgeManagement\/articleVersions\/masterVersions(?:\/([^/]+))?$/.exec(resource);
  if (m) return masterVersionIntent(method, m[1], body);
  m = /^\/knowledgeManagement\/articleVersions\/translations(?:\/([^/]+))?$/.exec(resource);
  if (m) return translationIntent(method, m[1], body);
  m = /^\/actions\/standard\/(\w+)$/.exec(resource);
  if (m && /knowledge/i.test(m[1]!)) return knowledgeActionIntent(m[1]!, list(isJson(body) ? body.inputs : undefined));
  m = /^\/chatter\/feed-elements(?:\/(\w+)\/capabilities\/comments\/items)?$/.exec(resource);
  if (m && method === "POST") return m[1] ? feedIntent("comment", m[1]) : feedIntent("post", isJson(body) && typeof body.subjectId === "string" ? body.subjectId : undefined);
  if (/^\/chatter\//.test(resource)) return { kind: "write", area: "feeds", via: "feed", ids: [], fields: [], summary: `${method} ${resource}` };
  return otherIntent(method, path, body);
}

/** A write to a resource nothing here knows: it may touch anything. */
function otherIntent(method: string, path: string, body: unknown): WriteIntent {
  const resource = path.replace(/^\/services\/data\/v[\d.]+/, "");
  return { kind: "write", area: "unknown", via: "other", ids: [], fields: fieldsOf(body), summary: `${method} ${resource}`, request: { method, resource } };
}

/**
 * The intent once the org accepted the write: the IDs it answered added (a created record, the records of a
 * Collections call, the draft an action made), and an upsert known as a create (201) or an update.
 */
export function completedIntent(intent: WriteIntent, status: number, data: unknown): WriteIntent {
  const answered = intent.via === "collection" ? list(data).map(idOf)
    : intent.via === "knowledgeAction" ? list(data).filter(isJson).map((r) => (isJson(r.outputValues) ? r.outputValues.DraftId ?? r.outputValues.draftId : undefined))
      : [idOf(data)];
  const kind = intent.kind === "upsert" ? (status === 201 ? "create" : "update") : intent.kind;
  return { ...intent, kind, ids: strings([...intent.ids, ...answered]) };
}
