/**
 * The files of a knowledge folder: where each part of an article lives, the folder's record of the pull,
 * rich text laid out for diffs (and put back byte for byte), and the file access the sync runs on.
 *
 *   crm-knowledge.yaml             the pull: org, time, each article's version and LastModifiedDate, file hashes
 *   <UrlName>/article.yaml         writable fields, record type, data categories; `org:` facts (read-only)
 *   <UrlName>/<Field>.html         one per rich-text field
 *   <UrlName>/article.fr.yaml      a translation's fields, and <Field>.fr.html its rich text
 *   <UrlName>/images/<name>        the images the rich text shows, referenced as `images/<name>`
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { dump, load } from "js-yaml";
import { CrmError } from "./errors";

/** Where the sync reads and writes: paths are relative, with `/`. The extension passes VS Code's file system. */
export interface FolderIO {
  /** The file's bytes, or undefined when there is no such file. */
  read(relativePath: string): Promise<Uint8Array | undefined>;
  write(relativePath: string, data: Uint8Array): Promise<void>;
  remove(relativePath: string): Promise<void>;
  /** The entries of a folder; none when it does not exist. */
  list(relativePath: string): Promise<{ name: string; directory: boolean }[]>;
}

export const MANIFEST_FILE = "crm-knowledge.yaml";
export const IMAGES_DIR = "images";

export interface PulledVersion {
  versionId: string;
  publishStatus: string;
  lastModifiedDate: string;
}

export interface ManifestArticle extends PulledVersion {
  articleNumber: string;
  knowledgeArticleId: string;
  /** Each file of the article's folder as pulled (or last pushed): path within the folder → SHA-256. */
  files: Record<string, string>;
  /** By language code. */
  translations: Record<string, PulledVersion>;
}

export interface FolderManifest {
  org: { id: string; instanceUrl: string };
  sobject: string;
  pulledAt: string;
  /** By folder name (the article's URL name when pulled). */
  articles: Record<string, ManifestArticle>;
}

/** An article as its files say: what a push writes. Rich text is as the org stores it, with local image paths. */
export interface LocalArticle {
  name: string;
  fields: Record<string, unknown>;
  recordType?: string;
  /** "Group/Category" unique names. */
  dataCategories: string[];
  richText: Record<string, string>;
  translations: Record<string, { fields: Record<string, unknown>; richText: Record<string, string> }>;
}

export function checkRelativePath(relativePath: string): string {
  const normal = path.posix.normalize(relativePath);
  if (!relativePath || path.posix.isAbsolute(normal) || normal === ".." || normal.startsWith("../") || normal.includes("\\")) {
    throw new TypeError(`A knowledge folder path must stay inside the folder, got '${relativePath}'`);
  }
  return normal;
}

/** The folder on disk, for Node scripts. */
export function nodeFolder(root: string): FolderIO {
  if (typeof root !== "string" || !root) throw new TypeError("root must be the folder's path");
  const at = (p: string) => path.join(root, checkRelativePath(p));
  return {
    read: (p) => readFile(at(p)).then((b) => new Uint8Array(b), (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? undefined : Promise.reject(err))),
    write: async (p, data) => {
      await mkdir(path.dirname(at(p)), { recursive: true });
      await writeFile(at(p), data);
    },
    remove: (p) => rm(at(p), { force: true }),
    list: async (p) => {
      const dir = p === "" || p === "." ? root : at(p);
      const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? [] : Promise.reject(err)));
      return entries.map((e) => ({ name: e.name, directory: e.isDirectory() }));
    },
  };
}

export const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const utf8 = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Every file under an article's folder (its images included), path → hash. */
export async function hashArticleFiles(io: FolderIO, name: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await io.list(`${name}/${dir}`.replace(/\/$/, ""))) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.directory) await walk(rel);
      else if (!entry.name.startsWith(".")) out[rel] = sha256((await io.read(`${name}/${rel}`))!);
    }
  };
  await walk("");
  return out;
}

/** The files added, removed or changed between two sets of hashes. */
export const changedFiles = (was: Record<string, string>, now: Record<string, string>) =>
  [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((file) => was[file] !== now[file]);

// ---- rich text laid out one block per line -------------------------------------------------------

/** After these tags a pulled file has a line break that the org's HTML does not: a push takes exactly it out again. */
const BREAK_AFTER = /(<\/(?:p|div|h[1-6]|li|ul|ol|table|thead|tbody|tr|blockquote|pre|section|figure)>|<(?:ul|ol|table|thead|tbody|tr)\b[^>]*>|<br\s*\/?>)/gi;

/** The org's rich text with a line break after each block: diffs show changed paragraphs, not one changed line. */
export function layOutRichText(html: string): string {
  return html.replace(BREAK_AFTER, "$1\n");
}

/** The rich text as the org stores it: the inverse of layOutRichText (`storeRichText(layOutRichText(x)) === x`). */
export function storeRichText(laidOut: string): string {
  return laidOut.replace(new RegExp(`${BREAK_AFTER.source}\\r?\\n`, "gi"), "$1");
}

// ---- the files of one article ----------------------------------------------------------------------

const yamlFile = (languageSuffix: string) => `article${languageSuffix}.yaml`;
const htmlFile = (field: string, languageSuffix: string) => `${field}${languageSuffix}.html`;

/** The files of one version (the master with suffix "", a translation with ".fr"): name → content. */
export function versionFiles(options: {
  title: string; fields: Record<string, unknown>; richText: Record<string, string>; facts: Record<string, unknown>;
  recordType?: string; dataCategories?: string[]; language?: string;
}): Record<string, string> {
  const suffix = options.language ? `.${options.language}` : "";
  const header = `# '${options.title}'${options.language ? ` (${options.language})` : ""}: a push sends all but \`org\`, what the org said at the pull.\n`;
  const body: Record<string, unknown> = { fields: options.fields };
  if (!options.language) {
    if (options.recordType) body.recordType = options.recordType;
    body.dataCategories = options.dataCategories ?? [];
  }
  body.org = options.facts;
  const files: Record<string, string> = { [yamlFile(suffix)]: header + dump(body, { lineWidth: -1 }) };
  for (const [field, html] of Object.entries(options.richText)) files[htmlFile(field, suffix)] = layOutRichText(html);
  return files;
}

function parseYaml(bytes: Uint8Array, where: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = load(text(bytes));
  } catch (err) {
    throw new CrmError(`${where} is not valid YAML: ${(err as Error).message.split("\n")[0]}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new CrmError(`${where} must be a mapping with a 'fields' section`);
  const fields = (parsed as Record<string, unknown>).fields;
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) throw new CrmError(`${where} must have a 'fields' mapping (field API name: value)`);
  return parsed as Record<string, unknown>;
}

/** Reads an article's folder: its fields, categories, rich text (as the org stores it) and translations. */
export async function readLocalArticle(io: FolderIO, name: string): Promise<LocalArticle> {
  const entries = (await io.list(name)).filter((e) => !e.directory).map((e) => e.name);
  const master = await io.read(`${name}/${yamlFile("")}`);
  if (!master) throw new CrmError(`${name}/article.yaml is missing: every article folder needs one`);
  const doc = parseYaml(master, `${name}/article.yaml`);
  const categories = doc.dataCategories ?? [];
  if (!Array.isArray(categories) || categories.some((c) => typeof c !== "string" || !/^[^/]+\/[^/]+$/.test(c))) {
    throw new CrmError(`${name}/article.yaml: dataCategories must be a list of 'Group/Category' names`);
  }
  const richTextOf = async (suffix: string) => {
    const out: Record<string, string> = {};
    for (const file of entries) {
      const m = /^([A-Za-z][\w]*)(\.[a-z]{2,3}(?:_[A-Z]{2})?)?\.html$/.exec(file);
      if (m && (m[2] ?? "") === suffix) out[m[1]!] = storeRichText(text((await io.read(`${name}/${file}`))!));
    }
    return out;
  };
  const article: LocalArticle = {
    name, fields: doc.fields as Record<string, unknown>, dataCategories: categories as string[], richText: await richTextOf(""), translations: {},
    ...(typeof doc.recordType === "string" ? { recordType: doc.recordType } : {}),
  };
  for (const file of entries) {
    const language = /^article\.([a-z]{2,3}(?:_[A-Z]{2})?)\.yaml$/.exec(file)?.[1];
    if (!language) continue;
    const translation = parseYaml((await io.read(`${name}/${file}`))!, `${name}/${file}`);
    article.translations[language] = { fields: translation.fields as Record<string, unknown>, richText: await richTextOf(`.${language}`) };
  }
  return article;
}

export async function readManifest(io: FolderIO): Promise<FolderManifest | undefined> {
  const bytes = await io.read(MANIFEST_FILE);
  if (!bytes) return undefined;
  const parsed = load(text(bytes)) as FolderManifest | undefined;
  if (!parsed?.org?.id || !parsed.articles || typeof parsed.articles !== "object") throw new CrmError(`${MANIFEST_FILE} is not a knowledge folder's record of a pull: pull the articles again`);
  return parsed;
}

export async function writeManifest(io: FolderIO, manifest: FolderManifest): Promise<void> {
  const header = "# Written by a pull or push of CRM Explorer's knowledge folder: what each article was in the org. Not for editing.\n";
  await io.write(MANIFEST_FILE, utf8(header + dump(manifest, { lineWidth: -1, sortKeys: true })));
}

export const encodeText = utf8;
