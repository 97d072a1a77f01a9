/** Core REST resources: versions, resources, limits, sObjects, records, query, search (crm-rest-api.md §3). */
import { get18CharId, isRecordId } from "../client/ids";
import { type Ctx, type Reply, type Route, json, noContent, notFound, bodyObject, pageOf } from "./context";
import { describeObject, globalEntry, type FieldDef, type ObjectDef } from "./schema";
import { ApiError, executeSoql, unsupportedType } from "./soql";
import { parseSfDate, type Rec, type Store } from "./store";
import { runSosl } from "./sosl";
import { explainSoql } from "./explain";
import { checkInlineImages, storeInlineImages } from "./richTextImages";

export const SUPPORTED_VERSIONS = ["58.0", "59.0", "60.0", "61.0", "62.0"];
const LABELS: Record<string, string> = { "58.0": "Summer '23", "59.0": "Winter '24", "60.0": "Spring '24", "61.0": "Summer '24", "62.0": "Winter '25" };

export function versionList(latest: string) {
  return SUPPORTED_VERSIONS.filter((v) => Number(v) <= Number(latest)).map((version) => ({ label: LABELS[version] ?? version, url: `/services/data/v${version}`, version }));
}

function resources(ctx: Ctx) {
  const v = `/services/data/v${ctx.version}`;
  const names = ["sobjects", "query", "queryAll", "search", "parameterizedSearch", "limits", "chatter", "connect", "actions", "support", "knowledgeManagement", "recent", "composite", "tooling", "tabs", "theme", "analytics"];
  return { ...Object.fromEntries(names.map((n) => [n, `${v}/${n}`])), identity: `${ctx.org.baseUrl()}/id/${ctx.org.seeded.orgId}/${ctx.user.Id}` };
}

function limits(ctx: Ctx) {
  const { used, max } = ctx.org.apiUsage;
  return {
    ConcurrentAsyncGetReportInstances: { Max: 200, Remaining: 200 }, ConcurrentSyncReportRuns: { Max: 20, Remaining: 20 },
    DailyApiRequests: { Max: max, Remaining: Math.max(max - used, 0) }, DailyAsyncApexExecutions: { Max: 250000, Remaining: 249812 },
    DailyBulkApiBatches: { Max: 15000, Remaining: 15000 }, DailyBulkV2QueryJobs: { Max: 10000, Remaining: 9998 },
    DailyStreamingApiEvents: { Max: 10000, Remaining: 9120 }, DailyWorkflowEmails: { Max: 390, Remaining: 12 },
    DataStorageMB: { Max: 5, Remaining: 1 }, FileStorageMB: { Max: 20, Remaining: 17 }, HourlyTimeBasedWorkflow: { Max: 50, Remaining: 50 },
    MassEmail: { Max: 10, Remaining: 10 }, SingleEmail: { Max: 15, Remaining: 3 },
    PermissionSets: { Max: 1500, Remaining: 1497, CreateCustom: { Max: 1000, Remaining: 998 } },
  };
}

function objectOr404(store: Store, name: string): ObjectDef {
  const def = store.object(name);
  if (!def) throw notFound();
  return def;
}

function httpDate(header: string | string[] | undefined): number | undefined {
  if (typeof header !== "string") return undefined;
  const t = Date.parse(header);
  if (Number.isNaN(t)) throw new ApiError(400, "INVALID_HEADER", `Invalid date in conditional header: ${header}`);
  return t;
}

/** 304 when nothing changed since If-Modified-Since (second precision, as HTTP dates have). */
function notModified(ctx: Ctx, lastModified: number): boolean {
  const since = httpDate(ctx.headers["if-modified-since"]);
  return since !== undefined && Math.floor(lastModified / 1000) * 1000 <= since;
}

function lastModifiedHeader(ms: number) {
  return { "last-modified": new Date(ms).toUTCString() };
}

// ---- record writes ---------------------------------------------------------------------------

const FEED_OBJECTS = ["FeedItem", "FeedComment"];
const SYSTEM_FIELDS = ["Id", "IsDeleted", "CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById", "SystemModstamp"];

function checkValue(ctx: Ctx, def: ObjectDef, field: FieldDef, value: unknown): unknown {
  if (value === null) return null;
  const typeError = () => new ApiError(400, "JSON_PARSER_ERROR", `Cannot deserialize instance of ${field.type} from ${typeof value} value ${JSON.stringify(value)} for field ${field.name}`);
  switch (field.type) {
    case "boolean": if (typeof value !== "boolean") throw typeError(); return value;
    case "int": case "double": case "currency": case "percent":
      if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
      if (typeof value !== "number") throw typeError();
      return value;
    case "date":
      if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new ApiError(400, "JSON_PARSER_ERROR", `Cannot deserialize instance of date from VALUE_STRING value ${JSON.stringify(value)} for field ${field.name}`);
      return value;
    case "datetime":
      if (typeof value !== "string" || Number.isNaN(parseSfDate(value))) throw new ApiError(400, "JSON_PARSER_ERROR", `Cannot deserialize instance of datetime from VALUE_STRING value ${JSON.stringify(value)} for field ${field.name}`);
      return new Date(parseSfDate(value)).toISOString().replace("Z", "+0000");
    case "reference": {
      if (typeof value !== "string" || !isRecordId(value)) throw new ApiError(400, "MALFORMED_ID", `${field.label}: id value of incorrect type: ${String(value)}`, [field.name]);
      const target = ctx.store.find(value);
      if (!target || !(field.referenceTo ?? []).some((t) => t.toLowerCase() === target.def.name.toLowerCase())) {
        throw new ApiError(400, "INVALID_CROSS_REFERENCE_KEY", `invalid cross reference id`, [field.name]);
      }
      return target.rec.Id;
    }
    case "picklist":
      if (typeof value !== "string") throw typeError();
      if (field.picklist && !field.picklist.includes(value)) throw new ApiError(400, "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", `${field.label}: bad value for restricted picklist field: ${value}`, [field.name]);
      return value;
    case "email":
      if (typeof value !== "string" || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) throw new ApiError(400, "INVALID_EMAIL_ADDRESS", `${field.label}: invalid email address: ${String(value)}`, [field.name]);
      return value;
    default: {
      if (typeof value !== "string") throw typeError();
      const measured = field.richText ? checkInlineImages(field, value) : value;
      if (field.length && measured.length > field.length) throw new ApiError(400, "STRING_TOO_LONG", `${field.label}: data value too large: ${value.slice(0, 40)}… (max length=${field.length})`, [field.name]);
      return value;
    }
  }
}

/** Validates a create or update body against the describe, as the API does; returns values keyed by API name. */
export function validateWrite(ctx: Ctx, def: ObjectDef, body: Record<string, unknown>, mode: "create" | "update", existing?: Rec): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const readOnly: string[] = [];
  for (const [key, raw] of Object.entries(body)) {
    if (key === "attributes") continue;
    if (key.toLowerCase() === "id") throw new ApiError(400, "INVALID_FIELD", "The Id field should not be specified in the sobject data.");
    const field = def.fieldMap.get(key.toLowerCase());
    if (!field) throw new ApiError(400, "INVALID_FIELD", `No such column '${key}' on sobject of type ${def.name}`);
    const allowed = mode === "create" ? field.createable ?? !field.autoNumber : field.updateable ?? !field.autoNumber;
    // Feed items and comments take CreatedById/CreatedDate on create; the feed hook checks the permission.
    const feedSystemField = mode === "create" && FEED_OBJECTS.includes(def.name) && (field.name === "CreatedById" || field.name === "CreatedDate");
    if (!feedSystemField && (!allowed || SYSTEM_FIELDS.includes(field.name))) {
      readOnly.push(field.name);
      continue;
    }
    values[field.name] = checkValue(ctx, def, field, raw);
  }
  if (readOnly.length) {
    throw new ApiError(400, "INVALID_FIELD_FOR_INSERT_UPDATE", `Unable to ${mode} fields: ${readOnly.join(", ")}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`, readOnly);
  }
  const merged = { ...existing, ...values };
  const isRequired = (f: FieldDef) =>
    f.nillable === false && f.type !== "boolean" && !f.autoNumber && f.name !== "OwnerId" && f.createable !== false && !SYSTEM_FIELDS.includes(f.name);
  const blank = (v: unknown) => v === null || v === undefined || v === "";
  const missing = def.fields
    .filter(isRequired)
    .filter((f) => (mode === "create" ? blank(merged[f.name]) : f.name in values && blank(values[f.name])))
    .map((f) => f.name);
  if (missing.length) throw new ApiError(400, "REQUIRED_FIELD_MISSING", `Required fields are missing: [${missing.join(", ")}]`, missing);
  for (const field of def.fields.filter((f) => f.unique && values[f.name] !== undefined && values[f.name] !== null)) {
    const clash = ctx.store.liveRecords(def.name).find((r) => r.Id !== existing?.Id && String(r[field.name]).toLowerCase() === String(values[field.name]).toLowerCase() && sameScope(def, r, existing));
    if (clash) throw new ApiError(400, "DUPLICATE_VALUE", `duplicate value found: ${field.name} duplicates value on record with id: ${clash.Id}`, [field.name]);
  }
  // Compound names follow their parts.
  if (def.fieldMap.has("firstname") && def.fieldMap.has("name") && ("FirstName" in values || "LastName" in values)) {
    values.Name = [merged.FirstName, merged.LastName].filter(Boolean).join(" ");
  }
  return values;
}

/** Versions of one knowledge article share their UrlName; uniqueness is across articles. */
function sameScope(def: ObjectDef, other: Rec, existing: Rec | undefined): boolean {
  return !(def.name === "Knowledge__kav" && existing && other.KnowledgeArticleId === existing.KnowledgeArticleId);
}

/** Hooks that let the knowledge and feed modules take over writes to their objects. */
export interface WriteHooks {
  create?: Record<string, (ctx: Ctx, values: Record<string, unknown>) => Rec>;
  update?: Record<string, (ctx: Ctx, rec: Rec, values: Record<string, unknown>) => void>;
  remove?: Record<string, (ctx: Ctx, rec: Rec) => void>;
}

function validateCreate(ctx: Ctx, def: ObjectDef, body: Record<string, unknown>): Record<string, unknown> {
  if (!def.createable) throw new ApiError(400, "INVALID_TYPE_FOR_OPERATION", `entity type ${def.name} does not support insert`);
  return validateWrite(ctx, def, body, "create");
}

function insertRecord(ctx: Ctx, def: ObjectDef, values: Record<string, unknown>, hooks: WriteHooks): Rec {
  const hook = hooks.create?.[def.name];
  const rec = hook ? hook(ctx, values) : ctx.store.insert(def.name, values, ctx.user.Id);
  storeInlineImages(ctx, def, rec);
  return rec;
}

function validateUpdate(ctx: Ctx, def: ObjectDef, rec: Rec, body: Record<string, unknown>): Record<string, unknown> {
  if (!def.updateable) throw new ApiError(400, "INVALID_TYPE_FOR_OPERATION", `entity type ${def.name} does not support update`);
  return validateWrite(ctx, def, body, "update", rec);
}

function applyUpdate(ctx: Ctx, def: ObjectDef, rec: Rec, values: Record<string, unknown>, hooks: WriteHooks): void {
  const hook = hooks.update?.[def.name];
  if (hook) hook(ctx, rec, values);
  else Object.assign(rec, values);
  storeInlineImages(ctx, def, rec);
  ctx.store.touch(rec, ctx.user.Id);
}

function checkDelete(def: ObjectDef): void {
  if (!def.deletable) throw new ApiError(400, "INVALID_TYPE_FOR_OPERATION", `entity type ${def.name} does not support delete`);
}

function deleteRecord(ctx: Ctx, def: ObjectDef, rec: Rec, hooks: WriteHooks): void {
  hooks.remove?.[def.name]?.(ctx, rec);
  rec.IsDeleted = true;
  ctx.store.touch(rec, ctx.user.Id);
  ctx.store.cascade(def, rec, ctx.user.Id);
}

function createRecord(ctx: Ctx, def: ObjectDef, hooks: WriteHooks): Reply {
  const rec = insertRecord(ctx, def, validateCreate(ctx, def, bodyObject(ctx)), hooks);
  return json(201, { id: rec.Id, success: true, errors: [] });
}

// ---- sObject Collections ---------------------------------------------------------------------

const COLLECTION_LIMIT = 200;
const ROLLED_BACK = { statusCode: "ALL_OR_NONE_OPERATION_ROLLED_BACK", message: "Record rolled back because not all records were valid and the request was using AllOrNone header", fields: [] };

/** One record of a collection request: checked first, written later (so allOrNone can refuse all before any is written). */
interface Planned {
  id?: string;
  error?: ApiError;
  apply?: () => string;
}

function plan(step: () => { id?: string; apply: () => string }): Planned {
  try {
    return step();
  } catch (err) {
    if (err instanceof ApiError) return { error: err };
    throw err;
  }
}

/** The record an ID names, of any object (a collection may mix objects). */
function anyRecord(ctx: Ctx, id: unknown, field = "Id"): { def: ObjectDef; rec: Rec } {
  if (typeof id !== "string" || !isRecordId(id)) throw new ApiError(400, "MALFORMED_ID", `${field}: id value of incorrect type: ${String(id)}`, [field]);
  const found = ctx.store.find(id);
  if (!found) throw new ApiError(400, "INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", []);
  if (found.rec.IsDeleted) throw new ApiError(400, "ENTITY_IS_DELETED", "entity is deleted", []);
  return found;
}

function typeOf(ctx: Ctx, record: Record<string, unknown>): ObjectDef {
  const type = (record.attributes as { type?: unknown } | undefined)?.type;
  if (typeof type !== "string") throw new ApiError(400, "INVALID_TYPE", "Must send a concrete entity type.");
  return objectOr404(ctx.store, type);
}

/** Answers one SaveResult a record, in order; with allOrNone nothing is written when one record fails. */
function runCollection(records: Planned[], allOrNone: boolean): Reply {
  if (records.length > COLLECTION_LIMIT) throw new ApiError(400, "EXCEEDED_ID_LIMIT", `record limit reached. cannot submit more than ${COLLECTION_LIMIT} records into this call`);
  const failed = (p: Planned, error: { statusCode: string; message: string; fields: string[] }) => ({ ...(p.id ? { id: p.id } : {}), success: false, errors: [error] });
  const asError = (err: ApiError) => ({ statusCode: err.errorCode, message: err.message, fields: err.fields ?? [] });
  if (allOrNone && records.some((p) => p.error)) return json(200, records.map((p) => failed(p, p.error ? asError(p.error) : ROLLED_BACK)));
  return json(200, records.map((p) => {
    if (p.error) return failed(p, asError(p.error));
    try {
      return { id: p.apply!(), success: true, errors: [] };
    } catch (err) {
      if (err instanceof ApiError) return failed(p, asError(err));
      throw err;
    }
  }));
}

function collectionBody(ctx: Ctx): { records: Record<string, unknown>[]; allOrNone: boolean } {
  const body = bodyObject(ctx);
  if (!Array.isArray(body.records) || !body.records.every((r) => r && typeof r === "object" && !Array.isArray(r))) {
    throw new ApiError(400, "JSON_PARSER_ERROR", "records must be a list of sObjects");
  }
  return { records: body.records as Record<string, unknown>[], allOrNone: body.allOrNone === true };
}

function fieldsOf(record: Record<string, unknown>): Record<string, unknown> {
  const { attributes: _type, Id: _id, id: _lower, ...fields } = record;
  return fields;
}

function collectionRoutes(hooks: WriteHooks): Route[] {
  return [
    {
      method: "POST", pattern: /^\/composite\/sobjects\/?$/,
      handler: (ctx) => {
        const { records, allOrNone } = collectionBody(ctx);
        return runCollection(records.map((record) => plan(() => {
          if ("Id" in record || "id" in record) throw new ApiError(400, "INVALID_FIELD", "Can't specify an Id for creating a record");
          const def = typeOf(ctx, record);
          const values = validateCreate(ctx, def, fieldsOf(record));
          return { apply: () => insertRecord(ctx, def, values, hooks).Id as string };
        })), allOrNone);
      },
    },
    {
      method: "PATCH", pattern: /^\/composite\/sobjects\/?$/,
      handler: (ctx) => {
        const { records, allOrNone } = collectionBody(ctx);
        return runCollection(records.map((record) => plan(() => {
          const def = typeOf(ctx, record);
          const found = anyRecord(ctx, record.Id ?? record.id);
          if (found.def !== def) throw new ApiError(400, "MALFORMED_ID", `${def.label} ID: id value of incorrect type: ${String(record.Id)}`, ["Id"]);
          const values = validateUpdate(ctx, def, found.rec, fieldsOf(record));
          return { id: found.rec.Id as string, apply: () => (applyUpdate(ctx, def, found.rec, values, hooks), found.rec.Id as string) };
        })), allOrNone);
      },
    },
    {
      method: "DELETE", pattern: /^\/composite\/sobjects\/?$/,
      handler: (ctx) => {
        const ids = (ctx.query.get("ids") ?? "").split(",").filter(Boolean);
        if (!ids.length) throw new ApiError(400, "MISSING_ARGUMENT", "ids parameter is required");
        return runCollection(ids.map((id) => plan(() => {
          const { def, rec } = anyRecord(ctx, id, "ids");
          checkDelete(def);
          return { id: rec.Id as string, apply: () => (deleteRecord(ctx, def, rec, hooks), rec.Id as string) };
        })), ctx.query.get("allOrNone") === "true");
      },
    },
  ];
}

function recordOr404(ctx: Ctx, def: ObjectDef, id: string): Rec {
  if (!isRecordId(id)) throw new ApiError(404, "NOT_FOUND", `Provided external ID field does not exist or is not accessible: ${id}`);
  if (id.slice(0, 3) !== def.keyPrefix) throw new ApiError(404, "NOT_FOUND", `Provided external ID field does not exist or is not accessible: ${id}`);
  let full: string;
  try { full = get18CharId(id.slice(0, 15)); } catch { throw notFound(); }
  const rec = ctx.store.table(def.name).get(full);
  if (!rec) throw notFound();
  if (rec.IsDeleted) throw new ApiError(404, "ENTITY_IS_DELETED", "entity is deleted", []);
  return rec;
}

function outputRecord(ctx: Ctx, def: ObjectDef, rec: Rec, only?: string[]) {
  const out: Record<string, unknown> = { attributes: { type: def.name, url: `/services/data/v${ctx.version}/sobjects/${def.name}/${rec.Id}` } };
  const fields = only ?? def.fields.map((f) => f.name);
  for (const name of fields) {
    const field = def.fieldMap.get(name.toLowerCase());
    if (!field) throw new ApiError(400, "INVALID_FIELD", `No such column '${name}' on entity '${def.name}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.`);
    out[field.name] = rec[field.name] ?? null;
  }
  return out;
}

// ---- query -----------------------------------------------------------------------------------

function batchSize(ctx: Ctx): number {
  const header = ctx.headers["sforce-query-options"];
  const match = typeof header === "string" ? /batchSize=(\d+)/i.exec(header) : null;
  return match ? Math.min(Math.max(Number(match[1]), 200), 2000) : 2000;
}

export function runQuery(ctx: Ctx, store: Store, includeDeleted: boolean): Reply {
  const soql = ctx.query.get("q");
  if (soql === null) throw new ApiError(400, "MALFORMED_QUERY", "A query string has to be specified");
  const batch = batchSize(ctx);
  const version = ctx.version;
  const select = { childBatchSize: ctx.org.childBatchSize, registerChildCursor: (rows: Record<string, unknown>[]) => `/services/data/v${version}/query/${ctx.org.cursors.open(rows, rows.length, batch)}-0` };
  const run = (window?: { offset: number; count: number }) => executeSoql({ store, version, userId: ctx.user.Id, includeDeleted, now: Date.now(), window }, soql, select);
  const outcome = run({ offset: 0, count: batch });
  if (outcome.isCount) return json(200, { totalSize: outcome.totalSize, done: true, records: [] });
  if (outcome.totalSize > outcome.records.length && outcome.records.length <= batch) {
    // A generated table read a page at a time: later pages are generated when asked for.
    const id = ctx.org.cursors.open((offset, count) => run({ offset, count }).records, outcome.totalSize, batch);
    return json(200, { totalSize: outcome.totalSize, done: false, nextRecordsUrl: `/services/data/v${version}/query/${id}-${outcome.records.length}`, records: outcome.records });
  }
  if (outcome.records.length <= batch) return json(200, { totalSize: outcome.totalSize, done: true, records: outcome.records });
  const id = ctx.org.cursors.open(outcome.records, outcome.totalSize, batch);
  return json(200, pageOf(outcome.records, 0, batch, outcome.totalSize, (next) => `/services/data/v${version}/query/${id}-${next}`));
}

// ---- routes ----------------------------------------------------------------------------------

export function dataRoutes(hooks: WriteHooks): Route[] {
  return [
    { method: "GET", pattern: /^\/?$/, handler: (ctx) => json(200, resources(ctx)) },
    { method: "GET", pattern: /^\/limits\/?$/, handler: (ctx) => json(200, limits(ctx)) },
    {
      method: "GET", pattern: /^\/sobjects\/?$/,
      handler: (ctx) => {
        const store = ctx.store;
        const last = Math.max(store.globalLastModified, ...[...store.objects.values()].map((d) => d.lastModified));
        if (notModified(ctx, last)) return { status: 304 };
        return json(200, { encoding: "UTF-8", maxBatchSize: 200, sobjects: [...store.objects.values()].map((d) => globalEntry(d, ctx.version)) }, lastModifiedHeader(last));
      },
    },
    {
      method: "GET", pattern: /^\/sobjects\/([^/]+)\/?$/,
      handler: (ctx, [name]) => {
        const def = objectOr404(ctx.store, name!);
        const recent = ctx.store.liveRecords(def.name).slice(-3).reverse().map((r) => ({ attributes: { type: def.name, url: `/services/data/v${ctx.version}/sobjects/${def.name}/${r.Id}` }, Id: r.Id, Name: r.Name ?? r.Title ?? r.CaseNumber ?? null }));
        return json(200, { objectDescribe: globalEntry(def, ctx.version), recentItems: recent });
      },
    },
    { method: "POST", pattern: /^\/sobjects\/([^/]+)\/?$/, handler: (ctx, [name]) => createRecord(ctx, objectOr404(ctx.store, name!), hooks) },
    {
      method: "GET", pattern: /^\/sobjects\/([^/]+)\/describe\/?$/,
      handler: (ctx, [name]) => {
        const def = objectOr404(ctx.store, name!);
        if (notModified(ctx, def.lastModified)) return { status: 304 };
        return json(200, describeObject(def, ctx.version, ctx.store.recordTypeIds), lastModifiedHeader(def.lastModified));
      },
    },
    {
      method: "GET", pattern: /^\/sobjects\/([^/]+)\/([^/]+)\/richTextImageFields\/([^/]+)\/([^/]+)\/?$/,
      handler: (ctx, [name, id, fieldName, refid]) => {
        const def = objectOr404(ctx.store, name!);
        const rec = recordOr404(ctx, def, id!);
        const field = def.fieldMap.get(fieldName!.toLowerCase());
        if (!field?.richText) throw notFound();
        const image = ctx.store.images.get(refid!.slice(0, 15));
        if (!image || !String(rec[field.name] ?? "").includes(refid!.slice(0, 15))) throw notFound();
        return { status: 200, body: image.bytes, headers: { "content-type": image.contentType } };
      },
    },
    {
      method: "GET", pattern: /^\/sobjects\/([^/]+)\/([^/]+)\/?$/,
      handler: (ctx, [name, id]) => {
        const def = objectOr404(ctx.store, name!);
        const rec = recordOr404(ctx, def, id!);
        const modified = parseSfDate(String(rec.LastModifiedDate));
        if (notModified(ctx, modified)) return { status: 304 };
        const fields = ctx.query.get("fields")?.split(",").map((f) => f.trim()).filter(Boolean);
        return json(200, outputRecord(ctx, def, rec, fields), lastModifiedHeader(modified));
      },
    },
    {
      method: "PATCH", pattern: /^\/sobjects\/([^/]+)\/([^/]+)\/?$/,
      handler: (ctx, [name, id]) => {
        const def = objectOr404(ctx.store, name!);
        const rec = recordOr404(ctx, def, id!);
        const since = httpDate(ctx.headers["if-unmodified-since"]);
        if (since !== undefined && Math.floor(parseSfDate(String(rec.LastModifiedDate)) / 1000) * 1000 > since) {
          throw new ApiError(412, "PRECONDITION_FAILED", "The record was modified after the date in If-Unmodified-Since; reload it and try again.");
        }
        applyUpdate(ctx, def, rec, validateUpdate(ctx, def, rec, bodyObject(ctx)), hooks);
        return noContent();
      },
    },
    {
      method: "DELETE", pattern: /^\/sobjects\/([^/]+)\/([^/]+)\/?$/,
      handler: (ctx, [name, id]) => {
        const def = objectOr404(ctx.store, name!);
        const rec = recordOr404(ctx, def, id!);
        checkDelete(def);
        deleteRecord(ctx, def, rec, hooks);
        return noContent();
      },
    },
    ...collectionRoutes(hooks),
    { method: "GET", pattern: /^\/query\/?$/, handler: (ctx) => (ctx.query.has("explain") ? json(200, explainSoql(ctx, ctx.query.get("explain")!)) : runQuery(ctx, ctx.store, false)) },
    { method: "GET", pattern: /^\/queryAll\/?$/, handler: (ctx) => runQuery(ctx, ctx.store, true) },
    { method: "GET", pattern: /^\/(?:query|queryAll)\/([^/]+)\/?$/, handler: (ctx, [locator]) => json(200, ctx.org.cursors.page(locator!, ctx.version)) },
    { method: "GET", pattern: /^\/tooling\/query\/?$/, handler: (ctx) => runQuery(ctx, ctx.org.seeded.tooling, false) },
    { method: "GET", pattern: /^\/tooling\/query\/([^/]+)\/?$/, handler: (ctx, [locator]) => json(200, ctx.org.cursors.page(locator!, ctx.version)) },
    {
      method: "GET", pattern: /^\/search\/?$/,
      handler: (ctx) => {
        const sosl = ctx.query.get("q");
        if (!sosl) throw new ApiError(400, "MALFORMED_SEARCH", "No search term found. The search term must be enclosed in braces.");
        return json(200, { searchRecords: runSosl(ctx, sosl) });
      },
    },
  ];
}

export { unsupportedType, outputRecord };
