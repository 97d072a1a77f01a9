/** Every org's session, created on first use; adding (with verification), signing out and removing orgs. */
import * as l10n from "@vscode/l10n";
import type { ApiUsage, AuthSession, Crm, HelperConnection, KeptSession, OrgKind, PendingWrite } from "../client";
import { APIRequestError, AuthenticationError, CancelledError, CrmError } from "../client/errors";
import { Emitter, type Disposable } from "../shared/events";
import { OrgRegistry, type OrgRecord, type SignInMethod } from "./orgRegistry";
import type { OrgChange } from "./changes";
import type { OrgSession, SessionDeps } from "./orgSession";
import type { ClientSettings } from "../platform/settings";
import type { SchemaChange } from "./schema";
import { secretsOf } from "./secrets";
import { describeWrite, guardsWrites } from "./writeGuard";
import { NotSignedInError } from "../platform/errorMessages";

/** The client (axios, js-yaml) loads on first use, not at activation. */
const sessionModule = () => import("./orgSession");


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
  /** Undefined when the Organization record could not be read (then writes are guarded as for production). */
  kind?: OrgKind;
  /** The verifying sign-in's session, kept so that the org's first use signs in no second time. */
  session: KeptSession;
}

/**
 * One data API call: proves the user can use the API, and its Sforce-Limit-Info gives the usage figure.
 * Users without "View Setup and Configuration" get 403 here, which still carries the header.
 */
async function proveApiAccess(crm: Crm): Promise<void> {
  await crm.getOrgLimits().catch((err: unknown) => {
    if (!(err instanceof APIRequestError) || err.status !== 403) throw err;
  });
}

/** Why an org refused a sign-in or a session, in the words to show: the OAuth description and code when there are some. */
const refusalWords = (err: unknown): string => (err instanceof AuthenticationError ? `${err.errorDescription} (${err.error})` : (err as Error).message);

/** Signs in with a connection and reads who and where: an org is saved only after this succeeds. */
export async function verifyConnection(connection: HelperConnection, settings: ClientSettings): Promise<VerifiedOrg> {
  const crm = (await sessionModule()).buildClient(connection, settings);
  try {
    const session = await crm.connect();
    const info = crm.currentUserInfo ?? {};
    await proveApiAccess(crm);
    const kind = await crm.getOrgKind().catch(() => undefined);
    return {
      kind,
      username: String(info.preferred_username ?? connection.username ?? ""),
      orgId: session.orgId || String(info.organization_id ?? ""),
      userId: session.userId || String(info.user_id ?? ""),
      instanceUrl: session.instanceUrl,
      apiVersion: crm.version!,
      apiUsage: crm.apiUsage,
      session,
    };
  } finally {
    crm.close();
  }
}

export interface ManagerDeps {
  /**
   * Asks the person to confirm a write to a guarded (production) org, naming the org and the change;
   * resolves true to send it. Without it, such writes are refused.
   */
  confirmWrite?(org: OrgRecord, change: string): Promise<boolean>;
  /**
   * Starts the built-in demo org (if it is not running) at this address when it can, and resolves to where it
   * runs. Without it, a built-in demo org is signed in to like any other.
   */
  startDemo?(preferredUrl: string): Promise<string>;
}

/** "Last used" is written at most this often per org (it is a hint, not a log). */
const LAST_USED_EVERY_MS = 10 * 60_000;

export class OrgManager implements Disposable {
  private readonly sessions = new Map<string, OrgSession>();
  private readonly opening = new Map<string, Promise<OrgSession>>();
  private readonly usageChanged = new Emitter<string>();
  /** Fires the org key whose API usage changed. */
  readonly onDidChangeApiUsage = this.usageChanged.event;
  private readonly changes = new Emitter<OrgChange & { orgKey: string }>();
  /** What every write an org accepted changed, with the org it went to: the views, panels and documents showing that data follow it. */
  readonly onDidChange = this.changes.event;
  private readonly schemaChanged = new Emitter<SchemaChange & { orgKey: string }>();
  /** An org's schema changed (revalidated, or cleared): completion, diagnostics and the Objects view follow it. */
  readonly onDidChangeSchema = this.schemaChanged.event;
  /** Latest Sforce-Limit-Info reading per org, from its session or from its sign-in check. */
  private readonly usage = new Map<string, ApiUsage>();

  private readonly sessionLost = new Emitter<{ org: OrgRecord; reason: string }>();
  /** An org was signed out because it refused its session for good: the person is asked to sign in again. */
  readonly onDidLoseSession = this.sessionLost.event;

  constructor(readonly registry: OrgRegistry, private readonly deps: Omit<SessionDeps, "onTokenRefreshed" | "onSessionRejected" | "beforeWrite" | "onUsed"> & ManagerDeps) {}

  /** The org's session, signing in on first use (no network until a feature asks). */
  session(key: string): Promise<OrgSession> {
    const existing = this.sessions.get(key);
    if (existing) return Promise.resolve(existing);
    let pending = this.opening.get(key);
    if (!pending) {
      pending = (async () => {
        let record = this.registry.get(key);
        if (!record) throw new CrmError(l10n.t("That org was removed"));
        // The credentials and the last sign-in's session are read together: each is a trip to the secret store.
        const [stored, kept] = await Promise.all([this.registry.readConnection(key), this.registry.readSession(key)]);
        let connection = stored;
        if (!connection || !record.signedIn) throw new NotSignedInError(record);
        if (record.builtInDemo && this.deps.startDemo) ({ record, connection } = await this.startDemo(record, connection));
        const { OrgSession } = await sessionModule();
        const session = new OrgSession(record, connection, {
          ...this.deps,
          onTokenRefreshed: (k, s) => void this.storeRefreshedToken(k, s),
          onSessionRejected: (k, err) => void this.loseSession(k, err),
          beforeWrite: (k, write) => this.guardWrite(k, write),
          onUsed: (k) => void this.noteUsed(k),
        }, kept?.instanceUrl === record.instanceUrl ? kept : undefined); // a moved demo org signs in anew
        session.onDidChangeApiUsage((u) => this.noteUsage(key, u));
        session.onDidChange((change) => this.changes.fire({ ...change, orgKey: key }));
        session.schema.onDidChange((change) => this.schemaChanged.fire({ ...change, orgKey: key }));
        this.sessions.set(key, session);
        return session;
      })().finally(() => this.opening.delete(key));
      this.opening.set(key, pending);
    }
    return pending;
  }

  /** Starts the built-in demo org for a session; when its old address is taken, the org moves to the new one. */
  private async startDemo(record: OrgRecord, connection: HelperConnection): Promise<{ record: OrgRecord; connection: HelperConnection }> {
    const url = await this.deps.startDemo!(record.instanceUrl);
    if (url === record.instanceUrl) return { record, connection };
    const moved = { ...connection, endpoint_url: url };
    await this.registry.writeConnection(record.key, moved);
    return { record: await this.registry.update(record.key, { instanceUrl: url, loginUrl: url }), connection: moved };
  }

  /**
   * The session of the org a document names by alias: documents and panels are pinned to their org, so
   * this never falls back to the active org (a renamed or removed org is an error, not a redirect).
   */
  sessionByAlias(alias: string): Promise<OrgSession> {
    const org = this.registry.list().find((o) => o.alias === alias);
    if (!org) return Promise.reject(new CrmError(l10n.t("No org is called '{0}' any more (renamed or removed). Reopen the document from the CRM view.", alias)));
    return this.session(org.key);
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
      { alias, method: org.method, username: verified.username, loginUrl: org.loginUrl ?? org.connection.endpoint_url, instanceUrl: verified.instanceUrl, orgId: verified.orgId, userId: verified.userId, clientId: org.connection.client_id, apiVersion: verified.apiVersion, kind: verified.kind, lastUsedAt: new Date().toISOString() },
      org.connection,
    );
    this.noteUsage(record.key, verified.apiUsage);
    // The verifying sign-in's session is the org's first: its first use signs in no second time.
    await this.registry.writeSession(record.key, verified.session);
    return record;
  }

  /** New credentials for an existing entry (after Sign Out or an expired refresh token). */
  async signInAgain(key: string, connection: HelperConnection): Promise<OrgRecord> {
    this.deps.remember(...secretsOf(connection));
    const verified = await verifyConnection(connection, this.deps.settings());
    this.closeSession(key);
    await this.registry.writeConnection(key, connection);
    await this.registry.writeSession(key, verified.session);
    this.noteUsage(key, verified.apiUsage);
    return this.registry.update(key, { username: verified.username, instanceUrl: verified.instanceUrl, orgId: verified.orgId, userId: verified.userId, apiVersion: verified.apiVersion, kind: verified.kind, lastUsedAt: new Date().toISOString(), signedIn: true });
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

  /** The production guard: a write to a guarded org goes out only once the person confirms it. */
  private async guardWrite(key: string, write: PendingWrite): Promise<void> {
    let org = this.registry.get(key);
    if (!org) throw new CrmError(l10n.t("That org was removed"));
    if (org.kind === undefined) org = await this.learnKind(key);
    if (!guardsWrites(org)) return;
    // An agent's write says so in the question (a grid of its proposal, a tool): the person confirms knowing whose it is.
    const change = write.by === "agent" ? l10n.t("an agent's change: {0}", describeWrite(write)) : describeWrite(write);
    const confirmed = (await this.deps.confirmWrite?.(org, change)) ?? false;
    if (!confirmed) throw new CancelledError(l10n.t("Nothing was sent to {0}: the change was not confirmed", org.alias));
  }

  /** Reads the kind of an org added before kinds were kept (once); a failure leaves it unknown, so guarded. */
  private async learnKind(key: string): Promise<OrgRecord> {
    const session = this.sessions.get(key);
    const kind = await session?.crm.getOrgKind().catch(() => undefined);
    return kind ? this.registry.update(key, { kind }) : this.registry.get(key)!;
  }

  private async noteUsed(key: string): Promise<void> {
    const org = this.registry.get(key);
    if (!org || (org.lastUsedAt && Date.now() - Date.parse(org.lastUsedAt) < LAST_USED_EVERY_MS)) return;
    await this.registry.update(key, { lastUsedAt: new Date().toISOString() });
  }

  /**
   * Signs in to an org afresh and makes one API call: proves its stored credentials still work (an idle
   * refresh token may have expired). A refused session signs the org out, as in use.
   */
  async check(key: string): Promise<{ ok: boolean; reason?: string }> {
    try {
      const session = await this.session(key);
      // A fresh sign-in with the org's credentials, not its kept token: the check is that they still work.
      await session.crm.connect({ fresh: true });
      // The kind is read again: a trial converted or a sandbox replaced by production is guarded from now on.
      const [kind] = await Promise.all([session.crm.getOrgKind().catch(() => undefined), proveApiAccess(session.crm)]);
      await this.registry.update(key, { lastUsedAt: new Date().toISOString(), ...(kind ? { kind } : {}) });
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: refusalWords(err) };
    }
  }

  /** Turns the production write confirmation on or off for one org. */
  async setWriteGuard(key: string, on: boolean): Promise<void> {
    await this.registry.update(key, { writeGuard: on });
  }

  /** One refused renewal is final: the org is signed out (its dead tokens deleted) and shown so, not retried. */
  private async loseSession(key: string, err: Error): Promise<void> {
    const org = this.registry.get(key);
    if (!org?.signedIn) return;
    this.closeSession(key);
    await this.registry.signOut(key);
    this.sessionLost.fire({ org, reason: refusalWords(err) });
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
    await this.registry.writeSession(key, session);
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
    this.changes.dispose();
    this.schemaChanged.dispose();
    this.sessionLost.dispose();
  }
}
