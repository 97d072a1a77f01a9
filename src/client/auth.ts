/**
 * Sign-in strategies behind one interface. Credentials always travel in the form body of the token
 * request (never in the query string); the token response is kept with its org and user IDs.
 */
import { createHash, createSign, randomBytes } from "node:crypto";
import { delay } from "./delay";
import { AuthenticationError, MissingRequiredDataError } from "./errors";
import { checkOrgUrl, tokenEndpoint } from "./urls";

/** An authenticated session: what the client needs to call the org. */
export interface AuthSession {
  accessToken: string;
  instanceUrl: string;
  /** 18-character org and user IDs from the identity URL (`id` of the token response). */
  orgId: string;
  userId: string;
  identityUrl: string;
  /** When the token was issued, in epoch ms. */
  issuedAt: number;
  tokenType: string;
  refreshToken?: string;
  scope?: string;
}

/**
 * Posts a form to a token endpoint; the transport provides it. A body that is not JSON comes back as
 * `{ unreadable: "an HTML page" | "a body that is not JSON" }`, never as its text.
 */
export type TokenPoster = (url: string, form: Record<string, string>, basicAuth?: string) => Promise<{ status: number; body: unknown }>;

export interface AuthStrategy {
  readonly kind: "password" | "refreshToken" | "clientCredentials" | "jwtBearer" | "accessToken";
  /** The login host (for revocation and display). */
  readonly loginUrl?: string;
  authenticate(post: TokenPoster): Promise<AuthSession>;
  /** Gets a fresh token after a 401; absent when the strategy cannot (a bare access token). */
  reauthenticate?(post: TokenPoster, previous: AuthSession): Promise<AuthSession>;
}

function required(value: unknown, name: string, strategy: string): string {
  if (typeof value !== "string" || value === "") {
    throw new MissingRequiredDataError(`${strategy} sign-in needs '${name}' (a non-empty string)`, name);
  }
  return value;
}

function idsFromIdentityUrl(identityUrl: string): { orgId: string; userId: string } {
  const parts = identityUrl.split("/").filter(Boolean);
  return { orgId: parts[parts.length - 2] ?? "", userId: parts[parts.length - 1] ?? "" };
}

/** Turns a token endpoint answer into a session, or raises the endpoint's own error words. */
export function sessionFromTokenResponse(status: number, body: unknown, loginUrl: string): AuthSession {
  const data = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (status !== 200 || typeof data.access_token !== "string") {
    const error = typeof data.error === "string" ? data.error : `http_${status}`;
    // Only the endpoint's own error words are quoted: any other body may be a token response cut short.
    const description = typeof data.error_description === "string" ? data.error_description
      : typeof data.unreadable === "string" ? `the token endpoint answered HTTP ${status} with ${data.unreadable}`
        : status === 200 ? "the token endpoint's answer held no access token" : "no error description";
    throw new AuthenticationError(`Sign-in at ${new URL(loginUrl).origin} failed: ${description} (${error})`, status, error, description);
  }
  const instanceUrl = checkOrgUrl(data.instance_url, "instance_url of the token response");
  const identityUrl = typeof data.id === "string" ? data.id : "";
  const issuedAt = Number(data.issued_at);
  return {
    accessToken: data.access_token,
    instanceUrl,
    identityUrl,
    ...idsFromIdentityUrl(identityUrl),
    issuedAt: Number.isFinite(issuedAt) && issuedAt > 0 ? issuedAt : Date.now(),
    tokenType: typeof data.token_type === "string" ? data.token_type : "Bearer",
    refreshToken: typeof data.refresh_token === "string" ? data.refresh_token : undefined,
    scope: typeof data.scope === "string" ? data.scope : undefined,
  };
}

async function grant(post: TokenPoster, loginUrl: string, form: Record<string, string>, basicAuth?: string): Promise<AuthSession> {
  const { status, body } = await post(tokenEndpoint(loginUrl), form, basicAuth);
  return sessionFromTokenResponse(status, body, loginUrl);
}

export interface PasswordCredentials {
  loginUrl: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** Appended to the password unless the caller's IP is trusted; an absent token appends nothing. */
  securityToken?: string;
}

/** OAuth username-password flow (the original library's only flow). */
export class PasswordAuth implements AuthStrategy {
  readonly kind = "password";
  readonly loginUrl: string;
  readonly #credentials: PasswordCredentials;
  constructor(credentials: PasswordCredentials) {
    this.#credentials = credentials;
    for (const key of ["loginUrl", "clientId", "clientSecret", "username", "password"] as const) required(credentials[key], key, "Username-password");
    this.loginUrl = checkOrgUrl(credentials.loginUrl, "loginUrl");
  }
  authenticate(post: TokenPoster): Promise<AuthSession> {
    const c = this.#credentials;
    return grant(post, c.loginUrl, {
      grant_type: "password", client_id: c.clientId, client_secret: c.clientSecret, username: c.username,
      password: c.password + (c.securityToken ?? ""),
    });
  }
  reauthenticate(post: TokenPoster): Promise<AuthSession> {
    return this.authenticate(post);
  }
}

export interface RefreshTokenCredentials {
  loginUrl: string;
  clientId: string;
  clientSecret?: string;
  refreshToken: string;
}

/**
 * The refresh-token grant, with rotation: an org that rotates refresh tokens answers with a new one and
 * invalidates the one sent, so the grant always sends the newest it knows and remembers the one it gets.
 */
class RotatingRefreshGrant {
  readonly #app: Omit<RefreshTokenCredentials, "refreshToken">;
  #refreshToken: string;
  constructor(app: Omit<RefreshTokenCredentials, "refreshToken">, refreshToken: string) {
    this.#app = app;
    this.#refreshToken = refreshToken;
  }
  async run(post: TokenPoster): Promise<AuthSession> {
    const c = this.#app;
    const form: Record<string, string> = { grant_type: "refresh_token", client_id: c.clientId, refresh_token: this.#refreshToken };
    if (c.clientSecret) form.client_secret = c.clientSecret;
    const session = await grant(post, c.loginUrl, form);
    if (session.refreshToken) this.#refreshToken = session.refreshToken;
    return { ...session, refreshToken: this.#refreshToken };
  }
}

/** Refresh-token flow: what a browser sign-in leaves behind. Rotated refresh tokens are followed. */
export class RefreshTokenAuth implements AuthStrategy {
  readonly kind = "refreshToken";
  readonly loginUrl: string;
  readonly #grant: RotatingRefreshGrant;
  constructor(credentials: RefreshTokenCredentials) {
    for (const key of ["loginUrl", "clientId", "refreshToken"] as const) required(credentials[key], key, "Refresh-token");
    this.loginUrl = checkOrgUrl(credentials.loginUrl, "loginUrl");
    this.#grant = new RotatingRefreshGrant({ loginUrl: credentials.loginUrl, clientId: credentials.clientId, clientSecret: credentials.clientSecret }, credentials.refreshToken);
  }
  authenticate(post: TokenPoster): Promise<AuthSession> {
    return this.#grant.run(post);
  }
  reauthenticate(post: TokenPoster): Promise<AuthSession> {
    return this.#grant.run(post);
  }
}

export interface ClientCredentials {
  /** The org's My Domain URL: login.salesforce.com refuses this flow. */
  loginUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Client-credentials flow: runs as the connected app's integration user. */
export class ClientCredentialsAuth implements AuthStrategy {
  readonly kind = "clientCredentials";
  readonly loginUrl: string;
  readonly #credentials: ClientCredentials;
  constructor(credentials: ClientCredentials) {
    this.#credentials = credentials;
    for (const key of ["loginUrl", "clientId", "clientSecret"] as const) required(credentials[key], key, "Client-credentials");
    this.loginUrl = checkOrgUrl(credentials.loginUrl, "loginUrl");
  }
  authenticate(post: TokenPoster): Promise<AuthSession> {
    const c = this.#credentials;
    return grant(post, c.loginUrl, { grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret });
  }
  reauthenticate(post: TokenPoster): Promise<AuthSession> {
    return this.authenticate(post);
  }
}

export interface JwtBearerCredentials {
  loginUrl: string;
  clientId: string;
  username: string;
  /** PEM-encoded RSA private key matching the certificate uploaded to the connected app. */
  privateKey: string;
  /** `aud` claim; by default login.salesforce.com, test.salesforce.com for sandboxes, else the login URL. */
  audience?: string;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

export function defaultJwtAudience(loginUrl: string): string {
  const host = new URL(loginUrl).hostname;
  if (host === "test.salesforce.com" || host.includes(".sandbox.my.salesforce.com")) return "https://test.salesforce.com";
  if (host === "login.salesforce.com" || host.endsWith(".my.salesforce.com")) return "https://login.salesforce.com";
  return new URL(loginUrl).origin;
}

/** JWT bearer flow: an RS256 assertion signed with node:crypto, valid for three minutes. */
export class JwtBearerAuth implements AuthStrategy {
  readonly kind = "jwtBearer";
  readonly loginUrl: string;
  readonly #credentials: JwtBearerCredentials;
  constructor(credentials: JwtBearerCredentials) {
    this.#credentials = credentials;
    for (const key of ["loginUrl", "clientId", "username", "privateKey"] as const) required(credentials[key], key, "JWT bearer");
    if (!credentials.privateKey.includes("PRIVATE KEY")) {
      throw new TypeError("privateKey must be a PEM-encoded private key (-----BEGIN PRIVATE KEY----- …), not a file path");
    }
    this.loginUrl = checkOrgUrl(credentials.loginUrl, "loginUrl");
  }
  assertion(nowMs = Date.now()): string {
    const c = this.#credentials;
    const header = base64url(JSON.stringify({ alg: "RS256" }));
    const claims = base64url(JSON.stringify({ iss: c.clientId, sub: c.username, aud: c.audience ?? defaultJwtAudience(c.loginUrl), exp: Math.floor(nowMs / 1000) + 180 }));
    const signature = createSign("RSA-SHA256").update(`${header}.${claims}`).sign(c.privateKey);
    return `${header}.${claims}.${base64url(signature)}`;
  }
  authenticate(post: TokenPoster): Promise<AuthSession> {
    return grant(post, this.#credentials.loginUrl, { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: this.assertion() });
  }
  reauthenticate(post: TokenPoster): Promise<AuthSession> {
    return this.authenticate(post);
  }
}

export interface AccessTokenCredentials {
  accessToken: string;
  instanceUrl: string;
  /** With these three, an expired token is refreshed; without them a 401 is final. */
  refreshToken?: string;
  clientId?: string;
  clientSecret?: string;
  loginUrl?: string;
}

/** A ready access token (for example from the Salesforce CLI or a browser sign-in). */
export class AccessTokenAuth implements AuthStrategy {
  readonly kind = "accessToken";
  readonly loginUrl?: string;
  readonly reauthenticate?: (post: TokenPoster) => Promise<AuthSession>;
  readonly #credentials: AccessTokenCredentials;
  constructor(credentials: AccessTokenCredentials) {
    this.#credentials = credentials;
    required(credentials.accessToken, "accessToken", "Access-token");
    checkOrgUrl(credentials.instanceUrl, "instanceUrl");
    this.loginUrl = credentials.loginUrl ? checkOrgUrl(credentials.loginUrl, "loginUrl") : undefined;
    const { refreshToken, clientId, clientSecret } = credentials;
    if (refreshToken && clientId) {
      const loginUrl = this.loginUrl ?? checkOrgUrl(credentials.instanceUrl, "instanceUrl");
      const refresh = new RotatingRefreshGrant({ loginUrl, clientId, clientSecret }, refreshToken);
      this.reauthenticate = (post) => refresh.run(post);
    }
  }
  async authenticate(): Promise<AuthSession> {
    const c = this.#credentials;
    return {
      accessToken: c.accessToken, instanceUrl: checkOrgUrl(c.instanceUrl, "instanceUrl"), identityUrl: "", orgId: "", userId: "",
      issuedAt: Date.now(), tokenType: "Bearer", refreshToken: c.refreshToken,
    };
  }
}

/** A session kept from an earlier sign-in (a new window reuses its token instead of signing in again). */
export interface KeptSession {
  accessToken: string;
  instanceUrl: string;
  orgId?: string;
  userId?: string;
}

/**
 * A kept session first, the credentials after: no sign-in until the org answers 401, as the Salesforce CLI does
 * with its stored tokens; then the credentials sign in again (or renew the token) and the client uses that.
 */
export class KeptSessionAuth implements AuthStrategy {
  readonly kind: AuthStrategy["kind"];
  readonly loginUrl?: string;
  readonly #kept: KeptSession;
  readonly #credentials: AuthStrategy;
  /** The credentials behind the kept session (a fresh sign-in uses them). */
  get credentials(): AuthStrategy {
    return this.#credentials;
  }
  constructor(credentials: AuthStrategy, kept: KeptSession) {
    required(kept?.accessToken, "session.accessToken", "A kept session");
    checkOrgUrl(kept.instanceUrl, "session.instanceUrl");
    this.kind = credentials.kind;
    this.loginUrl = credentials.loginUrl;
    this.#credentials = credentials;
    this.#kept = kept;
  }
  async authenticate(): Promise<AuthSession> {
    const k = this.#kept;
    return { accessToken: k.accessToken, instanceUrl: checkOrgUrl(k.instanceUrl, "session.instanceUrl"), identityUrl: "", orgId: k.orgId ?? "", userId: k.userId ?? "", issuedAt: Date.now(), tokenType: "Bearer" };
  }
  reauthenticate(post: TokenPoster, previous: AuthSession): Promise<AuthSession> {
    return this.#credentials.reauthenticate ? this.#credentials.reauthenticate(post, previous) : this.#credentials.authenticate(post);
  }
}

// ---- browser sign-in (authorization code + PKCE) -------------------------------------------

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: "S256";
}

/** A PKCE verifier (43 url-safe characters from 32 random bytes) and its S256 challenge. */
export function createPkcePair(): PkcePair {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash("sha256").update(verifier).digest()), method: "S256" };
}

/** An unguessable `state` value to tie the redirect to this sign-in. */
export function createOAuthState(): string {
  return base64url(randomBytes(24));
}

export interface AuthorizationUrlOptions {
  loginUrl: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  scope?: string;
  prompt?: "login" | "consent" | "select_account";
  loginHint?: string;
}

export function buildAuthorizationUrl(o: AuthorizationUrlOptions): string {
  const origin = checkOrgUrl(o.loginUrl, "loginUrl");
  for (const key of ["clientId", "redirectUri", "codeChallenge", "state"] as const) required(o[key], key, "Browser");
  const url = new URL(`${origin}/services/oauth2/authorize`);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", o.clientId);
  url.searchParams.set("redirect_uri", o.redirectUri);
  url.searchParams.set("scope", o.scope ?? "api refresh_token");
  url.searchParams.set("state", o.state);
  url.searchParams.set("code_challenge", o.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  if (o.prompt) url.searchParams.set("prompt", o.prompt);
  if (o.loginHint) url.searchParams.set("login_hint", o.loginHint);
  return url.toString();
}

export interface CodeExchange {
  loginUrl: string;
  clientId: string;
  clientSecret?: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

/** Exchanges the code of the redirect for tokens (with a refresh token when the scope allows). */
export function exchangeAuthorizationCode(post: TokenPoster, c: CodeExchange): Promise<AuthSession> {
  for (const key of ["loginUrl", "clientId", "code", "redirectUri", "codeVerifier"] as const) required(c[key], key, "Browser");
  const form: Record<string, string> = { grant_type: "authorization_code", code: c.code, client_id: c.clientId, redirect_uri: c.redirectUri, code_verifier: c.codeVerifier };
  if (c.clientSecret) form.client_secret = c.clientSecret;
  return grant(post, c.loginUrl, form);
}

// ---- device sign-in (OAuth 2.0 device flow) ------------------------------------------------

export interface DeviceCode {
  /** What the client polls with; never shown. */
  deviceCode: string;
  /** What the person types at `verificationUri` (on any device with a browser). */
  userCode: string;
  verificationUri: string;
  /** How long to wait between polls. */
  intervalMs: number;
}

/**
 * Starts a device sign-in: the org answers with a code for the person to enter at its verification page,
 * from any browser. Needs no redirect back to this machine, so it works from remote windows.
 */
export async function requestDeviceCode(post: TokenPoster, o: { loginUrl: string; clientId: string; scope?: string }): Promise<DeviceCode> {
  for (const key of ["loginUrl", "clientId"] as const) required(o[key], key, "Device");
  const { status, body } = await post(tokenEndpoint(o.loginUrl), { response_type: "device_code", client_id: o.clientId, scope: o.scope ?? "api refresh_token" });
  const data = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  if (status !== 200 || typeof data.device_code !== "string" || typeof data.user_code !== "string" || typeof data.verification_uri !== "string") {
    const error = typeof data.error === "string" ? data.error : `http_${status}`;
    const description = typeof data.error_description === "string" ? data.error_description : "the org did not start a device sign-in (is the device flow enabled for the app?)";
    throw new AuthenticationError(`Device sign-in at ${new URL(o.loginUrl).origin} failed: ${description} (${error})`, status, error, description);
  }
  const interval = Number(data.interval);
  return { deviceCode: data.device_code, userCode: data.user_code, verificationUri: data.verification_uri, intervalMs: (Number.isFinite(interval) && interval > 0 ? interval : 5) * 1000 };
}

/**
 * Polls until the person approves the device sign-in, then resolves with the session. Waits the org's
 * interval between polls (longer after `slow_down`); stops on any other refusal, on `signal`, or after
 * `timeoutMs` (default 10 minutes).
 */
export async function pollDeviceToken(post: TokenPoster, o: { loginUrl: string; clientId: string; device: DeviceCode; signal?: AbortSignal; timeoutMs?: number }): Promise<AuthSession> {
  const deadline = Date.now() + (o.timeoutMs ?? 600_000);
  let interval = o.device.intervalMs;
  for (;;) {
    await delay(interval, o.signal, "The device sign-in was cancelled");
    const { status, body } = await post(tokenEndpoint(o.loginUrl), { grant_type: "device", client_id: o.clientId, code: o.device.deviceCode });
    const error = body && typeof body === "object" ? (body as Record<string, unknown>).error : undefined;
    if (error === "authorization_pending" || error === "slow_down") {
      if (error === "slow_down") interval += 5000;
      if (Date.now() > deadline) throw new AuthenticationError("The device sign-in was not approved in time; start it again", status, "expired_token", "not approved in time");
      continue;
    }
    return sessionFromTokenResponse(status, body, o.loginUrl);
  }
}
