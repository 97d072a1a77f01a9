/**
 * The Composite API: several REST calls in one round trip. `run` is `/composite` (up to 25 subrequests in
 * order; a later one uses an earlier answer as `@{referenceId.path}`, such as `@{newAccount.id}`); `batch`
 * is `/composite/batch` (up to 25 independent subrequests). Both answer with one result per subrequest.
 */
import type { Crm } from "./crm";
import { APIRequestError, type ApiErrorEntry, CrmError } from "./errors";
import { requireRecordId, requireSobjectName } from "./ids";
import type { HttpMethod } from "./transport";
import { plugIn, type Bound } from "./plugins";
import { completedIntent, intentOf, recordIntent } from "./intent";
import { completedWrite } from "./writeRecord";

export interface CompositeSubrequest {
  method: HttpMethod;
  /** A data API resource, as `/sobjects/Account/001…` (the org's version is put in front) or a full `/services/data/vNN.N/…`. */
  url: string;
  /** Names the answer for later subrequests: a letter, then letters, digits or underscores. */
  referenceId: string;
  body?: unknown;
  httpHeaders?: Record<string, string>;
}

export interface CompositeResult<T = unknown> {
  referenceId: string;
  httpStatusCode: number;
  httpHeaders: Record<string, string>;
  /** The subrequest's answer; for an error, the org's error list. */
  body: T;
}

const MAX = 25;
const READS = new Set(["GET", "HEAD"]);
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

/** A subrequest's method and full URL, checked before anything is sent. */
async function checked(crm: Crm, s: unknown, i: number): Promise<{ method: HttpMethod; url: string }> {
  if (!s || typeof s !== "object" || Array.isArray(s)) throw new TypeError(`subrequests[${i}] must be an object { method, url, … }, got ${s === null ? "null" : Array.isArray(s) ? "an array" : typeof s}`);
  const { method, url } = s as { method?: unknown; url?: unknown };
  if (typeof method !== "string" || !METHODS.has(method)) throw new TypeError(`subrequests[${i}].method must be one of ${[...METHODS].join(", ")}, got ${JSON.stringify(method)}`);
  if (typeof url !== "string" || !url.startsWith("/")) throw new TypeError(`subrequests[${i}].url must be a resource path starting with '/', got ${JSON.stringify(url)}`);
  return { method: method as HttpMethod, url: url.startsWith("/services/") ? url : await crm.apiPath(url) };
}

function checkCount(list: unknown, argument: string): asserts list is unknown[] {
  if (!Array.isArray(list) || !list.length || list.length > MAX) throw new RangeError(`${argument} must hold 1 to ${MAX} subrequests, got ${Array.isArray(list) ? list.length : typeof list}`);
}

/** The writes among the subrequests the org carried out, announced as if each had been sent alone. */
function announce(crm: Crm, sent: { method: HttpMethod; url: string; body?: unknown }[], statuses: number[], answers: unknown[]): void {
  sent.forEach((s, i) => {
    if (READS.has(s.method) || statuses[i]! >= 300) return;
    const path = s.url.split("?")[0]!;
    const intent = intentOf(s.method, path, s.body);
    crm.emit("write", completedWrite({ method: s.method, path, status: statuses[i]!, body: s.body, data: answers[i], ...(intent ? { intent: completedIntent(intent, statuses[i]!, answers[i]) } : {}) }));
  });
}

/**
 * Runs up to 25 subrequests in one request, in order. With `allOrNone` a failure rolls back every change
 * (the other results then say PROCESSING_HALTED); without it, only subrequests that refer to a failed one are
 * skipped. Resolves to a result per subrequest — a failed subrequest is a result, not a thrown error.
 */
export async function run(crm: Crm, subrequests: CompositeSubrequest[], options: { allOrNone?: boolean; collateSubrequests?: boolean; signal?: AbortSignal } = {}): Promise<CompositeResult[]> {
  checkCount(subrequests, "subrequests");
  const seen = new Set<string>();
  const compositeRequest = await Promise.all(subrequests.map(async (s, i) => {
    if (!s || typeof s.referenceId !== "string" || !/^[A-Za-z][A-Za-z0-9_]*$/.test(s.referenceId)) throw new TypeError(`subrequests[${i}].referenceId must start with a letter (then letters, digits, _), got ${JSON.stringify(s?.referenceId)}`);
    if (seen.has(s.referenceId)) throw new TypeError(`subrequests[${i}].referenceId '${s.referenceId}' is used twice`);
    seen.add(s.referenceId);
    return { ...(await checked(crm, s, i)), referenceId: s.referenceId, ...(s.body === undefined ? {} : { body: s.body }), ...(s.httpHeaders ? { httpHeaders: s.httpHeaders } : {}) };
  }));
  const writes = compositeRequest.filter((s) => !READS.has(s.method)).length;
  const response = await crm.request<{ compositeResponse: CompositeResult[] }>("POST", await crm.apiPath("/composite"), {
    allOrNone: options.allOrNone ?? false, ...(options.collateSubrequests === undefined ? {} : { collateSubrequests: options.collateSubrequests }), compositeRequest,
  }, { signal: options.signal, write: writes ? "unannounced" : "none", writeCount: writes || undefined });
  const results = response.data?.compositeResponse;
  if (!Array.isArray(results)) throw new CrmError("The org's composite answer has no compositeResponse list");
  announce(crm, compositeRequest, results.map((r) => r.httpStatusCode), results.map((r) => r.body));
  return results;
}

export interface BatchSubrequest {
  method: HttpMethod;
  url: string;
  /** The body of a write (the batch resource's `richInput`). */
  body?: unknown;
}

/**
 * Runs up to 25 independent subrequests in one request (`/composite/batch`); with `haltOnError` the ones
 * after the first failure are not run (412). Resolves to `hasErrors` and a result per subrequest.
 */
export async function batch(crm: Crm, subrequests: BatchSubrequest[], options: { haltOnError?: boolean; signal?: AbortSignal } = {}): Promise<{ hasErrors: boolean; results: { statusCode: number; result: unknown }[] }> {
  checkCount(subrequests, "subrequests");
  const sent = await Promise.all(subrequests.map(async (s, i) => ({ ...(await checked(crm, s, i)), body: s.body })));
  const writes = sent.filter((s) => !READS.has(s.method)).length;
  const response = await crm.request<{ hasErrors: boolean; results: { statusCode: number; result: unknown }[] }>("POST", await crm.apiPath("/composite/batch"), {
    haltOnError: options.haltOnError ?? false,
    batchRequests: sent.map((s) => ({ method: s.method, url: s.url.replace(/^\/services\/data\//, ""), ...(s.body === undefined ? {} : { richInput: s.body }) })),
  }, { signal: options.signal, write: writes ? "unannounced" : "none", writeCount: writes || undefined });
  const answer = response.data;
  if (!answer || !Array.isArray(answer.results)) throw new CrmError("The org's batch answer has no results list");
  announce(crm, sent, answer.results.map((r) => r.statusCode), answer.results.map((r) => r.result));
  return answer;
}

/** A failed subrequest as the error the same request sent alone throws (its status, codes and fields). */
function subrequestError(sent: { method: HttpMethod; url: string }, result: CompositeResult): APIRequestError {
  const errors = (Array.isArray(result.body) && result.body.length ? result.body : [{ errorCode: "UNKNOWN_ERROR", message: JSON.stringify(result.body) }]) as ApiErrorEntry[];
  return APIRequestError.of(result.httpStatusCode, errors, sent.method, sent.url.split("?")[0]!);
}

/**
 * Updates fields of a record and reads it back (the fields named, or all) in one round trip: the PATCH and
 * the GET go in one composite request. With `ifUnmodifiedSince` the org refuses the update (412) when someone
 * changed the record after that time. Throws what the update sent alone would throw; resolves to the record.
 */
export async function updateAndRead(crm: Crm, sobject: string, recordId: string, payload: Record<string, unknown>, options: { ifUnmodifiedSince?: Date; fields?: string[] } = {}): Promise<Record<string, unknown>> {
  requireSobjectName(sobject);
  requireRecordId(recordId, "recordId");
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new TypeError("payload must be an object of field values");
  const url = `/sobjects/${sobject}/${recordId}`;
  const readUrl = options.fields ? `${url}?fields=${options.fields.map(encodeURIComponent).join(",")}` : url;
  const conditional = options.ifUnmodifiedSince ? { "If-Unmodified-Since": options.ifUnmodifiedSince.toUTCString() } : undefined;
  // In a composite body the org reads `@{…}` as a reference to another subrequest: a value holding it is the
  // user's text, so the update goes alone (one round trip more) and the text is saved as written.
  if (JSON.stringify(payload).includes("@{")) {
    await crm.request("PATCH", await crm.apiPath(url), payload, { headers: conditional, intent: recordIntent("update", sobject, { id: recordId, body: payload }) });
    return crm.getJson(await crm.apiPath(readUrl));
  }
  const subrequests: CompositeSubrequest[] = [
    { method: "PATCH", url, referenceId: "update", body: payload, ...(conditional ? { httpHeaders: conditional } : {}) },
    { method: "GET", url: readUrl, referenceId: "read" },
  ];
  const [updated, read] = await run(crm, subrequests);
  if (updated!.httpStatusCode >= 300) throw crm.redact(subrequestError({ method: "PATCH", url: await crm.apiPath(url) }, updated!));
  if (read!.httpStatusCode >= 300) throw crm.redact(subrequestError({ method: "GET", url: await crm.apiPath(url) }, read!));
  return read!.body as Record<string, unknown>;
}

/** The functions this module adds to every client as `crm.composite`. */
const api = { run, batch, updateAndRead };
plugIn("composite", api);
declare module "./crm" {
  interface Crm {
    /** The Composite API: up to 25 calls in one round trip (`run`, with references; `batch`). */
    readonly composite: Bound<typeof api>;
  }
}
