/**
 * HTTP transport: one axios instance with keep-alive and no redirect wrapper, the origin rule, limit-header
 * parsing, one single-flight re-authentication on 401, and bounded retries for idempotent calls.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import axios, { type AxiosInstance, type AxiosResponse, isAxiosError } from "axios";
import type { AuthSession, TokenPoster } from "./auth";
import { DEFAULT_TIMEOUT_MS } from "./constants";
import { delay } from "./delay";
import { createNodeAdapter, TOO_LARGE, type StreamConfig } from "./node-adapter";
import { APIRequestError, CancelledError, InvalidResponseError, NetworkError, redactSecrets, type ApiErrorEntry } from "./errors";
import { batchIntent, completedIntent, intentOf, type WriteIntent } from "./intent";
import { pathOnly, resolveEndpoint } from "./urls";
import { completedWrite, pendingWrite, type CompletedWrite, type HttpMethod, type WriteAuthor } from "./writeRecord";

export type { HttpMethod, CompletedWrite } from "./writeRecord";

export interface Logger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

export interface RetryOptions {
  /** Further attempts after the first for network errors and 502/503/504 on idempotent calls. Default 2. */
  retries?: number;
  /** First backoff delay; doubles each time, with up to 50 % jitter. Default 250 ms. */
  baseDelayMs?: number;
}

export interface RequestOptions {
  method: HttpMethod;
  endpoint: string;
  params?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A body sent as it is (a Bulk API CSV upload) instead of `body`: text, bytes, or a stream of known length (a spooled file). */
  rawBody?: { data: RawBody; contentType: string };
  /**
   * What the request does to the org's data when its method says "write": `none` — nothing (creating a Bulk
   * query job): neither guarded nor announced; `confirmed` — part of a write already confirmed (a Bulk upload
   * after its job was created): announced, not asked again; `unannounced` — guarded, but the caller announces
   * what changed (a composite request, each write subrequest as if sent alone).
   */
  write?: "none" | "confirmed" | "unannounced";
  /**
   * The answer's body as a stream, handed over when its headers arrive (a Bulk result of any size): no size
   * cap, and instead of the deadline an idle limit (`streamIdleMs`, default the client's timeout).
   */
  stream?: boolean;
  streamIdleMs?: number;
  /** A write spread over several requests (sObject Collections): how many records the whole call writes. */
  writeCount?: number;
  /** What the write means (the client's functions say it; a raw request's is read from its resource). */
  intent?: WriteIntent;
  timeoutMs?: number;
  /** Allow retries although the method is not idempotent (the caller knows repeating is safe). */
  retryable?: boolean;
  signal?: AbortSignal;
  /** Statuses below 400 (and these) are returned; others raise APIRequestError. */
  acceptStatus?: number[];
  showFullError?: boolean;
  /**
   * A GET that never shares an identical one on its way: the sign-in's own read, which the GETs asked for
   * before the sign-in are waiting for (joining one of them, it would wait on itself).
   */
  alone?: boolean;
}

export type RawBody = string | Buffer | StreamBody;
export interface StreamBody {
  /** Opens the body (once per attempt). */
  stream(): Readable;
  bytes: number;
}

/** A response as the client returns it when JSON conversion is off or the body is empty. */
export interface CrmResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Raw body bytes. */
  body: Buffer;
  /** Parsed JSON when the body is JSON, else undefined. */
  data: T | undefined;
  method: HttpMethod;
  /** Path of the call, without the query string. */
  path: string;
}

/** A response whose body is read as it arrives (`RequestOptions.stream`): `body` is empty, `stream` holds it. */
export interface CrmStreamResponse extends CrmResponse<undefined> {
  stream: Readable;
}

export interface ApiUsage {
  used: number;
  max: number;
}

export interface RequestInfo {
  method: HttpMethod;
  path: string;
  status: number;
  durationMs: number;
  attempt: number;
  /** Only when the client's `captureBodies` says so: the JSON sent and (up to 10,000 characters of) the answer. */
  requestBody?: string;
  responseBody?: string;
}

/** A write about to be sent: method, resource (no query) and the JSON body. */
export interface PendingWrite {
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** How many records the whole call writes, when it spans several requests (only the first is confirmed). */
  records?: number;
  /** A batch of writes confirmed as one (`Crm.withConfirmedWrites`): what they change, in words. */
  summary?: string;
  /** What it means: kind, object, records, fields, summary (always set by the client; see intent.ts). */
  intent?: WriteIntent;
  /** Whose work it is, when not the person's own (the write context's; see writeRecord.ts). */
  by?: WriteAuthor;
}

export interface TransportHooks {
  session(): Promise<AuthSession>;
  /** Returns a new session after `failed` was refused with 401 (single-flight is the caller's job). */
  refresh(failed: AuthSession): Promise<AuthSession>;
  onApiUsage?(usage: ApiUsage): void;
  onRequest?(info: RequestInfo): void;
  /**
   * Called once before each write (any method but GET and HEAD) is sent, with what it will change; throwing
   * cancels it before anything leaves (a confirmation on production orgs).
   */
  beforeWrite?(write: PendingWrite): Promise<void> | void;
  /** After each write the org accepted. */
  onWrite?(write: CompletedWrite): void;
  /** The org still answered 401 after the one re-authentication: the session cannot be used any more. */
  onSessionRejected?(error: APIRequestError): void;
}

const IDEMPOTENT = new Set<HttpMethod>(["GET", "HEAD", "PUT", "DELETE"]);
const READS = new Set<HttpMethod>(["GET", "HEAD"]);
/** Failures that mean the request never reached the org, so even a write certainly did not happen. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
const RETRY_STATUS = new Set([502, 503, 504]);
/** The largest answer read whole (inflated size): far above any page the org sends, far below what would hurt. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const LIMIT_RE = /api-usage=(\d+)\/(\d+)/;

/**
 * A timeout must be a positive finite number of milliseconds: 0, NaN or Infinity would silently wait
 * forever, and a negative or non-number value would fail deep inside node:http.
 */
export function requireTimeoutMs(value: unknown, argument = "timeoutMs"): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${argument} must be a positive finite number of milliseconds (for example 30000), got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  }
  return value;
}

function withParams(url: string, params: RequestOptions["params"]): string {
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.append(key, String(value));
  const text = query.toString();
  return text ? `${url}${url.includes("?") ? "&" : "?"}${text}` : url;
}

function headerRecord(res: AxiosResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && v !== null) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : String(v);
  return out;
}

/** Reads the REST error body (`[{message, errorCode, fields}]`, an OAuth object, HTML or text). */
export function parseErrorBody(status: number, contentType: string, body: Buffer): ApiErrorEntry[] {
  const text = body.toString("utf8");
  if (contentType.includes("json") || /^\s*[[{]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      const list = Array.isArray(parsed) ? parsed : [parsed];
      const entries = list.filter((e): e is Record<string, unknown> => !!e && typeof e === "object").map((e) => ({
        message: String(e.message ?? e.error_description ?? e.error ?? "no message"),
        errorCode: String(e.errorCode ?? e.error ?? `HTTP_${status}`),
        fields: Array.isArray(e.fields) ? e.fields.map(String) : [],
      }));
      if (entries.length) return entries;
    } catch {
      // not JSON after all: fall through to text
    }
  }
  if (contentType.includes("html") || /^\s*<(!doctype|html)/i.test(text)) {
    return [{ message: `the server answered with an HTML error page (HTTP ${status})`, errorCode: `HTTP_${status}`, fields: [] }];
  }
  return [{ message: text.trim().slice(0, 500) || `HTTP ${status} with an empty body`, errorCode: text.trim() && !/\s/.test(text.trim()) ? text.trim() : `HTTP_${status}`, fields: [] }];
}

const formatBytes = (bytes: number) => (bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MB` : `${Math.round(bytes / 1024)} KB`);

/** A JSON body; a value JSON cannot carry (a circular object, a BigInt) is named before anything is sent. */
function jsonBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    throw new TypeError(`The request body cannot be sent as JSON: ${(err as Error).message.split("\n")[0]}`, { cause: err });
  }
}

/** A small stream read whole, up to `max` bytes (an error answer to a stream request). */
async function readCapped(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      break;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

const copyOf = <T>(r: CrmResponse<T>): CrmResponse<T> => ({ ...r, headers: { ...r.headers }, body: Buffer.from(r.body), data: r.data === undefined ? undefined : structuredClone(r.data) });

export class Transport {
  readonly http: AxiosInstance;
  /** Set inside `withConfirmedWrites`: the writes of a batch already confirmed as a whole. */
  private readonly confirmedBatch = new AsyncLocalStorage<true>();
  private readonly inFlight = new Map<string, { follow(): Promise<CrmResponse<unknown>> }>();
  private readonly retries: number;
  private readonly baseDelayMs: number;
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16 });
  /** The tokens of the sessions used lately: never in an error's text, whatever the org echoes. */
  private readonly secrets = new Set<string>();
  private readonly maxResponseBytes: number;

  constructor(
    private readonly hooks: TransportHooks,
    private readonly options: { timeoutMs?: number; maxResponseBytes?: number; retry?: RetryOptions; logger?: Logger; userAgent?: string; captureBodies?: () => boolean } = {},
  ) {
    if (options.timeoutMs !== undefined) requireTimeoutMs(options.timeoutMs);
    const max = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isInteger(max) || max < 1024) throw new RangeError(`maxResponseBytes must be a whole number of bytes of at least 1024, got ${String(options.maxResponseBytes)}`);
    this.maxResponseBytes = max;
    this.retries = Math.max(0, options.retry?.retries ?? 2);
    this.baseDelayMs = Math.max(0, options.retry?.baseDelayMs ?? 250);
    this.http = axios.create({
      adapter: createNodeAdapter({ http: this.httpAgent, https: this.httpsAgent }),
      maxRedirects: 0,
      responseType: "arraybuffer",
      validateStatus: () => true,
      // Bodies are serialized here and responses parsed here: axios's transforms would only repeat the work.
      transformRequest: [],
      transformResponse: [],
      headers: { "User-Agent": options.userAgent ?? "crm-explorer-client/0.1", "Accept-Encoding": "gzip, deflate, br" },
    });
  }

  /**
   * Posts a form to an OAuth endpoint (no bearer token). What it sends as a credential never comes back out:
   * an endpoint or a proxy that echoes the form (in its error words, its HTML page or a network error) has
   * those values taken out of the answer and of any error before anyone can quote them.
   */
  readonly postForm: TokenPoster = async (url, form, basicAuth) => {
    const sent = sentCredentials(form, basicAuth);
    try {
      const answer = await this.postFormOnce(url, form, basicAuth);
      // A session is taken as the org gave it (a refresh token may come back as it was sent).
      const granted = answer.status === 200 && typeof (answer.body as { access_token?: unknown } | undefined)?.access_token === "string";
      return granted ? answer : { status: answer.status, body: redactSecrets({ body: answer.body }, sent).body };
    } catch (err) {
      throw redactSecrets(err, sent);
    }
  };

  private async postFormOnce(url: string, form: Record<string, string>, basicAuth?: string): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
    if (basicAuth) headers.Authorization = `Basic ${basicAuth}`;
    const timeout = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const path = pathOnly(url);
    // A token request changes nothing in the org until it succeeds, so an outage (503, reset) is retried like a GET.
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let res: AxiosResponse<Buffer>;
      try {
        res = await this.http.post<Buffer>(url, new URLSearchParams(form).toString(), { headers, timeout, maxContentLength: this.maxResponseBytes });
      } catch (err) {
        const failure = this.networkError(err, "POST", path, timeout, true);
        if (failure instanceof NetworkError && failure.code !== "ETIMEDOUT" && attempt < this.retries) {
          await this.backoff(attempt);
          continue;
        }
        throw failure;
      }
      this.hooks.onRequest?.({ method: "POST", path, status: res.status, durationMs: performance.now() - started, attempt });
      if (RETRY_STATUS.has(res.status) && attempt < this.retries) {
        this.options.logger?.warn?.(`POST ${path} → ${res.status}, retrying (${attempt + 1}/${this.retries})`);
        await this.backoff(attempt);
        continue;
      }
      const contentType = String(res.headers["content-type"] ?? "");
      const text = Buffer.from(res.data).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Never hand the text on: a cut-off token response holds a live token. Say only what it was.
        body = { unreadable: contentType.includes("html") || /^\s*</.test(text) ? "an HTML page" : "a body that is not JSON" };
      }
      return { status: res.status, body };
    }
  }

  /**
   * Runs `work`, whose writes the `beforeWrite` hook sees once, as `batch`, before any is sent (a push of many
   * articles is confirmed as one change, not request by request). Its writes are announced as usual.
   */
  async withConfirmedWrites<T>(batch: PendingWrite, work: () => Promise<T>): Promise<T> {
    if (!this.confirmedBatch.getStore()) await this.hooks.beforeWrite?.(pendingWrite({ ...batch, intent: batch.intent ?? batchIntent(batch.summary ?? `${batch.method} ${batch.path}`, { records: batch.records }) }));
    return this.confirmedBatch.run(true, work);
  }

  /**
   * Identical GETs asked for while one is on its way share its answer (a view and a panel reading the same
   * describe at once send it once), unless a write was asked for since. Each caller gets its own copy of the
   * data; a GET with a cancel signal goes alone.
   */
  request<T = unknown>(o: RequestOptions): Promise<CrmResponse<T>> {
    // A read asked for after a write must see it: it never joins a read sent before.
    if (!READS.has(o.method)) this.inFlight.clear();
    if (o.method !== "GET" || o.signal || o.stream || o.alone) return this.send<T>(o);
    const key = JSON.stringify([o.endpoint, o.params ?? null, o.headers ?? null, o.acceptStatus ?? null, o.timeoutMs ?? null, o.showFullError ?? null]);
    const shared = this.inFlight.get(key);
    if (shared) return shared.follow() as Promise<CrmResponse<T>>;
    const sent = this.send<T>(o);
    let followers = 0;
    // Registered before the first caller's own continuation, so the copy is taken before anyone can change the data.
    const pristine = sent.then((r) => (followers ? copyOf(r) : r), () => undefined);
    void sent.then(() => this.inFlight.delete(key), () => this.inFlight.delete(key));
    this.inFlight.set(key, { follow: () => (followers++, sent.then(() => pristine).then((r) => copyOf(r!))) });
    return sent;
  }

  /** A request whose answer is read as it arrives (see `RequestOptions.stream`); error answers raise as usual. */
  stream(o: Omit<RequestOptions, "stream">): Promise<CrmStreamResponse> {
    return this.send<undefined>({ ...o, stream: true }) as Promise<CrmStreamResponse>;
  }

  /** Takes the tokens of the sessions used lately out of an error's text (see `redactSecrets`). */
  redact<E>(err: E): E {
    return redactSecrets(err, this.secrets);
  }

  private remember(session: AuthSession): void {
    // The newest few: a request sent with the token before a refresh may fail after it.
    for (const secret of [session.accessToken, session.refreshToken]) {
      if (!secret || this.secrets.has(secret)) continue;
      this.secrets.add(secret);
      if (this.secrets.size > 8) this.secrets.delete(this.secrets.values().next().value!);
    }
  }

  private async send<T>(o: RequestOptions): Promise<CrmResponse<T>> {
    try {
      return await this.sendOnce<T>(o);
    } catch (err) {
      throw this.redact(err);
    }
  }

  private async sendOnce<T>(o: RequestOptions): Promise<CrmResponse<T>> {
    // Serialized first: a body JSON cannot carry is refused before a write is asked about or anything is sent.
    const payload = o.rawBody ? o.rawBody.data : o.body === undefined ? undefined : jsonBody(o.body);
    let session = await this.hooks.session();
    this.remember(session);
    const writes = !READS.has(o.method) && o.write !== "none";
    const writePath = writes ? pathOnly(resolveEndpoint(session.instanceUrl, o.endpoint)) : "";
    const intent = writes ? o.intent ?? intentOf(o.method, writePath, o.body) : undefined;
    if (writes && o.write !== "confirmed" && !this.confirmedBatch.getStore() && this.hooks.beforeWrite) {
      await this.hooks.beforeWrite(pendingWrite({ method: o.method, path: writePath, body: o.body, ...(o.writeCount ? { records: o.writeCount } : {}), ...(intent ? { intent } : {}) }));
    }
    let refreshed = false;
    const idempotent = o.retryable ?? IDEMPOTENT.has(o.method);
    const timeout = o.timeoutMs === undefined ? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS : requireTimeoutMs(o.timeoutMs);
    for (let attempt = 0; ; attempt++) {
      const url = withParams(resolveEndpoint(session.instanceUrl, o.endpoint), o.params);
      const path = pathOnly(url);
      const headers: Record<string, string> = { Accept: "application/json", ...o.headers, Authorization: `Bearer ${session.accessToken}` };
      if (o.rawBody) headers["Content-Type"] = o.rawBody.contentType;
      else if (o.body !== undefined) headers["Content-Type"] ??= "application/json";
      const started = performance.now();
      let res: AxiosResponse<Buffer>;
      try {
        res = await this.http.request<Buffer>({
          method: o.method, url, headers, timeout, signal: o.signal, maxContentLength: this.maxResponseBytes,
          data: payload,
          ...(o.stream ? ({ responseType: "stream", streamIdleMs: o.streamIdleMs ?? timeout } satisfies StreamConfig & { responseType: "stream" }) : {}),
        });
      } catch (err) {
        const failure = this.networkError(err, o.method, path, timeout, idempotent);
        if (failure instanceof NetworkError && idempotent && attempt < this.retries && failure.code !== "ETIMEDOUT") {
          this.options.logger?.warn?.(`${o.method} ${path}: ${failure.code}, retrying (${attempt + 1}/${this.retries})`);
          await this.backoff(attempt, o.signal);
          continue;
        }
        throw failure;
      }
      const durationMs = performance.now() - started;
      const responseHeaders = headerRecord(res);
      const limit = LIMIT_RE.exec(responseHeaders["sforce-limit-info"] ?? "");
      if (limit) this.hooks.onApiUsage?.({ used: Number(limit[1]), max: Number(limit[2]) });
      const streamed = o.stream && res.status < 300 ? (res.data as unknown as Readable) : undefined;
      // An error answer to a stream request is read like any other (it is small): its text makes the error.
      const body = o.stream && !streamed ? await readCapped(res.data as unknown as Readable, this.maxResponseBytes) : streamed ? Buffer.alloc(0) : Buffer.from(res.data ?? []);
      const bodies = this.options.captureBodies?.()
        ? { requestBody: o.body === undefined ? undefined : JSON.stringify(o.body), responseBody: body.toString("utf8").slice(0, 10_000) }
        : undefined;
      this.hooks.onRequest?.({ method: o.method, path, status: res.status, durationMs, attempt, ...bodies });
      this.options.logger?.debug?.(`${o.method} ${path} → ${res.status} (${durationMs.toFixed(1)} ms)`);

      if (streamed) return { status: res.status, headers: responseHeaders, body, data: undefined, method: o.method, path, stream: streamed } as CrmStreamResponse as CrmResponse<T>;
      if (res.status === 401 && !refreshed) {
        // Any 401 from the data API means the token is no longer good: refresh once, then retry once.
        refreshed = true;
        session = await this.hooks.refresh(session);
        this.remember(session);
        attempt--;
        continue;
      }
      if (RETRY_STATUS.has(res.status) && idempotent && attempt < this.retries) {
        this.options.logger?.warn?.(`${o.method} ${path} → ${res.status}, retrying (${attempt + 1}/${this.retries})`);
        await this.backoff(attempt, o.signal);
        continue;
      }
      const contentType = responseHeaders["content-type"] ?? "";
      // A gateway that gave up waiting (504) says nothing of the org: a write may have been applied behind it.
      if (res.status === 504 && !idempotent) {
        throw new NetworkError(`${o.method} ${path}: the org's gateway gave up waiting for its answer (HTTP 504). The org may still have made the change: check (for example query the record) before sending it again`, "HTTP_504", o.method, path, { outcomeUnknown: true });
      }
      if (res.status >= 300 && !o.acceptStatus?.includes(res.status) && res.status !== 304) {
        const error = APIRequestError.of(res.status, parseErrorBody(res.status, contentType, body), o.method, path, o.showFullError !== false);
        // A 401 after a fresh token: revoked, blocked API access, inactive user. No further attempt.
        if (res.status === 401) this.hooks.onSessionRejected?.(error);
        throw error;
      }
      let data: T | undefined;
      if (body.length && contentType.includes("json")) {
        try {
          data = JSON.parse(body.toString("utf8")) as T;
        } catch (err) {
          throw new InvalidResponseError(`${o.method} ${path} answered ${res.status} with a body that is not valid JSON (${(err as Error).message}); the org or a proxy cut it short — try again`, res.status, o.method, path);
        }
      }
      if (writes && o.write !== "unannounced" && res.status < 300) this.hooks.onWrite?.(completedWrite({ method: o.method, path, status: res.status, body: o.body, data, ...(intent ? { intent: completedIntent(intent, res.status, data) } : {}) }));
      return { status: res.status, headers: responseHeaders, body, data, method: o.method, path };
    }
  }

  /** `repeatable`: sending the request again cannot do anything twice (a read, a token request). */
  private networkError(err: unknown, method: string, path: string, timeoutMs: number, repeatable: boolean): Error {
    if (axios.isCancel(err) || (err as Error)?.name === "CanceledError" || (err as Error)?.name === "AbortError") {
      return new CancelledError(`${method} ${path} was cancelled`);
    }
    if (isAxiosError(err) && err.code === TOO_LARGE) {
      return new InvalidResponseError(`${method} ${path}: the answer is larger than the client reads whole (maxResponseBytes, ${formatBytes(this.maxResponseBytes)}); it was not read. Ask for less (fewer rows or fields), or raise maxResponseBytes`, err.response?.status ?? 0, method, path);
    }
    if (isAxiosError(err)) {
      const raw = err.code === "ECONNABORTED" && /timeout/i.test(err.message) ? "ETIMEDOUT" : err.code ?? "ENETWORK";
      const code = raw === "ECONNABORTED" ? "ECONNRESET" : raw;
      const what = code === "ETIMEDOUT" ? `timed out after ${formatSeconds(timeoutMs)}` : `could not reach the org (${code}: ${err.message})`;
      const outcomeUnknown = !repeatable && !NOT_SENT.has(code);
      const advice = outcomeUnknown
        ? ". The org may still have made the change: check (for example query the record) before sending it again"
        : "";
      return new NetworkError(`${method} ${path} ${what}${advice}`, code, method, path, { cause: err, outcomeUnknown });
    }
    return err instanceof Error ? err : new Error(String(err));
  }

  private backoff(attempt: number, signal?: AbortSignal): Promise<void> {
    return delay(this.baseDelayMs * 2 ** attempt * (1 + Math.random() * 0.5), signal, "the request was cancelled while waiting to retry");
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}


/** Form fields that name what is asked for, not who asks: never secret. */
const PUBLIC_FORM_FIELDS = new Set(["grant_type", "response_type", "scope", "client_id", "username", "redirect_uri", "format"]);

/**
 * Every credential a token request sends — password (with its security token), client secret, JWT assertion,
 * refresh token, authorization code, code verifier, device code, the Basic header and its secret — as written
 * and as the form encodes it (an echo of the request body carries the encoded form).
 */
function sentCredentials(form: Record<string, string>, basicAuth?: string): string[] {
  const values = Object.entries(form).filter(([key]) => !PUBLIC_FORM_FIELDS.has(key)).map(([, v]) => v);
  if (basicAuth) values.push(basicAuth, Buffer.from(basicAuth, "base64").toString("utf8").split(":").slice(1).join(":"));
  return values.flatMap((v) => [v, encodeURIComponent(v), new URLSearchParams([["", v]]).toString().slice(1)]);
}

/** A token-endpoint poster outside a client (for the browser sign-in's code exchange). Close it after use. */
export function createTokenPoster(options: { timeoutMs?: number } = {}): { post: TokenPoster; close(): void } {
  const unused = () => Promise.reject(new Error("a token poster has no session"));
  const transport = new Transport({ session: unused, refresh: unused }, { timeoutMs: options.timeoutMs, retry: { retries: 0 } });
  return { post: transport.postForm, close: () => transport.close() };
}
