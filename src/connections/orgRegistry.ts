/**
 * The orgs a person has added. Non-secret metadata lives in a key-value store (VS Code's globalState);
 * everything needed to sign in — passwords, tokens, secrets, keys — lives in a secret store
 * (VS Code's SecretStorage), keyed per org. Nothing here touches settings.
 */
import { randomUUID } from "node:crypto";
import * as l10n from "@vscode/l10n";
import type { HelperConnection, KeptSession, OrgKind } from "../client";
import { Emitter } from "../shared/events";

/** VS Code's Memento, as far as the registry needs it. */
export interface KeyValueStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

/** VS Code's SecretStorage, as far as the registry needs it. */
export interface SecretStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

export type SignInMethod = "browser" | "device" | "password" | "clientCredentials" | "jwt" | "accessToken" | "helper" | "sfCli";

/** How a sign-in method is named to the person (in the display language: asked when shown, not when loaded). */
export function methodLabel(method: SignInMethod): string {
  switch (method) {
    case "browser": return l10n.t("Browser sign-in");
    case "device": return l10n.t("Sign-in with a code");
    case "password": return l10n.t("Username and password");
    case "clientCredentials": return l10n.t("Client credentials");
    case "jwt": return l10n.t("JWT bearer");
    case "accessToken": return l10n.t("Access token");
    case "helper": return l10n.t("Helper file");
    case "sfCli": return l10n.t("Salesforce CLI");
  }
}

export interface OrgRecord {
  /** Local identity of the entry (not the org ID: the same org may be added twice, as two users). */
  key: string;
  alias: string;
  method: SignInMethod;
  username?: string;
  loginUrl?: string;
  instanceUrl: string;
  orgId?: string;
  userId?: string;
  clientId?: string;
  apiVersion?: string;
  addedAt: string;
  signedIn: boolean;
  /** Production, sandbox, scratch, developer or trial: read from the org at sign-in. */
  kind?: OrgKind;
  /** False when the person turned the production write confirmation off for this org. */
  writeGuard?: boolean;
  /** When the org last answered a request (ISO time; written at most every few minutes). */
  lastUsedAt?: string;
  /** The demo org that runs inside the extension (started again on demand in a new window). */
  builtInDemo?: boolean;
}

const ORGS_KEY = "crm.orgs";
const ACTIVE_KEY = "crm.activeOrg";
const secretKey = (key: string) => `crm.org.${key}.connection`;
/** The org's last session (its access token), kept so that a new window does not sign in again. */
const sessionKey = (key: string) => `crm.org.${key}.session`;

export class OrgRegistry {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: KeyValueStore, private readonly secrets: SecretStore) {}

  list(): OrgRecord[] {
    return this.state.get<OrgRecord[]>(ORGS_KEY, []);
  }

  get(key: string): OrgRecord | undefined {
    return this.list().find((o) => o.key === key);
  }

  get activeKey(): string | undefined {
    const key = this.state.get<string | undefined>(ACTIVE_KEY, undefined);
    return key && this.get(key) ? key : this.list()[0]?.key;
  }

  /**
   * The orgs as views show them, as one text that changes when they change: everything of each org but when it was
   * last used (renewed as queries run), and the active one. A view that rebuilds on it is not rebuilt under a click.
   */
  shownState(): string {
    return JSON.stringify([this.activeKey, this.list().map(({ lastUsedAt: _lastUsed, ...shown }) => shown)]);
  }

  async setActive(key: string): Promise<void> {
    if (!this.get(key)) throw new RangeError(l10n.t("No org has the key {0}", key));
    await this.state.update(ACTIVE_KEY, key);
    this.changed.fire();
  }

  /** An alias not taken yet: the wanted one, or it with " (2)", " (3)", … */
  uniqueAlias(wanted: string, except?: string): string {
    const taken = new Set(this.list().filter((o) => o.key !== except).map((o) => o.alias.toLowerCase()));
    if (!taken.has(wanted.toLowerCase())) return wanted;
    for (let n = 2; ; n++) if (!taken.has(`${wanted} (${n})`.toLowerCase())) return `${wanted} (${n})`;
  }

  async add(record: Omit<OrgRecord, "key" | "addedAt" | "signedIn">, connection: HelperConnection): Promise<OrgRecord> {
    const full: OrgRecord = { ...record, alias: this.uniqueAlias(record.alias), key: randomUUID(), addedAt: new Date().toISOString(), signedIn: true };
    await this.secrets.store(secretKey(full.key), JSON.stringify(connection));
    await this.state.update(ORGS_KEY, [...this.list(), full]);
    if (this.list().length === 1) await this.state.update(ACTIVE_KEY, full.key);
    this.changed.fire();
    return full;
  }

  async update(key: string, patch: Partial<Omit<OrgRecord, "key">>): Promise<OrgRecord> {
    const current = this.get(key);
    if (!current) throw new RangeError(l10n.t("No org has the key {0}", key));
    const next = { ...current, ...patch };
    await this.state.update(ORGS_KEY, this.list().map((o) => (o.key === key ? next : o)));
    this.changed.fire();
    return next;
  }

  async rename(key: string, alias: string): Promise<OrgRecord> {
    const trimmed = alias.trim();
    if (!trimmed) throw new TypeError(l10n.t("An org's name must not be empty"));
    if (this.uniqueAlias(trimmed, key) !== trimmed) throw new RangeError(l10n.t("Another org is already called '{0}'", trimmed));
    return this.update(key, { alias: trimmed });
  }

  async remove(key: string): Promise<void> {
    await this.secrets.delete(secretKey(key));
    await this.secrets.delete(sessionKey(key));
    await this.state.update(ORGS_KEY, this.list().filter((o) => o.key !== key));
    if (this.state.get<string | undefined>(ACTIVE_KEY, undefined) === key) await this.state.update(ACTIVE_KEY, this.list()[0]?.key);
    this.changed.fire();
  }

  async readConnection(key: string): Promise<HelperConnection | undefined> {
    const text = await this.secrets.get(secretKey(key));
    return text ? (JSON.parse(text) as HelperConnection) : undefined;
  }

  async writeConnection(key: string, connection: HelperConnection): Promise<void> {
    await this.secrets.store(secretKey(key), JSON.stringify(connection));
    await this.update(key, { signedIn: true });
  }

  /** The session kept from the org's last sign-in, if any (in the secret store, like the credentials). */
  async readSession(key: string): Promise<KeptSession | undefined> {
    const text = await this.secrets.get(sessionKey(key));
    return text ? (JSON.parse(text) as KeptSession) : undefined;
  }

  async writeSession(key: string, session: KeptSession): Promise<void> {
    await this.secrets.store(sessionKey(key), JSON.stringify({ accessToken: session.accessToken, instanceUrl: session.instanceUrl, orgId: session.orgId, userId: session.userId }));
  }

  /** Forgets the org's secrets; the entry stays, signed out, so it can be signed in again. */
  async signOut(key: string): Promise<void> {
    await this.secrets.delete(secretKey(key));
    await this.secrets.delete(sessionKey(key));
    await this.update(key, { signedIn: false });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
