/** The CRM emulator: a real HTTP server on 127.0.0.1 answering like a Salesforce-style org. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { AddressInfo, Socket } from "node:net";
import { bulkRoutes } from "./bulk";
import { compositeRoutes } from "./composite";
import { chatterHooks, chatterRoutes } from "./chatter";
import { type Ctx, type OrgState, type Reply, type Route, CursorStore } from "./context";
import { dataRoutes, versionList, SUPPORTED_VERSIONS } from "./data";
import { knowledgeHooks, knowledgeRoutes } from "./knowledge";
import { OAuthServer } from "./oauth";
import { addHostileCorpus, type HostileCorpus } from "./hostileCorpus";
import { DEMO, seedOrg, type SeedName, type Seeded } from "./seed";
import { ApiError } from "./soql";

export interface Faults {
  /** Added latency per request, in ms. */
  latencyMs: number;
  /** The next N API requests answer 503 SERVER_UNAVAILABLE. */
  unavailable: number;
  /** The next N requests have their connection dropped without an answer. */
  drop: number;
  /** The next N JSON bodies are cut in half. */
  malformedJson: number;
  /** The next N requests (sign-in included) answer 503 with an HTML maintenance page, as an org in maintenance does. */
  maintenancePage: number;
  /** Connect's users list (`/chatter/users`) answers 404 while true, as in an org whose people directory is off. */
  usersListUnavailable: boolean;
  /** Knowledge Management's settings (`/knowledgeManagement/settings`) answer 404 while true, as where the user may not read them. */
  knowledgeSettingsUnavailable: boolean;
  /** Every data API request answers 403 REQUEST_LIMIT_EXCEEDED while true. */
  requestLimitExceeded: boolean;
  /**
   * Requests whose path matches `path` (a regular expression) are answered as a broken org or proxy would:
   * `trickle` — a JSON body one byte every 300 ms, never ending; `endless` — a body sent as fast as it is read,
   * never ending; `gzipBomb` — 100 KB of gzip that inflates to 100 MB; `echoHeaders` — a 400 whose error body
   * repeats the request's headers, Authorization included. `times` answers (default: until cleared with null).
   */
  hostileAnswer: { path: string; kind: "trickle" | "endless" | "gzipBomb" | "echoHeaders"; times?: number } | null;
  /**
   * The next N data API requests that change something are carried out, then answered 504 by a gateway that gave
   * up waiting (Salesforce's edge answers so when the org is slow): the write was applied, its answer lost.
   */
  gatewayTimeoutAfterWrite: number;
  /** The next N successfulResults answers of ingest jobs leave out their last row (a result set that does not add up). */
  loseResultRows: number;
  /**
   * The next ingest job writes this many rows, then fails (as a job the org stops part way does: what it wrote
   * stays written, in its successful and failed results; the rest is in its unprocessed records). 0: off.
   */
  failIngestAfterRows: number;
  /** Fields merged into the JSON answer of requests whose path matches (an odd job ID; `"$self"` stands for the request's own path and query). */
  answerPatch: { path: string; patch: Record<string, unknown> } | null;
}

export type FaultName = keyof Faults | "expireTokens";

export type OrgKind = "production" | "sandbox" | "scratch" | "developer" | "trial";

/** The Organization fields each kind of org has (a scratch org is a sandbox with a trial expiry date). */
const ORG_KIND_FIELDS: Record<OrgKind, { IsSandbox: boolean; OrganizationType: string; TrialExpirationDate: string | null }> = {
  production: { IsSandbox: false, OrganizationType: "Enterprise Edition", TrialExpirationDate: null },
  sandbox: { IsSandbox: true, OrganizationType: "Enterprise Edition", TrialExpirationDate: null },
  scratch: { IsSandbox: true, OrganizationType: "Developer Edition", TrialExpirationDate: "2030-01-31T00:00:00.000+0000" },
  developer: { IsSandbox: false, OrganizationType: "Developer Edition", TrialExpirationDate: null },
  trial: { IsSandbox: false, OrganizationType: "Enterprise Edition", TrialExpirationDate: "2030-01-31T00:00:00.000+0000" },
};

export interface EmulatorOptions {
  port?: number;
  seed?: SeedName;
  faults?: Partial<Faults>;
  /** Access-token lifetime; afterwards calls get 401 INVALID_SESSION_ID. Default two hours. */
  tokenTtlMs?: number;
  /** What kind of org the Organization record describes. Default "developer" (a Developer Edition org). */
  orgKind?: OrgKind;
  /** Rotate refresh tokens on every refresh (as apps with rotation on do). Default false. */
  rotateRefreshTokens?: boolean;
  /** Daily API request allocation reported in Sforce-Limit-Info. Default 15,000. */
  apiLimit?: number;
  /** Latest API version the org reports. Default "62.0". */
  latestVersion?: string;
  /** Child rows returned inline per parent before a child nextRecordsUrl. Default 200. */
  childBatchSize?: number;
  /** Requests kept in `requests` (oldest dropped first). Default 5,000. */
  requestLogSize?: number;
  /** Gzip JSON bodies over 2 KB when the request accepts gzip, as orgs do. Default true. */
  gzip?: boolean;
  /** How long a Bulk API 2.0 job stays in each state before the next (UploadComplete, InProgress, done). Default 150 ms. */
  bulkLatencyMs?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status?: number;
  /** When the request arrived and when its answer went out (performance.now()): which requests overlapped. */
  receivedAt: number;
  answeredAt?: number;
  /** Which TCP connection carried it (numbered from 1 as they open): a kept-alive connection carries many. */
  connection: number;
}

export interface Emulator {
  url: string;
  close(): Promise<void>;
  setFault<K extends FaultName>(name: K, value: K extends keyof Faults ? Faults[K] : true): void;
  /** What the Organization record says this org is (IsSandbox, OrganizationType, TrialExpirationDate). */
  setOrgKind(kind: OrgKind): void;
  requests: LoggedRequest[];
  seeded: Seeded;
  oauth: OAuthServer;
  /** Demo sign-in facts plus the key pair for the JWT bearer flow. */
  credentials: typeof DEMO & { loginUrl: string; jwtPrivateKeyPem: string; siteId: string };
  apiUsage: { used: number; max: number };
  /**
   * Called when a data API request that changes something has been carried out, before its answer goes out:
   * a test kills the client that sent it here (a run that dies with its write applied and unanswered).
   */
  afterWrite?: (write: { method: string; path: string }) => void | Promise<void>;
}

const DATA_PREFIX = /^\/services\/data\/v(\d+\.\d)(\/.*)?$/;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

let bomb: Buffer | undefined;
/** 100 MB of spaces, gzipped (about 100 KB): made once, when first asked for. */
const gzipBomb = () => (bomb ??= gzipSync(Buffer.alloc(100 * 1024 * 1024, " "), { level: 9 }));

function errorBody(err: ApiError) {
  const entry: Record<string, unknown> = { message: err.message, errorCode: err.errorCode };
  if (err.fields) entry.fields = err.fields;
  return [entry];
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const faults: Faults = { latencyMs: 0, unavailable: 0, drop: 0, malformedJson: 0, maintenancePage: 0, usersListUnavailable: false, knowledgeSettingsUnavailable: false, requestLimitExceeded: false, hostileAnswer: null, answerPatch: null, loseResultRows: 0, failIngestAfterRows: 0, gatewayTimeoutAfterWrite: 0, ...options.faults };
  const sockets = new Set<Socket>();
  let url = "";
  const baseUrl = () => url;
  const host = () => new URL(url).host;
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
  const requests: LoggedRequest[] = [];
  const logSize = options.requestLogSize ?? 5000;
  /** Every request answered since the start (the log keeps the last few thousand): API requests, and those that write. */
  const served = { total: 0, writes: 0 };
  const latestVersion = options.latestVersion ?? SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]!;

  // The seed needs the host for rich-text image URLs; the server needs the seed. Listen first.
  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 30_000;
  const connectionNumbers = new WeakMap<Socket, number>();
  let connectionsOpened = 0;
  server.on("connection", (socket) => {
    connectionNumbers.set(socket, ++connectionsOpened);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const seeded = seedOrg(options.seed ?? "demo", host());
  const oauth = new OAuthServer(seeded, baseUrl, publicKey, options.tokenTtlMs ?? 2 * 3600_000);
  oauth.rotateRefreshTokens = options.rotateRefreshTokens ?? false;
  const org: OrgState = {
    seeded, baseUrl, latestVersion, apiUsage: { used: 0, max: options.apiLimit ?? 15_000 }, childBatchSize: options.childBatchSize ?? 200,
    cursors: new CursorStore(() => `01g${seeded.store.podCode}${randomBytes(6).toString("hex").slice(0, 10)}`),
  };
  const writeHooks = { create: { ...knowledgeHooks.create, ...chatterHooks.create }, update: knowledgeHooks.update, remove: knowledgeHooks.remove };
  const routes: Route[] = [
    ...dataRoutes(writeHooks),
    ...knowledgeRoutes(),
    ...chatterRoutes(),
    ...bulkRoutes({ latencyMs: options.bulkLatencyMs ?? 150, hooks: writeHooks, faults }),
    ...compositeRoutes((ctx, method, url, body) => {
      const [path, query = ""] = url.split("?");
      return dispatch({ ...ctx, method, path: path!, query: new URLSearchParams(query), body });
    }),
  ];

  /** Runs a data API request through its route (also each subrequest of a composite request). */
  async function dispatch(ctx: Ctx): Promise<Reply> {
    const { method, path } = ctx;
    const candidates = routes.filter((r) => r.pattern.test(path));
    const route = candidates.find((r) => r.method === method);
    if (!route) {
      if (candidates.length) {
        const allowed = [...new Set(candidates.map((r) => r.method))].join(",");
        throw new ApiError(405, "METHOD_NOT_ALLOWED", `HTTP Method '${method}' not allowed. Allowed are ${allowed}`);
      }
      throw new ApiError(404, "NOT_FOUND", "The requested resource does not exist");
    }
    const params = route.pattern.exec(path)!.slice(1).map((p) => (p === undefined ? (undefined as unknown as string) : decodeURIComponent(p)));
    return route.handler(ctx, params);
  }

  function send(res: ServerResponse, reply: Reply, logged: LoggedRequest, withLimit: boolean, acceptsGzip = false) {
    const headers: Record<string, string> = { ...reply.headers };
    if (withLimit) headers["sforce-limit-info"] = `api-usage=${org.apiUsage.used}/${org.apiUsage.max}`;
    let payload: Buffer | string = "";
    if (Buffer.isBuffer(reply.body)) payload = reply.body;
    else if (typeof reply.body === "string") payload = reply.body;
    else if (reply.body !== undefined) {
      headers["content-type"] ??= "application/json;charset=UTF-8";
      payload = JSON.stringify(reply.body);
      if (faults.malformedJson > 0) {
        faults.malformedJson--;
        payload = payload.slice(0, Math.max(1, Math.floor(payload.length / 2)));
      }
    }
    if (acceptsGzip && options.gzip !== false && typeof payload === "string" && payload.length > 2048) {
      payload = gzipSync(payload);
      headers["content-encoding"] = "gzip";
    }
    logged.status = reply.status;
    logged.answeredAt = performance.now();
    res.writeHead(reply.status, headers);
    res.end(payload);
  }

  /** A broken org or proxy's answer (see Faults.hostileAnswer). The never-ending ones stop when the client hangs up. */
  function answerHostile(kind: NonNullable<Faults["hostileAnswer"]>["kind"], req: IncomingMessage, res: ServerResponse, logged: LoggedRequest) {
    logged.status = kind === "echoHeaders" ? 400 : 200;
    logged.answeredAt = performance.now();
    if (kind === "echoHeaders") {
      const echoed = Object.entries(req.headers).map(([k, v]) => `${k}: ${String(v)}`).join("\n");
      res.writeHead(400, { "content-type": "application/json;charset=UTF-8" });
      return void res.end(JSON.stringify([{ errorCode: "BAD_REQUEST", message: `The proxy refused the request:\n${echoed}` }]));
    }
    if (kind === "gzipBomb") {
      res.writeHead(200, { "content-type": "application/json;charset=UTF-8", "content-encoding": "gzip" });
      return void res.end(gzipBomb());
    }
    res.writeHead(200, { "content-type": "application/json;charset=UTF-8" });
    let stopped = false;
    res.on("close", () => (stopped = true));
    if (kind === "trickle") {
      const timer = setInterval(() => (stopped ? clearInterval(timer) : res.write(" ")), 300);
      return void res.write("[");
    }
    const chunk = Buffer.alloc(64 * 1024, " ");
    const pump = () => {
      while (!stopped && res.write(chunk));
      if (!stopped) res.once("drain", pump);
    };
    pump();
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const parsed = new URL(req.url ?? "/", url);
    const method = (req.method ?? "GET").toUpperCase();
    const raw = await readBody(req);
    const logged: LoggedRequest = { method, path: parsed.pathname, query: parsed.search, headers: { ...req.headers }, body: raw.toString("utf8"), receivedAt: performance.now(), connection: connectionNumbers.get(req.socket) ?? 0 };
    if (parsed.pathname.startsWith("/__emulator/")) return control(parsed, raw, res);
    requests.push(logged);
    served.total++;
    if (method !== "GET" && !parsed.pathname.includes("/oauth2/")) served.writes++;
    if (requests.length > logSize) requests.splice(0, requests.length - logSize);
    if (faults.drop > 0) {
      faults.drop--;
      req.socket.destroy();
      return;
    }
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    if (faults.maintenancePage > 0 && parsed.pathname.startsWith("/services/")) {
      faults.maintenancePage--;
      const page = "<!DOCTYPE html><html><head><title>Down for maintenance</title></head><body><h1>Service under maintenance</h1><p>We'll be back shortly.</p></body></html>";
      return send(res, { status: 503, body: page, headers: { "content-type": "text/html;charset=UTF-8" } }, logged, false);
    }
    if (faults.unavailable > 0 && parsed.pathname.startsWith("/services/")) {
      faults.unavailable--;
      return send(res, { status: 503, body: [{ message: "Server is temporarily unavailable. Try again later.", errorCode: "SERVER_UNAVAILABLE" }] }, logged, false);
    }
    const hostile = faults.hostileAnswer;
    if (hostile && new RegExp(hostile.path).test(parsed.pathname)) {
      if (hostile.times !== undefined && --hostile.times <= 0) faults.hostileAnswer = null;
      return answerHostile(hostile.kind, req, res, logged);
    }
    if (faults.knowledgeSettingsUnavailable && /\/knowledgeManagement\/settings\/?$/.test(parsed.pathname)) {
      return send(res, { status: 404, body: [{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }] }, logged, false);
    }
    if (faults.usersListUnavailable && /\/chatter\/users\/?$/.test(parsed.pathname)) {
      return send(res, { status: 404, body: [{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }] }, logged, false);
    }
    try {
      if (parsed.pathname.startsWith("/services/oauth2/") || parsed.pathname.startsWith("/id/") || parsed.pathname === "/setup/connect") return oauthRequest(req, parsed, raw, res, logged);
      const match = DATA_PREFIX.exec(parsed.pathname);
      if (parsed.pathname === "/services/data" || parsed.pathname === "/services/data/") {
        return send(res, { status: 200, body: versionList(latestVersion) }, logged, false);
      }
      if (!match) return send(res, { status: 404, body: [{ errorCode: "NOT_FOUND", message: "The requested resource does not exist" }] }, logged, false);
      const session = authenticate(req);
      org.apiUsage.used++;
      if (faults.requestLimitExceeded) throw new ApiError(403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded.");
      const version = match[1]!;
      if (!SUPPORTED_VERSIONS.includes(version) || Number(version) > Number(latestVersion)) throw new ApiError(404, "NOT_FOUND", "The requested resource does not exist");
      const path = match[2] ?? "/";
      let body: unknown;
      if (raw.length && /^text\/csv\b/i.test(String(req.headers["content-type"] ?? ""))) body = raw.toString("utf8");
      else if (raw.length) {
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch (err) {
          throw new ApiError(400, "JSON_PARSER_ERROR", `Unexpected character in the request body: ${(err as Error).message}`);
        }
      }
      const user = seeded.store.find(session.userId)!.rec;
      const ctx: Ctx = { method, path, version, query: parsed.searchParams, headers: req.headers, body, session, user, org, store: seeded.store };
      const reply = await dispatch(ctx);
      if (method !== "GET" && method !== "HEAD") await emulator.afterWrite?.({ method, path });
      if (faults.gatewayTimeoutAfterWrite > 0 && method !== "GET" && method !== "HEAD") {
        faults.gatewayTimeoutAfterWrite--;
        return send(res, { status: 504, body: "<html><body><h1>504 Gateway Time-out</h1></body></html>", headers: { "content-type": "text/html" } }, logged, false);
      }
      const patch = faults.answerPatch;
      if (patch && new RegExp(patch.path).test(parsed.pathname) && reply.body && typeof reply.body === "object" && !Buffer.isBuffer(reply.body)) {
        const self = `${parsed.pathname}${parsed.search}`;
        Object.assign(reply.body, Object.fromEntries(Object.entries(patch.patch).map(([k, v]) => [k, v === "$self" ? self : v])));
      }
      send(res, reply, logged, true, /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? "")));
    } catch (err) {
      if (err instanceof ApiError) return send(res, { status: err.status, body: errorBody(err) }, logged, err.status !== 401);
      console.error("emulator: unexpected error", err);
      send(res, { status: 500, body: [{ errorCode: "UNKNOWN_EXCEPTION", message: `An unexpected error occurred: ${(err as Error).message}` }] }, logged, false);
    }
  }

  function authenticate(req: IncomingMessage) {
    const header = req.headers.authorization;
    if (!header) throw new ApiError(401, "INVALID_SESSION_ID", "Session expired or invalid");
    const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header);
    if (!match) throw new ApiError(401, "INVALID_AUTH_HEADER", "INVALID_HEADER_TYPE");
    const session = oauth.session(match[1]);
    if (!session) throw new ApiError(401, "INVALID_SESSION_ID", "Session expired or invalid");
    return session;
  }

  function oauthRequest(req: IncomingMessage, parsed: URL, raw: Buffer, res: ServerResponse, logged: LoggedRequest) {
    const form = new URLSearchParams(raw.toString("utf8"));
    const path = parsed.pathname.replace(/\/$/, "");
    const bearer = () => oauth.session(/^(?:Bearer|OAuth)\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1]);
    const badToken = () => send(res, { status: 403, body: "Bad_OAuth_Token", headers: { "content-type": "text/plain" } }, logged, false);
    if (path === "/services/oauth2/token" && req.method === "POST") {
      const reply = oauth.token(form, req.headers.authorization, parsed.searchParams);
      return send(res, { status: reply.status, body: reply.body, headers: reply.headers }, logged, false);
    }
    if (path === "/setup/connect" && req.method === "GET") {
      const reply = oauth.approveDevice(parsed.searchParams.get("user_code"), parsed.searchParams.get("username"));
      return send(res, { status: reply.status, body: reply.body, headers: reply.headers }, logged, false);
    }
    if (path === "/services/oauth2/authorize" && req.method === "GET") {
      const reply = oauth.authorize(parsed.searchParams);
      return send(res, { status: reply.status, body: reply.body, headers: reply.headers }, logged, false);
    }
    if (path === "/services/oauth2/revoke" && req.method === "POST") {
      const reply = oauth.revoke(form);
      return send(res, { status: reply.status, body: reply.body === "" ? undefined : reply.body }, logged, false);
    }
    if (path === "/services/oauth2/userinfo") {
      const session = bearer();
      return session ? send(res, { status: 200, body: oauth.userinfo(session, latestVersion) }, logged, false) : badToken();
    }
    const identity = /^\/id\/([^/]+)\/([^/]+)$/.exec(path);
    if (identity) {
      const session = bearer();
      if (!session) return badToken();
      if (identity[2]!.slice(0, 15) !== session.userId.slice(0, 15)) return send(res, { status: 403, body: "Forbidden", headers: { "content-type": "text/plain" } }, logged, false);
      return send(res, { status: 200, body: oauth.identity(session) }, logged, false);
    }
    return send(res, { status: 404, body: { error: "not_found", error_description: "unknown OAuth endpoint" } }, logged, false);
  }

  let corpus: HostileCorpus | undefined;

  /** For other processes (the host tests, the CLI, benches): POST /__emulator/faults {name, value}; GET /__emulator/requests?path=&from= (with from: the reads and Bulk query statements since); POST /__emulator/corpus. */
  function control(parsed: URL, raw: Buffer, res: ServerResponse) {
    try {
      if (parsed.pathname === "/__emulator/requests") {
        // How many requests (optionally to one path) the org has seen: lets other processes check "no network".
        const only = parsed.searchParams.get("path");
        // With `from`: the reads since that request (method, path, query, authorization), for a bench to send them again bare.
        const from = parsed.searchParams.get("from");
        const since = from === null ? undefined : requests.slice(Number(from));
        const reads = since?.filter((r) => r.method === "GET").map((r) => ({ path: r.path, query: r.query, authorization: r.headers.authorization }));
        // And the statements of the Bulk query jobs created since: the exports a bench runs again bare.
        const bulkQueries = since?.filter((r) => r.method === "POST" && /\/jobs\/query\/?$/.test(r.path)).map((r) => String((JSON.parse(r.body || "{}") as { query?: unknown }).query ?? ""));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ count: requests.filter((r) => !only || r.path === only).length, total: served.total, writes: served.writes, ...(since ? { reads, bulkQueries } : {}) }));
        return;
      }
      if (parsed.pathname === "/__emulator/corpus") {
        // The hostile corpus (hostileCorpus.ts), added once: what strangers write, for tests of what agents are shown.
        corpus ??= addHostileCorpus(seeded);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(corpus));
        return;
      }
      if (parsed.pathname === "/__emulator/faults") {
        const { name, value } = JSON.parse(raw.toString("utf8") || "{}") as { name: FaultName; value: never };
        emulator.setFault(name, value);
        res.writeHead(204).end();
        return;
      }
      res.writeHead(404).end();
    } catch (err) {
      res.writeHead(400, { "content-type": "text/plain" }).end(String(err));
    }
  }

  const emulator: Emulator = {
    url,
    requests,
    seeded,
    oauth,
    apiUsage: org.apiUsage,
    credentials: { ...DEMO, loginUrl: url, jwtPrivateKeyPem: privateKey, siteId: seeded.siteId },
    setOrgKind(kind) {
      const org = seeded.store.liveRecords("Organization")[0]!;
      Object.assign(org, ORG_KIND_FIELDS[kind]);
    },
    setFault(name, value) {
      if (name === "expireTokens") {
        oauth.expireAll();
        return;
      }
      if (!(name in faults)) throw new Error(`unknown fault '${String(name)}'; known: ${Object.keys(faults).join(", ")}, expireTokens`);
      (faults as unknown as Record<string, unknown>)[name] = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  if (options.orgKind) emulator.setOrgKind(options.orgKind);
  return emulator;
}
