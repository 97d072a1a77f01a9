/**
 * The `crm:` file system's logic: records and article drafts as documents.
 *
 *   /<org>/<SObject>/<Id>.json            a record: its updateable fields as formatted JSON
 *   /<org>/<SObject>/new.json             a template for a new record (required fields first)
 *   /<org>/<Article>/<Id>/fields.json     an article version's fields (Title, UrlName, Summary, …)
 *   /<org>/<Article>/<Id>/<Field>.html    one rich-text field of it
 *   /<org>/<Article>/new.json             a template for a new article
 *
 * Each record's LastModifiedDate and the values a document was read from are remembered (in a store that
 * outlives the window), so a save sends only the changed fields, guarded by If-Unmodified-Since. No VS Code here.
 */
import * as l10n from "@vscode/l10n";
import type { FieldDescribe, SObjectDescribe } from "../client";
import { APIRequestError } from "../client/errors";
import { isApiName, isRecordId } from "../client/ids";
import { withWriteContext } from "../client/writeRecord";
import type { KeyValueStore } from "../connections/orgRegistry";
import { isRequiredOnCreate, isRichText } from "../connections/schema";

type Json = Record<string, unknown>;

/** What the model needs of an org: its client's record calls and its schema's describes. */
export interface OrgAccess {
  crm: {
    getSobjectRecord(sobject: string, id: string, options?: { fields?: string[] }): Promise<Json>;
    composite: { updateAndRead(sobject: string, id: string, payload: Json, options?: { ifUnmodifiedSince?: Date; fields?: string[] }): Promise<Json> };
    createSobjectRecord(sobject: string, payload: Json): Promise<{ id: string }>;
  };
  schema: { describe(sobject: string): Promise<SObjectDescribe> };
}

export interface FilesDeps {
  /** The org a path's first segment names (its alias). */
  org(name: string): Promise<OrgAccess>;
  knowledgeSobject(): string;
  store: KeyValueStore;
}

export type CrmPath =
  | { kind: "root" }
  | { kind: "org"; org: string }
  | { kind: "object"; org: string; sobject: string }
  | { kind: "record"; org: string; sobject: string; id: string }
  | { kind: "new"; org: string; sobject: string }
  | { kind: "article"; org: string; sobject: string; id: string }
  | { kind: "articleFile"; org: string; sobject: string; id: string; file: string };


/** Reads a `crm:` path; undefined when it names nothing the file system serves. */
export function parseCrmPath(path: string, knowledgeSobject: string): CrmPath | undefined {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const [org, sobject, item, file, ...rest] = parts;
  if (!org) return { kind: "root" };
  if (!sobject) return { kind: "org", org };
  if (!isApiName(sobject) || rest.length) return undefined;
  if (!item) return { kind: "object", org, sobject };
  if (item === "new.json" && !file) return { kind: "new", org, sobject };
  const isArticle = sobject.toLowerCase() === knowledgeSobject.toLowerCase();
  if (!isArticle) {
    const id = item.replace(/\.json$/, "");
    return item.endsWith(".json") && isRecordId(id) && !file ? { kind: "record", org, sobject, id } : undefined;
  }
  if (!isRecordId(item)) return undefined;
  if (!file) return { kind: "article", org, sobject, id: item };
  return file === "fields.json" || /^[A-Za-z][A-Za-z0-9_]*\.html$/.test(file) ? { kind: "articleFile", org, sobject, id: item, file } : undefined;
}

/** An org alias as a path segment: readable, with only `%` and `/` escaped (decoded again by parseCrmPath). */
const segment = (org: string) => org.replace(/%/g, "%25").replace(/\//g, "%2F");
export const recordPath = (org: string, sobject: string, id: string) => `/${segment(org)}/${sobject}/${id}.json`;
export const articleFilePath = (org: string, sobject: string, id: string, file: string) => `/${segment(org)}/${sobject}/${id}/${file}`;
export const newPath = (org: string, sobject: string) => `/${segment(org)}/${sobject}/new.json`;

/** The fields a record document reads: what it can change, its name, and what its baseline needs. */
const documentFields = (fields: FieldInfo[]) => fields.filter((f) => f.updateable || f.nameField || ["LastModifiedDate", "PublishStatus", "Title"].includes(f.name)).map((f) => f.name);

/** A save the org refused for named fields (each becomes a diagnostic on its line), or bad input. */
export class DocumentError extends Error {
  override name = "DocumentError";
  constructor(message: string, readonly fields: string[] = []) {
    super(message);
  }
}

/** Someone changed the record in the org since the document was read; `theirs` is the org's version as a document. */
export class ConflictError extends Error {
  override name = "ConflictError";
  constructor(readonly displayName: string, readonly theirs: string) {
    super(l10n.t("{0} was changed in the org since you opened it.", displayName));
  }
}

interface FieldInfo {
  name: string;
  label: string;
  type: string;
  updateable: boolean;
  createable: boolean;
  required: boolean;
  richText: boolean;
  nameField: boolean;
}

function fieldsOf(describe: SObjectDescribe): FieldInfo[] {
  const writable = (f: FieldDescribe) => f.calculated !== true && f.type !== "base64";
  return (describe.fields ?? []).map((f) => ({
    name: f.name, label: f.label ?? f.name, type: f.type,
    updateable: f.updateable === true && writable(f),
    createable: f.createable === true && writable(f),
    required: isRequiredOnCreate(f),
    richText: isRichText(f), nameField: f.nameField === true,
  }));
}

/** What a record's documents were read from: shared by an article's fields.json and its .html files. */
interface Baseline {
  lastModified: string;
  values: Json;
  /** Per file: the record's LastModifiedDate when that file was last read or saved (its mtime). */
  fileTimes: Record<string, string>;
  name: string;
}

type DocumentPath = Extract<CrmPath, { kind: "record" | "new" | "articleFile" }>;
const isDocument = (p: CrmPath | undefined): p is DocumentPath => p?.kind === "record" || p?.kind === "new" || p?.kind === "articleFile";
/** The name a document's read time is kept under in its record's baseline (an article has several files). */
const fileOf = (p: Extract<CrmPath, { kind: "record" | "articleFile" }>) => (p.kind === "articleFile" ? p.file : "record.json");

const baselineKey = (org: string, sobject: string, id: string) => `crm.documents.baseline.${org}\u0000${sobject}\u0000${id}`;
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Two records' fields lined up for a diff: the fields both can show, those whose values differ first; the
 * left record's text in that order, in the same form as a record document (so the lines align).
 */
export function compareLayout(left: Json, right: Json, fields: string[]): { order: string[]; differing: string[]; leftText: string } {
  const same = (f: string) => JSON.stringify(left[f] ?? null) === JSON.stringify(right[f] ?? null);
  const differing = fields.filter((f) => !same(f));
  const order = [...differing, ...fields.filter(same)];
  const out: Json = {};
  for (const f of order) out[f] = left[f] ?? null;
  return { order, differing, leftText: pretty(out) };
}
const encoder = new TextEncoder();

export interface FileStat {
  type: "file" | "directory";
  mtime: number;
  size: number;
  readonly: boolean;
}

export class CrmFiles {
  /** A load made by `stat` is reused by the `readFile` that follows it (VS Code asks for both on open). */
  private readonly recent = new Map<string, { at: number; content: Uint8Array }>();

  constructor(private readonly deps: FilesDeps) {}

  parse(path: string): CrmPath | undefined {
    return parseCrmPath(path, this.deps.knowledgeSobject());
  }

  private baseline(org: string, sobject: string, id: string): Baseline | undefined {
    return this.deps.store.get<Baseline | undefined>(baselineKey(org, sobject, id), undefined);
  }

  private async remember(org: string, sobject: string, id: string, baseline: Baseline): Promise<void> {
    await this.deps.store.update(baselineKey(org, sobject, id), baseline);
  }

  /** The record's name as a tab title (its name field, else Title, else the ID). */
  async displayName(path: string): Promise<string> {
    const p = this.parse(path);
    if (!p || !("id" in p)) return path.split("/").pop() ?? path;
    await this.readFile(path);
    return this.baseline(p.org, p.sobject, p.id)?.name ?? p.id;
  }

  async stat(path: string): Promise<FileStat> {
    const p = this.parse(path);
    if (!p) throw new DocumentError(l10n.t("Nothing in the CRM file system is at {0}.", path));
    if (!isDocument(p)) return { type: "directory", mtime: 0, size: 0, readonly: false };
    if (p.kind === "new") return { type: "file", mtime: 0, size: (await this.readFile(path)).byteLength, readonly: false };
    let known = this.baseline(p.org, p.sobject, p.id);
    const file = fileOf(p);
    let size = this.recent.get(path)?.content.byteLength ?? 0;
    if (!known?.fileTimes[file]) {
      size = (await this.readFile(path)).byteLength;
      known = this.baseline(p.org, p.sobject, p.id)!;
    }
    const readonly = p.kind === "articleFile" && known.values.PublishStatus !== undefined && known.values.PublishStatus !== "Draft";
    return { type: "file", mtime: Date.parse(known.fileTimes[file]!), size, readonly };
  }

  async readDirectory(path: string): Promise<[string, "file" | "directory"][]> {
    const p = this.parse(path);
    if (p?.kind !== "article") return [];
    const fields = fieldsOf(await (await this.deps.org(p.org)).schema.describe(p.sobject));
    return [["fields.json", "file"], ...fields.filter((f) => f.richText).map((f) => [`${f.name}.html`, "file"] as [string, "file"])];
  }

  async readFile(path: string): Promise<Uint8Array> {
    const cached = this.recent.get(path);
    if (cached && Date.now() - cached.at < 2_000) return cached.content;
    const p = this.parse(path);
    if (!isDocument(p)) throw new DocumentError(l10n.t("{0} is not a document.", path));
    const org = await this.deps.org(p.org);
    const fields = fieldsOf(await org.schema.describe(p.sobject));
    let text: string;
    if (p.kind === "new") text = this.template(fields);
    else {
      const { record, name } = await this.fetch(org, p.sobject, p.id, fields);
      const file = fileOf(p);
      text = this.render(record, fields, file, this.fieldOrders.get(path));
      const previous = this.baseline(p.org, p.sobject, p.id);
      const lastModified = String(record.LastModifiedDate);
      // Other files of the record keep their read time unless the record changed since.
      const fileTimes = previous?.lastModified === lastModified ? { ...previous.fileTimes, [file]: lastModified } : { [file]: lastModified };
      await this.remember(p.org, p.sobject, p.id, { lastModified, values: record, fileTimes, name });
    }
    const content = encoder.encode(text);
    this.recent.set(path, { at: Date.now(), content });
    return content;
  }

  private async fetch(org: OrgAccess, sobject: string, id: string, fields: FieldInfo[]): Promise<{ record: Json; name: string }> {
    return this.named(await org.crm.getSobjectRecord(sobject, id, { fields: documentFields(fields) }), fields, id);
  }

  private named(record: Json, fields: FieldInfo[], id: string): { record: Json; name: string } {
    const nameField = fields.find((f) => f.nameField)?.name;
    return { record, name: String((nameField && record[nameField]) || record.Title || id) };
  }

  /** A record's document text: the JSON of its updateable fields, an article's fields.json, or one rich-text field. */
  private render(record: Json, fields: FieldInfo[], file: string, order?: string[]): string {
    if (file.endsWith(".html")) return String(record[file.slice(0, -5)] ?? "");
    const shown = fields.filter((f) => f.updateable && !(file === "fields.json" && f.richText));
    // A compare puts the fields in its order (differing ones first); the others follow in theirs.
    const rank = (name: string) => (order?.includes(name) ? order.indexOf(name) : Number.MAX_SAFE_INTEGER);
    if (order) shown.sort((a, b) => rank(a.name) - rank(b.name));
    const out: Json = {};
    for (const f of shown) out[f.name] = record[f.name] ?? null;
    return pretty(out);
  }

  /** Fields of a record document in this order when it is next read (a compare aligns it with the other record). */
  private readonly fieldOrders = new Map<string, string[]>();
  orderFields(path: string, order: string[]): void {
    this.fieldOrders.set(path, order);
    this.recent.delete(path);
  }

  /** A new record's starting point: the required fields first, then the rest of what can be set. */
  private template(fields: FieldInfo[]): string {
    const createable = fields.filter((f) => f.createable);
    const ordered = [...createable.filter((f) => f.required), ...createable.filter((f) => !f.required)];
    const out: Json = {};
    for (const f of ordered) out[f.name] = f.richText ? "<p></p>" : f.type === "boolean" ? false : null;
    return pretty(out);
  }

  /**
   * Saves a document. Records and drafts: only the fields that differ from what was read, with
   * If-Unmodified-Since (412 → ConflictError); `overwrite` drops the guard. Templates create the record
   * and resolve to its ID. Refused input throws DocumentError naming the fields.
   */
  async writeFile(path: string, content: Uint8Array, options: { overwrite?: boolean } = {}): Promise<{ createdId?: string }> {
    const p = this.parse(path);
    if (!isDocument(p)) throw new DocumentError(l10n.t("{0} is not a document that can be saved.", path));
    const org = await this.deps.org(p.org);
    const fields = fieldsOf(await org.schema.describe(p.sobject));
    const text = new TextDecoder().decode(content);
    if (p.kind === "new") return { createdId: await this.create(org, p.sobject, fields, text) };

    const known = this.baseline(p.org, p.sobject, p.id);
    if (!known) throw new DocumentError(l10n.t("This document was not read from the org in this window; reopen it to edit."));
    if (known.values.PublishStatus !== undefined && known.values.PublishStatus !== "Draft") throw new DocumentError(l10n.t("Only a draft can be edited. Create a draft of this article first (CRM: Edit Article in Editor)."));
    const file = fileOf(p);
    const changed = file.endsWith(".html") ? this.htmlChange(file, text, known) : this.jsonChanges(text, fields, known, p.kind === "articleFile");
    let saved: { record: Json; name: string } | undefined;
    if (Object.keys(changed).length) {
      // The values the save replaces travel on its write's record (the write history keeps them for a revert).
      const before = new Map([[p.id, Object.fromEntries(Object.keys(changed).map((f) => [f, known.values[f] ?? null]))]]);
      try {
        // The update and the read of the new baseline in one round trip.
        const since = options.overwrite ? undefined : new Date(known.lastModified.replace(/\+0000$/, "Z"));
        const answer = await withWriteContext({ before }, () => org.crm.composite.updateAndRead(p.sobject, p.id, changed, { ifUnmodifiedSince: since, fields: documentFields(fields) }));
        saved = this.named(answer, fields, p.id);
      } catch (err) {
        if (err instanceof APIRequestError && err.status === 412) {
          const { record } = await this.fetch(org, p.sobject, p.id, fields);
          throw new ConflictError(known.name, this.render(record, fields, file));
        }
        if (err instanceof APIRequestError && err.status === 400) throw new DocumentError(err.message, err.fields);
        throw err;
      }
    }
    // What the org now holds is the new baseline (its new LastModifiedDate; the fields as saved).
    const { record, name } = saved ?? (await this.fetch(org, p.sobject, p.id, fields));
    const lastModified = String(record.LastModifiedDate);
    const fileTimes: Record<string, string> = { [file]: lastModified };
    // Other open files of the same record are still what the org holds for their fields: keep their times.
    for (const [other, time] of Object.entries(known.fileTimes)) if (other !== file) fileTimes[other] = time;
    await this.remember(p.org, p.sobject, p.id, { lastModified, values: record, fileTimes, name });
    this.recent.delete(path);
    return {};
  }

  /** The record a document belongs to (its files share one baseline), or undefined for templates and folders. */
  recordOf(path: string): string | undefined {
    const p = this.parse(path);
    return p && (p.kind === "record" || p.kind === "articleFile") ? baselineKey(p.org, p.sobject, p.id) : undefined;
  }

  /**
   * Another writer changed the record these open documents show (a tree command, a panel, a script through
   * the same session). The record is read again as their baseline, so a later save is guarded against the
   * org's new version instead of meeting it as a conflict. Resolves to the documents whose text changed (or
   * that became read-only): their read time moves on, so VS Code reloads them; the others keep theirs and are
   * not disturbed while someone may be typing in them.
   */
  async followChange(paths: string[]): Promise<string[]> {
    const docs = paths.map((path) => ({ path, p: this.parse(path) })).filter((d): d is { path: string; p: Extract<CrmPath, { kind: "record" | "articleFile" }> } => d.p?.kind === "record" || d.p?.kind === "articleFile");
    const first = docs[0]?.p;
    const known = first && this.baseline(first.org, first.sobject, first.id);
    if (!first || !known || docs.some((d) => this.recordOf(d.path) !== this.recordOf(docs[0]!.path))) return [];
    const org = await this.deps.org(first.org);
    const fields = fieldsOf(await org.schema.describe(first.sobject));
    const { record, name } = await this.fetch(org, first.sobject, first.id, fields);
    const lastModified = String(record.LastModifiedDate);
    const statusChanged = known.values.PublishStatus !== record.PublishStatus;
    const changed = docs.filter((d) => statusChanged || this.render(known.values, fields, fileOf(d.p)) !== this.render(record, fields, fileOf(d.p)));
    const fileTimes = { ...known.fileTimes };
    for (const d of changed) {
      fileTimes[fileOf(d.p)] = lastModified;
      this.recent.delete(d.path);
    }
    await this.remember(first.org, first.sobject, first.id, { lastModified, values: record, fileTimes, name });
    return changed.map((d) => d.path);
  }

  /** Forgets what a record's documents were read from (none of them is open any more). */
  async forget(path: string): Promise<void> {
    const key = this.recordOf(path);
    this.recent.delete(path);
    if (key) await this.deps.store.update(key, undefined);
  }

  /**
   * After a conflict the person compared and chose to keep editing: the org's version becomes what the
   * document is compared against, so the next save sends only what differs from it.
   */
  async rebase(path: string): Promise<void> {
    const p = this.parse(path);
    if (!p || !("id" in p)) return;
    const org = await this.deps.org(p.org);
    const fields = fieldsOf(await org.schema.describe(p.sobject));
    const { record, name } = await this.fetch(org, p.sobject, p.id, fields);
    const known = this.baseline(p.org, p.sobject, p.id);
    await this.remember(p.org, p.sobject, p.id, { lastModified: String(record.LastModifiedDate), values: record, fileTimes: known?.fileTimes ?? {}, name });
  }

  private htmlChange(file: string, text: string, known: Baseline): Json {
    const field = file.slice(0, -5);
    return String(known.values[field] ?? "") === text ? {} : { [field]: text };
  }

  private jsonChanges(text: string, fields: FieldInfo[], known: Baseline, articleFields: boolean): Json {
    const edited = parseObject(text);
    const allowed = new Map(fields.filter((f) => f.updateable && !(articleFields && f.richText)).map((f) => [f.name.toLowerCase(), f]));
    const unknown = Object.keys(edited).filter((k) => !allowed.has(k.toLowerCase()));
    if (unknown.length) throw new DocumentError(unknown.length === 1
      ? l10n.t("{0} is not a field that can be edited here. Remove it and save again.", unknown[0]!)
      : l10n.t("{0} are not fields that can be edited here. Remove them and save again.", unknown.join(", ")), unknown);
    const changed: Json = {};
    for (const [key, value] of Object.entries(edited)) {
      const field = allowed.get(key.toLowerCase())!;
      if (JSON.stringify(value) !== JSON.stringify(known.values[field.name] ?? null)) changed[field.name] = value;
    }
    return changed;
  }

  private async create(org: OrgAccess, sobject: string, fields: FieldInfo[], text: string): Promise<string> {
    const edited = parseObject(text);
    const allowed = new Map(fields.filter((f) => f.createable).map((f) => [f.name.toLowerCase(), f.name]));
    const unknown = Object.keys(edited).filter((k) => !allowed.has(k.toLowerCase()));
    if (unknown.length) throw new DocumentError(unknown.length === 1
      ? l10n.t("{0} cannot be set on a new {1}. Remove it and save again.", unknown[0]!, sobject)
      : l10n.t("{0} cannot be set on a new {1}. Remove them and save again.", unknown.join(", "), sobject), unknown);
    const payload: Json = {};
    for (const [key, value] of Object.entries(edited)) if (value !== null && value !== "") payload[allowed.get(key.toLowerCase())!] = value;
    try {
      return (await org.crm.createSobjectRecord(sobject, payload)).id;
    } catch (err) {
      if (err instanceof APIRequestError && err.status === 400) throw new DocumentError(err.message, err.fields);
      throw err;
    }
  }
}

/** The document's JSON object, or a DocumentError saying where it stops being JSON. */
function parseObject(text: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DocumentError(l10n.t("The document is not valid JSON: {0}. Fix it and save again.", (err as Error).message));
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new DocumentError(l10n.t("The document must be one JSON object of field names and values."));
  return value as Json;
}

/** The line (0-based) where a field's key appears in a JSON document, for its diagnostic. */
export function fieldLine(text: string, field: string): number {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => new RegExp(`^\\s*"${field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*:`, "i").test(l));
  return at < 0 ? 0 : at;
}
