/**
 * The Objects view's data for one org: describe global grouped into Favorites, Standard and Custom,
 * filtered by text; each object's fields, child relationships and record types from its describe (cached
 * by the session and revalidated with If-Modified-Since). No VS Code here: tested in Node.
 */
import type { KeyValueStore } from "../connections/orgRegistry";

export interface SobjectSummary {
  name: string;
  label: string;
  custom: boolean;
  keyPrefix: string | null;
  queryable: boolean;
}

export interface FieldSummary {
  name: string;
  label: string;
  type: string;
  length: number;
  required: boolean;
  unique: boolean;
  externalId: boolean;
  referenceTo: string[];
  relationshipName: string | null;
  picklistValues: string[];
  helpText: string | null;
}

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

export interface ObjectsSource {
  describeGlobal(ifModifiedSince?: Date): Promise<{ sobjects: Record<string, unknown>[] } | undefined>;
  describe(objectName: string): Promise<Record<string, unknown>>;
}

export type GroupName = "favorites" | "standard" | "custom";

/** A short badge for a field type: what a person scans the list for. */
export function typeBadge(field: Pick<FieldSummary, "type" | "length" | "referenceTo">): string {
  switch (field.type) {
    case "reference": return `→ ${field.referenceTo.join(" | ") || "?"}`;
    case "string": case "textarea": case "encryptedstring": return `${field.type}(${field.length})`;
    default: return field.type;
  }
}

function summarizeField(f: Record<string, unknown>): FieldSummary {
  const type = String(f.type);
  return {
    name: String(f.name), label: String(f.label ?? f.name), type, length: Number(f.length ?? 0),
    // Required to create: not nillable, not defaulted, createable, not a boolean (which always has a value).
    required: f.nillable === false && f.defaultedOnCreate !== true && f.createable === true && type !== "boolean",
    unique: f.unique === true, externalId: f.externalId === true, referenceTo: (f.referenceTo as string[] | undefined) ?? [],
    relationshipName: (f.relationshipName as string | null) ?? null,
    picklistValues: ((f.picklistValues as { value: string; active?: boolean }[] | undefined) ?? []).filter((p) => p.active !== false).map((p) => p.value),
    helpText: (f.inlineHelpText as string | null) ?? null,
  };
}

export class ObjectsModel {
  private all?: SobjectSummary[];
  private fetchedAt?: Date;
  filter = "";

  constructor(private readonly source: ObjectsSource, private readonly favoritesStore: KeyValueStore, private readonly orgKey: string) {}

  private fetching?: Promise<SobjectSummary[]>;

  /**
   * Describe global, fetched once and revalidated with If-Modified-Since on `refresh`. Callers that ask
   * while it is on its way (every group and the SOQL editor at start-up) share that one request.
   */
  objects(refresh = false): Promise<SobjectSummary[]> {
    if (this.all && !refresh && !this.fetching) return Promise.resolve(this.all);
    if (!this.fetching) this.fetching = this.fetchObjects(refresh).finally(() => (this.fetching = undefined));
    return this.fetching;
  }

  private async fetchObjects(refresh: boolean): Promise<SobjectSummary[]> {
    const global = await this.source.describeGlobal(refresh ? this.fetchedAt : undefined);
    if (global) {
      this.all = global.sobjects
        .map((s) => ({ name: String(s.name), label: String(s.label ?? s.name), custom: s.custom === true, keyPrefix: (s.keyPrefix as string | null) ?? null, queryable: s.queryable !== false }))
        .sort((a, b) => a.label.localeCompare(b.label, "en", { sensitivity: "base" }));
      this.fetchedAt = new Date();
    }
    return this.all ?? [];
  }

  private favoritesKey(): string {
    return `crm.favorites.${this.orgKey}`;
  }

  favorites(): string[] {
    return this.favoritesStore.get<string[]>(this.favoritesKey(), []);
  }

  async setFavorite(objectName: string, on: boolean): Promise<void> {
    const current = new Set(this.favorites());
    if (on) current.add(objectName);
    else current.delete(objectName);
    await this.favoritesStore.update(this.favoritesKey(), [...current].sort());
  }

  private matches(o: SobjectSummary): boolean {
    if (!this.filter) return true;
    const f = this.filter.toLowerCase();
    return o.name.toLowerCase().includes(f) || o.label.toLowerCase().includes(f);
  }

  /** The objects of a group, filtered. */
  async group(name: GroupName): Promise<SobjectSummary[]> {
    const all = (await this.objects()).filter((o) => this.matches(o));
    if (name === "favorites") {
      const favorites = new Set(this.favorites());
      return all.filter((o) => favorites.has(o.name));
    }
    return all.filter((o) => o.custom === (name === "custom"));
  }

  async counts(): Promise<Record<GroupName, number>> {
    const [favorites, standard, custom] = await Promise.all([this.group("favorites"), this.group("standard"), this.group("custom")]);
    return { favorites: favorites.length, standard: standard.length, custom: custom.length };
  }

  /** Fields (required first, then by label), child relationships and record types of an object. */
  async details(objectName: string): Promise<ObjectDetails> {
    const d = await this.source.describe(objectName);
    const fields = ((d.fields as Record<string, unknown>[]) ?? []).map(summarizeField).sort((a, b) => Number(b.required) - Number(a.required) || a.label.localeCompare(b.label, "en", { sensitivity: "base" }));
    const childRelationships = ((d.childRelationships as Record<string, unknown>[]) ?? [])
      .filter((c) => c.relationshipName)
      .map((c) => ({ relationshipName: String(c.relationshipName), childSObject: String(c.childSObject), field: String(c.field) }))
      .sort((a, b) => a.relationshipName.localeCompare(b.relationshipName));
    const recordTypes = ((d.recordTypeInfos as Record<string, unknown>[]) ?? [])
      .filter((r) => r.master !== true)
      .map((r) => ({ name: String(r.name), developerName: String(r.developerName), id: String(r.recordTypeId), isDefault: r.defaultRecordTypeMapping === true }));
    return { fields, childRelationships, recordTypes };
  }

  /** A SOQL query selecting an object's fields (the updateable and name fields first, at most 25). */
  async starterQuery(objectName: string): Promise<string> {
    const { fields } = await this.details(objectName);
    const preferred = ["Id", "Name", "Title", "Subject", "CaseNumber"];
    const chosen = [
      ...preferred.filter((p) => fields.some((f) => f.name === p)),
      ...fields.filter((f) => !preferred.includes(f.name) && f.type !== "textarea" && f.type !== "address" && f.type !== "location").map((f) => f.name),
    ].slice(0, 25);
    return `SELECT ${chosen.join(",\n       ")}\nFROM ${objectName}\nORDER BY ${fields.some((f) => f.name === "LastModifiedDate") ? "LastModifiedDate DESC" : "Id"}\nLIMIT 200\n`;
  }
}
