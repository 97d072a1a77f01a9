/**
 * One org's schema: Describe Global and the describes of its objects, fetched once per session, kept on disk
 * by the describe store and revalidated with If-Modified-Since (an unchanged object costs a 304 and no body).
 * It is the single source of objects, fields, relationships, picklists and record types for the Objects view,
 * SOQL completion, diagnostics and hover, record documents and templates, the record pickers and article
 * types. No VS Code here: tested in Node.
 */
import * as l10n from "@vscode/l10n";
import type { DescribeGlobal, FieldDescribe, SObjectDescribe } from "../client";
import { Emitter } from "../shared/events";
import type { DescribeStore } from "./describeStore";

export interface SobjectSummary {
  name: string;
  label: string;
  custom: boolean;
  keyPrefix: string | null;
  queryable: boolean;
  createable: boolean;
  updateable: boolean;
}

export interface FieldSummary {
  name: string;
  label: string;
  type: string;
  length: number;
  required: boolean;
  updateable: boolean;
  unique: boolean;
  externalId: boolean;
  referenceTo: string[];
  relationshipName: string | null;
  picklistValues: string[];
  helpText: string | null;
}

/** What sets a field apart ("required", "unique", "external ID"), in the display language. */
export const fieldMarkers = (f: Pick<FieldSummary, "required" | "unique" | "externalId">): string[] =>
  [f.required && l10n.t("required"), f.unique && l10n.t("unique"), f.externalId && l10n.t("external ID")].filter((m): m is string => !!m);

export interface ChildRelationshipSummary {
  relationshipName: string;
  childSObject: string;
  field: string;
}

export interface RecordTypeSummary {
  name: string;
  developerName: string;
  id: string;
  isDefault: boolean;
}

export interface ObjectDetails {
  fields: FieldSummary[];
  childRelationships: ChildRelationshipSummary[];
  recordTypes: RecordTypeSummary[];
}

/** What the schema reads from the org: the client's two describe calls. */
export interface SchemaSource {
  getAllSobjects(options: { ifModifiedSince?: Date }): Promise<DescribeGlobal | undefined>;
  describeObject(objectName: string, options: { ifModifiedSince?: Date }): Promise<SObjectDescribe | undefined>;
}

/** What changed in a schema: the object list, or these objects' describes. */
export type SchemaChange = { objects: true } | { described: string[] };

/** A short badge for a field type: what a person scans the list for. */
export function typeBadge(field: Pick<FieldSummary, "type" | "length" | "referenceTo">): string {
  switch (field.type) {
    case "reference": return `→ ${field.referenceTo.join(" | ") || "?"}`;
    case "string": case "textarea": case "encryptedstring": return `${field.type}(${field.length})`;
    default: return field.type;
  }
}

import { isRequiredOnCreate } from "../client/describe";
export { isRichText, isRequiredOnCreate } from "../client/describe";

function summarizeField(f: FieldDescribe): FieldSummary {
  return {
    name: f.name, label: f.label ?? f.name, type: f.type, length: f.length ?? 0, required: isRequiredOnCreate(f), updateable: f.updateable === true,
    unique: f.unique === true, externalId: f.externalId === true, referenceTo: f.referenceTo ?? [], relationshipName: f.relationshipName ?? null,
    picklistValues: (f.picklistValues ?? []).filter((p) => p.active !== false).map((p) => p.value),
    helpText: f.inlineHelpText ?? null,
  };
}

const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label, "en", { sensitivity: "base" });

/** Fields (required first, then by label), named child relationships and record types other than the master. */
export function summarize(d: SObjectDescribe): ObjectDetails {
  return {
    fields: (d.fields ?? []).map(summarizeField).sort((a, b) => Number(b.required) - Number(a.required) || byLabel(a, b)),
    childRelationships: (d.childRelationships ?? [])
      .filter((c): c is typeof c & { relationshipName: string } => !!c.relationshipName)
      .map((c) => ({ relationshipName: c.relationshipName, childSObject: c.childSObject, field: c.field }))
      .sort((a, b) => a.relationshipName.localeCompare(b.relationshipName)),
    recordTypes: (d.recordTypeInfos ?? [])
      .filter((r) => r.master !== true)
      .map((r) => ({ name: r.name, developerName: r.developerName, id: r.recordTypeId, isDefault: r.defaultRecordTypeMapping === true })),
  };
}

interface Described {
  describe: SObjectDescribe;
  details?: ObjectDetails;
  fetchedAt: Date;
}

export class OrgSchema {
  private all?: SobjectSummary[];
  private objectsFetchedAt?: Date;
  private fetchingObjects?: Promise<SobjectSummary[]>;
  private readonly described = new Map<string, Described>();
  /** Describes on their way, so that every consumer asking at once shares one request per object. */
  private readonly describing = new Map<string, Promise<Described>>();
  /** Bumped by `clear`: an answer to a request sent before it is not kept. */
  private generation = 0;
  private readonly changed = new Emitter<SchemaChange>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly source: SchemaSource,
    private readonly options: { orgKey: string; store?: DescribeStore; warn?: (message: string) => void } = { orgKey: "" },
  ) {}

  /**
   * Describe Global, sorted by label: fetched once, revalidated with If-Modified-Since on `refresh`. Callers
   * that ask while it is on its way (every group and the SOQL editor at start-up) share that one request.
   */
  objects(refresh = false): Promise<SobjectSummary[]> {
    if (this.all && !refresh && !this.fetchingObjects) return Promise.resolve(this.all);
    if (!this.fetchingObjects) this.fetchingObjects = this.fetchObjects(refresh).finally(() => (this.fetchingObjects = undefined));
    return this.fetchingObjects;
  }

  private async fetchObjects(refresh: boolean): Promise<SobjectSummary[]> {
    const generation = this.generation;
    const global = await this.source.getAllSobjects({ ifModifiedSince: refresh ? this.objectsFetchedAt : undefined });
    if (global && generation === this.generation) {
      this.all = global.sobjects
        .map((s) => ({ name: s.name, label: s.label ?? s.name, custom: s.custom === true, keyPrefix: s.keyPrefix ?? null, queryable: s.queryable !== false, createable: s.createable !== false, updateable: s.updateable !== false }))
        .sort(byLabel);
      this.objectsFetchedAt = new Date();
      if (refresh) this.changed.fire({ objects: true });
    }
    return this.all ?? [];
  }

  /** Describe Global as far as read (empty before the first `objects()`), for synchronous consumers. */
  loadedObjects(): SobjectSummary[] {
    return this.all ?? [];
  }

  /** The object an ID belongs to, by its key prefix. */
  async objectOfId(id: string): Promise<SobjectSummary | undefined> {
    const prefix = id.slice(0, 3);
    return (await this.objects()).find((o) => o.keyPrefix === prefix);
  }

  /** The API name as the org spells it (SOQL is case-insensitive; describes are kept under the org's spelling). */
  canonicalName(objectName: string): string {
    const lower = objectName.toLowerCase();
    return this.all?.find((o) => o.name.toLowerCase() === lower)?.name ?? objectName;
  }

  /**
   * An object's full describe: from memory without a request; otherwise from the store, revalidated once with
   * If-Modified-Since; otherwise fetched. Every consumer asking at once shares one request.
   */
  async describe(objectName: string): Promise<SObjectDescribe> {
    return (await this.entry(objectName)).describe;
  }

  /** Fields, child relationships and record types of an object (summarized once per describe). */
  async details(objectName: string): Promise<ObjectDetails> {
    const entry = await this.entry(objectName);
    return (entry.details ??= summarize(entry.describe));
  }

  /** The describe of an object if it has been read already (synchronous consumers such as SOQL completion). */
  peek(objectName: string): ObjectDetails | undefined {
    const entry = this.described.get(this.canonicalName(objectName));
    return entry && (entry.details ??= summarize(entry.describe));
  }

  private entry(objectName: string, revalidate = false): Promise<Described> {
    const name = this.canonicalName(objectName);
    const known = this.described.get(name);
    if (known && !revalidate) return Promise.resolve(known);
    let pending = this.describing.get(name);
    if (!pending) {
      pending = this.fetchDescribe(name, known).finally(() => this.describing.delete(name));
      this.describing.set(name, pending);
    }
    return pending;
  }

  private async fetchDescribe(name: string, known: Described | undefined): Promise<Described> {
    const generation = this.generation;
    const { store, orgKey } = this.options;
    const cached = known ?? (await store?.read(orgKey, name));
    const fresh = await this.source.describeObject(name, { ifModifiedSince: cached?.fetchedAt });
    const entry: Described = fresh ? { describe: fresh, fetchedAt: new Date() } : { describe: cached!.describe, fetchedAt: cached!.fetchedAt };
    if (generation !== this.generation) return entry;
    // Kept under the org's spelling of the name (asked before Describe Global arrived, the name is as typed).
    name = entry.describe.name || name;
    this.described.set(name, entry);
    if (fresh && store) await store.write(orgKey, name, entry).catch((err: unknown) => this.options.warn?.(`could not keep the ${name} describe: ${String(err)}`));
    if (fresh && known) this.changed.fire({ described: [name] });
    return entry;
  }

  /**
   * Revalidates Describe Global and every describe read so far (a 304 each when nothing changed); fires what
   * changed, so views and the SOQL editor show an object's new fields.
   */
  async refresh(): Promise<void> {
    await Promise.all([this.objects(true), ...[...this.described.keys()].map((name) => this.entry(name, true))]);
  }

  /** Forgets everything in memory (the store is cleared by the manager, which knows every org). */
  clear(): void {
    this.generation++;
    this.all = undefined;
    this.objectsFetchedAt = undefined;
    this.described.clear();
    this.describing.clear();
    this.fetchingObjects = undefined;
    this.changed.fire({ objects: true });
  }

  /** A SOQL query selecting an object's fields (the name fields first, at most 25). */
  async starterQuery(objectName: string): Promise<string> {
    const { fields } = await this.details(objectName);
    const preferred = ["Id", "Name", "Title", "Subject", "CaseNumber"];
    const chosen = [
      ...preferred.filter((p) => fields.some((f) => f.name === p)),
      ...fields.filter((f) => !preferred.includes(f.name) && f.type !== "textarea" && f.type !== "address" && f.type !== "location").map((f) => f.name),
    ].slice(0, 25);
    return `SELECT ${chosen.join(",\n       ")}\nFROM ${objectName}\nORDER BY ${fields.some((f) => f.name === "LastModifiedDate") ? "LastModifiedDate DESC" : "Id"}\nLIMIT 200\n`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
