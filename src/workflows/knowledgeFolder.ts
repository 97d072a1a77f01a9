/**
 * A knowledge base kept in a folder: pull articles into files, see what changed on either side, and push the
 * changes back (or into another org) as drafts. The file layout is in folderFiles.ts. Nothing is published
 * unless asked, and then only articles that pass the folder check and the pre-flight.
 */
import { DEFAULT_KNOWLEDGE_SOBJECT } from "../client/constants";
import type { Crm } from "../client/crm";
import { isRequiredOnCreate, isRichText, type FieldDescribe, type SObjectDescribe } from "../client/describe";
import { CrmError } from "../client/errors";
import { requireSobjectName } from "../client/ids";
import {
  type FolderIO, type FolderManifest, type LocalArticle, type ManifestArticle, type PulledVersion, FolderContentError, IMAGES_DIR, IMAGE_TYPES, MAX_IMAGE_BYTES, folderImageSources, withImageInline,
  type RecordedField, blockHashes, checkRelativePath, dropPending, encodeText, guardFolder, hashArticleFiles, inTurns, keepPending, newManifest, pathNameProblem, readLocalArticle, readManifest, readPending, versionFiles, writeManifest,
} from "./folderFiles";
import { categoryExists, descendants } from "./categories";
import { createArticle, createDraftsFromOnlineArticles, createDraftFromOnlineTranslation, deleteArticleDraft, deleteTranslation, getDataCategoryGroups, publishMultipleArticles, publishTranslations, submitForTranslation, updateArticle, type DataCategory } from "../client/knowledge";
import { soqlLiteral } from "../client/soql-text";
import { CHUNK, articleFolders, current, groupBy, inChunks, localChanges, localState, orgMovedOn, orgVersions } from "./folderStatus";
import { richTextImageUrls } from "../client/urls";
import { preflightPublish } from "../client/versions";
import { heldFromPublishing, type CheckOptions } from "./knowledgeCheck";
import { batchIntent } from "../client/intent";
import { create as createRecords, remove as removeRecords, update as updateRecords } from "../client/collections";

export { articleFolders, folderStatus, isConflict, type ArticleStatus, type LocalState, type OrgState } from "./folderStatus";
export { nodeFolder, checkRelativePath, guardFolder, layOutRichText, readManifest, storeRichText, FILE_LIMITS, FolderContentError, type FolderEntryType, type FolderIO, type FolderManifest, type LocalArticle } from "./folderFiles";

type Row = Record<string, unknown>;
/** Read-only facts written under `org:`; the other readable fields are not kept. */
const FACTS = ["ArticleNumber", "VersionNumber", "PublishStatus", "Language", "ValidationStatus", "LastPublishedDate", "LastModifiedDate"];
/** Writable, but not the folder's to carry: the language is the org's, the owner and assignee are people of one org. */
const NOT_CARRIED = new Set(["Language", "OwnerId", "AssignedToId", "AssignmentDueDate", "AssignmentNote", "MasterVersionId", "RecordTypeId"]);

const lower = (name: string) => name.toLowerCase();
const selectionObject = (sobject: string) => sobject.replace(/__kav$/, "__DataCategorySelection");

/** The article type's fields the folder carries: writable fields (not references), and which of them hold rich text. */
function carriedFields(describe: SObjectDescribe): { plain: FieldDescribe[]; rich: FieldDescribe[] } {
  const writable = describe.fields.filter((f) => (f.createable || f.updateable) && !f.calculated && f.type !== "reference" && !NOT_CARRIED.has(f.name));
  // A rich-text field's name becomes a file name: one that is not an API name is refused before anything is written.
  for (const f of writable.filter(isRichText)) {
    const problem = pathNameProblem("field", f.name);
    if (problem) throw new CrmError(`The org's describe of ${describe.name} is not usable for a knowledge folder: ${problem}. Nothing was pulled.`);
  }
  return { plain: writable.filter((f) => !isRichText(f)), rich: writable.filter(isRichText) };
}

/** The describe of the fields the folder carries, as `check` needs it. */
function recordedFields(plain: FieldDescribe[], rich: FieldDescribe[]): Record<string, RecordedField> {
  return Object.fromEntries([...plain, ...rich].map((f) => [f.name, {
    type: f.type, label: f.label, ...(f.length ? { length: f.length } : {}), ...(isRequiredOnCreate(f) ? { required: true } : {}), ...(isRichText(f) ? { richText: true } : {}),
    ...(f.type === "picklist" && f.restrictedPicklist ? { values: f.picklistValues.filter((v) => v.active).map((v) => v.value) } : {}),
  }]));
}

/** The master's rich-text files of an article (`Field.html`), by field: their blocks' hashes. */
function masterBlocks(files: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(files).flatMap(([file, content]) => {
    const field = /^([A-Za-z]\w*)\.html$/.exec(file)?.[1];
    return field ? [[field, blockHashes(content)]] : [];
  }));
}

/** The master's rich text as the folder holds it now (after a push: what the org holds). */
async function masterBlocksOnDisk(io: FolderIO, name: string): Promise<Record<string, string[]>> {
  const files: Record<string, string> = {};
  for (const entry of await io.list(name)) {
    if (entry.type === "file" && /^[A-Za-z]\w*\.html$/.test(entry.name)) files[entry.name] = new TextDecoder().decode((await io.read(`${name}/${entry.name}`))!);
  }
  return masterBlocks(files);
}

const pulled = (r: Row): PulledVersion => ({ versionId: String(r.Id), publishStatus: String(r.PublishStatus), lastModifiedDate: String(r.LastModifiedDate) });

/** A folder name from a URL name: letters, digits and hyphens, as URL names are. */
function folderName(urlName: string, taken: Set<string>): string {
  const base = urlName.replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 240) || "article";
  let name = base;
  for (let n = 2; taken.has(lower(name)); n++) name = `${base}-${n}`;
  taken.add(lower(name));
  return name;
}

async function recordTypeNames(crm: Crm, describe: SObjectDescribe): Promise<Map<string, string>> {
  if (!describe.fields.some((f) => f.name === "RecordTypeId")) return new Map();
  const rows = (await crm.soqlQuery<{ Id: string; DeveloperName: string }>(`SELECT Id, DeveloperName FROM RecordType WHERE SobjectType = ${soqlLiteral(describe.name)}`, { replaceQuotes: false })).records;
  return new Map(rows.map((r) => [r.Id, r.DeveloperName]));
}

// ---- pull ------------------------------------------------------------------------------------------------

export interface PullSelection {
  /** Articles (KnowledgeArticleId) or any of their versions. */
  articleIds?: string[];
  /** Articles in a data category or any category under it. */
  dataCategory?: { group: string; category: string };
  /** A SOQL condition on the article type's master-language versions, such as `LastPublishedDate = LAST_N_DAYS:30`. */
  where?: string;
}

export interface PullOptions {
  sobject?: string;
  signal?: AbortSignal;
  onProgress?(done: number, total: number, title: string): void;
}

export interface PulledArticle {
  /** The article's folder (for a refused article, its URL name as the org gave it, shortened). */
  name: string;
  title: string;
  versionId: string;
  publishStatus: string;
  images: number;
  translations: string[];
  /** Set when the article was not pulled: why (a name from the org that cannot be a file name, a link in its folder). */
  refused?: string;
}

async function selectedArticleIds(crm: Crm, sobject: string, selection: PullSelection): Promise<string[]> {
  const idsOf = async (where: string) =>
    (await crm.queryAll<{ KnowledgeArticleId: string }>(`SELECT KnowledgeArticleId FROM ${sobject} WHERE IsMasterLanguage = true AND (${where})`)).records.map((r) => r.KnowledgeArticleId);
  let ids: string[];
  if (selection.articleIds) {
    if (!Array.isArray(selection.articleIds) || !selection.articleIds.length) throw new TypeError("selection.articleIds must be a non-empty array of article or version IDs");
    ids = (await inChunks(selection.articleIds, (list) => idsOf(`KnowledgeArticleId IN (${list}) OR Id IN (${list})`)));
  } else if (selection.dataCategory) {
    const { group, category } = selection.dataCategory;
    const tree = (await getDataCategoryGroups(crm)).find((g) => g.name === group);
    if (!tree) throw new CrmError(`The org has no data category group named '${group}'`);
    const names = category === "All" ? descendants(tree.topCategories, category, true) : descendants(tree.topCategories, category);
    if (!names.length) throw new CrmError(`The data category group '${group}' has no category named '${category}'`);
    const parents = (await crm.queryAll<{ ParentId: string }>(`SELECT ParentId FROM ${selectionObject(sobject)} WHERE DataCategoryGroupName = ${soqlLiteral(group)} AND DataCategoryName IN (${names.map(soqlLiteral).join(", ")})`)).records.map((r) => r.ParentId);
    ids = parents.length ? await inChunks(parents, (list) => idsOf(`Id IN (${list})`)) : [];
  } else if (selection.where !== undefined) {
    if (typeof selection.where !== "string" || !selection.where.trim()) throw new TypeError("selection.where must be a SOQL condition");
    ids = await idsOf(selection.where);
  } else ids = await idsOf("PublishStatus = 'Online'");
  return [...new Set(ids)];
}

/**
 * Pulls articles into the folder: each in a folder named by its URL name (see folderFiles.ts), the version it
 * is edited in (its draft, else the published one), its images, categories and translations. Each article's
 * record (its version and LastModifiedDate, for the status and the push) is written as soon as its files are.
 * A folder holds one org's pull: pulling another org into it is refused.
 */
export async function pullArticles(crm: Crm, folder: FolderIO, selection: PullSelection = {}, options: PullOptions = {}): Promise<PulledArticle[]> {
  const io = guardFolder(folder);
  const sobject = requireSobjectName(options.sobject ?? DEFAULT_KNOWLEDGE_SOBJECT, "options.sobject");
  await crm.apiPath(); // signed in, so the org's ID is known
  const previous = await readManifest(io);
  if (previous && previous.org.id !== crm.orgId) throw new CrmError(`This folder holds articles pulled from ${previous.org.instanceUrl}: pull into another folder (a folder can be pushed into any org)`);
  const describe = await crm.getSobject(sobject, { describe: true });
  const { plain, rich } = carriedFields(describe);
  const ids = await selectedArticleIds(crm, sobject, selection);
  const read = [...new Set(["Id", "KnowledgeArticleId", "UrlName", "Title", "IsMasterLanguage", "RecordTypeId", ...FACTS, ...plain.map((f) => f.name), ...rich.map((f) => f.name)])]
    .filter((f) => describe.fields.some((d) => d.name === f));
  const recordTypes = await recordTypeNames(crm, describe);

  const header = { org: { id: crm.orgId ?? "", instanceUrl: crm.instanceUrl ?? "" }, sobject, pulledAt: new Date().toISOString(), fields: recordedFields(plain, rich) };
  const manifest: FolderManifest = previous ? { ...header, articles: previous.articles } : newManifest(io, header);
  await writeManifest(io, manifest);
  const taken = new Set((await io.list("")).filter((e) => e.type !== "file").map((e) => lower(e.name)));
  /** Each article's folder by its ID: an article pulled before goes back into its own folder. */
  const folderOf = await manifest.articles.folders();
  const out: PulledArticle[] = [];
  // A chunk of articles at a time: their versions and categories in a query each, written, then let go (the rows of
  // the whole knowledge base are never held); the next two chunks are read while this one is written (with one, the
  // org's answer was still awaited about a second in a pull of 10,000). A cancelled, failed or killed pull keeps the
  // records of the articles it finished, and leaves none half written when it returns.
  let done = 0;
  const reading: ReturnType<typeof readChunk>[] = [];
  const readFrom = (from: number) => {
    if (from >= ids.length) return;
    const chunk = readChunk(ids.slice(from, from + CHUNK));
    chunk.catch(() => undefined); // awaited in its turn; a pull stopped before it leaves no unhandled rejection
    reading.push(chunk);
  };
  readFrom(0);
  readFrom(CHUNK);
  for (let from = 0; from < ids.length; from += CHUNK) {
    readFrom(from + 2 * CHUNK);
    const chunk = await reading.shift()!;
    out.push(...(await inTurns(chunk.masters, async (master) => {
      options.signal?.throwIfAborted();
      const translations = [...groupBy((chunk.byArticle.get(String(master.KnowledgeArticleId)) ?? []).filter((r) => r.IsMasterLanguage === false && r.PublishStatus !== "Archived"), (r) => String(r.Language)).values()]
        .map((versions) => current(versions)!);
      let pulledOne: PulledArticle;
      try {
        pulledOne = await pullOne(master, translations, chunk.categories.get(String(master.Id)) ?? []);
      } catch (err) {
        if (!(err instanceof FolderContentError)) throw err;
        pulledOne = { name: String(master.UrlName).slice(0, 80), title: String(master.Title), versionId: String(master.Id), publishStatus: String(master.PublishStatus), images: 0, translations: [], refused: err.message };
      }
      options.onProgress?.(++done, ids.length, String(master.Title));
      return pulledOne;
    })));
    options.signal?.throwIfAborted(); // cancelled while the last articles under way were finishing
  }
  options.onProgress?.(ids.length, ids.length, "");
  return out;

  async function readChunk(chunk: string[]) {
    const list = chunk.map(soqlLiteral).join(", ");
    const rows = (await crm.queryAll<Row>(`SELECT ${read.join(", ")} FROM ${sobject} WHERE KnowledgeArticleId IN (${list})`, { signal: options.signal })).records;
    const byArticle = groupBy(rows, (r) => String(r.KnowledgeArticleId));
    const masters = chunk.map((id) => current((byArticle.get(id) ?? []).filter((r) => r.IsMasterLanguage !== false))).filter((r): r is Row => !!r);
    const categories = masters.length ? groupBy((await crm.queryAll<Row>(`SELECT ParentId, DataCategoryGroupName, DataCategoryName FROM ${selectionObject(sobject)} WHERE ParentId IN (${masters.map((m) => soqlLiteral(String(m.Id))).join(", ")})`, { signal: options.signal })).records, (r) => String(r.ParentId)) : new Map<string, Row[]>();
    return { byArticle, masters, categories };
  }

  async function pullOne(master: Row, translations: Row[], categories: Row[]): Promise<PulledArticle> {
    // Names from the org that become paths are checked first: a refused article writes nothing.
    const problem = pathNameProblem("urlName", master.UrlName) ?? translations.map((t) => pathNameProblem("language", t.Language)).find(Boolean);
    if (problem) throw new FolderContentError(`'${String(master.Title)}' (${String(master.ArticleNumber)}) was not pulled: ${problem}`);
    const recorded = folderOf.get(String(master.KnowledgeArticleId));
    // Not recorded: a folder name no folder had when the pull began, so the pull makes the folder and it holds only what is written below.
    const name = recorded ?? folderName(String(master.UrlName), taken);
    folderOf.set(String(master.KnowledgeArticleId), name);
    /** Each image by its URL in the org's text: its file, and its bytes. */
    const images = new Map<string, { file: string; bytes: Uint8Array }>();
    const localImages = async (version: Row) => {
      const html: Record<string, string> = {};
      for (const field of rich.map((f) => f.name)) {
        let value = String(version[field] ?? "");
        for (const url of richTextImageUrls(value)) {
          if (!images.has(url)) {
            const image = await crm.fetchRichTextImage(url.replace(/&amp;/g, "&"), String(version.Id), field, { sobject });
            const file = `${IMAGES_DIR}/${image.refid}.${Object.keys(IMAGE_TYPES).find((ext) => IMAGE_TYPES[ext] === image.contentType) ?? "bin"}`;
            const bytes = new Uint8Array(image.bytes);
            await io.write(`${name}/${file}`, bytes);
            images.set(url, { file, bytes });
          }
          value = value.split(url).join(images.get(url)!.file);
        }
        if (version[field] !== undefined && version[field] !== null) html[field] = value;
      }
      return html;
    };
    const pick = (r: Row, names: string[]) => Object.fromEntries(names.filter((n) => n in r).map((n) => [n, r[n]]));
    const files = versionFiles({
      title: String(master.Title), fields: pick(master, plain.map((f) => f.name)), richText: await localImages(master), facts: pick(master, FACTS),
      recordType: recordTypes.get(String(master.RecordTypeId)), dataCategories: categories.map((c) => `${String(c.DataCategoryGroupName)}/${String(c.DataCategoryName)}`).sort(),
    });
    for (const t of translations) {
      Object.assign(files, versionFiles({ title: String(master.Title), fields: pick(t, plain.map((f) => f.name)), richText: await localImages(t), facts: pick(t, FACTS), language: String(t.Language) }));
    }
    const written = new Map(Object.entries(files).map(([file, content]) => [file, encodeText(content)]));
    // The first file alone (it makes the article's folder), the others side by side, all ended before a failure is told.
    const [first, ...others] = written;
    const writes = await Promise.allSettled([io.write(`${name}/${first![0]}`, first![1])]);
    writes.push(...(await Promise.allSettled(others.map(([file, bytes]) => io.write(`${name}/${file}`, bytes)))));
    const refused = writes.find((w): w is PromiseRejectedResult => w.status === "rejected");
    if (refused) throw refused.reason;
    const known = new Map<string, Uint8Array>(written);
    for (const { file, bytes } of images.values()) known.set(file, bytes);
    // Files of an earlier pull that this one no longer has (a translation deleted, an image removed).
    if (recorded !== undefined) for (const stale of Object.keys((await manifest.articles.get(name))?.files ?? {})) if (!known.has(stale)) await io.remove(`${name}/${stale}`);
    await manifest.articles.set(name, {
      ...pulled(master), articleNumber: String(master.ArticleNumber), knowledgeArticleId: String(master.KnowledgeArticleId),
      files: await hashArticleFiles(io, name, known, recorded === undefined), translations: Object.fromEntries(translations.map((t) => [String(t.Language), pulled(t)])), blocks: masterBlocks(files),
    });
    return { name, title: String(master.Title), versionId: String(master.Id), publishStatus: String(master.PublishStatus), images: images.size, translations: translations.map((t) => String(t.Language)) };
  }
}

// ---- push ------------------------------------------------------------------------------------------------

export type PushAction = "create" | "draftFromOnline" | "updateDraft" | "nothing";

export interface PushPlanEntry {
  name: string;
  title: string;
  action: PushAction;
  /** Why: "modified locally", "not in the org", "unchanged", … */
  reason: string;
  /** Set when the org changed the article since the pull: refused unless overwritten. */
  conflict?: string;
  /** The org's article it goes to (absent for a new one). */
  knowledgeArticleId?: string;
  /** Languages pushed with it: each a new translation, a draft of the published one, or its draft updated. */
  translations: { language: string; action: "submit" | "draftFromOnline" | "updateDraft" }[];
}

export interface PushPlan {
  /** True when the target org is the one the folder was pulled from (conflicts are checked, unchanged articles skipped). */
  sameOrg: boolean;
  orgId: string;
  entries: PushPlanEntry[];
}

export interface PushOptions {
  sobject?: string;
  /** Only these article folders (default all). */
  only?: string[];
  signal?: AbortSignal;
}

const titleOf = (a: LocalArticle) => String(a.fields.Title ?? a.name);

/** A folder to push from must be there: a mistyped path is an error, not an empty push. */
async function existingFolder(folder: FolderIO): Promise<FolderIO> {
  const io = guardFolder(folder);
  if ((await io.stat(""))?.type !== "directory") throw new CrmError("The knowledge folder does not exist (or is not a folder): check its path");
  return io;
}

/** What a push would do, article by article, without writing anything: a dry run. */
export async function planPush(crm: Crm, folder: FolderIO, options: PushOptions = {}): Promise<PushPlan> {
  const io = await existingFolder(folder);
  await crm.apiPath(); // signed in, so the org's ID is known
  const manifest = await readManifest(io);
  const sobject = requireSobjectName(options.sobject ?? manifest?.sobject ?? DEFAULT_KNOWLEDGE_SOBJECT, "options.sobject");
  const sameOrg = !!manifest && manifest.org.id === crm.orgId;
  // The records of articles that will be written are kept; an unchanged article's is let go once it is read.
  const changes = await localChanges(io, manifest, await articleFolders(io), (changed) => !sameOrg || !changed || changed.length > 0);
  const chosen = [...changes.keys()].filter((name) => !options.only || options.only.includes(name)).map((name) => ({ name, local: localState(changes.get(name)!.changed) }));
  const unknown = options.only?.filter((n) => !changes.has(n));
  if (unknown?.length) throw new CrmError(`No article folder named ${unknown.map((n) => `'${n}'`).join(", ")} in this knowledge folder`);
  // Into the pulled org an unchanged article is left alone without asking the org anything.
  const candidates = chosen.filter((a) => !sameOrg || a.local !== "unchanged");
  const locals = new Map(await inTurns(candidates, async (a) => [a.name, await readLocalArticle(io, a.name)] as const));
  const recordOf = (name: string) => (sameOrg ? changes.get(name)?.entry : undefined);
  const pulledIds = candidates.map((a) => recordOf(a.name)?.knowledgeArticleId).filter((id): id is string => !!id);
  const byId = pulledIds.length ? await orgVersions(crm, sobject, pulledIds) : new Map<string, Row[]>();
  // Articles not pulled from this org are matched by URL name.
  const unmatched = candidates.filter((a) => !recordOf(a.name)).map((a) => String(locals.get(a.name)!.fields.UrlName ?? a.name));
  const byUrl = new Map<string, string>();
  if (unmatched.length) {
    const rows = await inChunks(unmatched, async (list) => (await crm.queryAll<Row>(`SELECT KnowledgeArticleId, UrlName FROM ${sobject} WHERE UrlName IN (${list}) AND IsMasterLanguage = true`)).records);
    for (const r of rows) byUrl.set(lower(String(r.UrlName)), String(r.KnowledgeArticleId));
    const matched = [...new Set(byUrl.values())];
    for (const [id, rows2] of matched.length ? await orgVersions(crm, sobject, matched) : []) byId.set(id, rows2);
  }
  const pending = await readPending(io);
  const entries = chosen.map((a): PushPlanEntry => {
    const local = locals.get(a.name);
    if (!local) return { name: a.name, title: a.name, action: "nothing", reason: "unchanged since the pull", translations: [] };
    const entry = recordOf(a.name);
    const articleId = entry?.knowledgeArticleId ?? byUrl.get(lower(String(local.fields.UrlName ?? a.name)));
    const rows = articleId ? byId.get(articleId) ?? [] : [];
    const master = current(rows.filter((r) => r.IsMasterLanguage !== false));
    const conflict = entry ? ({ changed: "changed in the org since the pull", gone: "no longer in the org as a draft or published article", unchanged: undefined, unknown: undefined } as const)[orgMovedOn(entry, rows, pending.get(a.name))] : undefined;
    // Into the pulled org only the versions whose files changed are written; elsewhere, all of them.
    const edited = entry ? changes.get(a.name)!.changed : undefined;
    const touches = (language: string, version: { richText: Record<string, string> }) => !edited || edited.some((file) =>
      file === `article${language}.yaml` || new RegExp(`^\\w+${language.replace(".", "\\.")}\\.html$`).test(file) || (file.startsWith(`${IMAGES_DIR}/`) && Object.values(version.richText).some((html) => html.includes(file))));
    const translationRows = groupBy(rows.filter((r) => r.IsMasterLanguage === false), (r) => String(r.Language));
    const translations = Object.entries(local.translations).filter(([language, version]) => !master || touches(`.${language}`, version)).map(([language]) => {
      const existing = current(translationRows.get(language) ?? []);
      return { language, action: !existing || !master ? ("submit" as const) : existing.PublishStatus === "Draft" ? ("updateDraft" as const) : ("draftFromOnline" as const) };
    });
    const base = { name: a.name, title: titleOf(local), translations, ...(articleId && master ? { knowledgeArticleId: articleId } : {}), ...(conflict ? { conflict } : {}) };
    if (!master) return { ...base, action: "create", reason: entry ? "no longer in the org: created again" : "not in the org" };
    if (!touches("", local)) return { ...base, action: "nothing", reason: translations.length ? "translations modified locally" : "unchanged since the pull" };
    return { ...base, action: master.PublishStatus === "Draft" ? "updateDraft" : "draftFromOnline", reason: a.local === "new" ? "new locally, matched by URL name" : sameOrg ? "modified locally" : "matched by URL name" };
  });
  return { sameOrg, orgId: crm.orgId ?? "", entries };
}

export interface PushResult {
  name: string;
  title: string;
  action: PushAction;
  outcome: "pushed" | "unchanged" | "conflict" | "failed" | "cancelled";
  /** The draft written (or the version published). */
  versionId?: string;
  published?: boolean;
  message?: string;
  /** Things pushed around rather than through: unknown data categories, a pre-flight that held back a publish. */
  warnings: string[];
}

export interface PushRunOptions extends PushOptions {
  /** Article folders whose org changes may be overwritten (true: all). */
  overwrite?: string[] | boolean;
  /**
   * Publish each pushed draft that passes the gate (and its pushed translations): all (true) or these article
   * folders. Default false. The gate: the folder check finds no error in the article (`heldFromPublishing`), and
   * its draft passes the pre-flight.
   */
  publish?: boolean | string[];
  /** Fields the pre-flight requires before publishing. */
  requiredFields?: string[];
  /** The folder check's judge of rich text and the languages every article should have (see `CheckOptions`). */
  check?: Pick<CheckOptions, "richTextRemovals" | "languages">;
  /** The dry run shown to the person (planned again when absent). */
  plan?: PushPlan;
  onProgress?(done: number, total: number, title: string): void;
}

/** Local `images/…` sources as data URIs: the org stores each image and rewrites its `src` (PNG, JPEG, GIF; 1 MB each). */
async function withUploadedImages(io: FolderIO, name: string, html: string): Promise<string> {
  let out = html;
  // Only the folder's own images: any other source (a web address, a name the org never served) stays as written.
  for (const m of folderImageSources(html)) {
    const file = checkRelativePath(`${name}/${m}`);
    const bytes = await io.read(file);
    if (!bytes) throw new CrmError(`${file} is missing: the rich text shows it`);
    const type = IMAGE_TYPES[/\.(\w+)$/.exec(file)?.[1]?.toLowerCase() ?? ""];
    if (!type) throw new CrmError(`${file}: the org takes PNG, JPEG and GIF images only`);
    if (bytes.length > MAX_IMAGE_BYTES) throw new CrmError(`${file} is ${(bytes.length / 1048576).toFixed(1)} MB: the org takes images of at most 1 MB`);
    out = withImageInline(out, m, type, bytes);
  }
  return out;
}

async function valuesOf(io: FolderIO, name: string, version: { fields: Record<string, unknown>; richText: Record<string, string> }, describe: SObjectDescribe, mode: "create" | "update"): Promise<Row> {
  const known = new Map(describe.fields.map((f) => [f.name, f]));
  const values: Row = {};
  for (const [field, value] of Object.entries(version.fields)) {
    const f = known.get(field);
    if (!f) throw new CrmError(`${name}: the org's ${describe.name} has no field '${field}'`);
    if (mode === "create" ? f.createable : f.updateable) values[field] = value;
  }
  for (const [field, html] of Object.entries(version.richText)) {
    if (!known.get(field)) throw new CrmError(`${name}: the org's ${describe.name} has no field '${field}' (from ${field}.html)`);
    values[field] = await withUploadedImages(io, name, html);
  }
  return values;
}

/**
 * Pushes the folder: per article what `planPush` says — a new article, a draft from the published version, or
 * the draft updated — with its images uploaded, its data categories set (matched by name; unknown ones
 * reported) and its translations. An article the org changed since the pull is refused unless `overwrite`
 * names it. Nothing is published unless `publish`, and then only drafts that pass the gate (see `publish`). The writes
 * are confirmed once as a batch (the client's `beforeWrite`). Into the pulled org the folder's record follows,
 * so the next push of an unchanged folder sends nothing.
 */
export async function pushFolder(crm: Crm, folder: FolderIO, options: PushRunOptions = {}): Promise<PushResult[]> {
  const io = await existingFolder(folder);
  const plan = options.plan ?? (await planPush(crm, io, options));
  if (plan.orgId !== crm.orgId) throw new CrmError("The plan was made for another org: plan the push again");
  const manifest = await readManifest(io);
  const sobject = requireSobjectName(options.sobject ?? manifest?.sobject ?? DEFAULT_KNOWLEDGE_SOBJECT, "options.sobject");
  const overwrite = (name: string) => options.overwrite === true || (Array.isArray(options.overwrite) && options.overwrite.includes(name));
  const idle = (e: PushPlanEntry) => e.action === "nothing" && !e.translations.length;
  const refused = (e: PushPlanEntry) => !!e.conflict && !overwrite(e.name);
  const results: PushResult[] = plan.entries.map((e) => ({
    name: e.name, title: e.title, action: e.action, outcome: idle(e) ? "unchanged" : refused(e) ? "conflict" : "pushed", warnings: [],
    ...(!idle(e) && refused(e) ? { message: `${e.conflict}: pull it again, or push with overwrite` } : {}),
  }));
  const work = plan.entries.filter((_, i) => results[i]!.outcome === "pushed");
  if (!work.length) return results;
  const publishing = (name: string) => options.publish === true || (Array.isArray(options.publish) && options.publish.includes(name));
  // The gate is read before anything is written: a check that fails stops the push whole.
  const held = options.publish ? await heldFromPublishing(io, work.map((e) => e.name).filter(publishing), { ...options.check, ...(options.signal ? { signal: options.signal } : {}) }) : new Map<string, string>();
  const count = (action: PushAction) => work.filter((e) => e.action === action).length;
  const summary = `push ${work.length} knowledge article${work.length === 1 ? "" : "s"} from a folder (${count("create")} new, ${count("draftFromOnline") + count("updateDraft")} as drafts)${options.publish ? ", publishing those that pass the check and the pre-flight" : ""}`;
  const describe = await crm.getSobject(sobject, { describe: true });
  let groups: Promise<{ name: string; topCategories: DataCategory[] }[]> | undefined;
  const categoryGroups = () => (groups ??= getDataCategoryGroups(crm));
  const recordTypes = new Map([...(await recordTypeNames(crm, describe))].map(([id, name]) => [name, id]));
  const selection = selectionObject(sobject);
  const pushedDrafts = new Map<string, PushedArticle>();

  const push: PushContext = { crm, io, sobject, describe, selection, categoryGroups, recordTypes };
  const resultOf = (entry: PushPlanEntry) => results.find((r) => r.name === entry.name)!;
  // Into the pulled org, a batch's writes are announced before they are sent, and each article's new record kept
  // once they are done: a push killed inside a batch, or after it, finds its own writes as its own.
  const recorded = plan.sameOrg && !!manifest;
  await crm.withConfirmedWrites({ method: "POST", path: `/sobjects/${sobject}`, summary, records: work.length, intent: batchIntent(summary, { object: sobject, records: work.length, area: "knowledge" }) }, async () => {
    let done = 0;
    for (let next = 0; next < work.length;) {
      if (options.signal?.aborted) {
        for (const entry of work.slice(next)) resultOf(entry).outcome = "cancelled";
        break;
      }
      // A batch's files are read and checked before any of its writes: an article that cannot be sent fails alone, having written nothing.
      const batch: Prepared[] = [];
      for (let bytes = 0; next < work.length && batch.length < PUSH_BATCH && bytes < PUSH_BATCH_BYTES;) {
        const entry = work[next++]!;
        try {
          const prepared = await prepareArticle(push, entry, resultOf(entry));
          bytes += prepared.bytes;
          batch.push(prepared);
        } catch (err) {
          failed(resultOf(entry), err);
        }
      }
      if (recorded) for (const p of batch) await keepPending(io, p.entry.name, { since: new Date().toISOString(), userId: crm.userId! });
      const pushed = await pushBatch(push, batch);
      for (const [name, article] of pushed) pushedDrafts.set(name, article);
      const records = recorded ? new Map(await pushedEntries(crm, io, manifest, sobject, pushed)) : undefined;
      for (const p of batch) {
        const record = records?.get(p.entry.name);
        if (record) await manifest!.articles.set(p.entry.name, record);
        // Pushed and kept, or failed and taken back: either way nothing of it is pending.
        if (recorded) await dropPending(io, p.entry.name);
        options.onProgress?.(++done, work.length, p.entry.title);
      }
    }
    for (const r of results) if (held.has(r.name) && pushedDrafts.has(r.name)) r.warnings.push(held.get(r.name)!);
    const toPublish = new Map([...pushedDrafts].filter(([name]) => publishing(name) && !held.has(name)));
    if (toPublish.size) await publishPassing(crm, sobject, results, toPublish, options.requiredFields, describe);
    if (!recorded) return;
    // What publishing changed (the versions now online) goes into the records too; records of an earlier layout move into theirs.
    if (toPublish.size) for (const [name, record] of await pushedEntries(crm, io, manifest, sobject, toPublish)) await manifest.articles.set(name, record);
    await writeManifest(io, manifest);
  });
  options.onProgress?.(work.length, work.length, "");
  return results;
}

/** Articles written together: a request each for their drafts, their fields, their categories and their records. */
const PUSH_BATCH = 200;
/** A batch's field values at most (images inline as data URIs): well inside what one request to the org may carry. */
const PUSH_BATCH_BYTES = 16 * 1024 * 1024;

interface PushContext {
  crm: Crm;
  io: FolderIO;
  sobject: string;
  describe: SObjectDescribe;
  selection: string;
  categoryGroups(): Promise<{ name: string; topCategories: DataCategory[] }[]>;
  recordTypes: Map<string, string>;
}

/** One article of a batch: what it sends, read and checked before any write, and what its writes made so far. */
interface Prepared {
  entry: PushPlanEntry;
  result: PushResult;
  local: LocalArticle;
  master?: Row;
  translations: { language: string; action: "submit" | "draftFromOnline" | "updateDraft"; values: Row }[];
  bytes: number;
  knowledgeArticleId?: string;
  draftId?: string;
  /** Takes back what this push made of the article (its drafts), newest first. */
  undo: (() => Promise<unknown>)[];
  translationIds?: string[];
  error?: unknown;
}

function failed(result: PushResult, err: unknown): void {
  result.outcome = "failed";
  result.message = err instanceof Error ? err.message : String(err);
}

const refusedBy = (errors: { message: string }[] | null | undefined, what: string) => new CrmError(`${what}: ${errors?.map((e) => e.message).join("; ") || "the org gave no reason"}`);

async function prepareArticle(ctx: PushContext, entry: PushPlanEntry, result: PushResult): Promise<Prepared> {
  const { io, describe } = ctx;
  const local = await readLocalArticle(io, entry.name);
  const master = entry.action === "nothing" ? undefined : await valuesOf(io, entry.name, local, describe, entry.action === "create" ? "create" : "update");
  const translations = await Promise.all(entry.translations.map(async (t) => ({ ...t, values: await valuesOf(io, entry.name, local.translations[t.language]!, describe, "update") })));
  const bytes = [master, ...translations.map((t) => t.values)].reduce((n, values) => n + (values ? JSON.stringify(values).length : 0), 0);
  return { entry, result, local, master, translations, bytes, knowledgeArticleId: entry.knowledgeArticleId, undo: [] };
}

/**
 * A batch's writes: new articles one by one, then drafts of the published ones made together, every draft's
 * fields written together, data categories set together, translations article by article. An article whose write
 * fails is taken back (the drafts this push made of it deleted) and reported; the others go on.
 */
async function pushBatch(ctx: PushContext, batch: Prepared[]): Promise<Map<string, PushedArticle>> {
  const { crm, sobject } = ctx;
  const fail = (p: Prepared, err: unknown) => (p.error ??= err);
  const going = () => batch.filter((p) => !p.error);
  try {
    for (const p of going().filter((a) => a.master && a.entry.action === "create")) {
      try {
        const recordTypeId = p.local.recordType ? ctx.recordTypes.get(p.local.recordType) : undefined;
        if (p.local.recordType && !recordTypeId) p.result.warnings.push(`record type '${p.local.recordType}' is not in this org: the org's default is used`);
        const draftId = await createArticle(crm, { ...p.master!, ...(recordTypeId ? { RecordTypeId: recordTypeId } : {}) }, { sobject });
        p.draftId = draftId;
        p.undo.push(() => deleteArticleDraft(crm, draftId));
        p.knowledgeArticleId = String((await crm.getSobjectRecord(sobject, draftId, { fields: ["KnowledgeArticleId"] })).KnowledgeArticleId);
      } catch (err) {
        fail(p, err);
      }
    }
    const fromOnline = going().filter((p) => p.master && p.entry.action === "draftFromOnline");
    const drafted = fromOnline.length ? await createDraftsFromOnlineArticles(crm, fromOnline.map((p) => p.knowledgeArticleId!)) : [];
    fromOnline.forEach((p, i) => !drafted[i]?.isSuccess && fail(p, refusedBy(drafted[i]?.errors, "The org made no draft of the published article")));
    const toUpdate = going().filter((p) => p.master && p.entry.action !== "create");
    const drafts = await draftsOf(crm, sobject, toUpdate.map((p) => p.knowledgeArticleId!));
    for (const p of toUpdate) {
      p.draftId = drafts.get(p.knowledgeArticleId!);
      if (!p.draftId) fail(p, new CrmError("The org made no draft of the published article"));
      else if (p.entry.action === "draftFromOnline") p.undo.push(() => deleteArticleDraft(crm, p.draftId!));
    }
    const updating = toUpdate.filter((p) => !p.error);
    const saved = updating.length ? await updateRecords(crm, updating.map((p) => ({ type: sobject, id: p.draftId!, fields: p.master! }))) : [];
    updating.forEach((p, i) => !saved[i]?.success && fail(p, refusedBy(saved[i]?.errors, "The org refused the draft's fields")));
    await setCategories(ctx, going().filter((p) => p.draftId));
    for (const p of going().filter((a) => a.translations.length)) {
      try {
        await pushTranslations(ctx, p);
      } catch (err) {
        fail(p, err);
      }
    }
  } catch (err) {
    // A request for the whole batch failed: every article not yet refused on its own fails with it.
    for (const p of going()) fail(p, err);
  }
  const pushed = new Map<string, PushedArticle>();
  for (const p of batch) {
    if (!p.error) {
      if (p.draftId) p.result.versionId = p.draftId;
      pushed.set(p.entry.name, { ...(p.draftId ? { masterId: p.draftId } : {}), knowledgeArticleId: p.knowledgeArticleId!, translationIds: p.translationIds ?? [] });
      continue;
    }
    const notUndone: string[] = [];
    for (const step of p.undo.reverse()) await step().catch((e: Error) => notUndone.push(e.message));
    failed(p.result, p.error);
    if (notUndone.length) p.result.message += ` (a draft this push made could not be deleted: ${notUndone.join("; ")})`;
  }
  return pushed;
}

/** Each draft's data categories as its file lists them, matched by name (the draft's others removed): one query and a request or two for the batch. */
async function setCategories(ctx: PushContext, articles: Prepared[]): Promise<void> {
  const { crm, selection } = ctx;
  if (!articles.length) return;
  const key = (r: Row) => `${String(r.DataCategoryGroupName)}/${String(r.DataCategoryName)}`;
  const have = groupBy(await inChunks(articles.map((p) => p.draftId!), async (list) => (await crm.queryAll<Row>(`SELECT Id, ParentId, DataCategoryGroupName, DataCategoryName FROM ${selection} WHERE ParentId IN (${list})`)).records), (r) => String(r.ParentId).slice(0, 15));
  const adds: { p: Prepared; fields: Row }[] = [];
  const removals: { p: Prepared; id: string }[] = [];
  for (const p of articles) {
    const current = have.get(p.draftId!.slice(0, 15)) ?? [];
    for (const wanted of p.local.dataCategories.filter((c) => !current.some((r) => key(r) === c))) {
      const [group, category] = wanted.split("/") as [string, string];
      if (!categoryExists(await ctx.categoryGroups(), group, category)) p.result.warnings.push(`data category '${wanted}' is not in this org: not assigned`);
      else adds.push({ p, fields: { ParentId: p.draftId, DataCategoryGroupName: group, DataCategoryName: category } });
    }
    for (const extra of current.filter((r) => !p.local.dataCategories.includes(key(r)))) removals.push({ p, id: String(extra.Id) });
  }
  const added = adds.length ? await createRecords(crm, selection, adds.map((a) => a.fields)) : [];
  adds.forEach((a, i) => !added[i]?.success && (a.p.error ??= refusedBy(added[i]?.errors, "The org refused a data category")));
  const removed = removals.length ? await removeRecords(crm, removals.map((r) => r.id)) : [];
  removals.forEach((r, i) => !removed[i]?.success && (r.p.error ??= refusedBy(removed[i]?.errors, "The org kept a data category the file no longer lists")));
}

/** An article's pushed translations, one by one: a draft of each (submitted, drafted from online, or its draft), updated. */
async function pushTranslations(ctx: PushContext, p: Prepared): Promise<void> {
  const { crm, sobject } = ctx;
  p.translationIds = [];
  for (const { language, values } of p.translations) {
    const existing = current((await translationRows(crm, sobject, p.knowledgeArticleId!)).filter((r) => r.Language === language));
    let id: string;
    if (existing?.PublishStatus === "Draft") id = String(existing.Id);
    else {
      id = existing ? await createDraftFromOnlineTranslation(crm, String(existing.Id), { sobject }) : String((await submitForTranslation(crm, p.knowledgeArticleId!, [language], { sobject }))[0]!.Id);
      p.undo.push(() => deleteTranslation(crm, id));
    }
    await updateArticle(crm, id, values, { sobject });
    p.translationIds.push(id);
  }
}

async function translationRows(crm: Crm, sobject: string, knowledgeArticleId: string): Promise<Row[]> {
  return (await crm.queryAll<Row>(`SELECT Id, Language, PublishStatus, VersionNumber FROM ${sobject} WHERE KnowledgeArticleId = ${soqlLiteral(knowledgeArticleId)} AND IsMasterLanguage = false AND PublishStatus IN ('Draft', 'Online')`)).records;
}

/** Each article's master draft, by article ID (queried 200 articles at a time). */
async function draftsOf(crm: Crm, sobject: string, knowledgeArticleIds: string[]): Promise<Map<string, string>> {
  const rows = knowledgeArticleIds.length ? await inChunks(knowledgeArticleIds, async (list) => (await crm.queryAll<Row>(`SELECT Id, KnowledgeArticleId FROM ${sobject} WHERE KnowledgeArticleId IN (${list}) AND IsMasterLanguage = true AND PublishStatus = 'Draft'`)).records) : [];
  return new Map(rows.map((r) => [String(r.KnowledgeArticleId), String(r.Id)]));
}

type PushedArticle = { masterId?: string; knowledgeArticleId: string; translationIds: string[] };

/** Publishes pushed drafts (the check passed) that pass the pre-flight, then their pushed translations (a translation alone: when its master is published). */
async function publishPassing(crm: Crm, sobject: string, results: PushResult[], pushed: Map<string, PushedArticle>, requiredFields: string[] | undefined, describe: SObjectDescribe): Promise<void> {
  const masters = [...pushed.values()].flatMap((p) => (p.masterId ? [p.masterId] : []));
  const reports = masters.length ? await preflightPublish(crm, masters, { sobject, describe, requiredFields }) : [];
  const passing = new Set(reports.filter((r) => r.passed).map((r) => r.id));
  const refused = passing.size && (await publishMultipleArticles(crm, [...passing], { majorVersion: true })).some((o) => !o.isSuccess);
  for (const [name, article] of pushed) {
    const result = results.find((r) => r.name === name)!;
    const report = reports.find((r) => r.id === article.masterId);
    if (report && !report.passed) {
      result.warnings.push(`not published: ${report.problems.filter((p) => p.severity === "error").map((p) => p.message).join("; ")}`);
      continue;
    }
    if (report && refused) {
      result.warnings.push("not published: the org refused the publication");
      continue;
    }
    result.published = !!report;
    if (!article.translationIds.length) continue;
    const translated = await publishTranslations(crm, article.translationIds);
    if (translated.some((t) => !t.isSuccess)) result.warnings.push(`a translation was not published: ${translated.flatMap((t) => t.errors?.map((e) => e.message) ?? []).join("; ") || "the org refused it"}`);
  }
}

/** The folder's record of pushed articles: the versions the org now holds, and the files as pushed. */
async function pushedEntries(crm: Crm, io: FolderIO, manifest: FolderManifest, sobject: string, pushed: Map<string, { knowledgeArticleId: string }>): Promise<[string, ManifestArticle][]> {
  const versions = await orgVersions(crm, sobject, [...pushed.values()].map((p) => p.knowledgeArticleId));
  const entries: [string, ManifestArticle][] = [];
  for (const [name, { knowledgeArticleId }] of pushed) {
    const rows = versions.get(knowledgeArticleId) ?? [];
    const master = current(rows.filter((r) => r.IsMasterLanguage !== false));
    if (!master) continue;
    const translations = [...groupBy(rows.filter((r) => r.IsMasterLanguage === false), (r) => String(r.Language))].map(([language, list]) => [language, pulled(current(list)!)]);
    entries.push([name, {
      ...pulled(master), knowledgeArticleId, articleNumber: (await manifest.articles.get(name))?.articleNumber ?? String(master.ArticleNumber ?? ""),
      files: await hashArticleFiles(io, name), translations: Object.fromEntries(translations), blocks: await masterBlocksOnDisk(io, name),
    }]);
  }
  return entries;
}

export { MANIFEST_FILE } from "./folderFiles";
