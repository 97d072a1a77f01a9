/** The client: `new Crm(options)` does no I/O; `connect()` signs in, resolves the API version and loads the user. */
import { EventEmitter } from "node:events";
import { inspect } from "node:util";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { KeptSessionAuth, type AuthSession, type AuthStrategy, type KeptSession } from "./auth";
import type { DescribeGlobal, SObjectDescribe } from "./describe";
import type { CreateResult, QueryExplain } from "./shapes";
import { checkHelper, type ConnectionInfo, type HelperConnection, type HelperContent, normalizeConnection, readHelperFile, strategyFromConnection } from "./connection-info";
import { APIRequestError, AuthenticationError, CrmError, DataMismatchError, InvalidFieldError, MissingRequiredDataError } from "./errors";
import { get18CharId, recordIdSource, requireRecordId, requireSobjectName } from "./ids";
import { escapeSoslTerm, replaceDoubleQuotes, soqlLiteral } from "./soql-text";
import { pageLinks } from "./urls";
import { acceptPlugIns } from "./plugins";
import { type ApiUsage, type CompletedWrite, type CrmResponse, type HttpMethod, type Logger, type PendingWrite, type RequestInfo, type RequestOptions, type RetryOptions, type CrmStreamResponse, Transport } from "./transport";
import { recordIntent } from "./intent";
import { withWriteContext, type WriteContext } from "./writeRecord";

export interface CrmOptions {
  /** The spec's connection dictionary (`client_key` accepted for `client_id`), or a helper `connection` section. */
  connectionInfo?: Partial<ConnectionInfo> & HelperConnection;
  /** A helper file path (.json/.yaml/.yml) or its parsed content `{ connection: { … } }`. Read at connect time. */
  helper?: string | HelperContent;
  /** A ready sign-in strategy (takes precedence over every other credential source). */
  auth?: AuthStrategy;
  /** API version such as "62.0" (a leading "v" is accepted); the org's latest when absent. */
  version?: string | number;
  baseUrl?: string;
  orgId?: string;
  username?: string;
  password?: string;
  /** Login URL (`https://login.salesforce.com`, a My Domain URL) or the full token endpoint. */
  endpointUrl?: string;
  clientId?: string;
  clientSecret?: string;
  securityToken?: string;
  accessToken?: string;
  instanceUrl?: string;
  refreshToken?: string;
  /**
   * A deadline for each request, from sending it to the last byte of its answer (not an idle limit: an answer
   * that trickles still ends); default 30 s (DEFAULT_TIMEOUT_MS). A streamed Bulk result instead ends after this
   * long without a byte.
   */
  timeoutMs?: number;
  /** The largest answer read whole, once inflated; default 64 MB. Streamed Bulk results have no such cap. */
  maxResponseBytes?: number;
  retry?: RetryOptions;
  /** Silent by default. Receives no tokens, passwords or secrets. */
  logger?: Logger;
  /** Load the current user's info on connect (as the original does). Default true. */
  loadUserInfo?: boolean;
  /** Asked per request: include request and response bodies in the `request` event (for opt-in logging). */
  captureBodies?: () => boolean;
  /** Called before every write is sent (not reads, not sign-in); throw to cancel it with nothing sent. */
  beforeWrite?: (write: PendingWrite) => Promise<void> | void;
  /**
   * A session kept from an earlier sign-in: its token is used as it is (no sign-in) until the org answers 401;
   * then the credentials sign in again and `tokenRefreshed` gives the new session to keep.
   */
  session?: KeptSession;
}

import { orgKindOf, type OrgKind } from "./orgKind";
export { orgKindOf, productionLike, productionLikeWords, type OrgKind } from "./orgKind";

export interface HelperCallOptions {
  params?: Record<string, string | number | boolean | undefined>;
  /** Merged with the client's headers; the Authorization header is always the client's own. */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Put the org's error text in the error message (default true). */
  showFullError?: boolean;
  /** Return parsed JSON rather than the response (default true; false for patch). */
  returnJson?: boolean;
  signal?: AbortSignal;
}

export interface QueryResult<R = Record<string, unknown>> {
  totalSize: number;
  done: boolean;
  nextRecordsUrl?: string;
  records: R[];
}

export interface QueryAllResult<R = Record<string, unknown>> extends QueryResult<R> {
  /** True when `maxRows` stopped the fetch before the last page: the rows are not all of them. */
  truncated: boolean;
}

export interface QueryOptions {
  /** Include deleted and archived rows (the queryAll resource). */
  includeDeleted?: boolean;
  /** Rows per page, 200–2000 (Sforce-Query-Options; the org may choose another size). */
  batchSize?: number;
  signal?: AbortSignal;
}

export type UserInfo = Record<string, unknown>;

export interface RecordAccess {
  HasReadAccess: boolean | null;
  HasEditAccess: boolean | null;
  HasDeleteAccess: boolean | null;
}

export interface CrmEvents {
  /** A sign-in made a session (not a kept one): the caller may keep it for the next client (`session` option). */
  signedIn: [session: AuthSession];
  tokenRefreshed: [session: AuthSession];
  /**
   * The session cannot be renewed or is refused even when fresh (a revoked or expired refresh token, API
   * access blocked, an inactive user): the caller should ask for a new sign-in. Emitted once per failure.
   */
  sessionRejected: [error: Error];
  apiUsage: [usage: ApiUsage];
  request: [info: RequestInfo];
  /** A write the org accepted (any method but GET and HEAD, answered 2xx), with its body and answer. */
  write: [write: CompletedWrite];
}

const RELEVANT_USER_FIELDS = ["user_id", "nickname", "name", "email", "user_type", "language", "locale", "utcOffset", "is_salesforce_integration_user"] as const;
/** A rich-text image's reference: a ContentReference record ID (prefix 0EM), 15 or 18 characters. */
const CONTENT_REFERENCE_ID = new RegExp(`^${recordIdSource("0EM")}$`);

/**
 * The `refid` of an rtaImage URL (entities such as `&amp;` allowed), checked to be a ContentReference ID:
 * it becomes part of the request path and the saved file's name, so nothing else is accepted.
 */
export function richTextImageRefid(imageUrl: string): string {
  let refid: string | null;
  try {
    refid = new URL(imageUrl.replace(/&amp;/g, "&"), "https://placeholder.invalid").searchParams.get("refid");
  } catch {
    refid = null;
  }
  if (!refid) throw new MissingRequiredDataError("imageUrl has no 'refid' parameter, so the image cannot be identified (expected an rtaImage URL such as …/servlet/rtaImage?eid=…&feoid=…&refid=0EM…)", "imageUrl");
  if (!CONTENT_REFERENCE_ID.test(refid)) {
    throw new InvalidFieldError(`imageUrl's refid ${JSON.stringify(refid.slice(0, 40))} is not a content reference ID (0EM followed by 12 or 15 letters and digits); the image is not fetched`);
  }
  return refid;
}

function requirePayload(payload: unknown, argument = "payload"): Record<string, unknown> | unknown[] {
  if (payload === null || typeof payload !== "object") {
    throw new TypeError(`${argument} must be an object (the JSON body), got ${payload === null ? "null" : typeof payload}`);
  }
  return payload as Record<string, unknown>;
}

/** The org's list of API versions, oldest first (read by the sign-in and by `getApiVersions`). */
const VERSION_LIST = "/services/data";

/** The newest version in the org's version list, such as "62.0". */
function latestVersionIn(versions: unknown): string {
  const latest: unknown = Array.isArray(versions) ? (versions.at(-1) as { version?: unknown } | undefined)?.version : undefined;
  if (typeof latest !== "string") throw new CrmError("The org's version list (/services/data) was empty or not a list");
  return latest;
}

/** Where a query's next pages are: the query resources of the data API and of the Tooling API. */
const QUERY_PAGES = /^\/(?:tooling\/)?query(?:All)?\/[^/]+$/;

function normalizeVersion(value: string | number): string {
  const text = String(value).replace(/^v/i, "");
  const normalized = /^\d+$/.test(text) ? `${text}.0` : text;
  if (!/^\d{2,3}\.\d$/.test(normalized)) throw new RangeError(`version must look like "62.0", got '${String(value)}'`);
  return normalized;
}

export class Crm extends EventEmitter<CrmEvents> {
  /** API version in use ("62.0"); set by `connect()` unless given. */
  version?: string;
  /** Latest `Sforce-Limit-Info` reading. */
  apiUsage?: ApiUsage;
  currentUserInfo?: UserInfo;
  // Secrets live in private (#) fields: console.log, util.inspect and JSON.stringify never see them.
  #session?: AuthSession;
  #strategy?: AuthStrategy;
  readonly #options: CrmOptions;
  private connecting?: Promise<AuthSession>;
  /**
   * The sign-in and API version part of `connect()`: requests wait for this, not for the user's info that
   * follows it, so the first data request shares its round trip with userinfo.
   */
  private signingIn?: Promise<AuthSession>;
  private refreshing?: Promise<AuthSession>;
  private rejected?: Error;
  private readonly transport: Transport;
  private readonly logger: Logger;

  constructor(options: CrmOptions = {}) {
    super();
    this.#options = options;
    if (options === null || typeof options !== "object") throw new TypeError("Crm options must be an object");
    if (options.version !== undefined) this.version = normalizeVersion(options.version);
    this.logger = options.logger ?? {};
    this.transport = new Transport(
      {
        session: () => this.ensureSession(),
        refresh: (failed) => this.refreshSession(failed),
        onApiUsage: (usage) => {
          this.apiUsage = usage;
          this.emit("apiUsage", usage);
        },
        onRequest: (info) => this.emit("request", info),
        onWrite: (write) => this.emit("write", write),
        onSessionRejected: (error) => this.rejectSession(error),
        beforeWrite: options.beforeWrite,
      },
      { timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes, retry: options.retry, logger: this.logger, captureBodies: options.captureBodies },
    );
  }

  /** What printing the client shows: where it is connected, never a credential. */
  toJSON(): Record<string, unknown> {
    return { instanceUrl: this.instanceUrl, orgId: this.orgId, userId: this.userId, version: this.version, isConnected: this.isConnected, apiUsage: this.apiUsage };
  }
  [inspect.custom](): string {
    return `Crm ${inspect(this.toJSON())}`;
  }

  /** Creates a client and connects it. */
  static async create(options: CrmOptions): Promise<Crm> {
    const crm = new Crm(options);
    await crm.connect();
    return crm;
  }

  /** Converts a 15-character record ID to 18 characters (RangeError for a wrong length or character). */
  static get18CharId(recordId: string): string {
    return get18CharId(recordId);
  }

  get instanceUrl(): string | undefined {
    return this.#session?.instanceUrl;
  }
  get orgId(): string | undefined {
    return this.#session?.orgId || undefined;
  }
  get userId(): string | undefined {
    return this.#session?.userId || undefined;
  }
  /** The base URL for links into the org's UI: the connection's base_url, else the instance URL. */
  get baseUrl(): string | undefined {
    const configured = this.#options.connectionInfo?.base_url ?? this.#options.baseUrl;
    return (configured || this.#session?.instanceUrl)?.replace(/\/+$/, "");
  }
  get isConnected(): boolean {
    return this.#session !== undefined;
  }
  /** The current session (with its access token) for a caller that stores it, such as the extension. */
  getSession(): AuthSession | undefined {
    return this.#session ? { ...this.#session } : undefined;
  }

  private resolveStrategy(): AuthStrategy {
    const credentials = this.credentialStrategy();
    return this.#options.session ? new KeptSessionAuth(credentials, this.#options.session) : credentials;
  }

  private credentialStrategy(): AuthStrategy {
    const o = this.#options;
    if (o.auth) return o.auth;
    if (o.connectionInfo) return strategyFromConnection(normalizeConnection(o.connectionInfo));
    if (o.helper !== undefined) {
      const content = typeof o.helper === "string" ? readHelperFile(o.helper) : checkHelper(o.helper);
      return strategyFromConnection(content.connection);
    }
    const fields: HelperConnection = {
      base_url: o.baseUrl, org_id: o.orgId, username: o.username, password: o.password, endpoint_url: o.endpointUrl, client_id: o.clientId,
      client_secret: o.clientSecret, security_token: o.securityToken, access_token: o.accessToken, instance_url: o.instanceUrl, refresh_token: o.refreshToken,
    };
    if (Object.values(fields).every((v) => v === undefined || v === "")) {
      throw new MissingRequiredDataError("No credentials: pass connectionInfo, helper, auth or the credential fields (or build them with defineConnectionInfo())", "connectionInfo");
    }
    return strategyFromConnection(fields);
  }

  /**
   * Signs in, resolves the API version (the org's latest unless given) and loads the current user's info.
   * `fresh`: sign in with the credentials even when a kept session was given (a check that they still work).
   */
  connect(options: { fresh?: boolean } = {}): Promise<AuthSession> {
    this.connecting ??= (async () => {
      this.rejected = undefined;
      try {
        this.signingIn = (async () => {
          const strategy = this.resolveStrategy();
          this.#strategy = options.fresh && strategy instanceof KeptSessionAuth ? strategy.credentials : strategy;
          this.#session = await this.#strategy.authenticate(this.transport.postForm);
          if (this.#strategy instanceof KeptSessionAuth) this.logger.info?.(`using the kept session for ${this.#session.instanceUrl}`);
          else {
            this.logger.info?.(`signed in to ${this.#session.instanceUrl} (${this.#strategy.kind})`);
            this.emit("signedIn", { ...this.#session });
          }
          // Alone: a GET asked for before the sign-in (the same list, say) waits for it, so it must not wait for that GET.
          this.version ??= latestVersionIn((await this.transport.request({ method: "GET", endpoint: VERSION_LIST, alone: true })).data);
          return this.#session;
        })();
        await this.signingIn;
        if (this.#options.loadUserInfo !== false || !this.#session!.userId) {
          const info = await this.retrieveCurrentUserInfo({ allData: true, raiseExcOnError: false });
          this.currentUserInfo = info;
          if (!this.#session!.userId && typeof info.user_id === "string") this.#session!.userId = info.user_id;
          if (!this.#session!.orgId && typeof info.organization_id === "string") this.#session!.orgId = info.organization_id;
        }
        return this.#session!;
      } catch (err) {
        this.#session = undefined;
        throw err;
      } finally {
        this.connecting = this.signingIn = undefined;
      }
    })();
    return this.connecting;
  }

  /** Remembers that the org refused the session for good, tells listeners once, and returns the error. */
  private rejectSession(err: Error): Error {
    if (!this.rejected) {
      this.rejected = err;
      this.emit("sessionRejected", err);
    }
    return err;
  }

  private async ensureSession(): Promise<AuthSession> {
    // A refused session is not tried again with the same credentials: only connect() (a new sign-in) clears it.
    if (this.rejected) throw this.rejected;
    if (this.#session) return this.#session;
    const connecting = this.connecting ?? this.connect();
    if (!this.signingIn) return connecting;
    // The request waits for the sign-in only; connect()'s own failure reaches whoever called connect().
    connecting.catch(() => undefined);
    return this.signingIn;
  }

  /** One re-authentication for every call that got a 401 with the same token. */
  private refreshSession(failed: AuthSession): Promise<AuthSession> {
    if (this.rejected) return Promise.reject(this.rejected);
    if (this.#session && this.#session.accessToken !== failed.accessToken) return Promise.resolve(this.#session);
    this.refreshing ??= (async () => {
      const strategy = this.#strategy;
      if (!strategy?.reauthenticate) {
        throw this.rejectSession(new AuthenticationError("The session expired or was revoked, and this sign-in (a bare access token) cannot renew it: sign in again", 401, "INVALID_SESSION_ID", "Session expired or invalid"));
      }
      let next: AuthSession;
      try {
        next = await strategy.reauthenticate(this.transport.postForm, failed);
      } catch (err) {
        // The token endpoint refused (not an outage): no amount of retrying will bring the session back.
        throw err instanceof AuthenticationError && err.status < 500 ? this.rejectSession(err) : err;
      }
      this.#session = { ...next, orgId: next.orgId || failed.orgId, userId: next.userId || failed.userId, refreshToken: next.refreshToken ?? failed.refreshToken };
      this.logger.info?.("access token renewed");
      this.emit("tokenRefreshed", { ...this.#session });
      return this.#session;
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Revokes the session's refresh token (or access token) at the org and forgets the session. */
  async revoke(): Promise<void> {
    const session = this.#session;
    if (!session) return;
    const token = session.refreshToken ?? session.accessToken;
    const loginUrl = this.#strategy?.loginUrl ?? session.instanceUrl;
    const { status, body } = await this.transport.postForm(`${new URL(loginUrl).origin}/services/oauth2/revoke`, { token });
    this.#session = undefined;
    if (status !== 200) {
      const answer = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
      const words = String(answer.error_description ?? answer.error ?? answer.unreadable ?? `HTTP ${status}`);
      throw new AuthenticationError(`Revoking the token failed: ${words}`, status, "revoke_failed", words);
    }
  }

  /** Closes kept-alive connections (lets a script exit at once). */
  close(): void {
    this.transport.close();
  }

  /** `/services/data/vNN.N{suffix}` for the client's API version (connecting first if needed). */
  async apiPath(suffix = ""): Promise<string> {
    // While connect() runs, the session exists before the version does: wait for the sign-in, not just the session.
    if (!this.version) await (this.signingIn ?? this.connecting ?? this.ensureSession());
    if (!this.version) throw new CrmError("The API version is not known yet: connect() did not finish");
    return `/services/data/v${this.version}${suffix}`;
  }

  /**
   * Runs `work` with its writes confirmed once, up front: the `beforeWrite` option (a production guard) is
   * asked about `batch` (its `summary` says what the whole batch changes), then not again for each request.
   */
  withConfirmedWrites<T>(batch: PendingWrite, work: () => Promise<T>): Promise<T> {
    return this.transport.withConfirmedWrites(batch, work);
  }

  /**
   * Runs `work` with its writes recorded as `context` says — whose work they are (`by`), the values they replace
   * (`before`, by record ID), the piece of work they belong to (`group`) — on each write's record (writeRecord.ts).
   */
  withWriteContext<T>(context: WriteContext, work: () => T): T {
    return withWriteContext(context, work);
  }

  /** Takes this client's own access and refresh tokens out of an error's text (for errors built from the org's words). */
  redact<E>(err: E): E {
    return this.transport.redact(err);
  }

  /** A request whose answer is read as it arrives (a Bulk result of any size); raises APIRequestError for an error status. */
  requestStream(method: HttpMethod, endpoint: string, options: HelperCallOptions & { streamIdleMs?: number } = {}): Promise<CrmStreamResponse> {
    return this.transport.stream({ method, endpoint, params: options.params, headers: options.headers, timeoutMs: options.timeoutMs, signal: options.signal, streamIdleMs: options.streamIdleMs });
  }

  // ---- generic HTTP helpers ---------------------------------------------------------------

  /** Sends a request and returns the whole response; raises APIRequestError for an error status. */
  request<T = unknown>(method: HttpMethod, endpoint: string, body?: unknown, options: HelperCallOptions & Pick<RequestOptions, "acceptStatus" | "retryable" | "rawBody" | "write" | "writeCount" | "intent"> = {}): Promise<CrmResponse<T>> {
    return this.transport.request<T>({
      method, endpoint, body, params: options.params, headers: options.headers, timeoutMs: options.timeoutMs, signal: options.signal,
      showFullError: options.showFullError, acceptStatus: options.acceptStatus, retryable: options.retryable, rawBody: options.rawBody, write: options.write, writeCount: options.writeCount, intent: options.intent,
    });
  }

  private async call<T>(method: HttpMethod, endpoint: string, payload: unknown, options: HelperCallOptions = {}, returnJsonDefault = true): Promise<T | CrmResponse<T>> {
    const response = await this.request<T>(method, endpoint, payload, options);
    const returnJson = options.returnJson ?? returnJsonDefault;
    // An empty or non-JSON success body is returned as the response itself, not converted.
    return returnJson && response.data !== undefined ? response.data : response;
  }

  // With `returnJson: false` these resolve to the response; otherwise to the parsed JSON, or to the response
  // when the org answered without JSON (an empty 204, say) — hence `T | CrmResponse<T>`.
  get<T = unknown>(endpoint: string, options: HelperCallOptions & { returnJson: false }): Promise<CrmResponse<T>>;
  get<T = unknown>(endpoint: string, options?: HelperCallOptions): Promise<T | CrmResponse<T>>;
  get<T = unknown>(endpoint: string, options?: HelperCallOptions): Promise<T | CrmResponse<T>> {
    return this.call<T>("GET", endpoint, undefined, options);
  }
  post<T = unknown>(endpoint: string, payload: unknown, options: HelperCallOptions & { returnJson: false }): Promise<CrmResponse<T>>;
  post<T = unknown>(endpoint: string, payload: unknown, options?: HelperCallOptions): Promise<T | CrmResponse<T>>;
  post<T = unknown>(endpoint: string, payload: unknown, options?: HelperCallOptions): Promise<T | CrmResponse<T>> {
    return this.call<T>("POST", endpoint, requirePayload(payload), options);
  }
  put<T = unknown>(endpoint: string, payload: unknown, options: HelperCallOptions & { returnJson: false }): Promise<CrmResponse<T>>;
  put<T = unknown>(endpoint: string, payload: unknown, options?: HelperCallOptions): Promise<T | CrmResponse<T>>;
  put<T = unknown>(endpoint: string, payload: unknown, options?: HelperCallOptions): Promise<T | CrmResponse<T>> {
    return this.call<T>("PUT", endpoint, requirePayload(payload), options);
  }
  /** PATCH returns the response unless `returnJson: true` (most PATCH calls answer 204 with no body). */
  patch<T = unknown>(endpoint: string, payload: unknown, options: HelperCallOptions & { returnJson: true }): Promise<T | CrmResponse<T>>;
  patch<T = unknown>(endpoint: string, payload: unknown, options?: HelperCallOptions & { returnJson?: false }): Promise<CrmResponse<T>>;
  patch<T = unknown>(endpoint: string, payload: unknown, options?: HelperCallOptions): Promise<T | CrmResponse<T>>;
  patch<T = unknown>(endpoint: string, payload: unknown, options?: HelperCallOptions): Promise<T | CrmResponse<T>> {
    return this.call<T>("PATCH", endpoint, requirePayload(payload), options, false);
  }
  delete<T = unknown>(endpoint: string, options: HelperCallOptions & { returnJson: false }): Promise<CrmResponse<T>>;
  delete<T = unknown>(endpoint: string, options?: HelperCallOptions): Promise<T | CrmResponse<T>>;
  delete<T = unknown>(endpoint: string, options?: HelperCallOptions): Promise<T | CrmResponse<T>> {
    return this.call<T>("DELETE", endpoint, undefined, options);
  }
  apiCallWithPayload<T = unknown>(method: string, endpoint: string, payload: unknown, options?: HelperCallOptions): Promise<T | CrmResponse<T>> {
    const verb = typeof method === "string" ? method.toUpperCase() : "";
    if (verb !== "POST" && verb !== "PUT" && verb !== "PATCH") {
      throw new RangeError(`method must be 'post', 'put' or 'patch', got ${JSON.stringify(method)}`);
    }
    return this.call<T>(verb, endpoint, requirePayload(payload), options, verb !== "PATCH");
  }

  /** GET returning parsed JSON (raises when the org did not send JSON). */
  async getJson<T>(endpoint: string, options: HelperCallOptions = {}): Promise<T> {
    const response = await this.request<T>("GET", endpoint, undefined, options);
    if (response.data === undefined) throw new CrmError(`GET ${response.path} returned no JSON body (status ${response.status})`);
    return response.data;
  }

  // ---- org ------------------------------------------------------------------------------

  /** Every API version the org serves, oldest first. */
  async getApiVersions(): Promise<{ label: string; url: string; version: string }[]> {
    return this.getJson(VERSION_LIST);
  }

  /** The newest API version the org serves, such as "62.0". */
  async getLatestApiVersion(): Promise<string> {
    return latestVersionIn(await this.getApiVersions());
  }

  async getRestResources(): Promise<Record<string, string>> {
    return this.getJson(await this.apiPath("/"));
  }

  /** Beyond the spec: whether the org is production, a sandbox, a scratch, developer or trial org. */
  async getOrgKind(): Promise<OrgKind> {
    const result = await this.soqlQuery<Record<string, unknown>>("SELECT IsSandbox, OrganizationType, TrialExpirationDate FROM Organization", { replaceQuotes: false });
    const organization = result.records[0];
    if (!organization) throw new CrmError("The org returned no Organization record, so its kind is unknown");
    return orgKindOf(organization);
  }

  async getOrgLimits(): Promise<Record<string, { Max: number; Remaining: number } & Record<string, unknown>>> {
    return this.getJson(await this.apiPath("/limits"));
  }

  /** Describe global. With `ifModifiedSince`, resolves to undefined when nothing changed (HTTP 304). */
  async getAllSobjects(options: { ifModifiedSince?: Date } = {}): Promise<DescribeGlobal | undefined> {
    return this.conditionalGet(await this.apiPath("/sobjects"), options.ifModifiedSince);
  }

  /** Basic info of an sObject, or its full describe with `{ describe: true }`. */
  async getSobject(objectName: string, options: { describe: true }): Promise<SObjectDescribe>;
  async getSobject(objectName: string, options?: { describe?: false }): Promise<Record<string, unknown>>;
  async getSobject(objectName: string, options: { describe?: boolean } = {}): Promise<Record<string, unknown>> {
    requireSobjectName(objectName, "objectName");
    return this.getJson(await this.apiPath(`/sobjects/${objectName}${options.describe ? "/describe" : ""}`));
  }

  /** Full describe. With `ifModifiedSince`, resolves to undefined when it has not changed (HTTP 304). */
  async describeObject(objectName: string, options: { ifModifiedSince?: Date } = {}): Promise<SObjectDescribe | undefined> {
    requireSobjectName(objectName, "objectName");
    return this.conditionalGet(await this.apiPath(`/sobjects/${objectName}/describe`), options.ifModifiedSince);
  }

  private async conditionalGet<T>(endpoint: string, since?: Date): Promise<T | undefined> {
    const headers = since ? { "If-Modified-Since": since.toUTCString() } : undefined;
    const response = await this.request<T>("GET", endpoint, undefined, { headers });
    return response.status === 304 ? undefined : response.data;
  }

  // ---- records and queries -----------------------------------------------------------------

  /** Creates a record: resolves to `{ id, success, errors }`. */
  async createSobjectRecord(sobject: string, payload: Record<string, unknown>): Promise<CreateResult> {
    requireSobjectName(sobject);
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new TypeError("payload must be an object of field values");
    const response = await this.request<CreateResult>("POST", await this.apiPath(`/sobjects/${sobject}`), payload, { intent: recordIntent("create", sobject, { body: payload }) });
    return response.data!;
  }

  /**
   * Updates fields of a record (HTTP 204 on success). With `ifUnmodifiedSince` the org refuses with 412
   * when someone changed the record after that time.
   */
  async updateSobjectRecord(sobject: string, recordId: string, payload: Record<string, unknown>, options: { ifUnmodifiedSince?: Date } = {}): Promise<CrmResponse> {
    requireSobjectName(sobject);
    requireRecordId(recordId, "recordId");
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new TypeError("payload must be an object of field values");
    const headers = options.ifUnmodifiedSince ? { "If-Unmodified-Since": options.ifUnmodifiedSince.toUTCString() } : undefined;
    return this.request("PATCH", await this.apiPath(`/sobjects/${sobject}/${recordId}`), payload, { headers, intent: recordIntent("update", sobject, { id: recordId, body: payload }) });
  }

  /** Reads one record (all accessible fields, or the ones named). */
  async getSobjectRecord(sobject: string, recordId: string, options: { fields?: string[] } = {}): Promise<Record<string, unknown>> {
    requireSobjectName(sobject);
    requireRecordId(recordId, "recordId");
    return this.getJson(await this.apiPath(`/sobjects/${sobject}/${recordId}`), { params: options.fields ? { fields: options.fields.join(",") } : undefined });
  }

  async deleteSobjectRecord(sobject: string, recordId: string): Promise<CrmResponse> {
    requireSobjectName(sobject);
    requireRecordId(recordId, "recordId");
    return this.request("DELETE", await this.apiPath(`/sobjects/${sobject}/${recordId}`), undefined, { intent: recordIntent("delete", sobject, { id: recordId }) });
  }

  /**
   * Runs a SOQL query and returns one page. `replaceQuotes` (default true) turns double quotes outside
   * string literals into single quotes; with `nextRecordsUrl: true` the argument is a nextRecordsUrl.
   */
  async soqlQuery<R = Record<string, unknown>>(query: string, options: { replaceQuotes?: boolean; nextRecordsUrl?: boolean } & QueryOptions = {}): Promise<QueryResult<R>> {
    if (typeof query !== "string" || !query.trim()) throw new TypeError("query must be a non-empty SOQL string");
    const headers = options.batchSize ? { "Sforce-Query-Options": `batchSize=${options.batchSize}` } : undefined;
    if (options.nextRecordsUrl) {
      const endpoint = query.startsWith("/services/data/") ? query : await this.apiPath(`/query/${query.slice(query.lastIndexOf("/") + 1)}`);
      return this.getJson(endpoint, { headers, signal: options.signal });
    }
    const soql = options.replaceQuotes === false ? query : replaceDoubleQuotes(query);
    return this.getJson(await this.apiPath(options.includeDeleted ? "/queryAll" : "/query"), { params: { q: soql }, headers, signal: options.signal });
  }

  /**
   * How the org would run a query, without running it (the query resource's `explain`): its plans, the
   * one it would use first. A report or list view ID explains that report or view.
   */
  async explain(query: string, options: { signal?: AbortSignal; tooling?: boolean } = {}): Promise<QueryExplain> {
    if (typeof query !== "string" || !query.trim()) throw new TypeError("query must be a non-empty SOQL string, or a report or list view ID");
    return this.getJson(await this.apiPath(options.tooling ? "/tooling/query" : "/query"), { params: { explain: query }, signal: options.signal });
  }

  /** Runs a query against the Tooling API (ApexClass, CustomField, …). */
  async toolingQuery<R = Record<string, unknown>>(query: string, options: { signal?: AbortSignal } = {}): Promise<QueryResult<R>> {
    if (typeof query !== "string" || !query.trim()) throw new TypeError("query must be a non-empty SOQL string");
    return this.getJson(await this.apiPath("/tooling/query"), { params: { q: query }, signal: options.signal });
  }

  /** Follows nextRecordsUrl page by page, and completes child subquery results that have their own cursor. */
  async *queryIterator<R = Record<string, unknown>>(query: string, options: QueryOptions = {}): AsyncGenerator<R, void, undefined> {
    for await (const page of this.queryPages<R>(query, { ...options, completeChildren: true })) yield* page.records;
  }

  /**
   * The pages of a query as they arrive, following nextRecordsUrl (one page in memory at a time).
   * `tooling` queries the Tooling API; `completeChildren` first fetches the rest of child subquery
   * results that stopped at their own cursor, so each page's rows are whole.
   */
  async *queryPages<R = Record<string, unknown>>(query: string, options: QueryOptions & { tooling?: boolean; completeChildren?: boolean } = {}): AsyncGenerator<QueryResult<R>, void, undefined> {
    let page = options.tooling ? await this.toolingQuery<R>(query, { signal: options.signal }) : await this.soqlQuery<R>(query, { ...options, replaceQuotes: false });
    const next = pageLinks(QUERY_PAGES);
    for (;;) {
      if (options.completeChildren) await this.completeChildren(page.records, options.signal);
      yield page;
      if (page.done || !page.nextRecordsUrl) return;
      page = await this.soqlQuery<R>(next(page.nextRecordsUrl), { nextRecordsUrl: true, signal: options.signal, batchSize: options.batchSize });
    }
  }

  /** Fetches the remaining pages of child subquery results that stopped at their own nextRecordsUrl. */
  private async completeChildren(records: unknown[], signal?: AbortSignal): Promise<void> {
    for (const record of records) {
      for (const value of Object.values(record as Record<string, unknown>)) {
        const child = value as Partial<QueryResult> | null;
        // A cheap synchronous test first: most rows have no child cursor, and need no await.
        if (!child || typeof child !== "object" || child.done !== false || !child.nextRecordsUrl || !Array.isArray(child.records)) continue;
        let next: string | undefined = child.nextRecordsUrl;
        const follow = pageLinks(QUERY_PAGES);
        while (next) {
          const more: QueryResult = await this.soqlQuery(follow(next), { nextRecordsUrl: true, signal });
          child.records.push(...more.records);
          next = more.done ? undefined : more.nextRecordsUrl;
        }
        child.done = true;
        delete child.nextRecordsUrl;
      }
    }
  }

  /** Every row of a query (all pages), or the first `maxRows` with `truncated: true` said plainly. */
  async queryAll<R = Record<string, unknown>>(query: string, options: QueryOptions & { maxRows?: number } = {}): Promise<QueryAllResult<R>> {
    const max = options.maxRows ?? Number.POSITIVE_INFINITY;
    if (!(max > 0)) throw new RangeError(`maxRows must be a positive number, got ${String(options.maxRows)}`);
    const records: R[] = [];
    let page = await this.soqlQuery<R>(query, { ...options, replaceQuotes: false });
    const totalSize = page.totalSize;
    const next = pageLinks(QUERY_PAGES);
    for (;;) {
      const room = max - records.length;
      const taken = page.records.length > room ? page.records.slice(0, room) : page.records;
      await this.completeChildren(taken, options.signal);
      for (const record of taken) records.push(record);
      const more = !page.done && !!page.nextRecordsUrl;
      if (taken.length < page.records.length || (more && records.length >= max)) {
        return { totalSize, done: false, records, truncated: true, nextRecordsUrl: page.nextRecordsUrl };
      }
      if (!more) return { totalSize, done: true, records, truncated: false };
      page = await this.soqlQuery<R>(next(page.nextRecordsUrl), { nextRecordsUrl: true, signal: options.signal, batchSize: options.batchSize });
    }
  }

  /** SOSL `FIND {text}` with the text's reserved characters escaped. */
  async searchString(stringToSearch: string): Promise<{ searchRecords: Record<string, unknown>[] }> {
    return this.search(`FIND {${escapeSoslTerm(stringToSearch)}}`);
  }

  /** Runs a SOSL statement as written. */
  async search(sosl: string, options: { signal?: AbortSignal } = {}): Promise<{ searchRecords: Record<string, unknown>[] }> {
    if (typeof sosl !== "string" || !/^\s*FIND\s/i.test(sosl)) throw new TypeError("sosl must be a SOSL statement starting with FIND");
    return this.getJson(await this.apiPath("/search"), { params: { q: sosl }, signal: options.signal });
  }

  /**
   * Beyond the spec: a rich-text image (an rtaImage URL from a rich-text field) fetched through the API,
   * so the bearer token never leaves this process (webviews show the bytes as a data: URI).
   */
  async fetchRichTextImage(imageUrl: string, recordId: string, fieldName: string, options: { sobject?: string } = {}): Promise<{ refid: string; contentType: string; bytes: Buffer }> {
    if (typeof imageUrl !== "string" || !imageUrl) throw new TypeError("imageUrl must be the image's URL string (an rtaImage URL)");
    requireRecordId(recordId, "recordId");
    requireSobjectName(fieldName, "fieldName");
    const sobject = requireSobjectName(options.sobject ?? "Knowledge__kav");
    const refid = richTextImageRefid(imageUrl);
    try {
      const response = await this.request("GET", await this.apiPath(`/sobjects/${sobject}/${recordId}/richTextImageFields/${fieldName}/${refid}`));
      const contentType = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      return { refid, contentType, bytes: response.body };
    } catch (err) {
      throw new CrmError(`Failed to download the image with refid ${refid}: ${(err as Error).message}`, { cause: err });
    }
  }

  /**
   * Downloads a rich-text image (an rtaImage URL from a rich-text field) through the API and saves it as
   * `<refid>.<ext>` in `filePath` (default: the current directory). Resolves to the full path.
   */
  async downloadImage(imageUrl: string, recordId: string, fieldName: string, options: { filePath?: string; sobject?: string } = {}): Promise<string> {
    const image = await this.fetchRichTextImage(imageUrl, recordId, fieldName, options);
    const ext = ({ "image/png": "png", "image/jpeg": "jpeg", "image/jpg": "jpeg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg", "image/bmp": "bmp" } as Record<string, string>)[image.contentType] ?? "bin";
    const directory = path.resolve(options.filePath ?? ".");
    // The refid is checked to be a record ID, so the name cannot leave the folder; checked again all the same.
    const target = path.join(directory, `${image.refid}.${ext}`);
    if (path.dirname(target) !== directory) throw new InvalidFieldError(`The image file name for refid ${image.refid} would leave the folder ${directory}`);
    try {
      await mkdir(directory, { recursive: true });
      await writeFile(target, image.bytes);
      return target;
    } catch (err) {
      throw new CrmError(`Failed to save the image with refid ${image.refid}: ${(err as Error).message}`, { cause: err });
    }
  }

  // ---- user and access --------------------------------------------------------------------

  /**
   * The current user's info from /services/oauth2/userinfo: the relevant fields, or all with `allData`.
   * Failures give the defaults unless `raiseExcOnError`, which raises APIRequestError.
   */
  async retrieveCurrentUserInfo(options: { allData?: boolean; raiseExcOnError?: boolean } = {}): Promise<UserInfo> {
    const defaults: UserInfo = { user_id: "", nickname: "", name: "", email: "", user_type: "", language: "", locale: "", utcOffset: "", is_salesforce_integration_user: null };
    let info: UserInfo;
    try {
      const data = await this.getJson<unknown>("/services/oauth2/userinfo");
      if (!data || typeof data !== "object" || Array.isArray(data)) throw new CrmError("userinfo did not return an object");
      info = data as UserInfo;
    } catch (err) {
      this.logger.warn?.(`retrieving the current user's info failed: ${(err as Error).message}`);
      if (options.raiseExcOnError) {
        if (err instanceof APIRequestError) throw err;
        throw new APIRequestError({ status: 0, errorCode: (err as Error).name, message: `Retrieving the current user's info failed: ${(err as Error).message}`, method: "GET", path: "/services/oauth2/userinfo" });
      }
      return defaults;
    }
    this.currentUserInfo = info;
    if (options.allData) return info;
    return Object.fromEntries(RELEVANT_USER_FIELDS.map((k) => [k, k in info ? info[k] : defaults[k]]));
  }

  private async currentUserId(): Promise<string> {
    if (!this.#session) await this.ensureSession();
    const cached = this.userId ?? (this.currentUserInfo?.user_id as string | undefined);
    if (cached) return cached;
    const info = await this.retrieveCurrentUserInfo({ raiseExcOnError: true });
    if (!info.user_id) throw new MissingRequiredDataError("The current user's ID is unknown, so record access cannot be checked; pass userId", "userId");
    return String(info.user_id);
  }

  /** Read, edit and delete access of a user (default: the current user) to a record, from UserRecordAccess. */
  async checkUserRecordAccess(recordId: string, userId?: string): Promise<RecordAccess> {
    requireRecordId(recordId, "recordId");
    const user = userId === undefined ? await this.currentUserId() : requireRecordId(userId, "userId");
    const result = await this.soqlQuery<Partial<RecordAccess>>(
      `SELECT RecordId, HasReadAccess, HasEditAccess, HasDeleteAccess FROM UserRecordAccess WHERE UserId = ${soqlLiteral(user)} AND RecordId = ${soqlLiteral(recordId)}`,
      { replaceQuotes: false },
    );
    const row = result.records[0];
    return { HasReadAccess: row?.HasReadAccess ?? null, HasEditAccess: row?.HasEditAccess ?? null, HasDeleteAccess: row?.HasDeleteAccess ?? null };
  }

  /**
   * Whether a user may read, edit or delete a record. When the answer cannot be had, raises (default) or,
   * with `raiseExcOnFailure: false`, resolves to null.
   */
  async canAccessRecord(accessType: "read" | "edit" | "delete", recordId: string, options: { userId?: string; recordAccessData?: RecordAccess; raiseExcOnFailure?: boolean } = {}): Promise<boolean | null> {
    const raise = options.raiseExcOnFailure ?? true;
    const field = ({ read: "HasReadAccess", edit: "HasEditAccess", delete: "HasDeleteAccess" } as const)[String(accessType).toLowerCase() as "read"];
    if (!field) {
      if (raise) throw new InvalidFieldError(`accessType must be 'read', 'edit' or 'delete', got '${String(accessType)}'`);
      return null;
    }
    let data = options.recordAccessData;
    if (data !== undefined && (data === null || typeof data !== "object")) {
      if (raise) throw new DataMismatchError(`recordAccessData must be the object checkUserRecordAccess returns, got ${data === null ? "null" : typeof data}`);
      return null;
    }
    try {
      data ??= await this.checkUserRecordAccess(recordId, options.userId);
    } catch (err) {
      if (raise) throw err;
      return null;
    }
    const value = data[field];
    if (typeof value !== "boolean") {
      if (raise) throw new MissingRequiredDataError(`The org returned no ${field} for record ${recordId} (the record may not exist or the running user cannot see it)`, field);
      return null;
    }
    return value;
  }

  canReadRecord(recordId: string, options?: { userId?: string; recordAccessData?: RecordAccess; raiseExcOnFailure?: boolean }): Promise<boolean | null> {
    return this.canAccessRecord("read", recordId, options);
  }
  canEditRecord(recordId: string, options?: { userId?: string; recordAccessData?: RecordAccess; raiseExcOnFailure?: boolean }): Promise<boolean | null> {
    return this.canAccessRecord("edit", recordId, options);
  }
  canDeleteRecord(recordId: string, options?: { userId?: string; recordAccessData?: RecordAccess; raiseExcOnFailure?: boolean }): Promise<boolean | null> {
    return this.canAccessRecord("delete", recordId, options);
  }
}

// The API groups (crm.knowledge, crm.bulk, …) plug in when their modules load: the core imports none of them.
acceptPlugIns(Crm.prototype);
