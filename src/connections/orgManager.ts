/** Every org's session, created on first use; adding (with verification), signing out and removing orgs. */
import type { ApiUsage, AuthSession, HelperConnection } from "../client";
import { APIRequestError, CrmError } from "../client/errors";
import { Emitter, type Disposable } from "../shared/events";
import { OrgRegistry, type OrgRecord, type SignInMethod } from "./orgRegistry";
import type { ClientSettings, OrgSession, OrgWrite, SessionDeps } from "./orgSession";
import { secretsOf } from "./secrets";

/** The client (axios, js-yaml) loads on first use, not at activation. */
const sessionModule = () => import("./orgSession");

/** The org has no stored credentials: it was signed out (or its secrets were lost). */
export class NotSignedInError extends CrmError {
  override name = "NotSignedInError";
  constructor(readonly org: OrgRecord) {
    super(`${org.alias} is signed out. Sign in again to use it.`);
  }
}

export interface NewOrg {
  method: SignInMethod;
  alias?: string;
  loginUrl?: string;
  connection: HelperConnection;
}

export interface VerifiedOrg {
  username: string;
  orgId: string;
  userId: string;
  instanceUrl: string;
  apiVersion: string;
  apiUsage?: ApiUsage;
}

/** Signs in with a connection and reads who and where: an org is saved only after this succeeds. */
export async function verifyConnection(connection: HelperConnection, settings: ClientSettings): Promise<VerifiedOrg> {
  const crm = (await sessionModule()).buildClient(connection, settings);
  try {
    const session = await crm.connect();
    const info = crm.currentUserInfo ?? {};
    // A data API call proves the user can use the API, and its Sforce-Limit-Info gives the usage figure.
    // Users without "View Setup and Configuration" get 403 here, which still carries the header.
    await crm.getOrgLimits().catch((err: unknown) => {
      if (!(err instanceof APIRequestError) || err.status !== 403) throw err;
    });
    return {
      username: String(info.preferred_username ?? connection.username ?? ""),
      orgId: session.orgId || String(info.organization_id ?? ""),
      userId: session.userId || String(info.user_id ?? ""),
      instanceUrl: session.instanceUrl,
      apiVersion: crm.version!,
      apiUsage: crm.apiUsage,
    };
  } finally {
    crm.close();
  }
}

export class OrgManager implements Disposable {
  private readonly sessions = new Map<string, OrgSession>();
  private readonly opening = new Map<string, Promise<OrgSession>>();
  private readonly usageChanged = new Emitter<string>();
  /** Fires the org key whose API usage changed. */
  readonly onDidChangeApiUsage = this.usageChanged.event;
  private readonly writes = new Emitter<OrgWrite & { orgKey: string }>();
  /** Every write an org accepted, with the org it went to: panels and views that show the data follow it. */
  readonly onDidWrite = this.writes.event;
  /** Latest Sforce-Limit-Info reading per org, from its session or from its sign-in check. */
  private readonly usage = new Map<string, ApiUsage>();

  constructor(readonly registry: OrgRegistry, private readonly deps: Omit<SessionDeps, "onTokenRefreshed">) {}

  /** The org's session, signing in on first use (no network until a feature asks). */
  session(key: string): Promise<OrgSession> {
    const existing = this.sessions.get(key);
    if (existing) return Promise.resolve(existing);
    let pending = this.opening.get(key);
    if (!pending) {
      pending = (async () => {
        const record = this.registry.get(key);
        if (!record) throw new CrmError("That org was removed");
        const connection = await this.registry.readConnection(key);
        if (!connection || !record.signedIn) throw new NotSignedInError(record);
        const { OrgSession } = await sessionModule();
        const session = new OrgSession(record, connection, { ...this.deps, onTokenRefreshed: (k, s) => void this.storeRefreshedToken(k, s) });
        session.onDidChangeApiUsage((u) => this.noteUsage(key, u));
        session.onDidWrite((write) => this.writes.fire({ ...write, orgKey: key }));
        this.sessions.set(key, session);
        return session;
      })().finally(() => this.opening.delete(key));
      this.opening.set(key, pending);
    }
    return pending;
  }

  apiUsage(key: string): ApiUsage | undefined {
    return this.usage.get(key);
  }

  private noteUsage(key: string, usage: ApiUsage | undefined): void {
    if (!usage) return;
    this.usage.set(key, usage);
    this.usageChanged.fire(key);
  }

  /** Drops the cached describes of every org, in memory and on disk. */
  async clearCaches(): Promise<void> {
    for (const session of this.sessions.values()) session.clearCaches();
    await this.deps.describeStore?.clear();
  }

  async activeSession(): Promise<OrgSession | undefined> {
    const key = this.registry.activeKey;
    return key ? this.session(key) : undefined;
  }

  /** Verifies the connection, then saves the org (metadata and secrets). What was typed is the caller's to keep. */
  async add(org: NewOrg): Promise<OrgRecord> {
    this.deps.remember(...secretsOf(org.connection));
    const verified = await verifyConnection(org.connection, this.deps.settings());
    const alias = org.alias?.trim() || verified.username || new URL(verified.instanceUrl).hostname.split(".")[0]!;
    const record = await this.registry.add(
      { alias, method: org.method, username: verified.username, loginUrl: org.loginUrl ?? org.connection.endpoint_url, instanceUrl: verified.instanceUrl, orgId: verified.orgId, userId: verified.userId, clientId: org.connection.client_id, apiVersion: verified.apiVersion },
      org.connection,
    );
    this.noteUsage(record.key, verified.apiUsage);
    return record;
  }

  /** New credentials for an existing entry (after Sign Out or an expired refresh token). */
  async signInAgain(key: string, connection: HelperConnection): Promise<OrgRecord> {
    this.deps.remember(...secretsOf(connection));
    const verified = await verifyConnection(connection, this.deps.settings());
    this.closeSession(key);
    await this.registry.writeConnection(key, connection);
    this.noteUsage(key, verified.apiUsage);
    return this.registry.update(key, { username: verified.username, instanceUrl: verified.instanceUrl, orgId: verified.orgId, userId: verified.userId, apiVersion: verified.apiVersion, signedIn: true });
  }

  /** Revokes the token at the org (best effort: the org may be unreachable) and deletes the secrets. */
  async signOut(key: string): Promise<{ revoked: boolean; reason?: string }> {
    let outcome: { revoked: boolean; reason?: string };
    try {
      const session = await this.session(key);
      if (!session.crm.isConnected) await session.crm.connect();
      await session.crm.revoke();
      outcome = { revoked: true };
    } catch (err) {
      outcome = { revoked: false, reason: (err as Error).message };
    }
    this.closeSession(key);
    await this.registry.signOut(key);
    return outcome;
  }

  async remove(key: string): Promise<void> {
    this.closeSession(key);
    await this.registry.remove(key);
    await this.deps.describeStore?.clear(key);
  }

  private closeSession(key: string): void {
    this.sessions.get(key)?.dispose();
    this.sessions.delete(key);
  }

  /**
   * A renewed access token and a rotated refresh token are written back, so the next window starts with
   * them: with rotation on, the refresh token stored at sign-in is spent after the first refresh.
   */
  private async storeRefreshedToken(key: string, session: AuthSession): Promise<void> {
    const connection = await this.registry.readConnection(key);
    if (!connection || (!connection.access_token && !connection.refresh_token)) return;
    const updated = { ...connection };
    if (connection.access_token) updated.access_token = session.accessToken;
    if (connection.refresh_token && session.refreshToken) updated.refresh_token = session.refreshToken;
    await this.registry.writeConnection(key, updated);
  }

  dispose(): void {
    for (const key of [...this.sessions.keys()]) this.closeSession(key);
    this.usageChanged.dispose();
    this.writes.dispose();
  }
}
