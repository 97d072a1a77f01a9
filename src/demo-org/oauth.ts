/** OAuth 2.0 endpoints of the emulated org (crm-rest-api.md §1). */
import { createHash, createHmac, createVerify, randomBytes } from "node:crypto";
import { DEMO } from "./seed";
import type { Seeded } from "./seed";

export interface Session {
  token: string;
  userId: string;
  clientId: string;
  issuedAt: number;
  expiresAt: number;
  refreshToken?: string;
  scope: string;
}

interface AuthCode {
  clientId: string;
  redirectUri: string;
  codeChallenge?: string;
  userId: string;
  scope: string;
  expiresAt: number;
}

export interface OAuthReply {
  status: number;
  body: Record<string, unknown> | string;
  headers?: Record<string, string>;
}

export interface ConnectedApp {
  clientId: string;
  clientSecret: string;
  /** Client-credentials flow runs as this user. */
  runAsUserId: string;
  /** Callback URLs, matched exactly (scheme, host, port and path). */
  callbackUrls: string[];
}

const oauthError = (error: string, description: string, status = 400): OAuthReply => ({ status, body: { error, error_description: description } });

function base64url(buf: Buffer): string {
  return buf.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export class OAuthServer {
  readonly sessions = new Map<string, Session>();
  private readonly refreshTokens = new Map<string, { userId: string; clientId: string; scope: string }>();
  private readonly codes = new Map<string, AuthCode>();
  readonly app: ConnectedApp;
  /** Refresh-token rotation: each refresh answers with a new refresh token and invalidates the one used. */
  rotateRefreshTokens = false;

  constructor(
    private readonly seeded: Seeded,
    private readonly baseUrl: () => string,
    readonly jwtPublicKeyPem: string,
    public tokenTtlMs: number,
  ) {
    this.app = { clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, runAsUserId: seeded.integrationUserId, callbackUrls: ["http://localhost:1717/OauthRedirect"] };
  }

  private readonly devices = new Map<string, { userCode: string; scope: string; expiresAt: number; intervalMs: number; lastPoll: number; approvedBy?: string }>();
  /** The polling interval the device flow asks for, in seconds (tests shorten it). */
  deviceIntervalSeconds = 5;

  private startDevice(clientId: string | undefined, scope: string): OAuthReply {
    if (clientId !== this.app.clientId) return oauthError("invalid_client_id", "client identifier invalid");
    const deviceCode = base64url(randomBytes(32));
    const userCode = randomBytes(4).toString("hex").toUpperCase();
    this.devices.set(deviceCode, { userCode, scope, expiresAt: Date.now() + 10 * 60_000, intervalMs: this.deviceIntervalSeconds * 1000, lastPoll: 0 });
    return { status: 200, body: { device_code: deviceCode, user_code: userCode, verification_uri: `${this.baseUrl()}/setup/connect`, interval: this.deviceIntervalSeconds } };
  }

  /** The verification page (`/setup/connect?user_code=…`): the signed-in person (the demo admin here) approves the device. */
  approveDevice(userCode: string | null, username?: string | null): OAuthReply {
    const pending = [...this.devices.values()].find((d) => d.userCode === (userCode ?? "").trim().toUpperCase());
    if (!pending) return { status: 400, body: "<!doctype html><title>Connect a device</title><p>That code is not valid or has expired.</p>", headers: { "content-type": "text/html" } };
    pending.approvedBy = ((username && this.userByName(username)) || this.seeded.store.find(this.seeded.adminId)!.rec).Id;
    return { status: 200, body: "<!doctype html><title>Device connected</title><p>You can return to your device.</p>", headers: { "content-type": "text/html" } };
  }

  /** Looks up a live session for a bearer token; undefined when unknown, revoked or expired. */
  session(token: string | undefined): Session | undefined {
    if (!token) return undefined;
    const session = this.sessions.get(token);
    if (!session) return undefined;
    if (Date.now() >= session.expiresAt) {
      this.sessions.delete(token);
      return undefined;
    }
    return session;
  }

  /** Expires every access token at once (fault injection); refresh tokens stay valid. */
  expireAll(): void {
    this.sessions.clear();
  }

  private issue(userId: string, clientId: string, scope: string, withRefresh: boolean, withSignature = true): OAuthReply {
    const token = `${this.seeded.orgId.slice(0, 15)}!${base64url(randomBytes(48))}`;
    const issuedAt = Date.now();
    const session: Session = { token, userId, clientId, issuedAt, expiresAt: issuedAt + this.tokenTtlMs, scope };
    const id = `${this.baseUrl()}/id/${this.seeded.orgId}/${userId}`;
    const body: Record<string, unknown> = { access_token: token, instance_url: this.baseUrl(), id, token_type: "Bearer", issued_at: String(issuedAt) };
    if (withSignature) body.signature = createHmac("sha256", this.app.clientSecret).update(id + String(issuedAt)).digest("base64");
    if (scope) body.scope = scope;
    if (withRefresh) {
      const refresh = `5Aep${base64url(randomBytes(40))}`;
      this.refreshTokens.set(refresh, { userId, clientId, scope });
      session.refreshToken = refresh;
      body.refresh_token = refresh;
    }
    this.sessions.set(token, session);
    return { status: 200, body };
  }

  private clientCredentials(form: URLSearchParams, authorization: string | undefined): { id?: string; secret?: string } {
    if (authorization?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(authorization.slice(6), "base64").toString("utf8").split(":");
      return { id, secret };
    }
    return { id: form.get("client_id") ?? undefined, secret: form.get("client_secret") ?? undefined };
  }

  private userByName(username: string | null) {
    if (!username) return undefined;
    return this.seeded.store.liveRecords("User").find((u) => String(u.Username).toLowerCase() === username.toLowerCase() && u.IsActive);
  }

  token(form: URLSearchParams, authorization: string | undefined, query: URLSearchParams): OAuthReply {
    for (const secret of ["password", "client_secret", "refresh_token", "assertion", "code"]) {
      if (query.has(secret)) return oauthError("invalid_request", `${secret} must be sent in the request body, not the query string`);
    }
    const grant = form.get("grant_type");
    const client = this.clientCredentials(form, authorization);
    if (form.get("response_type") === "device_code") return this.startDevice(client.id, form.get("scope") ?? "api refresh_token");
    switch (grant) {
      case "device": {
        if (client.id !== this.app.clientId) return oauthError("invalid_client_id", "client identifier invalid");
        const pending = this.devices.get(form.get("code") ?? "");
        if (!pending || Date.now() > pending.expiresAt) return oauthError("invalid_grant", "expired device code");
        const now = Date.now();
        if (now - pending.lastPoll < pending.intervalMs) {
          pending.lastPoll = now;
          return oauthError("slow_down", "polling too fast");
        }
        pending.lastPoll = now;
        if (!pending.approvedBy) return oauthError("authorization_pending", "authorization pending");
        this.devices.delete(form.get("code")!);
        return this.issue(pending.approvedBy, this.app.clientId, pending.scope, pending.scope.split(" ").includes("refresh_token"));
      }
      case "password": {
        if (client.id !== this.app.clientId) return oauthError("invalid_client_id", "client identifier invalid");
        if (client.secret !== this.app.clientSecret) return oauthError("invalid_client", "invalid client credentials");
        const user = this.userByName(form.get("username"));
        const expected = user ? this.seeded.passwords.get(String(user.Username).toLowerCase()) : undefined;
        if (!user || !expected || form.get("password") !== expected.password + expected.securityToken) return oauthError("invalid_grant", "authentication failure");
        return this.issue(user.Id, client.id, "", false);
      }
      case "refresh_token": {
        if (client.id !== this.app.clientId) return oauthError("invalid_client_id", "client identifier invalid");
        if (client.secret !== undefined && client.secret !== this.app.clientSecret) return oauthError("invalid_client", "invalid client credentials");
        const stored = this.refreshTokens.get(form.get("refresh_token") ?? "");
        if (!stored) return oauthError("invalid_grant", "expired access/refresh token");
        if (this.rotateRefreshTokens) {
          // Rotation, as an app with refresh-token rotation on: a new refresh token in every answer, the one sent is spent.
          this.refreshTokens.delete(form.get("refresh_token")!);
          return this.issue(stored.userId, stored.clientId, stored.scope, true);
        }
        const reply = this.issue(stored.userId, stored.clientId, stored.scope, false);
        const session = this.sessions.get(String((reply.body as Record<string, unknown>).access_token))!;
        session.refreshToken = form.get("refresh_token")!;
        return reply;
      }
      case "client_credentials": {
        if (client.id !== this.app.clientId) return oauthError("invalid_client_id", "client identifier invalid");
        if (client.secret !== this.app.clientSecret) return oauthError("invalid_client", "invalid client credentials");
        return this.issue(this.app.runAsUserId, client.id, "api", false);
      }
      case "authorization_code": {
        const code = this.codes.get(form.get("code") ?? "");
        if (code) this.codes.delete(form.get("code")!);
        if (!code || Date.now() > code.expiresAt) return oauthError("invalid_grant", "invalid authorization code");
        if (client.id !== code.clientId) return oauthError("invalid_client_id", "client identifier invalid");
        if (client.secret !== undefined && client.secret !== this.app.clientSecret) return oauthError("invalid_client", "invalid client credentials");
        if (form.get("redirect_uri") !== code.redirectUri) return oauthError("redirect_uri_mismatch", "redirect_uri must match configuration");
        if (code.codeChallenge) {
          const verifier = form.get("code_verifier") ?? "";
          if (base64url(createHash("sha256").update(verifier).digest()) !== code.codeChallenge) return oauthError("invalid_grant", "invalid code verifier");
        }
        return this.issue(code.userId, code.clientId, code.scope, code.scope.split(" ").some((s) => s === "refresh_token" || s === "offline_access"));
      }
      case "urn:ietf:params:oauth:grant-type:jwt-bearer":
        return this.jwt(form.get("assertion") ?? "");
      default:
        return oauthError("unsupported_grant_type", "grant type not supported");
    }
  }

  private jwt(assertion: string): OAuthReply {
    const parts = assertion.split(".");
    if (parts.length !== 3) return oauthError("invalid_grant", "invalid assertion");
    const [headerB64, claimsB64, signatureB64] = parts as [string, string, string];
    let header: { alg?: string };
    let claims: { iss?: string; sub?: string; aud?: string; exp?: number };
    try {
      header = JSON.parse(Buffer.from(headerB64, "base64url").toString("utf8"));
      claims = JSON.parse(Buffer.from(claimsB64, "base64url").toString("utf8"));
    } catch {
      return oauthError("invalid_grant", "invalid assertion");
    }
    if (header.alg !== "RS256") return oauthError("invalid_grant", "invalid assertion");
    const verifier = createVerify("RSA-SHA256").update(`${headerB64}.${claimsB64}`);
    if (!verifier.verify(this.jwtPublicKeyPem, Buffer.from(signatureB64, "base64url"))) return oauthError("invalid_grant", "invalid assertion");
    if (claims.iss !== this.app.clientId) return oauthError("invalid_client_id", "client identifier invalid");
    const audiences = ["https://login.salesforce.com", "https://test.salesforce.com", this.baseUrl()];
    if (!claims.aud || !audiences.includes(claims.aud.replace(/\/$/, ""))) return oauthError("invalid_grant", "audience is invalid");
    const now = Date.now() / 1000;
    if (typeof claims.exp !== "number" || claims.exp < now || claims.exp > now + 300) return oauthError("invalid_grant", "expired authorization code");
    const user = this.userByName(claims.sub ?? null);
    if (!user) return oauthError("invalid_grant", "user hasn't approved this consumer");
    return this.issue(user.Id, this.app.clientId, "api", false, false);
  }

  /** Auto-approving authorize page: redirects back with a code and the state (or an error). */
  authorize(query: URLSearchParams): OAuthReply {
    const redirectUri = query.get("redirect_uri") ?? "";
    // Exactly one of the app's callback URLs, as orgs match them (no loopback wildcard: the port counts).
    const allowed = this.app.callbackUrls.includes(redirectUri);
    if (query.get("client_id") !== this.app.clientId) return { status: 400, body: "error=invalid_client_id&error_description=client+identifier+invalid", headers: { "content-type": "text/plain" } };
    if (!allowed) return { status: 400, body: "error=redirect_uri_mismatch&error_description=redirect_uri+must+match+configuration", headers: { "content-type": "text/plain" } };
    const target = new URL(redirectUri);
    const state = query.get("state");
    if (query.get("response_type") !== "code") {
      target.searchParams.set("error", "unsupported_response_type");
      target.searchParams.set("error_description", "response type not supported");
    } else if (query.get("code_challenge") && query.get("code_challenge_method") !== "S256") {
      target.searchParams.set("error", "invalid_request");
      target.searchParams.set("error_description", "code_challenge_method must be S256");
    } else {
      const hint = query.get("login_hint");
      const user = (hint && this.userByName(hint)) || this.seeded.store.find(this.seeded.adminId)!.rec;
      const code = `aPrx${base64url(randomBytes(32))}==`;
      this.codes.set(code, {
        clientId: this.app.clientId, redirectUri, codeChallenge: query.get("code_challenge") ?? undefined, userId: user.Id,
        scope: query.get("scope") ?? "api refresh_token", expiresAt: Date.now() + 10 * 60_000,
      });
      target.searchParams.set("code", code);
    }
    if (state !== null) target.searchParams.set("state", state);
    const location = target.toString();
    return {
      status: 302,
      headers: { location, "content-type": "text/html;charset=UTF-8" },
      body: `<!doctype html><title>Allow access?</title><p>Demo org approves this app automatically. <a href="${location.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}">Continue</a></p>`,
    };
  }

  revoke(form: URLSearchParams): OAuthReply {
    const token = form.get("token") ?? "";
    if (this.sessions.delete(token)) return { status: 200, body: "" };
    const stored = this.refreshTokens.get(token);
    if (stored) {
      this.refreshTokens.delete(token);
      for (const [key, session] of this.sessions) if (session.refreshToken === token) this.sessions.delete(key);
      return { status: 200, body: "" };
    }
    return oauthError("invalid_token", "invalid token");
  }

  userinfo(session: Session, version: string): Record<string, unknown> {
    const user = this.seeded.store.find(session.userId)!.rec;
    const base = this.baseUrl();
    const sub = `${base}/id/${this.seeded.orgId}/${user.Id}`;
    const urls = Object.fromEntries(
      Object.entries({
        enterprise: `/services/Soap/c/{version}/${this.seeded.orgId.slice(0, 15)}`, metadata: `/services/Soap/m/{version}/${this.seeded.orgId.slice(0, 15)}`,
        rest: "/services/data/v{version}/", sobjects: "/services/data/v{version}/sobjects/", search: "/services/data/v{version}/search/",
        query: "/services/data/v{version}/query/", recent: "/services/data/v{version}/recent/", tooling_rest: "/services/data/v{version}/tooling/",
        profile: `/${user.Id}`, feeds: "/services/data/v{version}/chatter/feeds", groups: "/services/data/v{version}/chatter/groups",
        users: "/services/data/v{version}/chatter/users", feed_items: "/services/data/v{version}/chatter/feed-items",
        feed_elements: "/services/data/v{version}/chatter/feed-elements",
      }).map(([k, v]) => [k, base + v]),
    );
    return {
      sub, user_id: user.Id, organization_id: this.seeded.orgId, preferred_username: user.Username, nickname: user.CommunityNickname,
      name: user.Name, given_name: user.FirstName, family_name: user.LastName, email: user.Email, email_verified: true,
      zoneinfo: user.TimeZoneSidKey, photos: { picture: `${base}/profilephoto/005/F`, thumbnail: `${base}/profilephoto/005/T` },
      profile: `${base}/${user.Id}`, picture: `${base}/profilephoto/005/F`, address: {},
      is_salesforce_integration_user: user.Id === this.seeded.integrationUserId, urls: { ...urls, custom_domain: base },
      active: true, user_type: "STANDARD", language: user.LanguageLocaleKey, locale: user.LocaleSidKey, utcOffset: 0,
      updated_at: String(user.LastModifiedDate).replace(/\.\d{3}\+0000$/, "Z"), is_app_installed: true, version,
    };
  }

  /** The older identity URL (`GET {id}`): similar facts under other names. */
  identity(session: Session): Record<string, unknown> {
    const info = this.userinfo(session, "62.0");
    const user = this.seeded.store.find(session.userId)!.rec;
    return {
      id: info.sub, asserted_user: true, user_id: user.Id, organization_id: this.seeded.orgId, username: user.Username,
      nick_name: user.CommunityNickname, display_name: user.Name, email: user.Email, email_verified: true, first_name: user.FirstName,
      last_name: user.LastName, timezone: user.TimeZoneSidKey, photos: info.photos, active: true, user_type: "STANDARD",
      language: user.LanguageLocaleKey, locale: user.LocaleSidKey, utcOffset: 0, last_modified_date: user.LastModifiedDate, urls: info.urls,
    };
  }
}
