/**
 * The pre-flight of a knowledge folder, without the org: what a push would be refused for, or would publish
 * wrongly, found on the files of a pull request. Each finding names the article's file and line. With a client
 * the same check asks the org too: publish state, conflicts, data categories and links it alone knows.
 *
 * The folder is read one article at a time (what is kept across articles: names, links, languages), so a check
 * of 10,000 articles holds about as much as one of ten.
 */
import type { Crm } from "../client/crm";
import { CrmError } from "../client/errors";
import {
  type FolderIO, type FolderManifest, type LocalArticle, type ManifestArticle, type RecordedField, IMAGE_TYPES, MAX_IMAGE_BYTES, MANIFEST_FILE, folderImageSources,
  blockHashes, changedFiles, checkRelativePath, guardFolder, hashArticleFiles, readLocalArticle, readManifest, readingOnce,
} from "./folderFiles";
import { categoryExists } from "./categories";
import { getDataCategoryGroups } from "../client/knowledge";
import { articleFolders, folderStatus } from "./folderStatus";
import { soqlLiteral } from "../client/soql-text";
import { type OrgHosts, articleLinks, orgLinkHosts, orgLinkTestFor } from "../client/versions";

export type FindingRule =
  | "folder" | "field" | "required" | "length" | "picklist" | "type" | "richText" | "link" | "image" | "urlName" | "translation" | "org" | "category";

export interface Finding {
  rule: FindingRule;
  /** An error stops the article from being pushed or published as it is; a warning is for a person to look at. */
  severity: "error" | "warning";
  /** The article's folder ("" for the folder as a whole). */
  article: string;
  /** The file within the knowledge folder (`reset-password/article.yaml`). */
  file: string;
  /** 1-based, where the finding has one. */
  line?: number;
  message: string;
}

export interface CheckOptions {
  /**
   * What sanitizing a piece of rich text takes out of it (each a short description, such as `<script> element`):
   * what readers would not see; undefined when this judge cannot tell (a host without a DOM): the piece is then an
   * error all the same, to be judged where a full sanitizer runs. The client has no HTML parser of its own;
   * without this the rule is skipped.
   */
  richTextRemovals?(html: string): string[] | undefined;
  /** Languages every article should have a translation in (none by default: only translations the pull recorded and the folder lost are reported). */
  languages?: string[];
  /** Only these article folders are reported on (all by default); the others still count as link targets and for duplicates. */
  only?: string[];
  /** With a client of an org: the checks against it (the org the folder was pulled from, or any other). */
  crm?: Crm;
  signal?: AbortSignal;
  /**
   * Checks the articles elsewhere (the CLI spreads a large folder's over worker threads): given the number of
   * articles and the folder's facts, a checker that does what `articleCheckerOf` does on the same folder, and how
   * many articles to have under way at once; undefined to check them in this thread.
   */
  spread?(articles: number, facts: FolderFacts): { check: ArticleChecker; width: number } | undefined;
}

export interface CheckResult {
  /** The article folders checked. */
  articles: string[];
  findings: Finding[];
}

type Row = Record<string, unknown>;
/** The org's rule for URL names: letters, digits and hyphens, not starting or ending with one. */
const URL_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const MAX_URL_NAME = 255;
const blank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && !v.replace(/<[^>]*>|&nbsp;|\s/g, ""));
const text = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : "");
/** The first bytes of each image type the org takes. */
const MAGIC: Record<string, number[][]> = { "image/png": [[0x89, 0x50, 0x4e, 0x47]], "image/jpeg": [[0xff, 0xd8, 0xff]], "image/gif": [[0x47, 0x49, 0x46, 0x38]] };
const isType = (bytes: Uint8Array, type: string) => (MAGIC[type] ?? []).some((sig) => sig.every((b, i) => bytes[i] === b));
const NUMERIC = new Set(["double", "currency", "percent", "int", "long"]);

/**
 * A copy of a string that holds on to nothing else. A value read out of a file (by the YAML parser, a regular
 * expression) can be a slice of the whole file's text: kept across articles, it would keep every file read.
 */
const kept = (value: string): string => JSON.parse(JSON.stringify(value)) as string;

/** The line (1-based) of the first line matching, or undefined. */
function lineWhere(content: string, test: (line: string) => boolean): number | undefined {
  const index = content.split(/\r?\n/).findIndex(test);
  return index < 0 ? undefined : index + 1;
}
/** A key's line in article.yaml (under `fields:` when it is a field). */
function keyLine(yaml: string, key: string): number | undefined {
  const field = new RegExp(`^\\s+${key.replace(/[^\w]/g, "")}\\s*:`);
  return lineWhere(yaml, (l) => field.test(l)) ?? lineWhere(yaml, (l) => l.startsWith(`${key}:`));
}
function lineOf(content: string, needle: string): number | undefined {
  const sought = needle.toLowerCase();
  return needle ? lineWhere(content, (l) => l.toLowerCase().includes(sought)) : undefined;
}
/** The line a YAML or folder error names ("…, line 4 is not valid…"). */
const lineInMessage = (message: string) => Number(/\bline (\d+)\b/.exec(message)?.[1]) || undefined;

/** One version of an article as the check reads it: its files and what they hold. */
interface Version {
  language?: string;
  yamlFile: string;
  yaml: string;
  fields: Record<string, unknown>;
  /** Field → the file's laid-out text (as on disk) and the stored HTML. */
  richText: Record<string, { file: string; content: string; html: string }>;
  facts: Record<string, unknown>;
}

interface Place { article: string; file: string; line?: number }
/** The place of a version of an article (the version's language is in its URL name's key); its line is found when it is reported. */
const placeOf = (article: string, language: string | undefined): Place => ({ article, file: `${article}/article${language ? `.${language}` : ""}.yaml` });

interface LinkFound { article: string; file: string; line?: number; href: string; urlName?: string; id?: string }

/**
 * What an article's check needs of its folder beyond the article's own files, the same for every article: plain
 * data, so an article may be checked in another thread (`CheckOptions.spread`).
 */
export interface FolderFacts {
  /** The org's hosts, for telling its links from others (`orgLinkHosts`). */
  orgHosts: OrgHosts;
  languages: string[];
  /** The check asks the org too: the article's data categories are kept for it. */
  withOrg: boolean;
}

/** What the check of one article found, and what it keeps for the checks across articles (links, URL names). */
export interface ArticleOutcome {
  /** Findings in this article's files (none when it is not reported). */
  findings: Omit<Finding, "article">[];
  neverPublished: boolean;
  /** The URL name and IDs by which other articles link to this one. */
  targets: string[];
  /** Each version's URL name (`language:name`) and its file. */
  urlNames: { key: string; file: string }[];
  links: Omit<LinkFound, "article">[];
  categories: { file: string; line?: number; category: string }[];
}

/** Checks one article (as `articleCheckerOf` does) and hands on its outcome: in this thread, or in another with the same folder. */
export type ArticleChecker = (name: string, reported: boolean) => Promise<ArticleOutcome>;

/** Checks a knowledge folder; see the module comment. Reads the files; sends nothing unless `crm` is given. */
export async function checkFolder(folder: FolderIO, options: CheckOptions = {}): Promise<CheckResult> {
  const io = guardFolder(folder);
  const findings: Finding[] = [];
  let manifest: FolderManifest | undefined;
  try {
    manifest = await readManifest(io);
  } catch (err) {
    findings.push({ rule: "folder", severity: "error", article: "", file: MANIFEST_FILE, line: lineInMessage((err as Error).message), message: (err as Error).message });
  }
  const names = await articleFolders(io);
  const unknown = options.only?.filter((n) => !names.includes(n));
  if (unknown?.length) throw new CrmError(`No article folder named ${unknown.map((n) => `'${n}'`).join(", ")} in this knowledge folder`);
  const reported = (name: string) => !options.only || options.only.includes(name);
  if (!manifest?.fields) {
    findings.push({ rule: "field", severity: "warning", article: "", file: MANIFEST_FILE, message: manifest
      ? "This folder was pulled before the pull recorded the org's fields: required fields, lengths and picklist values are not checked. Pull it again to check them."
      : "This folder has no record of a pull: required fields, lengths and picklist values are not checked (pull the articles into it to check them)." });
  }
  const facts: FolderFacts = {
    orgHosts: options.crm ? await orgLinkHosts(options.crm) : { instanceUrl: manifest?.org.instanceUrl ?? "", customDomains: [] },
    languages: options.languages ?? [],
    withOrg: !!options.crm,
  };
  const spread = options.spread?.(names.length, facts);
  const check = spread?.check ?? articleCheckerOf(io, manifest, facts, options.richTextRemovals);

  // Kept across articles: small facts, not the articles — and as few objects as will do, for 10,000 articles.
  /** Each URL name (`language:name`): the article first using it, every place once it is used again. */
  const urlNames = new Map<string, string | Place[]>();
  /** Each article's URL name and IDs → its folder; and the folders of articles never published. */
  const targets = new Map<string, string>();
  const neverPublished = new Set<string>();
  const links: LinkFound[] = [];
  /** Kept only to ask the org (with `crm`). */
  const categories: { article: string; file: string; line?: number; category: string }[] = [];

  // Articles are checked a few ahead of the one taken in (each file read once), and handed in in order.
  for await (const [name, outcome] of loadedAhead(names, spread?.width ?? READ_AHEAD, (name) => check(name, reported(name)))) {
    options.signal?.throwIfAborted();
    if (outcome.neverPublished) neverPublished.add(name);
    for (const key of outcome.targets) targets.set(key, name);
    for (const f of outcome.findings) findings.push({ article: name, ...f });
    for (const { key, file } of outcome.urlNames) {
      const before = urlNames.get(key);
      const language = key.slice(0, key.indexOf(":")) || undefined;
      // The lines are looked for only once the name is used again (rare): each place's file is read again then.
      urlNames.set(key, before === undefined ? name : [...(typeof before === "string" ? [placeOf(before, language)] : before), { article: name, file }]);
    }
    for (const link of outcome.links) links.push({ article: name, ...link });
    for (const c of outcome.categories) categories.push({ article: name, ...c });
  }

  for (const places of urlNames.values()) {
    if (typeof places === "string") continue;
    for (const p of places) {
      p.line ??= keyLine(text(await io.read(p.file)), "UrlName");
      findings.push({ rule: "urlName", severity: "error", article: p.article, file: p.file, line: p.line, message: `The URL name is also used by ${places.filter((o) => o !== p).map((o) => `'${o.article}'`).join(", ")}: URL names are unique in the org.` });
    }
  }
  const outside = await resolveLinks(links, targets, neverPublished, options.crm, manifest?.sobject);
  for (const { link, problem } of outside) findings.push({ rule: "link", severity: problem.severity, article: link.article, file: link.file, line: link.line, message: problem.message });
  if (options.crm) await checkAgainstOrg(options.crm, io, names.filter(reported), categories.filter((c) => reported(c.article)), findings);
  const order = (f: Finding) => `${f.article}\u0000${f.file}\u0000${String(f.line ?? 0).padStart(9, "0")}`;
  return { articles: names.filter(reported), findings: findings.sort((a, b) => order(a).localeCompare(order(b))) };
}

/**
 * The check of one article of a folder, with what the folder's record says of it: its fields, URL names, rich
 * text, images, links and translations. `folder` is the knowledge folder (guarded here); the outcome is plain data.
 */
export function articleCheckerOf(folder: FolderIO, manifest: FolderManifest | undefined, facts: FolderFacts, richTextRemovals: CheckOptions["richTextRemovals"]): ArticleChecker {
  const io = guardFolder(folder);
  const isOrgLink = orgLinkTestFor(facts.orgHosts.instanceUrl, facts.orgHosts.customDomains);
  return async (name, reported) => {
    const outcome: ArticleOutcome = { findings: [], neverPublished: false, targets: [], urlNames: [], links: [], categories: [] };
    const add: Add = (f) => reported && outcome.findings.push(f);
    const articleIO = readingOnce(io);
    let local: LocalArticle, pulled: ManifestArticle | undefined, versions: Version[], hashes: Record<string, string> | undefined;
    try {
      local = await readLocalArticle(articleIO, name);
      pulled = await manifest?.articles.get(name);
      versions = await versionsOf(articleIO, local);
      hashes = pulled ? await hashArticleFiles(articleIO, name) : undefined;
    } catch (err) {
      if (!(err instanceof CrmError)) throw err;
      add({ rule: "folder", severity: "error", file: /^\S+/.exec(err.message)?.[0]?.replace(/[,:]$/, "") ?? `${name}/article.yaml`, line: lineInMessage(err.message), message: err.message });
      return outcome;
    }
    const master = versions[0]!;
    outcome.neverPublished = master.facts.PublishStatus !== "Online" && !master.facts.LastPublishedDate;
    for (const key of [String(master.fields.UrlName ?? ""), pulled?.knowledgeArticleId?.slice(0, 15), pulled?.versionId?.slice(0, 15)]) {
      if (key) outcome.targets.push(kept(key));
    }
    if (!reported) return outcome;
    if (facts.withOrg) for (const category of local.dataCategories) outcome.categories.push({ file: master.yamlFile, line: lineOf(master.yaml, category), category: kept(category) });
    checkLanguages(master.yamlFile, Object.keys(local.translations), Object.keys(pulled?.translations ?? {}), facts.languages, add);

    for (const version of versions) {
      if (manifest?.fields) checkFields(version, manifest.fields, add);
      checkUrlName(version, add);
      const urlName = String(version.fields.UrlName ?? "");
      if (urlName) outcome.urlNames.push({ key: kept(`${version.language ?? ""}:${urlName}`), file: version.yamlFile });
      for (const { file, content, html } of Object.values(version.richText)) {
        const removals = richTextRemovals ? richTextRemovals(html) : [];
        if (!removals) add({ rule: "richText", severity: "error", file, message: "Holds markup beyond plain elements and attributes, which only the full check can judge: run crm-knowledge check on the folder, and publish the article there or from its draft." });
        for (const removed of removals ?? []) {
          add({ rule: "richText", severity: "error", file, line: lineOf(content, /\b(\S+) attribute\b/.exec(removed)?.[1] ?? /<\w+/.exec(removed)?.[0] ?? ""), message: `Sanitizing removes ${removed}: readers would not see what the file holds.` });
        }
        for (const link of articleLinks(html).filter((l) => isOrgLink(l.href))) outcome.links.push(JSON.parse(JSON.stringify({ file, line: lineOf(content, link.href), ...link })) as Omit<LinkFound, "article">);
        await checkImages(articleIO, name, file, content, add);
      }
    }
    checkTranslations(versions, pulled, hashes, add);
    return outcome;
  };
}

/** The master (first) and each translation, with their files' text. */
async function versionsOf(io: FolderIO, local: LocalArticle): Promise<Version[]> {
  const version = async (language: string | undefined, v: { fields: Record<string, unknown>; richText: Record<string, string>; facts: Record<string, unknown> }): Promise<Version> => {
    const suffix = language ? `.${language}` : "";
    const yamlFile = `${local.name}/article${suffix}.yaml`;
    const richText: Version["richText"] = {};
    for (const [field, html] of Object.entries(v.richText)) {
      const file = `${local.name}/${field}${suffix}.html`;
      richText[field] = { file, content: text(await io.read(file)), html };
    }
    return { ...(language ? { language } : {}), yamlFile, yaml: text(await io.read(yamlFile)), fields: v.fields, richText, facts: v.facts };
  };
  return [await version(undefined, local), ...(await Promise.all(Object.entries(local.translations).map(([language, t]) => version(language, t))))];
}

type Add = (f: Omit<Finding, "article">) => void;

/** How many articles are read ahead of the one checked: enough to keep the disk busy, few enough to hold little. */
const READ_AHEAD = 8;

/** Each item's load, started up to `width` items ahead and handed out in order: at most `width` loads are held at once. */
async function* loadedAhead<T, R>(items: readonly T[], width: number, load: (item: T) => Promise<R>): AsyncGenerator<[T, R]> {
  const started = new Map<number, Promise<R>>();
  const start = (i: number) => {
    if (i >= items.length) return;
    const loading = load(items[i]!);
    loading.catch(() => undefined); // awaited in turn below; a consumer that stops early leaves no unhandled rejection
    started.set(i, loading);
  };
  for (let i = 0; i < width; i++) start(i);
  for (let i = 0; i < items.length; i++) {
    const value = await started.get(i)!;
    started.delete(i);
    start(i + width);
    yield [items[i]!, value];
  }
}

/** Each field against what the org's describe said at the pull: known, filled when required, within its length, of its type, an allowed value. */
function checkFields(version: Version, fields: Record<string, RecordedField>, add: Add): void {
  const at = (field: string) => ({ file: version.yamlFile, line: keyLine(version.yaml, field) });
  const values: Record<string, unknown> = { ...version.fields, ...Object.fromEntries(Object.entries(version.richText).map(([f, r]) => [f, r.html])) };
  for (const [field, value] of Object.entries(values)) {
    const spec = fields[field];
    if (!spec) {
      add({ rule: "field", severity: "error", ...(version.richText[field] ? { file: version.richText[field].file } : at(field)), message: `The article type has no field '${field}' (as the org described it at the pull).` });
      continue;
    }
    if (value === null || value === undefined || value === "") continue;
    // Only a finding needs the line: looking for it in the file is most of this function's time.
    const place = () => (version.richText[field] ? { file: version.richText[field].file, line: 1 } : at(field));
    if (spec.type === "boolean" && typeof value !== "boolean") add({ rule: "type", severity: "error", ...place(), message: `${spec.label ?? field} is a checkbox: true or false, not ${JSON.stringify(value)}.` });
    else if (NUMERIC.has(spec.type) && typeof value !== "number") add({ rule: "type", severity: "error", ...place(), message: `${spec.label ?? field} is a number, not ${JSON.stringify(value)}.` });
    else if (spec.type === "date" && !(typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value))) add({ rule: "type", severity: "error", ...place(), message: `${spec.label ?? field} is a date (YYYY-MM-DD), not ${JSON.stringify(value)}.` });
    // The org counts characters, not UTF-16 units: counted only when the units are over (never fewer units than characters).
    const length = typeof value === "string" && spec.length && value.length > spec.length ? [...value].length : 0;
    if (spec.length && length > spec.length) add({ rule: "length", severity: "error", ...place(), message: `${spec.label ?? field} is ${length} characters long; the org takes at most ${spec.length}.` });
    if (spec.values && typeof value === "string" && !value.split(";").every((v) => spec.values!.includes(v))) {
      add({ rule: "picklist", severity: "error", ...place(), message: `${spec.label ?? field} must be one of ${spec.values.map((v) => `'${v}'`).join(", ")}, not '${value}'.` });
    }
  }
  for (const [field, spec] of Object.entries(fields)) {
    if (spec.required && blank(values[field])) add({ rule: "required", severity: "error", ...(version.fields[field] === undefined ? { file: version.yamlFile } : at(field)), message: `${spec.label ?? field} is required and empty.` });
  }
}

function checkUrlName(version: Version, add: Add): void {
  const urlName = version.fields.UrlName;
  if (urlName === undefined || urlName === null || urlName === "") return; // a required field: checked there
  const where = () => ({ file: version.yamlFile, line: keyLine(version.yaml, "UrlName") });
  if (typeof urlName !== "string" || !URL_NAME.test(urlName)) add({ rule: "urlName", severity: "error", ...where(), message: `The URL name ${JSON.stringify(urlName)} may hold only letters, digits and hyphens, and may not start or end with a hyphen.` });
  else if (urlName.length > MAX_URL_NAME) add({ rule: "urlName", severity: "error", ...where(), message: `The URL name is ${urlName.length} characters long; the org takes at most ${MAX_URL_NAME}.` });
}

/** The folder's images the rich text shows: there, of a type the org takes (by name and by content), at most 1 MB. */
async function checkImages(io: FolderIO, name: string, file: string, content: string, add: Add): Promise<void> {
  for (const source of folderImageSources(content)) {
    const at = { file, line: lineOf(content, source) };
    let imageFile: string;
    try {
      imageFile = checkRelativePath(`${name}/${source}`);
    } catch {
      add({ rule: "image", severity: "error", ...at, message: `${source} is outside the article's folder.` });
      continue;
    }
    const found = await io.stat(imageFile).catch((err: Error) => err);
    if (found instanceof Error) {
      add({ rule: "image", severity: "error", ...at, message: found.message });
      continue;
    }
    if (!found || found.type !== "file") {
      add({ rule: "image", severity: "error", ...at, message: `${imageFile} is missing: the rich text shows it.` });
      continue;
    }
    const type = IMAGE_TYPES[/\.(\w+)$/.exec(imageFile)?.[1]?.toLowerCase() ?? ""];
    if (!type) {
      add({ rule: "image", severity: "error", ...at, message: `${imageFile}: the org takes PNG, JPEG and GIF images only.` });
      continue;
    }
    if (found.size > MAX_IMAGE_BYTES) {
      add({ rule: "image", severity: "error", ...at, message: `${imageFile} is ${(found.size / 1048576).toFixed(1)} MB: the org takes images of at most 1 MB.` });
      continue;
    }
    const bytes = (await io.read(imageFile))!;
    if (!isType(bytes, type)) add({ rule: "image", severity: "error", ...at, message: `${imageFile} is not a ${type.slice(6).toUpperCase()} image, whatever its name says: the org would refuse it.` });
  }
}

/** The languages every article is to have and it lacks; those the pull recorded whose files are gone. */
function checkLanguages(file: string, languages: string[], pulled: string[], wanted: string[], add: Add): void {
  const missing = wanted.filter((l) => !languages.includes(l));
  if (missing.length) add({ rule: "translation", severity: "warning", file, message: `No translation into ${missing.join(", ")} (every article is to be translated into ${wanted.join(", ")}).` });
  const lost = pulled.filter((l) => !languages.includes(l));
  if (lost.length) add({ rule: "translation", severity: "warning", file, message: `The ${lost.join(", ")} translation${lost.length === 1 ? " was" : "s were"} pulled, and ${lost.length === 1 ? "its" : "their"} files are gone from the folder: a push leaves ${lost.length === 1 ? "it" : "them"} in the org as ${lost.length === 1 ? "it is" : "they are"}.` });
}

/**
 * A translation is out of date when its master changed after it: at the pull (the master was published after the
 * translation last changed), or in the folder since (the master's files changed, the translation's did not) —
 * then the master's blocks that changed are named, from the hashes the pull recorded.
 */
function checkTranslations(versions: Version[], entry: ManifestArticle | undefined, hashes: Record<string, string> | undefined, add: Add): void {
  const [master, ...translations] = versions;
  if (!master || !translations.length) return;
  const changed = entry && hashes ? changedFiles(entry.files, hashes) : [];
  const masterChanged = changed.filter((f) => f === "article.yaml" || /^[A-Za-z]\w*\.html$/.test(f));
  const changedBlocks = Object.entries(master.richText).flatMap(([field, r]) => {
    const before = new Set(entry?.blocks?.[field] ?? []);
    if (!masterChanged.includes(`${field}.html`) || !before.size) return [];
    const lines = r.content.split(/\r?\n/);
    const hashes = blockHashes(r.content);
    let h = 0;
    return lines.flatMap((line, i) => (line.trim() ? (before.has(hashes[h++]!) ? [] : [`${field}.html line ${i + 1}`]) : []));
  });
  const masterPublished = Date.parse(String(master.facts.LastPublishedDate ?? ""));
  for (const t of translations) {
    const own = changed.some((f) => f === `article.${t.language}.yaml` || f.endsWith(`.${t.language}.html`));
    if (masterChanged.length && !own) {
      const what = changedBlocks.length ? `the blocks at ${changedBlocks.slice(0, 10).join(", ")}${changedBlocks.length > 10 ? ` and ${changedBlocks.length - 10} more` : ""}` : masterChanged.join(", ");
      add({ rule: "translation", severity: "warning", file: t.yamlFile, line: 1, message: `The ${t.language} translation is out of date: its master changed in this folder (${what}) and the translation did not.` });
      continue;
    }
    const translated = Date.parse(String(t.facts.LastModifiedDate ?? ""));
    if (!own && masterPublished > translated) {
      add({ rule: "translation", severity: "warning", file: t.yamlFile, line: keyLine(t.yaml, "LastModifiedDate"), message: `The ${t.language} translation is out of date: the master was published on ${String(master.facts.LastPublishedDate).slice(0, 10)}, after the translation last changed (${String(t.facts.LastModifiedDate).slice(0, 10)}).` });
    }
  }
}

/** Links to this org's articles: to one in the folder that is not published, or to one not in the folder (asked of the org when there is one). */
async function resolveLinks(links: LinkFound[], targets: Map<string, string>, neverPublished: Set<string>, crm: Crm | undefined, sobject = "Knowledge__kav"): Promise<{ link: LinkFound; problem: Pick<Finding, "severity" | "message"> }[]> {
  const keyOf = (l: LinkFound) => (l.urlName ?? l.id!.slice(0, 15));
  const outside = links.filter((l) => !targets.has(keyOf(l)));
  const publishedInOrg = new Set<string>();
  if (crm && outside.length) {
    const names = [...new Set(outside.flatMap((l) => (l.urlName ? [l.urlName] : [])))];
    const ids = [...new Set(outside.flatMap((l) => (l.id ? [l.id] : [])))];
    for (let i = 0; i < Math.max(names.length, ids.length); i += 200) {
      const n = names.slice(i, i + 200), d = ids.slice(i, i + 200);
      const where = [n.length ? `UrlName IN (${n.map(soqlLiteral).join(", ")})` : "", d.length ? `Id IN (${d.map(soqlLiteral).join(", ")}) OR KnowledgeArticleId IN (${d.map(soqlLiteral).join(", ")})` : ""].filter(Boolean).join(" OR ");
      for (const r of (await crm.queryAll<Row>(`SELECT Id, KnowledgeArticleId, UrlName FROM ${sobject} WHERE PublishStatus = 'Online' AND (${where})`)).records) {
        publishedInOrg.add(String(r.UrlName)).add(String(r.Id).slice(0, 15)).add(String(r.KnowledgeArticleId).slice(0, 15));
      }
    }
  }
  return links.flatMap((link): { link: LinkFound; problem: Pick<Finding, "severity" | "message"> }[] => {
    const target = targets.get(keyOf(link));
    const named = link.urlName ? `'${link.urlName}'` : link.id!;
    if (target) return !neverPublished.has(target) ? [] : [{ link, problem: { severity: "warning", message: `Links to ${named} ('${target}' in this folder), which has never been published: readers cannot open it until it is.` } }];
    if (!crm) return [{ link, problem: { severity: "warning", message: `Links to ${named}, which is not in this folder (check with --org whether the org has it published).` } }];
    return publishedInOrg.has(keyOf(link)) ? [] : [{ link, problem: { severity: "error", message: `Links to ${named}, which is neither in this folder nor published in the org: readers would find a broken link.` } }];
  });
}

/** What only the org knows: whether each article is still there and unchanged since the pull, and its data categories exist. */
async function checkAgainstOrg(crm: Crm, io: FolderIO, names: string[], categories: { article: string; file: string; line?: number; category: string }[], findings: Finding[]): Promise<void> {
  const status = await folderStatus(io, { crm });
  const checked = new Set(names);
  for (const a of status.articles.filter((s) => checked.has(s.name))) {
    const file = `${a.name}/article.yaml`;
    if (a.conflict) findings.push({ rule: "org", severity: "error", article: a.name, file, message: "Changed both in this folder and in the org since the pull: a push refuses it until it is pulled again (or pushed with --overwrite-conflicts)." });
    else if (a.org === "gone") findings.push({ rule: "org", severity: "error", article: a.name, file, message: "No longer in the org as a draft or published article (archived or deleted there): a push would create it again." });
    else if (a.org === "changed") findings.push({ rule: "org", severity: "warning", article: a.name, file, message: "Changed in the org since the pull: pull it again to see the org's version." });
  }
  if (!categories.length) return;
  const groups = await getDataCategoryGroups(crm);
  for (const c of categories) {
    const [group, category] = c.category.split("/") as [string, string];
    if (!categoryExists(groups, group, category)) findings.push({ rule: "category", severity: "error", article: c.article, file: c.file, line: c.line, message: `The data category '${c.category}' does not exist in the org: a push would leave it unassigned.` });
  }
}

/**
 * The publish gate's folder rule, the same for every surface that publishes a folder's articles (VS Code's Push
 * and publish, `crm-knowledge push --publish`): an article the check finds an error in is pushed as a draft and not
 * published. Of `names`, those held back, each with what the check found (the rest of the folder is read as link
 * targets and for duplicates, as the check reads it).
 */
export async function heldFromPublishing(io: FolderIO, names: string[], options: Pick<CheckOptions, "richTextRemovals" | "languages" | "signal"> = {}): Promise<Map<string, string>> {
  const held = new Map<string, Finding[]>();
  if (!names.length) return new Map();
  for (const f of (await checkFolder(io, { ...options, only: names })).findings) {
    if (f.severity === "error" && f.article) held.set(f.article, [...(held.get(f.article) ?? []), f]);
  }
  return new Map([...held].map(([name, found]) => [name, `not published: the check found ${found.map((f) => `${f.file}${f.line ? `:${f.line}` : ""} ${f.message}`).join("; ")}`]));
}
