/** The emulated org's data: object definitions, records, ID generation, and time formatting. */
import { get18CharId } from "../client/ids";
import { defineObjects, type ObjectDef, type ObjectSpec } from "./schema";

export type Rec = Record<string, unknown> & { Id: string };

/** Who wrote the schema's rows: the author the seeds name before their first user exists. */
const SCHEMA_AUTHOR = "005000000000000AAA";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** sObject record datetime format: `2024-06-10T09:30:18.000+0000`. */
export function sfDateTime(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+0000");
}

/** Parses a record datetime, an ISO date-time, or a date into epoch milliseconds. */
export function parseSfDate(value: string): number {
  const normalized = value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  return Date.parse(normalized.length === 10 ? `${normalized}T00:00:00Z` : normalized);
}

export class Store {
  readonly objects: Map<string, ObjectDef>;
  /** Lower-cased object name → (18-char ID → record). Deleted records stay with IsDeleted = true. */
  readonly records = new Map<string, Map<string, Rec>>();
  /** Key prefix → object definition. */
  readonly byPrefix = new Map<string, ObjectDef>();
  readonly recordTypeIds = new Map<string, string>();
  /** Binary content of rich-text images, by 15-char ContentReference ID. */
  readonly images = new Map<string, { contentType: string; bytes: Buffer }>();
  private readonly counters = new Map<string, number>();
  /** Clock of the org; seeds set it so that their data is deterministic. */
  clock: () => number = () => Date.now();
  globalLastModified: number;

  private specs: ObjectSpec[] = [];

  constructor(specs: ObjectSpec[], readonly podCode = "5g") {
    this.objects = new Map();
    this.globalLastModified = Date.UTC(2025, 0, 1);
    this.addObjects(specs);
  }

  /** Adds object definitions (re-deriving child relationships of the whole schema); marks describe global changed. */
  addObjects(specs: ObjectSpec[]): void {
    this.specs.push(...specs);
    const defined = defineObjects(this.specs, this.globalLastModified);
    for (const [key, def] of defined) {
      const existing = this.objects.get(key);
      if (existing) def.lastModified = existing.lastModified;
      this.objects.set(key, def);
      if (!this.records.has(key)) this.records.set(key, new Map());
      this.byPrefix.set(def.keyPrefix, def);
    }
    this.recordDefinitions();
  }

  /** Objects whose EntityDefinition and FieldDefinition rows exist. */
  private readonly definedObjects = new Set<string>();

  /** The schema as rows of EntityDefinition and FieldDefinition (when this org has them), one per object and field. */
  private recordDefinitions(): void {
    if (!this.objects.has("fielddefinition") || !this.objects.has("entitydefinition")) return;
    for (const [key, def] of this.objects) {
      if (this.definedObjects.has(key)) continue;
      this.definedObjects.add(key);
      const entity = this.insert("EntityDefinition", { QualifiedApiName: def.name, DeveloperName: def.name.replace(/__\w+$/, ""), Label: def.label, KeyPrefix: def.keyPrefix }, SCHEMA_AUTHOR);
      for (const field of def.fields) {
        this.insert("FieldDefinition", {
          QualifiedApiName: field.name, DeveloperName: field.name.replace(/__c$/, ""), Label: field.label ?? field.name, DataType: field.type, EntityDefinitionId: entity.Id,
          SecurityClassification: field.classification?.level ?? null, ComplianceGroup: field.classification?.compliance?.join(";") ?? null,
        }, SCHEMA_AUTHOR);
      }
    }
  }

  object(name: string): ObjectDef | undefined {
    return this.objects.get(name.toLowerCase());
  }

  table(name: string): Map<string, Rec> {
    const table = this.records.get(name.toLowerCase());
    if (!table) throw new Error(`no table ${name}`);
    return table;
  }

  /**
   * What the records are now; the function returned puts them back (a rolled-back transaction). Records are
   * restored in place, so whoever holds one sees it as it was.
   */
  snapshot(): () => void {
    const saved = new Map([...this.records].map(([name, table]) => [name, new Map([...table].map(([id, rec]) => [id, { rec, copy: { ...rec } }]))]));
    const images = new Set(this.images.keys());
    return () => {
      for (const [name, table] of this.records) {
        const before = saved.get(name) ?? new Map<string, { rec: Rec; copy: Rec }>();
        for (const id of [...table.keys()]) if (!before.has(id)) table.delete(id);
        for (const [id, { rec, copy }] of before) {
          for (const key of Object.keys(rec)) delete rec[key];
          table.set(id, Object.assign(rec, copy));
        }
      }
      for (const key of [...this.images.keys()]) if (!images.has(key)) this.images.delete(key);
    };
  }

  newId(keyPrefix: string): string {
    const n = (this.counters.get(keyPrefix) ?? 0) + 1;
    this.counters.set(keyPrefix, n);
    let body = "";
    for (let v = n; body.length < 10; v = Math.floor(v / 62)) body = BASE62[v % 62] + body;
    return get18CharId(`${keyPrefix}${this.podCode}${body}`);
  }

  /** Finds a live (not deleted) record by 15- or 18-char ID. */
  find(id: string | null | undefined): { def: ObjectDef; rec: Rec } | undefined {
    if (!id || (id.length !== 15 && id.length !== 18) || !/^[a-zA-Z0-9]+$/.test(id)) return undefined;
    const def = this.byPrefix.get(id.slice(0, 3));
    if (!def) return undefined;
    let full: string;
    try {
      full = get18CharId(id.slice(0, 15));
    } catch {
      return undefined;
    }
    const rec = this.table(def.name).get(full);
    return rec && !rec.IsDeleted ? { def, rec } : undefined;
  }

  /** Inserts a record, filling system fields and defaults. Validation is the caller's job. */
  insert(objectName: string, values: Record<string, unknown>, userId: string): Rec {
    const def = this.object(objectName);
    if (!def) throw new Error(`unknown object ${objectName}`);
    const stamp = this.stamp(this.clock());
    const staged: Rec = { Id: (values.Id as string) ?? this.newId(def.keyPrefix) };
    for (const field of def.fields) {
      if (field.name === "Id") continue;
      staged[field.name] = field.defaultValue ?? (field.type === "boolean" ? false : null);
    }
    Object.assign(staged, { IsDeleted: false, CreatedDate: stamp, CreatedById: userId, LastModifiedDate: stamp, LastModifiedById: userId, SystemModstamp: stamp });
    if (def.fieldMap.has("ownerid")) staged.OwnerId = userId;
    for (const [key, value] of Object.entries(values)) {
      const field = def.fieldMap.get(key.toLowerCase());
      if (field) staged[field.name] = value;
    }
    const rec = this.compact(staged);
    this.table(def.name).set(rec.Id, rec);
    return rec;
  }

  /**
   * The record as an object of fixed shape. Built field by field (names known only at run time), V8 keeps a record
   * of twenty fields as a hash table (about 1.4 KB); made by an object literal of its names, its fields sit in the
   * object itself, a few hundred bytes with its values: the benches' millions of rows then fit in the emulator.
   */
  private compact(staged: Rec): Rec {
    const names = Object.keys(staged);
    const key = names.join("\0");
    let make = this.shapes.get(key);
    if (!make) {
      // Field names come from the schema, quoted as JSON strings: no name can be code.
      make = new Function("v", `return {${names.map((n) => `${JSON.stringify(n)}: v[${JSON.stringify(n)}]`).join(", ")}};`) as (v: Rec) => Rec;
      this.shapes.set(key, make);
    }
    return make(staged);
  }

  private readonly shapes = new Map<string, (staged: Rec) => Rec>();

  /** The record datetime of `ms`, one string shared by the records written in the same millisecond. */
  private stamp(ms: number): string {
    if (this.lastStamp?.ms !== ms) this.lastStamp = { ms, text: sfDateTime(ms) };
    return this.lastStamp.text;
  }

  private lastStamp?: { ms: number; text: string };

  touch(rec: Rec, userId: string): void {
    const now = Math.max(this.clock(), parseSfDate(String(rec.LastModifiedDate)) + 1000);
    rec.LastModifiedDate = sfDateTime(now);
    rec.SystemModstamp = sfDateTime(now);
    rec.LastModifiedById = userId;
  }

  /**
   * Tables whose rows are computed from their index when read and never kept (the large seed's million-row
   * object): queries read them a window at a time, so the emulator's memory stays modest whatever their size.
   */
  readonly generated = new Map<string, { count: number; row(index: number, wanted?: ReadonlySet<string>): Rec }>();

  /** Rows `offset` to `offset + count` of a generated table. */
  generatedRows(objectName: string, offset: number, count: number): Rec[] {
    const table = this.generated.get(objectName.toLowerCase())!;
    const end = Math.min(table.count, offset + count);
    const rows: Rec[] = [];
    for (let i = offset; i < end; i++) rows.push(table.row(i));
    return rows;
  }

  /** Deletes what an org deletes with a record: the live records of cascading child relationships, theirs in turn. */
  cascade(def: ObjectDef, rec: Rec, userId: string): void {
    for (const child of def.childRelationships.filter((c) => c.cascadeDelete)) {
      const childDef = this.object(child.childSObject);
      if (!childDef) continue;
      for (const row of this.liveRecords(child.childSObject)) {
        if (String(row[child.field] ?? "").slice(0, 15) !== rec.Id.slice(0, 15)) continue;
        row.IsDeleted = true;
        this.touch(row, userId);
        this.cascade(childDef, row, userId);
      }
    }
  }

  liveRecords(objectName: string, includeDeleted = false): Rec[] {
    const generated = this.generated.get(objectName.toLowerCase());
    if (generated) return this.generatedRows(objectName, 0, generated.count);
    const all = [...this.table(objectName).values()];
    return includeDeleted ? all : all.filter((r) => !r.IsDeleted);
  }
}
