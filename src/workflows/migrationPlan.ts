/**
 * A migration plan (`*.migration.yaml`): which records of which objects move from one org to another, how a
 * record is known in both orgs, which fields go and how values change on the way. Read as plain data (no YAML
 * anchors, aliases or tags), every key checked: a mistake names its place in the file and what was expected.
 */
import { createHash } from "node:crypto";
import { CrmError } from "../client/errors";
import { API_NAME, API_NAME_SOURCE } from "../client/ids";
import { yaml } from "../client/lazyYaml";

/** A migration plan that cannot run as written: `at` is its place in the plan (`objects[1].match`), empty for the whole plan. */
export class MigrationPlanError extends CrmError {
  override name = "MigrationPlanError";
  constructor(message: string, readonly at: string) {
    super(message);
  }
}

/** What happens to a field's value on the way: a constant, emptied, or masked (letters and digits replaced, the rest kept). */
export type Transform = { kind: "constant"; value: string | number | boolean | null } | { kind: "blank" } | { kind: "mask" };

export interface PlanObject {
  object: string;
  /** A SOQL condition on the source org's records. */
  where?: string;
  /** Fields (or `Relationship.Field` paths) whose values together identify a record in both orgs. */
  match: string[];
  /** Only these fields (besides lookups and the match), when given. */
  include?: string[];
  exclude: string[];
  transform: Record<string, Transform>;
  /** The record type (developer name) a record gets when its own has no namesake in the target. */
  recordTypeDefault?: string;
}

export interface MigrationPlan {
  /** The orgs by the extension's alias (the command line names helper files instead). */
  from?: string;
  to?: string;
  /** The target user (username) who owns a record whose owner has no active namesake in the target. */
  ownerDefault?: string;
  objects: PlanObject[];
}

/** A plan as written (the YAML file's shape, or the same object built by a script). */
export interface PlanInput {
  from?: string;
  to?: string;
  owner?: { default: string };
  objects: {
    object: string;
    where?: string;
    match: string | string[];
    fields?: { include?: string[]; exclude?: string[] };
    transform?: Record<string, "blank" | "mask" | { constant: string | number | boolean | null }>;
    recordType?: { default: string };
  }[];
}

const PATH = new RegExp(`^${API_NAME_SOURCE}(?:\\.${API_NAME_SOURCE})?$`);
const TOP_KEYS = ["from", "to", "owner", "objects"];
const OBJECT_KEYS = ["object", "where", "match", "fields", "transform", "recordType"];

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const shown = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "a mapping" : JSON.stringify(v));

function unknownKeys(value: Json, allowed: string[], where: string): void {
  const extra = Object.keys(value).filter((k) => !allowed.includes(k));
  if (extra.length) throw new MigrationPlanError(`${where} has no key '${extra[0]}' (it takes ${allowed.join(", ")})`, where);
}

function text(value: unknown, where: string, pattern?: RegExp, expected = "a name"): string {
  if (typeof value !== "string" || !value.trim() || (pattern && !pattern.test(value.trim()))) throw new MigrationPlanError(`${where} must be ${expected}, got ${shown(value)}`, where);
  return value.trim();
}

function names(value: unknown, where: string, pattern: RegExp, expected: string): string[] {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.length) throw new MigrationPlanError(`${where} must be a list of ${expected}, got ${shown(value)}`, where);
  return list.map((v, i) => text(v, `${where}[${i}]`, pattern, expected));
}

function transformOf(value: unknown, where: string): Transform {
  if (value === "blank") return { kind: "blank" };
  if (value === "mask") return { kind: "mask" };
  if (isMap(value) && Object.keys(value).length === 1 && "constant" in value) {
    const constant = value.constant;
    if (constant === null || ["string", "number", "boolean"].includes(typeof constant)) return { kind: "constant", value: constant as string | number | boolean | null };
  }
  throw new MigrationPlanError(`${where} must be blank, mask or { constant: <value> }, got ${shown(value)}`, where);
}

function objectOf(value: unknown, i: number): PlanObject {
  const where = `objects[${i}]`;
  if (!isMap(value)) throw new MigrationPlanError(`${where} must be a mapping with object and match, got ${shown(value)}`, where);
  unknownKeys(value, OBJECT_KEYS, where);
  const object = text(value.object, `${where}.object`, API_NAME, "an object's API name");
  if (value.match === undefined) throw new MigrationPlanError(`${where}.match is missing: name the fields that identify a ${object} record in both orgs (or an external ID field)`, `${where}.match`);
  const match = names(value.match, `${where}.match`, PATH, "field names or Relationship.Field paths");
  let include: string[] | undefined;
  let exclude: string[] = [];
  if (value.fields !== undefined) {
    if (!isMap(value.fields)) throw new MigrationPlanError(`${where}.fields must be a mapping with include and/or exclude, got ${shown(value.fields)}`, `${where}.fields`);
    unknownKeys(value.fields, ["include", "exclude"], `${where}.fields`);
    if (value.fields.include !== undefined) include = names(value.fields.include, `${where}.fields.include`, API_NAME, "field API names");
    if (value.fields.exclude !== undefined) exclude = names(value.fields.exclude, `${where}.fields.exclude`, API_NAME, "field API names");
  }
  const transform: Record<string, Transform> = {};
  if (value.transform !== undefined) {
    if (!isMap(value.transform)) throw new MigrationPlanError(`${where}.transform must be a mapping of field → blank | mask | { constant: <value> }, got ${shown(value.transform)}`, `${where}.transform`);
    for (const [field, t] of Object.entries(value.transform)) transform[text(field, `${where}.transform`, API_NAME, "field API names")] = transformOf(t, `${where}.transform.${field}`);
  }
  const transformed = match.find((m) => Object.keys(transform).some((f) => f.toLowerCase() === m.toLowerCase()));
  if (transformed) throw new MigrationPlanError(`${where}.transform changes ${transformed}, which is in match: the records could no longer be found again (a second run would insert them twice)`, `${where}.transform`);
  let recordTypeDefault: string | undefined;
  if (value.recordType !== undefined) {
    if (!isMap(value.recordType)) throw new MigrationPlanError(`${where}.recordType must be { default: <developer name> }, got ${shown(value.recordType)}`, `${where}.recordType`);
    unknownKeys(value.recordType, ["default"], `${where}.recordType`);
    recordTypeDefault = text(value.recordType.default, `${where}.recordType.default`, API_NAME, "a record type's developer name");
  }
  const where_ = value.where === undefined || value.where === null ? undefined : text(value.where, `${where}.where`, undefined, "a SOQL condition");
  return { object, ...(where_ ? { where: where_ } : {}), match, ...(include ? { include } : {}), exclude, transform, ...(recordTypeDefault ? { recordTypeDefault } : {}) };
}

/** Checks a plan given as data (parsed YAML, or built by a script) and makes it the form the run reads. */
export function checkPlan(value: PlanInput | unknown): MigrationPlan {
  if (!isMap(value)) throw new MigrationPlanError(`A migration plan must be a mapping with objects, got ${shown(value)}`, "");
  unknownKeys(value, TOP_KEYS, "The plan");
  const plan: MigrationPlan = { objects: [] };
  if (value.from !== undefined) plan.from = text(value.from, "from", undefined, "an org's name");
  if (value.to !== undefined) plan.to = text(value.to, "to", undefined, "an org's name");
  if (value.owner !== undefined) {
    if (!isMap(value.owner)) throw new MigrationPlanError(`owner must be { default: <username in the target org> }, got ${shown(value.owner)}`, "owner");
    unknownKeys(value.owner, ["default"], "owner");
    plan.ownerDefault = text(value.owner.default, "owner.default", undefined, "a username in the target org");
  }
  if (!Array.isArray(value.objects) || !value.objects.length) throw new MigrationPlanError(`objects must be a list of the objects to move, got ${shown(value.objects)}`, "objects");
  plan.objects = value.objects.map(objectOf);
  const seen = new Set<string>();
  plan.objects.forEach((o, i) => {
    if (seen.has(o.object.toLowerCase())) throw new MigrationPlanError(`objects[${i}] names ${o.object} a second time: one entry per object`, `objects[${i}].object`);
    seen.add(o.object.toLowerCase());
  });
  return plan;
}

/** Reads a plan's YAML text (`filename` is named in errors). */
export function parsePlan(source: string, options: { filename?: string } = {}): MigrationPlan {
  if (typeof source !== "string") throw new TypeError(`parsePlan takes the plan's YAML text, got ${typeof source}`);
  let data: unknown;
  try {
    data = yaml().parseYaml(source, { filename: options.filename, plainData: true });
  } catch (err) {
    throw new MigrationPlanError(`${options.filename ?? "The plan"} is not YAML that can be read: ${(err as Error).message.split("\n")[0]}`, "");
  }
  return checkPlan(data);
}

/** A short fingerprint of what a plan moves: a run is resumed only with the plan it was started with. */
export function planDigest(plan: MigrationPlan): string {
  return createHash("sha256").update(JSON.stringify(plan.objects)).update(String(plan.ownerDefault ?? "")).digest("hex").slice(0, 16);
}

/**
 * A masked value: each letter becomes a letter and each digit a digit chosen from a hash of the value, the rest
 * kept ("ada.lovelace@example.com" → "qzk.fwbmrcxj@hpzoqme.tul"): the same input masks the same way in every run,
 * keeps its length and shape (an email stays an email), and cannot be read back.
 */
export function mask(value: string): string {
  const hash = createHash("sha256").update(value).digest();
  let i = 0;
  return value.replace(/[A-Za-z0-9]/g, (c) => {
    const byte = hash[i++ % hash.length]! ^ i;
    if (/\d/.test(c)) return String(byte % 10);
    const letter = String.fromCharCode(97 + (byte % 26));
    return c === c.toUpperCase() ? letter.toUpperCase() : letter;
  });
}

/** A value after the field's transform (`text`: the source value as text, null when empty). */
export function transformed(transform: Transform | undefined, text: string | null): string | null {
  if (!transform) return text;
  if (transform.kind === "blank") return null;
  if (transform.kind === "mask") return text === null ? null : mask(text);
  return transform.value === null ? null : String(transform.value);
}
