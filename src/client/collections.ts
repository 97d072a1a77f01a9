/**
 * sObject Collections (`/composite/sobjects`): create, update and delete many records with one request per
 * 200 records. Each function takes the client first (`collections.update(crm, records)`); the same
 * functions are bound on `crm.collections`.
 *
 * The org answers one SaveResult per record, in the order sent; a refused record's result may carry no `id`,
 * so results are matched by position. With `allOrNone` a refusal rolls back its whole request (the other
 * records answer ALL_OR_NONE_OPERATION_ROLLED_BACK); earlier requests of a larger call stay written.
 * Only the first request goes through `beforeWrite`, which hears the whole call's record count.
 */
import type { Crm } from "./crm";
import { COLLECTION_LIMIT } from "./constants";
import { requireRecordId, requireSobjectName } from "./ids";
import { plugIn, type Bound } from "./plugins";
import { collectionIntent } from "./intent";

export interface SaveError {
  statusCode: string;
  message: string;
  fields: string[];
}

/** One record's outcome, in the order the records were given. */
export interface SaveResult {
  /** The record's ID (given for updates and deletes; the new ID for a created record). */
  id?: string;
  success: boolean;
  errors: SaveError[];
}

export interface CollectionOptions {
  /** Roll back a whole request when one of its records is refused. Default false. */
  allOrNone?: boolean;
  /** Hears after each request: records done so far, and in all. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Field values of one record to update: `Id` and its sObject type name. */
export interface RecordUpdate {
  type: string;
  id: string;
  fields: Record<string, unknown>;
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += COLLECTION_LIMIT) out.push(items.slice(i, i + COLLECTION_LIMIT));
  return out;
}

/**
 * What the org confirmed before a Collections call stopped part way (a later request refused, unanswered or
 * cancelled): the results of the requests it answered, for the first records in order; empty for any other error.
 */
export function writtenBefore(err: unknown): SaveResult[] {
  return (err as { written?: SaveResult[] } | undefined)?.written ?? [];
}

/** Sends requests one after another (records are written in order), confirming the whole call once. */
async function send(items: unknown[], options: CollectionOptions, request: (chunk: unknown[], confirmed: boolean) => Promise<SaveResult[] | undefined>): Promise<SaveResult[]> {
  const results: SaveResult[] = [];
  try {
    for (const [i, chunk] of chunks(items).entries()) {
      options.signal?.throwIfAborted();
      const answer = await request(chunk, i > 0);
      if (!Array.isArray(answer) || answer.length !== chunk.length) {
        throw new TypeError(`sObject Collections answered ${Array.isArray(answer) ? answer.length : "no"} results for ${chunk.length} records`);
      }
      results.push(...answer.map((r) => ({ ...(r.id ? { id: r.id } : {}), success: r.success === true, errors: Array.isArray(r.errors) ? r.errors : [] })));
      options.onProgress?.(results.length, items.length);
    }
  } catch (err) {
    // The earlier requests were written: their results go with the error, never lost with it.
    if (err && typeof err === "object") Object.defineProperty(err, "written", { value: results, enumerable: false, configurable: true });
    throw err;
  }
  return results;
}

const path = (crm: Crm) => crm.apiPath("/composite/sobjects");

/** The intent of a request's records (`{ attributes: { type }, …fields }`), for a call of `records` in all. */
const intentOfRows = (kind: "create" | "update", rows: unknown[], records: number) =>
  collectionIntent(kind, (rows as Record<string, unknown>[]).map((r) => ({ type: (r.attributes as { type?: string }).type, id: r.Id, fields: Object.keys(r).filter((k) => k !== "attributes" && k !== "Id") })), records);

function requireList<T>(value: T[], argument: string, expected: string): T[] {
  if (!Array.isArray(value)) throw new TypeError(`${argument} must be an array of ${expected}, got ${value === null ? "null" : typeof value}`);
  return value;
}

/** Creates records of one object (at most 200 a request). */
export async function create(crm: Crm, sobject: string, records: Record<string, unknown>[], options: CollectionOptions = {}): Promise<SaveResult[]> {
  requireSobjectName(sobject);
  const body = requireList(records, "records", "objects of field values").map((fields, i) => {
    if (!fields || typeof fields !== "object" || Array.isArray(fields)) throw new TypeError(`records[${i}] must be an object of field values`);
    return { attributes: { type: sobject }, ...fields };
  });
  const endpoint = await path(crm);
  return send(body, options, async (chunk, confirmed) =>
    (await crm.request<SaveResult[]>("POST", endpoint, { allOrNone: !!options.allOrNone, records: chunk }, { write: confirmed ? "confirmed" : undefined, writeCount: body.length, signal: options.signal, intent: intentOfRows("create", chunk, body.length) })).data);
}

/** Updates records (of one or several objects; at most 200 a request). */
export async function update(crm: Crm, records: RecordUpdate[], options: CollectionOptions = {}): Promise<SaveResult[]> {
  const body = requireList(records, "records", "{ type, id, fields } updates").map((r, i) => {
    if (!r || typeof r !== "object") throw new TypeError(`records[${i}] must be an object { type, id, fields }, got ${r === null ? "null" : typeof r}`);
    requireSobjectName(r.type, `records[${i}].type`);
    requireRecordId(r.id, `records[${i}].id`);
    if (!r.fields || typeof r.fields !== "object") throw new TypeError(`records[${i}].fields must be an object of field values`);
    return { attributes: { type: r.type }, ...r.fields, Id: r.id };
  });
  const endpoint = await path(crm);
  return send(body, options, async (chunk, confirmed) =>
    (await crm.request<SaveResult[]>("PATCH", endpoint, { allOrNone: !!options.allOrNone, records: chunk }, { write: confirmed ? "confirmed" : undefined, writeCount: body.length, signal: options.signal, intent: intentOfRows("update", chunk, body.length) })).data);
}

/** Deletes records by ID (at most 200 a request). */
export async function remove(crm: Crm, ids: string[], options: CollectionOptions = {}): Promise<SaveResult[]> {
  requireList(ids, "ids", "record IDs").forEach((id, i) => requireRecordId(id, `ids[${i}]`));
  const endpoint = await path(crm);
  return send(ids, options, async (chunk, confirmed) =>
    (await crm.request<SaveResult[]>("DELETE", endpoint, undefined, { params: { ids: chunk.join(","), allOrNone: String(!!options.allOrNone) }, write: confirmed ? "confirmed" : undefined, writeCount: ids.length, signal: options.signal, intent: collectionIntent("delete", (chunk as string[]).map((id) => ({ id })), ids.length) })).data);
}

/** The functions this module adds to every client as `crm.collections`. */
const api = { create, update, remove };
plugIn("collections", api);
declare module "./crm" {
  interface Crm {
    /** sObject Collections: create, update and delete up to 200 records a request. */
    readonly collections: Bound<typeof api>;
  }
}
