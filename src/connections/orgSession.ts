/** One signed-in org: its client, its caches, and the events the views listen to. */
import { APIRequestError, Crm, type ApiUsage, type AuthSession, type HelperConnection, type KeptSession, type KnowledgeSettings, type Logger, type PendingWrite, type RequestInfo } from "../client";
// The group of the client the extension uses beyond the core: importing it adds crm.bulk.
import "../client/bulk";
import { Emitter, type Disposable } from "../shared/events";
import type { OrgRecord } from "./orgRegistry";
import type { DescribeStore } from "./describeStore";
import { changeOf, type OrgChange } from "./changes";
import { OrgSchema } from "./schema";
import { secretsOf } from "./secrets";
import type { ClientSettings } from "../platform/settings";


export interface SessionDeps {
  settings(): ClientSettings;
  /** Where request lines go (already redacting). */
  log: { info(line: string): void; debug(line: string): void; warn(line: string): void };
  remember(...secrets: (string | undefined)[]): void;
  onTokenRefreshed(key: string, session: AuthSession): void;
  /** The org refused the session for good (see the client's `sessionRejected`). */
  onSessionRejected(key: string, error: Error): void;
  /** Before each write: the production guard (throws to cancel, with nothing sent). */
  beforeWrite(key: string, write: PendingWrite): Promise<void>;
  /** The org answered a request (for "last used"). */
  onUsed?(key: string): void;
  /** Describes kept across windows (none: in memory only). */
  describeStore?: DescribeStore;
}

export function requestLine(alias: string, info: RequestInfo): string {
  const retry = info.attempt > 0 ? ` (attempt ${info.attempt + 1})` : "";
  return `[${alias}] ${info.method} ${info.path} → ${info.status} (${info.durationMs.toFixed(0)} ms)${retry}`;
}

export function buildClient(connection: HelperConnection, settings: ClientSettings, extra: { logger?: Logger; version?: string; captureBodies?: () => boolean; beforeWrite?: (write: PendingWrite) => Promise<void>; session?: KeptSession } = {}): Crm {
  return new Crm({
    connectionInfo: connection,
    session: extra.session,
    version: settings.apiVersion || extra.version || undefined,
    timeoutMs: settings.timeoutMs,
    logger: extra.logger,
    captureBodies: extra.captureBodies,
    beforeWrite: extra.beforeWrite,
  });
}

export class OrgSession implements Disposable {
  readonly crm: Crm;
  private usage?: ApiUsage;
  private readonly usageChanged = new Emitter<ApiUsage>();
  readonly onDidChangeApiUsage = this.usageChanged.event;
  private readonly changed = new Emitter<OrgChange>();
  /** What every write the org accepted through this session changed, whichever command, tree, panel or document sent it. */
  readonly onDidChange = this.changed.event;
  /** The org's objects and their describes: one source for every view, editor and panel. */
  readonly schema: OrgSchema;

  /** `kept`: the session of the org's last sign-in, used until the org refuses it (a new window signs in no more). */
  constructor(readonly record: OrgRecord, connection: HelperConnection, private readonly deps: SessionDeps, kept?: KeptSession) {
    deps.remember(...secretsOf(connection), kept?.accessToken);
    this.crm = buildClient(connection, deps.settings(), {
      session: kept,
      version: record.apiVersion,
      logger: { warn: (m) => deps.log.warn(`[${record.alias}] ${m}`), info: (m) => deps.log.debug(`[${record.alias}] ${m}`) },
      captureBodies: () => deps.settings().logRequestBodies,
      beforeWrite: (write) => deps.beforeWrite(record.key, write),
    });
    this.schema = new OrgSchema(this.crm, { orgKey: record.key, store: deps.describeStore, warn: (m) => deps.log.warn(`[${record.alias}] ${m}`) });
    this.crm.on("request", (info) => {
      deps.log.info(requestLine(this.record.alias, info));
      if (info.requestBody) deps.log.debug(`[${this.record.alias}] request body: ${info.requestBody}`);
      if (info.responseBody) deps.log.debug(`[${this.record.alias}] response body: ${info.responseBody}`);
      if (info.status < 400) deps.onUsed?.(record.key);
    });
    this.crm.on("write", (write) => {
      const change = changeOf(write);
      if (change) this.changed.fire({ ...change, write });
    });
    this.crm.on("apiUsage", (usage) => {
      this.usage = usage;
      this.usageChanged.fire(usage);
    });
    this.crm.on("sessionRejected", (error) => deps.onSessionRejected(record.key, error));
    this.crm.on("tokenRefreshed", (session) => {
      deps.remember(session.accessToken, session.refreshToken);
      deps.onTokenRefreshed(record.key, session);
    });
    // A new session (no kept one, or the org refused it) is kept for the next window.
    this.crm.on("signedIn", (session) => {
      deps.remember(session.accessToken);
      deps.onTokenRefreshed(record.key, session);
    });
  }

  /**
   * A change the org made later than the request that asked for it (a Bulk import, processed asynchronously):
   * whoever waited for it says what changed, and views, panels and documents follow it like any other.
   */
  announce(change: OrgChange): void {
    this.changed.fire(change);
  }

  private languages?: Promise<KnowledgeSettings | undefined>;
  /**
   * The org's knowledge languages, read once per session: undefined when the org refuses (no Knowledge, or no
   * access), so views show articles without translations instead of an error. A refusal is remembered for the
   * session like an answer — every group's refresh would otherwise ask again; a request that never got an
   * answer (the network) is asked again next time.
   */
  knowledgeLanguages(): Promise<KnowledgeSettings | undefined> {
    return (this.languages ??= this.crm.knowledge.getKnowledgeSettings().catch((err: unknown) => {
      if (!(err instanceof APIRequestError)) this.languages = undefined;
      return undefined;
    }));
  }

  /** Whether articles can have translations here: more than one active knowledge language. */
  async multilingual(): Promise<boolean> {
    return ((await this.knowledgeLanguages())?.languages.filter((l) => l.active).length ?? 0) > 1;
  }

  get apiUsage(): ApiUsage | undefined {
    return this.usage;
  }

  /** Forgets the schema in memory (the store is cleared by the manager, which knows every org). */
  clearCaches(): void {
    this.schema.clear();
    this.languages = undefined;
  }

  dispose(): void {
    this.usageChanged.dispose();
    this.changed.dispose();
    this.schema.dispose();
    this.crm.removeAllListeners();
    this.crm.close();
  }
}
