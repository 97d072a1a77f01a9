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
import { hash } from "node:crypto";
import {
  type Dirent, type Stats, close as closeCallback, closeSync, constants as fsFlags, fstat as fstatCallback, fstatSync, lstat as lstatCallback, lstatSync,
  mkdirSync, open as openCallback, openSync, read as readCallback, readSync, readdirSync, statSync, writeFile as writeFileCallback, writeFileSync,
} from "node:fs";
import { lstat, mkdir, readdir, rm, rmdir, stat } from "node:fs/promises";
import { promisify } from "node:util";
import path from "node:path";
import { CrmError } from "../client/errors";
import { isApiName, isRecordId } from "../client/ids";
import { yaml } from "../client/lazyYaml";

export type FolderEntryType = "file" | "directory" | "link" | "other";

/**
 * Where the sync reads and writes: paths are relative, with `/`. The extension passes VS Code's file system.
 * The sync never trusts what a folder holds (it may come from anyone's pull request): before each read, write
 * or removal it looks at every part of the path with `stat`, refuses links and files over a size limit, and
 * keeps every path inside the folder (see `guardFolder`).
 */
export interface FolderIO {
  /** The file's bytes, or undefined when there is no such file. `maxBytes`: see `refusesLinks`. */
  read(relativePath: string, maxBytes?: number): Promise<Uint8Array | undefined>;
  write(relativePath: string, data: Uint8Array): Promise<void>;
  remove(relativePath: string): Promise<void>;
  /** The entries of a folder (a link is a link, whatever it points at); none when it does not exist. */
  list(relativePath: string): Promise<{ name: string; type: FolderEntryType }[]>;
  /** What is at the path itself, a link not followed (`""`: the folder, which may itself be reached through a link); undefined when nothing is. */
  stat(relativePath: string): Promise<{ type: FolderEntryType; size: number } | undefined>;
  /**
   * Set by a FolderIO that refuses, in the very call that opens the file, what the guard would otherwise look at
   * the file for first: read and write never follow a link at the path itself (refused with `linkRefused`), and
   * `read(path, maxBytes)` refuses anything but a file, and a file over maxBytes (`tooLarge`), before reading it.
   * The guard then looks only at the folders on the way: one call fewer per file, 90,000 for 10,000 articles.
   */
  readonly refusesLinks?: boolean;
}

export const MANIFEST_FILE = "crm-knowledge.yaml";
export const IMAGES_DIR = "images";
/** The images an org takes into rich text, by file extension (a pulled image is named with the first that fits). */
export const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif" };
export const MAX_IMAGE_BYTES = 1024 * 1024;

/** The folder's own images a piece of rich text shows (`<img src="images/…">`), each once; any other source is not the folder's. */
export const folderImageSources = (html: string): string[] =>
  [...new Set([...html.matchAll(new RegExp(`<img\\b[^>]*\\bsrc\\s*=\\s*["'](${IMAGES_DIR}/[^"':]+)["']`, "gi"))].map((m) => m[1]!))];

/** The rich text with one of the folder's image sources replaced by the image's bytes as a data URI, in either quoting. */
export const withImageInline = (html: string, source: string, type: string, bytes: Uint8Array): string => {
  const uri = `data:${type};base64,${Buffer.from(bytes).toString("base64")}`;
  return html.replaceAll(`"${source}"`, `"${uri}"`).replaceAll(`'${source}'`, `'${uri}'`);
};

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
  /** The master's rich text at the pull, by field: a hash of each line (block), so a check can name the blocks a translation has not caught up with. */
  blocks?: Record<string, string[]>;
}

/** What the org's describe said of a field the folder carries, recorded at the pull: what `check` holds the files to without the org. */
export interface RecordedField {
  type: string;
  label?: string;
  /** Characters, for text and rich text. */
  length?: number;
  required?: boolean;
  richText?: boolean;
  /** A restricted picklist's values. */
  values?: string[];
}

export interface FolderManifest {
  org: { id: string; instanceUrl: string };
  sobject: string;
  pulledAt: string;
  /** The article type's carried fields (absent in a folder pulled before checks were recorded). */
  fields?: Record<string, RecordedField>;
  /** Each pulled article's record, by folder name (the article's URL name when pulled): read and written one at a time. */
  articles: ArticleRecords;
}

export interface ArticleRecords {
  /** The article's record, checked (a tampered record must not steer a write, a removal or a query); undefined for a folder never pulled or pushed. */
  get(name: string): Promise<ManifestArticle | undefined>;
  /** Writes the article's record at once: a pull or push that dies after it still knows the article as its own. */
  set(name: string, entry: ManifestArticle): Promise<void>;
  /** Every recorded article's folder, by its article ID (records read a few at a time, only their IDs kept). */
  folders(): Promise<Map<string, string>>;
}

/** An article as its files say: what a push writes. Rich text is as the org stores it, with local image paths. */
export interface LocalArticle {
  name: string;
  fields: Record<string, unknown>;
  recordType?: string;
  /** "Group/Category" unique names. */
  dataCategories: string[];
  richText: Record<string, string>;
  /** What the org said of the version at the pull (`org:`): read, never sent. */
  facts: Record<string, unknown>;
  translations: Record<string, { fields: Record<string, unknown>; richText: Record<string, string>; facts: Record<string, unknown> }>;
}

/** Language codes as the org names them (`fr`, `pt_BR`, `zh_TW`, `sr_Latn_ME`): what may stand in a file name. */
const LANGUAGE_CODE = "[a-z]{2,3}(?:_[A-Za-z0-9]{2,8}){0,2}";
/** The org's URL names are at most 255 characters; a folder name leaves room for a "-2" of a duplicate. */
const MAX_URL_NAME = 255;

/** A name from the org that becomes part of a path, checked against its documented shape (undefined: fine). */
export function pathNameProblem(kind: "language" | "field" | "urlName", value: unknown): string | undefined {
  const shown = JSON.stringify(String(value).slice(0, 60)) + (String(value).length > 60 ? "…" : "");
  if (kind === "language") return typeof value === "string" && new RegExp(`^${LANGUAGE_CODE}$`).test(value) ? undefined : `the language code ${shown} is not a language code (such as fr or pt_BR)`;
  if (kind === "field") return isApiName(value) ? undefined : `the field name ${shown} is not a field API name`;
  if (typeof value !== "string" || !value.trim()) return "it has no URL name";
  return value.length > MAX_URL_NAME ? `its URL name is ${value.length} characters long; the org's URL names have at most ${MAX_URL_NAME}` : undefined;
}

/** An article folder's name: one plain part of a path, not hidden. */
export function isArticleFolderName(name: unknown): name is string {
  return typeof name === "string" && /^[^./\\\0][^/\\\0]{0,254}$/.test(name);
}

export function checkRelativePath(relativePath: string): string {
  const normal = path.posix.normalize(relativePath);
  if (typeof relativePath !== "string" || !relativePath || relativePath.includes("\0") || path.posix.isAbsolute(normal) || normal === ".." || normal.startsWith("../") || normal.includes("\\")) {
    throw new TypeError(`A knowledge folder path must stay inside the folder, got '${relativePath}'`);
  }
  return normal;
}

const entryType = (s: { isSymbolicLink(): boolean; isFile(): boolean; isDirectory(): boolean }): FolderEntryType =>
  s.isSymbolicLink() ? "link" : s.isFile() ? "file" : s.isDirectory() ? "directory" : "other";
const absent = (err: NodeJS.ErrnoException) => err.code === "ENOENT" || err.code === "ENOTDIR";
const writeFileAsync = promisify(writeFileCallback);

/**
 * The folder on disk, for Node scripts. Files are opened with O_NOFOLLOW: a link at the path is refused by the open
 * itself, so the guard need not look at each file first (`refusesLinks`), and a link put in place after its look at
 * the folders is still not followed. Node's callback functions, not fs/promises: a third of the work on the script's
 * own thread — 10,000 articles are 90,000 files. `blocking`: for a worker thread that does nothing else
 * meanwhile — reads, writes, looks and listings block it instead of going through libuv's pool, which all of the
 * process's threads share (each hop there wakes another thread: on two cores, half a check's time went to that).
 */
export function nodeFolder(root: string, options: { blocking?: boolean } = {}): FolderIO {
  if (typeof root !== "string" || !root) throw new TypeError("root must be the folder's path");
  const at = (p: string) => path.join(root, checkRelativePath(p));
  const noFollow = fsFlags.O_NOFOLLOW ?? 0;
  // Node takes numeric flags here as fs.open does (its types name only the strings, which have no O_NOFOLLOW).
  const writeFlags = (fsFlags.O_WRONLY | fsFlags.O_CREAT | fsFlags.O_TRUNC | noFollow) as unknown as string;
  /** A link at the path itself, as the open found it (where O_NOFOLLOW exists: Windows has none, and its guard looks first). */
  const linkOpened = (err: NodeJS.ErrnoException, p: string) => (noFollow && err.code === "ELOOP" ? linkRefused(p) : err);
  const ops = options.blocking ? blockingOps : waitingOps;
  return {
    refusesLinks: noFollow !== 0,
    read: (p, maxBytes = Infinity) => readFileWithin(ops, at(p), maxBytes).then(
      (read) => (read === "not a file" ? Promise.reject(new CrmError(`${p} is not a file`)) : typeof read === "number" ? Promise.reject(tooLarge(p, read, maxBytes)) : read),
      (err: NodeJS.ErrnoException) => (absent(err) ? undefined : Promise.reject(linkOpened(err, p)))),
    write: async (p, data) => {
      const file = at(p);
      const writeFile = () => Promise.resolve().then(() => ops.writeFile(file, data, writeFlags));
      await writeFile().catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") throw linkOpened(err, p);
        await ops.mkdir(path.dirname(file)); // the first file of its folder
        await writeFile().catch((again: NodeJS.ErrnoException) => Promise.reject(linkOpened(again, p)));
      });
    },
    // A file, or an empty folder (as VS Code's file system removes one): never a folder's contents.
    remove: async (p) => ((await lstat(at(p)).catch(() => undefined))?.isDirectory() ? rmdir(at(p)) : rm(at(p), { force: true })),
    list: async (p) => {
      const dir = p === "" || p === "." ? root : at(p);
      const entries = await Promise.resolve().then(() => ops.readdir(dir)).catch((err: NodeJS.ErrnoException) => (absent(err) ? [] : Promise.reject(err)));
      return entries.map((e) => ({ name: e.name, type: entryType(e) }));
    },
    stat: async (p) => {
      const found = await Promise.resolve().then(() => (p === "" ? ops.stat(root) : ops.lstat(at(p)))).catch((err: NodeJS.ErrnoException) => (absent(err) ? undefined : Promise.reject(err)));
      return found && { type: entryType(found), size: found.size };
    },
  };
}

/** The file system calls the folder on disk reads and writes with: each awaited (a value, or a promise of one). */
interface FileOps {
  open(file: string, flags: number): number | Promise<number>;
  fstat(fd: number): Stats | Promise<Stats>;
  read(fd: number, into: Buffer, offset: number, length: number, position: number): number | Promise<number>;
  close(fd: number): void | Promise<void>;
  lstat(file: string): Stats | Promise<Stats>;
  stat(file: string): Stats | Promise<Stats>;
  readdir(dir: string): Dirent[] | Promise<Dirent[]>;
  writeFile(file: string, data: Uint8Array, flags: string): void | Promise<void>;
  /** Makes the folder and any missing on the way. */
  mkdir(dir: string): unknown;
}
const waitingOps: FileOps = {
  open: promisify(openCallback),
  fstat: promisify(fstatCallback),
  read: (fd, into, offset, length, position) => new Promise((resolve, reject) => readCallback(fd, into, offset, length, position, (err, read) => (err ? reject(err) : resolve(read)))),
  close: promisify(closeCallback),
  lstat: promisify(lstatCallback),
  stat,
  readdir: (dir) => readdir(dir, { withFileTypes: true }),
  writeFile: (file, data, flags) => writeFileAsync(file, data, { flag: flags }),
  mkdir: (dir) => mkdir(dir, { recursive: true }),
};
const blockingOps: FileOps = {
  open: openSync, fstat: fstatSync, read: readSync, close: closeSync, lstat: lstatSync, stat: statSync, readdir: (dir) => readdirSync(dir, { withFileTypes: true }),
  writeFile: (file, data, flags) => writeFileSync(file, data, { flag: flags }), mkdir: (dir) => mkdirSync(dir, { recursive: true }),
};

/**
 * A file's bytes, opened without following a link and without waiting on a pipe, looked at before it is read:
 * "not a file", or its size when over `maxBytes`.
 */
async function readFileWithin(ops: FileOps, file: string, maxBytes: number): Promise<Uint8Array | "not a file" | number> {
  const fd = await ops.open(file, fsFlags.O_RDONLY | (fsFlags.O_NOFOLLOW ?? 0) | (fsFlags.O_NONBLOCK ?? 0));
  try {
    const found = await ops.fstat(fd);
    if (!found.isFile()) return "not a file";
    if (found.size > maxBytes) return found.size;
    const bytes = Buffer.allocUnsafe(found.size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = await ops.read(fd, bytes, filled, bytes.length - filled, filled);
      if (!read) break; // shorter than it was a moment ago
      filled += read;
    }
    return filled === bytes.length ? bytes : bytes.subarray(0, filled);
  } finally {
    await ops.close(fd);
  }
}

// ---- the folder's rules, whatever the FolderIO ---------------------------------------------------------

const MB = 1024 * 1024;
/** The largest file the sync reads, by kind: generous for what a folder legitimately holds, far below what would hurt. */
export const FILE_LIMITS = { manifest: 64 * MB, yaml: 1 * MB, html: 4 * MB, other: 16 * MB } as const;
const limitOf = (relativePath: string) =>
  relativePath === MANIFEST_FILE ? FILE_LIMITS.manifest : relativePath.endsWith(".yaml") ? FILE_LIMITS.yaml : relativePath.endsWith(".html") ? FILE_LIMITS.html : FILE_LIMITS.other;
const sizeText = (bytes: number) => (bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const GUARDED = Symbol("guarded knowledge folder");
/** What a folder holds, or a name from the org, that the sync refuses: one article is refused, the others go on. */
export class FolderContentError extends CrmError {
  override name = "FolderContentError";
}
const linkRefused = (relativePath: string) =>
  new FolderContentError(`${relativePath} is a symbolic link: a knowledge folder's files are read and written only inside the folder, never through a link. Replace it with the file itself.`);

/** A file over its kind's limit, refused before it is read. */
const tooLarge = (relativePath: string, size: number, limit: number) =>
  new CrmError(`${relativePath} is ${sizeText(size)}: a knowledge folder's ${relativePath === MANIFEST_FILE ? "record" : "file of this kind"} may be at most ${sizeText(limit)}`);
/** What `inside` says of a path whose folders are there, when the file itself is left to the FolderIO. */
const FOLDERS_THERE = { type: "directory", size: 0 } as const;

/** How many folders a guard remembers as looked at. */
const FOLDERS_KEPT = 256;

/**
 * The sync's view of a folder: every path is checked to stay inside it, every part of a path is looked at and a
 * link anywhere on it is refused (a link could read a private file into an article, or write and delete outside
 * the folder), and a file over its size limit is refused before it is read. A folder on the way found to be a
 * folder is not looked at again by this view (a guard lives for one pull, push or check, whose article folders
 * are passed through for each of their files: 90,000 looks fewer for 10,000 articles); one it removes is. The
 * last few hundred are remembered, not every one: memory stays flat in the size of the folder.
 */
export function guardFolder(io: FolderIO): FolderIO {
  if (typeof io === "string") throw new TypeError(`io must be a FolderIO, such as knowledgeFolder.nodeFolder('${String(io)}') for a folder on disk, got a string`);
  if (!io || typeof io !== "object" || !["read", "write", "remove", "list", "stat"].every((m) => typeof (io as unknown as Record<string, unknown>)[m] === "function")) {
    throw new TypeError("io must be a FolderIO with read, write, remove, list and stat functions (knowledgeFolder.nodeFolder(path) for a folder on disk)");
  }
  if ((io as { [GUARDED]?: true })[GUARDED]) return io;
  const folders = new Set<string>();
  const remember = (folder: string) => {
    if (folders.size >= FOLDERS_KEPT) folders.clear(); // articles come a few at a time: the last ones looked at are the ones asked about again
    folders.add(folder);
  };
  /**
   * Refuses a link on any part of the path; returns what is at the path itself — or, for a FolderIO that refuses
   * links itself, only whether the folders on the way are there (then the file itself is not looked at).
   */
  const inside = async (relativePath: string, foldersOnly = false) => {
    const parts = checkRelativePath(relativePath).split("/");
    for (let i = 1; i <= (foldersOnly ? parts.length - 1 : parts.length); i++) {
      const part = parts.slice(0, i).join("/");
      if (i < parts.length && folders.has(part)) continue;
      const found = await io.stat(part);
      if (!found) return undefined;
      if (found.type === "link") throw linkRefused(part);
      if (i === parts.length) return found;
      if (found.type === "directory") remember(part);
    }
    return foldersOnly ? FOLDERS_THERE : undefined;
  };
  return {
    [GUARDED]: true,
    read: async (p) => {
      const limit = limitOf(p);
      if (io.refusesLinks) return (await inside(p, true)) ? io.read(p, limit) : undefined;
      const found = await inside(p);
      if (!found) return undefined;
      if (found.type !== "file") throw new CrmError(`${p} is not a file`);
      if (found.size > limit) throw tooLarge(p, found.size, limit);
      return io.read(p);
    },
    write: async (p, data) => {
      await inside(p, io.refusesLinks);
      await io.write(p, data);
      // Its folders are there now (the write made any that were missing): the article's next files need no look.
      const parts = checkRelativePath(p).split("/");
      for (let i = 1; i < parts.length; i++) remember(parts.slice(0, i).join("/"));
    },
    remove: async (p) => {
      await inside(p);
      const normal = checkRelativePath(p);
      for (const folder of folders) if (folder === normal || folder.startsWith(`${normal}/`)) folders.delete(folder);
      return io.remove(p);
    },
    list: async (p) => {
      // A folder looked at already (or made by a write of this guard) is not looked at again.
      if (p !== "" && p !== "." && !folders.has(checkRelativePath(p))) await inside(p);
      return io.list(p);
    },
    stat: (p) => (p === "" ? io.stat(p) : inside(p)),
  } as FolderIO;
}

/**
 * The guarded folder with each file read and each folder listed at most once: for one article's work that reads
 * its files several ways (a check reads them as the article, as versions and for their hashes), then dropped.
 */
export function readingOnce(io: FolderIO): FolderIO {
  const guarded = guardFolder(io);
  const reads = new Map<string, Promise<Uint8Array | undefined>>();
  const lists = new Map<string, ReturnType<FolderIO["list"]>>();
  const once = <T>(cache: Map<string, Promise<T>>, p: string, work: () => Promise<T>) => cache.get(p) ?? cache.set(p, work()).get(p)!;
  const forget = (p: string) => (reads.clear(), lists.clear(), p);
  return {
    [GUARDED]: true,
    read: (p) => once(reads, p, () => guarded.read(p)),
    list: (p) => once(lists, p, () => guarded.list(p)),
    stat: (p) => guarded.stat(p),
    write: (p, data) => guarded.write(forget(p), data),
    remove: (p) => guarded.remove(forget(p)),
  } as FolderIO;
}

export const sha256 = (data: Uint8Array) => hash("sha256", data, "hex");
const utf8 = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * Every file under an article's folder (its images included), path → hash; `written` gives the bytes of files
 * just written, not read back. `whole`: they are every file the folder holds (a folder the pull made), so it is not listed.
 */
export async function hashArticleFiles(io: FolderIO, name: string, written: ReadonlyMap<string, Uint8Array> = new Map(), whole = false): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (whole) {
    for (const [rel, bytes] of written) out[rel] = sha256(bytes);
    return out;
  }
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await io.list(`${name}/${dir}`.replace(/\/$/, ""))) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.type === "link") throw linkRefused(`${name}/${rel}`);
      if (entry.type === "directory") await walk(rel);
      else if (!entry.name.startsWith(".")) out[rel] = sha256(written.get(rel) ?? (await io.read(`${name}/${rel}`))!);
    }
  };
  await walk("");
  return out;
}

/** A hash of each block (line) of laid-out rich text: what the record keeps of the master's text to compare a translation against. */
export const blockHashes = (laidOut: string): string[] => laidOut.split(/\r?\n/).filter((line) => line.trim()).map((line) => sha256(utf8(line.trim())).slice(0, 16));

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
  // A comment ends at a line break: the title is shown on one line, whatever it holds, so it cannot add keys of its own.
  const title = options.title.replace(/[\r\n\u0085\u2028\u2029]+/g, " ");
  const header = `# '${title}'${options.language ? ` (${options.language})` : ""}: a push sends all but \`org\`, what the org said at the pull.\n`;
  const body: Record<string, unknown> = { fields: options.fields };
  if (!options.language) {
    if (options.recordType) body.recordType = options.recordType;
    body.dataCategories = options.dataCategories ?? [];
  }
  body.org = options.facts;
  const files: Record<string, string> = { [yamlFile(suffix)]: header + yaml().dumpYaml(body) };
  for (const [field, html] of Object.entries(options.richText)) files[htmlFile(field, suffix)] = layOutRichText(html);
  return files;
}

/**
 * A knowledge folder's YAML is plain data: no anchors or aliases (a few hundred bytes of aliases expand to
 * gigabytes), no tags beyond the core schema. Errors name the file and the line.
 */
function loadData(bytes: Uint8Array, where: string): unknown {
  try {
    return yaml().parseYaml(text(bytes), { filename: where, plainData: true });
  } catch (err) {
    const mark = (err as { mark?: { line?: number } }).mark;
    const reason = String((err as { reason?: string }).reason ?? (err as Error).message.split("\n")[0]);
    throw new CrmError(`${where}${mark?.line !== undefined ? `, line ${mark.line + 1}` : ""} is not valid for a knowledge folder: ${reason} (its YAML must be plain data: no anchors, aliases or tags)`);
  }
}

function parseArticleYaml(bytes: Uint8Array, where: string): Record<string, unknown> {
  const parsed = loadData(bytes, where);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new CrmError(`${where} must be a mapping with a 'fields' section`);
  const fields = (parsed as Record<string, unknown>).fields;
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) throw new CrmError(`${where} must have a 'fields' mapping (field API name: value)`);
  return parsed as Record<string, unknown>;
}

const factsOf = (doc: Record<string, unknown>) => (doc.org && typeof doc.org === "object" && !Array.isArray(doc.org) ? (doc.org as Record<string, unknown>) : {});

/** Reads an article's folder: its fields, categories, rich text (as the org stores it) and translations. */
export async function readLocalArticle(io: FolderIO, name: string): Promise<LocalArticle> {
  // A link is listed too: reading it is refused, never skipped in silence.
  const entries = (await io.list(name)).filter((e) => e.type !== "directory").map((e) => e.name);
  const master = await io.read(`${name}/${yamlFile("")}`);
  if (!master) throw new CrmError(`${name}/article.yaml is missing: every article folder needs one`);
  const doc = parseArticleYaml(master, `${name}/article.yaml`);
  const categories = doc.dataCategories ?? [];
  if (!Array.isArray(categories) || categories.some((c) => typeof c !== "string" || !/^[^/]+\/[^/]+$/.test(c))) {
    throw new CrmError(`${name}/article.yaml: dataCategories must be a list of 'Group/Category' names`);
  }
  const richTextOf = async (suffix: string) => {
    const out: Record<string, string> = {};
    for (const file of entries) {
      const m = new RegExp(`^([A-Za-z]\\w*)(\\.${LANGUAGE_CODE})?\\.html$`).exec(file);
      if (m && (m[2] ?? "") === suffix) out[m[1]!] = storeRichText(text((await io.read(`${name}/${file}`))!));
    }
    return out;
  };
  const article: LocalArticle = {
    name, fields: doc.fields as Record<string, unknown>, dataCategories: categories as string[], richText: await richTextOf(""), facts: factsOf(doc), translations: {},
    ...(typeof doc.recordType === "string" ? { recordType: doc.recordType } : {}),
  };
  for (const file of entries) {
    const language = new RegExp(`^article\\.(${LANGUAGE_CODE})\\.yaml$`).exec(file)?.[1];
    if (!language) continue;
    const translation = parseArticleYaml((await io.read(`${name}/${file}`))!, `${name}/${file}`);
    article.translations[language] = { fields: translation.fields as Record<string, unknown>, richText: await richTextOf(`.${language}`), facts: factsOf(translation) };
  }
  return article;
}

/** A path that stays inside its folder as written (`a/../b` is not how the record writes one). */
function staysInside(relativePath: string): boolean {
  try {
    return checkRelativePath(relativePath) === relativePath;
  } catch {
    return false;
  }
}

/** The folder's record of the pull, checked entry by entry: a tampered record must not steer a write, a removal or a query. */
/** Where each article's record lives: a small JSON file per article folder (`.crm-knowledge/<folder>.json`). */
export const RECORDS_DIR = ".crm-knowledge";
/** Where a push of an earlier version kept the records of articles it pushed until its end: read, then folded into RECORDS_DIR. */
const PUSHED_DIR = ".crm-knowledge-pushed";

/**
 * Where a push says, before an article's writes, that it is about to write it (as whom, since when): a push
 * killed inside an article — a draft made, its answer never heard — leaves it, and the next push takes that
 * article's drafts by this user since then as its own instead of as a change made in the org.
 */
export const PENDING_DIR = ".crm-knowledge-pending";

export interface PendingPush {
  /** When the article's writes began. */
  since: string;
  /** The user the push wrote as. */
  userId: string;
}

export async function keepPending(io: FolderIO, name: string, pending: PendingPush): Promise<void> {
  if (!isArticleFolderName(name)) throw new TypeError(`'${name}' is not an article folder's name`);
  await guardFolder(io).write(`${PENDING_DIR}/${name}.json`, utf8(JSON.stringify(pending)));
}

/** Removes an article's pending record (keepPending wrote it), and the folder of them once it is empty. */
export async function dropPending(io: FolderIO, name: string): Promise<void> {
  const guarded = guardFolder(io);
  await guarded.remove(`${PENDING_DIR}/${name}.json`);
  await guarded.remove(PENDING_DIR).catch(() => undefined); // left while another article's record is in it
}

/** The articles a push began and never finished, by folder name; a record that is not one is left out (it excuses nothing). */
export async function readPending(io: FolderIO): Promise<Map<string, PendingPush>> {
  const guarded = guardFolder(io);
  const pending = new Map<string, PendingPush>();
  if ((await guarded.stat(PENDING_DIR))?.type !== "directory") return pending;
  for (const f of await guarded.list(PENDING_DIR)) {
    const name = f.name.slice(0, -".json".length);
    if (f.type !== "file" || !f.name.endsWith(".json") || !isArticleFolderName(name)) continue;
    let data: unknown;
    try {
      data = JSON.parse(new TextDecoder().decode((await guarded.read(`${PENDING_DIR}/${f.name}`))!));
    } catch {
      continue;
    }
    const p = data as PendingPush;
    if (p && typeof p === "object" && typeof p.since === "string" && Number.isFinite(Date.parse(p.since)) && isRecordId(p.userId)) pending.set(name, { since: p.since, userId: p.userId });
  }
  return pending;
}

/** Records an earlier version kept elsewhere (the folder's record held them all; a push killed half way kept its own apart), by folder name. */
async function olderRecords(io: FolderIO, parsed: { articles?: unknown }): Promise<Map<string, unknown>> {
  const older = new Map<string, unknown>(Object.entries((parsed.articles ?? {}) as Record<string, unknown>));
  if ((await io.stat(PUSHED_DIR))?.type !== "directory") return older;
  for (const f of (await io.list(PUSHED_DIR)).filter((e) => e.type === "file" && e.name.endsWith(".json"))) {
    older.set(f.name.slice(0, -".json".length), loadData((await io.read(`${PUSHED_DIR}/${f.name}`))!, `${PUSHED_DIR}/${f.name}`));
  }
  return older;
}

const brokenRecord = (file: string, what: string) => new CrmError(`${file} ${what}: it is not a knowledge folder's record of a pull as CRM Explorer writes it. Pull the articles again.`);

function checkedRecord(name: string, entry: unknown, file: string): ManifestArticle {
  const broken = (what: string) => brokenRecord(file, what);
  if (!isArticleFolderName(name)) throw broken(`names ${JSON.stringify(name)} as an article folder (one folder of this folder)`);
  const record = entry as ManifestArticle;
  if (!record || typeof record !== "object" || !record.files || typeof record.files !== "object") throw broken(`has no files for '${name}'`);
  for (const f of Object.keys(record.files)) {
    if (!staysInside(f)) throw broken(`lists ${JSON.stringify(f)} under '${name}' (a file inside that article's folder)`);
  }
  if (!isRecordId(record.knowledgeArticleId)) throw broken(`has no article ID for '${name}'`);
  for (const language of Object.keys(record.translations ?? {})) if (pathNameProblem("language", language)) throw broken(`lists ${JSON.stringify(language)} as a language of '${name}'`);
  return record;
}

/**
 * An article's record as its file holds it: JSON, keys sorted and one value to a line, so a diff names what a pull
 * or push changed (read in a few microseconds: the YAML records of earlier versions took a tenth of a check's time).
 */
const recordText = (entry: ManifestArticle) => `${JSON.stringify(entry, (_key, value: unknown) => (value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value), 2)}\n`;
function parseRecord(bytes: Uint8Array, where: string): unknown {
  try {
    return JSON.parse(text(bytes));
  } catch (err) {
    throw brokenRecord(where, `is not JSON (${(err as Error).message})`);
  }
}

/**
 * The folder's article records: each in its own file (`.crm-knowledge/<folder>.json`), read when asked for.
 * Records of earlier versions' layouts — every one in the folder's record, a dead push's apart, one YAML file per
 * article — are read as they are until the next write of the folder's record moves them (`moveOlder`).
 */
function articleRecords(io: FolderIO, older: Map<string, unknown>): ArticleRecords & { older: Map<string, unknown>; moveOlder(): Promise<void> } {
  const fileOf = (name: string, kind: "json" | "yaml" = "json") => {
    if (!isArticleFolderName(name)) throw new TypeError(`'${name}' is not an article folder's name`);
    return `${RECORDS_DIR}/${name}.${kind}`;
  };
  /** The records' files of one kind, by folder name; a file no article folder could own (another name, a link) is no record: left alone, never read. */
  const listed = async (kind: "json" | "yaml") => (await io.list(RECORDS_DIR))
    .filter((f) => f.type === "file" && f.name.endsWith(`.${kind}`) && isArticleFolderName(f.name.slice(0, -kind.length - 1))).map((f) => f.name.slice(0, -kind.length - 1));
  /** The YAML records, looked for once (a folder written since has none). */
  let inYaml: Promise<Set<string>> | undefined;
  const yamlRecords = () => (inYaml ??= listed("yaml").then((names) => new Set(names)));
  const get = async (name: string) => {
    const file = fileOf(name);
    const bytes = await io.read(file);
    if (bytes) return checkedRecord(name, parseRecord(bytes, file), file);
    const yamlFile = fileOf(name, "yaml");
    const yamlBytes = (await yamlRecords()).has(name) ? await io.read(yamlFile) : undefined;
    if (yamlBytes) return checkedRecord(name, loadData(yamlBytes, yamlFile), yamlFile);
    return older.has(name) ? checkedRecord(name, older.get(name), MANIFEST_FILE) : undefined;
  };
  const set = async (name: string, entry: ManifestArticle) => {
    await io.write(fileOf(name), utf8(recordText(entry)));
    older.delete(name);
    if ((await yamlRecords()).delete(name)) await io.remove(fileOf(name, "yaml"));
  };
  return {
    older,
    get,
    set,
    folders: async () => {
      const names = new Set([...older.keys(), ...(await listed("json")), ...(await yamlRecords())]);
      const found = await inTurns([...names], async (name) => [(await get(name))!.knowledgeArticleId, name] as const);
      return new Map(found);
    },
    moveOlder: async () => {
      for (const [name, entry] of [...older]) await set(name, checkedRecord(name, entry, MANIFEST_FILE));
      for (const name of [...(await yamlRecords())]) await set(name, (await get(name))!);
    },
  };
}

/** The folder's record of the pull (crm-knowledge.yaml) and its articles' records, checked: a tampered record must not steer a write, a removal or a query. */
export async function readManifest(folder: FolderIO): Promise<FolderManifest | undefined> {
  const io = guardFolder(folder);
  const bytes = await io.read(MANIFEST_FILE);
  if (!bytes) return undefined;
  const parsed = loadData(bytes, MANIFEST_FILE) as (Omit<FolderManifest, "articles"> & { articles?: unknown }) | undefined;
  const broken = (what: string) => brokenRecord(MANIFEST_FILE, what);
  if (!parsed || typeof parsed !== "object" || !parsed.org || typeof parsed.org.id !== "string" || !parsed.org.id) throw broken("has no org");
  if (parsed.articles !== undefined && (!parsed.articles || typeof parsed.articles !== "object" || Array.isArray(parsed.articles))) throw broken("has no articles");
  if (typeof parsed.sobject !== "string" || !/^[A-Za-z][A-Za-z0-9_]*__kav$/.test(parsed.sobject)) throw broken(`names ${JSON.stringify(String(parsed.sobject))} as the article type (an API name ending in __kav)`);
  const older = await olderRecords(io, parsed);
  for (const [name, entry] of older) checkedRecord(name, entry, MANIFEST_FILE);
  return { org: parsed.org, sobject: parsed.sobject, pulledAt: parsed.pulledAt, ...(parsed.fields ? { fields: parsed.fields } : {}), articles: articleRecords(io, older) };
}

/** A new folder's (or a pull's) record, with no article recorded yet. */
export function newManifest(folder: FolderIO, header: Omit<FolderManifest, "articles">): FolderManifest {
  return { ...header, articles: articleRecords(guardFolder(folder), new Map()) };
}

/**
 * Writes the folder's record (its org, article type and fields); records of an earlier version's layout are
 * moved into their own files first, then the places they were kept go.
 */
export async function writeManifest(folder: FolderIO, manifest: FolderManifest): Promise<void> {
  const io = guardFolder(folder);
  const records = manifest.articles as ReturnType<typeof articleRecords>;
  await records.moveOlder();
  const header = `# Written by a pull or push of CRM Explorer's knowledge folder: the org and article type it holds. Each article's record (its versions in the org, its files' hashes) is in ${RECORDS_DIR}/. Not for editing.\n`;
  const { articles: _records, ...folderRecord } = manifest;
  await io.write(MANIFEST_FILE, utf8(header + yaml().dumpYaml(folderRecord, { sortKeys: true })));
  if ((await io.stat(PUSHED_DIR))?.type !== "directory") return;
  for (const f of await io.list(PUSHED_DIR)) if (f.type === "file" && f.name.endsWith(".json")) await io.remove(`${PUSHED_DIR}/${f.name}`);
  await io.remove(PUSHED_DIR).catch(() => undefined); // left when something else is in it
}

/** Folders looked at side by side, a few at a time: a folder of 10,000 articles is never read all at once. */
const SIDE_BY_SIDE = 16;
/**
 * Each item's work, a few side by side, the results in the items' order. The first failure stops new work, and is
 * thrown once the work under way has ended: nothing is still writing when the caller hears of it.
 */
export async function inTurns<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        out[i] = await work(items[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIDE_BY_SIDE, items.length) }, worker));
  if (failure) throw failure.error;
  return out;
}

export const encodeText = utf8;
