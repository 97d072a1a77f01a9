/**
 * What differs between a knowledge folder and the org: each article's files against its record (modified, new),
 * and the org's versions against the ones the pull recorded (changed, gone). Read by `status`, `check` and the
 * push's plan; reading sends nothing but one query per 200 articles, and only with a client of the pulled org.
 */
import type { Crm } from "../client/crm";
import { sameRecordId } from "../client/ids";
import { withinSkew } from "../client/orgTime";
import { type FolderIO, type FolderManifest, type ManifestArticle, type PendingPush, type PulledVersion, changedFiles, guardFolder, hashArticleFiles, inTurns, readManifest, readPending } from "./folderFiles";
import { soqlLiteral } from "../client/soql-text";

type Row = Record<string, unknown>;

/** Articles read from the org per query: their IDs fit a query's length, their versions one page. */
export const CHUNK = 200;

export async function inChunks<T>(ids: string[], read: (list: string) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK).map(soqlLiteral).join(", "))));
  return out;
}

/** The version an article is edited in: its draft, else its published version, else its latest archived one. */
export function current<R extends Row>(rows: R[]): R | undefined {
  const rank = (r: R) => (r.PublishStatus === "Draft" ? 3 : r.PublishStatus === "Online" ? 2 : 1) * 1e6 + Number(r.VersionNumber ?? 0);
  return [...rows].sort((a, b) => rank(b) - rank(a))[0];
}

export function groupBy<R>(rows: R[], key: (r: R) => string): Map<string, R[]> {
  const map = new Map<string, R[]>();
  for (const r of rows) map.set(key(r), [...(map.get(key(r)) ?? []), r]);
  return map;
}

export type LocalState = "unchanged" | "modified" | "new";
export type OrgState = "unchanged" | "changed" | "gone" | "unknown";

export interface ArticleStatus {
  /** The article's folder. */
  name: string;
  local: LocalState;
  /** Whether the org's version moved on since the pull ("unknown" without a client, or for another org). */
  org: OrgState;
  /** Both sides changed: a push refuses the article unless told to overwrite it. */
  conflict: boolean;
}

/** The folder's article folders: each holding an article.yaml. */
export async function articleFolders(io: FolderIO): Promise<string[]> {
  const dirs = (await io.list("")).filter((e) => e.type === "directory" && !e.name.startsWith("."));
  const withFile = await inTurns(dirs, async (d) => ((await io.stat(`${d.name}/article.yaml`))?.type === "file" ? d.name : undefined));
  return withFile.filter((n): n is string => !!n).sort();
}

export interface LocalChange {
  /** The files changed since the pull (none: as pulled), or undefined for a folder the pull did not write. */
  changed?: string[];
  /** The article's record, when `keep` asked for it. */
  entry?: ManifestArticle;
}

/** Each of these article folders' files against its record; the records asked to be kept (`keep`) come back with it, the others are let go. */
export async function localChanges(io: FolderIO, manifest: FolderManifest | undefined, names: string[], keep: (changed: string[] | undefined) => boolean): Promise<Map<string, LocalChange>> {
  return new Map(await inTurns(names, async (name) => {
    const entry = await manifest?.articles.get(name);
    const changed = entry ? changedFiles(entry.files, await hashArticleFiles(io, name)) : undefined;
    return [name, { ...(changed ? { changed } : {}), ...(entry && keep(changed) ? { entry } : {}) }] as const;
  }));
}

/** Both sides changed since the pull: a push refuses the article unless told to overwrite it. */
export const isConflict = (local: LocalState, org: OrgState) => local === "modified" && (org === "changed" || org === "gone");

export const localState = (changed: string[] | undefined): LocalState => (!changed ? "new" : changed.length ? "modified" : "unchanged");

/** Each pulled article's current versions in the org (master and translations), by KnowledgeArticleId. */
export async function orgVersions(crm: Crm, sobject: string, articleIds: string[]): Promise<Map<string, Row[]>> {
  const rows = await inChunks(articleIds, async (list) =>
    (await crm.queryAll<Row>(`SELECT Id, KnowledgeArticleId, IsMasterLanguage, Language, PublishStatus, VersionNumber, LastModifiedDate, LastModifiedById, UrlName FROM ${sobject} WHERE KnowledgeArticleId IN (${list}) AND PublishStatus IN ('Draft', 'Online')`)).records);
  return groupBy(rows, (r) => String(r.KnowledgeArticleId));
}

/**
 * Whether the org moved on since the pull. A draft that a push killed inside this article made or edited — by the
 * push's user, since it began (its pending record) — is the push's own, not a change made in the org.
 */
export function orgMovedOn(entry: ManifestArticle, rows: Row[] | undefined, pending?: PendingPush): OrgState {
  const master = current((rows ?? []).filter((r) => r.IsMasterLanguage !== false));
  if (!master) return "gone";
  const pushedByUs = (now: Row | undefined) => !!pending && !!now && now.PublishStatus === "Draft" && sameRecordId(String(now.LastModifiedById), pending.userId)
    && withinSkew(now.LastModifiedDate, pending.since);
  const same = (was: PulledVersion | undefined, now: Row | undefined) => (!was && !now) || (!!was && !!now && was.versionId === now.Id && was.lastModifiedDate === now.LastModifiedDate) || pushedByUs(now);
  if (!same(entry, master)) return "changed";
  const translations = groupBy((rows ?? []).filter((r) => r.IsMasterLanguage === false), (r) => String(r.Language));
  const languages = new Set([...Object.keys(entry.translations ?? {}), ...translations.keys()]);
  return [...languages].every((l) => same(entry.translations?.[l], current(translations.get(l) ?? []))) ? "unchanged" : "changed";
}

/**
 * What differs between the folder and the org: each article modified locally (its files against the pull's
 * hashes), new locally (a folder the pull did not write), changed in the org since the pull, or both. Reading
 * the folder sends nothing; with a client of the pulled org, one query per 200 articles says what the org changed.
 */
export async function folderStatus(folder: FolderIO, options: { crm?: Crm; signal?: AbortSignal } = {}): Promise<{ manifest?: FolderManifest; articles: ArticleStatus[] }> {
  const io = guardFolder(folder);
  const manifest = await readManifest(io);
  let askOrg = false;
  if (manifest && options.crm) {
    await options.crm.apiPath();
    askOrg = options.crm.orgId === manifest.org.id;
  }
  const pending = await readPending(io);
  const names = await articleFolders(io);
  const articles: ArticleStatus[] = [];
  // A query's worth of articles at a time: their records are held only while the org's answer about them is read.
  for (let from = 0; from < names.length; from += CHUNK) {
    options.signal?.throwIfAborted();
    const changes = await localChanges(io, manifest, names.slice(from, from + CHUNK), () => askOrg);
    const ids = [...changes.values()].flatMap((c) => (c.entry ? [c.entry.knowledgeArticleId] : []));
    const versions = askOrg && ids.length ? await orgVersions(options.crm!, manifest!.sobject, ids) : undefined;
    for (const [name, { changed, entry }] of changes) {
      const state = localState(changed);
      const org: OrgState = entry && versions ? orgMovedOn(entry, versions.get(entry.knowledgeArticleId), pending.get(name)) : "unknown";
      articles.push({ name, local: state, org, conflict: isConflict(state, org) });
    }
  }
  return { manifest, articles };
}
