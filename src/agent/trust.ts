/**
 * What an agent is shown of an org's data, decided in one place for every tool:
 *   - fields the org classifies as sensitive (FieldDefinition's data sensitivity level Confidential, Restricted
 *     or MissionCritical, or any compliance category) are withheld, with the reason, unless a person reveals
 *     them for this org; a query may not filter, group, sort or aggregate by them either (an oracle);
 *   - each record says who wrote it when that is someone outside the company (a guest, portal or community
 *     user, a web form, an e-mail), and under lockdown its text is withheld;
 *   - what the agent was shown of either is remembered for the session, and a proposal or draft that would
 *     carry it into a channel outsiders read (an article, a feed post or comment, an e-mail) is refused: private
 *     data, untrusted content and an outward channel together are the "lethal trifecta".
 * No VS Code here: the language-model tools and both MCP servers run every answer through it.
 */
import type { Crm, SObjectDescribe } from "../client";
import { isRecordId } from "../client/ids";
import { soqlLiteral } from "../client/soql-text";
import { soqlParser } from "../soql/parser";

export interface TrustSettings {
  /** Withhold text written by authors outside the company. */
  lockdown: boolean;
  /** Show fields the org classifies as sensitive. */
  revealClassified: boolean;
}

export interface TrustedOrg {
  crm: Crm;
  schema: { describe(object: string): Promise<SObjectDescribe> };
  knowledgeSobject: string;
  trust?: Partial<TrustSettings>;
}

/** A call refused by the trust rules: nothing was sent. */
export class TrustRefusal extends Error {
  override name = "TrustRefusal";
}

/** A value the agent is not shown, and why; shown in its place (and as data, the same words). */
export class Withheld {
  constructor(readonly reason: string) {}
  toString(): string {
    return `[withheld: ${this.reason}]`;
  }
  toJSON(): string {
    return this.toString();
  }
}

// ---- classification ----

const SENSITIVE_LEVELS = new Set(["confidential", "restricted", "missioncritical"]);

/** Lower-cased field name → why it is withheld ("classified Restricted; PII, GDPR"). */
type Classified = Map<string, string>;

const classifications = new WeakMap<Crm, Map<string, Promise<{ fields: Classified; unreadable?: string }>>>();

/** The fields of an object the org classifies as sensitive: one query per object and session. */
export function classifiedFields(crm: Crm, object: string): Promise<{ fields: Classified; unreadable?: string }> {
  let byObject = classifications.get(crm);
  if (!byObject) classifications.set(crm, (byObject = new Map()));
  const key = object.toLowerCase();
  let found = byObject.get(key);
  if (!found) {
    found = readClassification(crm, object);
    byObject.set(key, found);
  }
  return found;
}

async function readClassification(crm: Crm, object: string): Promise<{ fields: Classified; unreadable?: string }> {
  const fields: Classified = new Map();
  try {
    let page = await crm.soqlQuery(`SELECT QualifiedApiName, SecurityClassification, ComplianceGroup FROM FieldDefinition WHERE EntityDefinition.QualifiedApiName = ${soqlLiteral(object)}`);
    for (;;) {
      for (const row of page.records) {
        const level = typeof row.SecurityClassification === "string" ? row.SecurityClassification : "";
        const compliance = typeof row.ComplianceGroup === "string" ? row.ComplianceGroup.split(";").map((g) => g.trim()).filter(Boolean) : [];
        if (!SENSITIVE_LEVELS.has(level.toLowerCase()) && !compliance.length) continue;
        fields.set(String(row.QualifiedApiName).toLowerCase(), `classified ${[level, compliance.join(", ")].filter(Boolean).join("; ")}`);
      }
      if (page.done || !page.nextRecordsUrl) break;
      page = await crm.soqlQuery(page.nextRecordsUrl, { nextRecordsUrl: true });
    }
    return { fields };
  } catch (err) {
    // An org (or a user) without FieldDefinition: nothing is known to be classified, and the answer says so.
    return { fields, unreadable: (err as Error).message.split("\n")[0] };
  }
}

const revealing = (org: TrustedOrg) => org.trust?.revealClassified === true;

const REVEAL_HOW = "A person can reveal classified fields for this org (VS Code: the setting crm.agent.revealClassified; crm-explorer-mcp: --reveal-classified).";

/**
 * Refuses a SOQL statement that filters, groups, sorts or aggregates by a classified field: the rows would
 * hide the values, and the answer would still tell them. A classified field in the SELECT list alone is not
 * refused: its values are withheld from the rows.
 */
export async function checkStatement(soql: string, org: TrustedOrg): Promise<void> {
  if (revealing(org)) return;
  let parsed: ReturnType<ReturnType<typeof soqlParser>["parseQuery"]>;
  try {
    parsed = soqlParser().parseQuery(soql);
  } catch {
    return; // The org will say what is wrong with it.
  }
  const scopes: { object: string; alias?: string; selected: string[] }[] = [];
  const selectedOf = (fields: typeof parsed.fields) => (fields ?? []).flatMap((f) => (f.type === "Field" ? [f.field] : f.type === "FieldRelationship" ? [f.rawValue ?? [...f.relationships, f.field].join(".")] : []));
  if (parsed.sObject) scopes.push({ object: parsed.sObject, alias: parsed.sObjectAlias, selected: selectedOf(parsed.fields) });
  for (const f of parsed.fields ?? []) {
    if (f.type !== "FieldSubquery" || !parsed.sObject) continue;
    const parent = await org.schema.describe(parsed.sObject).catch(() => undefined);
    const child = parent?.childRelationships?.find((c) => c.relationshipName?.toLowerCase() === f.subquery.relationshipName.toLowerCase());
    if (child) scopes.push({ object: child.childSObject, alias: f.subquery.sObjectAlias, selected: selectedOf(f.subquery.fields) });
  }
  const words = soql.replace(/'(?:[^'\\]|\\.)*'/g, "''").match(/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/g) ?? [];
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1);
  for (const scope of scopes) {
    const selectedCounts = new Map<string, number>();
    for (const s of scope.selected) selectedCounts.set(s.toLowerCase(), (selectedCounts.get(s.toLowerCase()) ?? 0) + 1);
    for (const [word, n] of counts) {
      if (n <= (selectedCounts.get(word) ?? 0)) continue;
      const reached = await fieldAt(org, scope.object, scope.alias, word.split("."));
      if (!reached) continue;
      const why = (await classifiedFields(org.crm, reached.object)).fields.get(reached.field.toLowerCase());
      if (why) throw new TrustRefusal(`the query uses ${reached.object}.${reached.field} outside its SELECT list, and the org has it ${why}: agents are not shown it, and a query may not filter, group, sort or aggregate by it either. Nothing was sent. ${REVEAL_HOW}`);
    }
  }
}

/** The object and field a path names from an object (Account.Owner.Email from Contact), or undefined. */
async function fieldAt(org: TrustedOrg, object: string, alias: string | undefined, path: string[]): Promise<{ object: string; field: string } | undefined> {
  let d = await org.schema.describe(object).catch(() => undefined);
  let hops = path;
  if (hops.length > 1 && (hops[0] === object.toLowerCase() || hops[0] === alias?.toLowerCase())) hops = hops.slice(1);
  for (const hop of hops.slice(0, -1)) {
    const reference = d?.fields.find((f) => f.relationshipName?.toLowerCase() === hop);
    const target = reference?.referenceTo?.[0];
    d = target ? await org.schema.describe(target).catch(() => undefined) : undefined;
  }
  const field = d?.fields.find((f) => f.name.toLowerCase() === hops[hops.length - 1]);
  return d && field ? { object: d.name, field: field.name } : undefined;
}

// ---- authors ----

export type AuthorKind = "internal user" | "automated process" | "guest user" | "portal or community user" | "web form" | "e-mail";

const OUTSIDE: ReadonlySet<AuthorKind> = new Set(["guest user", "portal or community user", "web form", "e-mail"]);

/** Who an author is, from the user's UserType (and, for cases and leads, where the record came from). */
export function authorKind(userTypes: unknown[], origin?: unknown): AuthorKind | undefined {
  // Where the record came from says more than the user the org filed it under (a site guest, an automated process).
  const origins: AuthorKind[] = origin === "Web" ? ["web form"] : origin === "Email" ? ["e-mail"] : [];
  const kinds = userTypes.map((t): AuthorKind | undefined => {
    if (typeof t !== "string" || !t) return undefined;
    if (t === "Guest") return "guest user";
    if (t === "AutomatedProcess") return "automated process";
    if (t === "Standard") return "internal user";
    return "portal or community user"; // PowerPartner, PowerCustomerSuccess, CustomerSuccess, CspLitePortal, SelfService, CsnOnly …
  });
  kinds.unshift(...origins);
  return kinds.find((k) => k && OUTSIDE.has(k)) ?? kinds.find((k) => k === "automated process") ?? kinds.find(Boolean);
}

/** Where a record of these objects came from, as the org records it. */
const ORIGIN_FIELD: Record<string, string> = { case: "Origin", lead: "LeadSource" };

type Row = Record<string, unknown>;

/** Record ID → its author's kind: one query per object (and 200 IDs). Objects without authors answer nothing. */
async function authorsOf(org: TrustedOrg, idsByObject: Map<string, Set<string>>): Promise<Map<string, AuthorKind>> {
  const authors = new Map<string, AuthorKind>();
  for (const [object, ids] of idsByObject) {
    const d = await org.schema.describe(object).catch(() => undefined);
    if (!d?.fields.some((f) => f.name === "CreatedById")) continue;
    const origin = ORIGIN_FIELD[object.toLowerCase()];
    const list = [...ids];
    for (let at = 0; at < list.length; at += 200) {
      const chunk = list.slice(at, at + 200);
      try {
        const { records } = await org.crm.soqlQuery(`SELECT Id, CreatedBy.UserType, LastModifiedBy.UserType${origin ? `, ${origin}` : ""} FROM ${d.name} WHERE Id IN (${chunk.map(soqlLiteral).join(", ")})`);
        for (const r of records) {
          const kind = authorKind([(r.CreatedBy as Row | null)?.UserType, (r.LastModifiedBy as Row | null)?.UserType], origin ? r[origin] : undefined);
          if (kind) authors.set(String(r.Id), kind);
        }
      } catch {
        // Authors unknown for these rows: under lockdown their text is withheld.
      }
    }
  }
  return authors;
}

// ---- the ledger: what was shown, for the trifecta rule ----

/** Passages this long (or longer) of outsiders' text are recognised when copied. */
const PASSAGE = 24;
const MOST_PASSAGES = 200_000;
const MOST_VALUES = 5_000;

class Ledger {
  private readonly passages = new Set<string>();
  private readonly values = new Map<string, string>();

  outsiderText(text: string, kind: AuthorKind): void {
    const t = normal(text);
    for (let i = 0; i + PASSAGE <= t.length; i++) {
      if (this.passages.size >= MOST_PASSAGES) this.passages.delete(this.passages.values().next().value!);
      this.passages.add(`${kind}\u0000${t.slice(i, i + PASSAGE)}`);
    }
  }

  classifiedValue(value: string, why: string): void {
    const v = normal(value);
    if (v.length < 4) return;
    if (this.values.size >= MOST_VALUES) this.values.delete(this.values.keys().next().value!);
    this.values.set(v, why);
  }

  /** Why a value may not go out, or undefined. */
  taint(value: string): string | undefined {
    const v = normal(value);
    for (const [shown, why] of this.values) if (v.includes(shown)) return `a value the org has ${why}`;
    for (let i = 0; i + PASSAGE <= v.length; i++) {
      const passage = v.slice(i, i + PASSAGE);
      for (const kind of OUTSIDE) if (this.passages.has(`${kind}\u0000${passage}`)) return `text written by a${kind === "e-mail" ? "n" : ""} ${kind}`;
    }
    return undefined;
  }
}

const normal = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

const ledgers = new WeakMap<Crm, Ledger>();
const ledgerOf = (crm: Crm) => ledgers.get(crm) ?? (ledgers.set(crm, new Ledger()), ledgers.get(crm)!);

/** Objects whose text people outside the company read: articles, feed posts and comments, e-mails. */
export function outwardChannel(object: string, org: TrustedOrg): string | undefined {
  const name = object.toLowerCase();
  if (name === org.knowledgeSobject.toLowerCase()) return "an article, which people outside the company read once published";
  if (name === "feeditem" || name === "feedcomment") return "a feed post, which the record's followers read (portal and community users among them)";
  if (name === "emailmessage") return "an e-mail";
  return undefined;
}

/** Refuses values that would carry what the agent was shown (classified, or outsiders' text) into an outward channel. */
export function checkOutward(org: TrustedOrg, object: string, values: Record<string, unknown>, where: string): void {
  const channel = outwardChannel(object, org);
  if (!channel) return;
  const ledger = ledgerOf(org.crm);
  for (const [field, value] of Object.entries(values)) {
    if (typeof value !== "string") continue;
    const why = ledger.taint(value);
    if (why) throw new TrustRefusal(`${where}.${field} would copy ${why} (shown to the agent earlier) into ${channel}: refused, nothing was sent. Private data, untrusted content and an outward channel together are how an agent is made to leak; a person can write it themselves.`);
  }
}

// ---- screening rows ----

export interface Screened {
  rows: Row[];
  /** What was withheld, in the server's words. */
  notes: string[];
}

/** The column (and line) that names an outside author. */
export const AUTHOR_KEY = "(author)";

const TEXT_TYPES = new Set(["string", "textarea", "email", "url", "phone", "encryptedstring", "combobox"]);

/**
 * Rows as an agent may see them: classified fields withheld, outsiders' records marked (their text withheld
 * under lockdown), what was shown of either remembered for the trifecta rule. Nested parent records are
 * screened as records of their own object.
 */
export async function screen(org: TrustedOrg, rows: Row[]): Promise<Screened> {
  const types = new Set<string>();
  const idsByObject = new Map<string, Set<string>>();
  const visit = (record: Row) => {
    const type = typeOf(record);
    if (type) {
      types.add(type);
      const id = idOf(record);
      if (id) idsByObject.set(type, (idsByObject.get(type) ?? new Set()).add(id));
    }
    for (const value of Object.values(record)) {
      if (isRecord(value)) visit(value);
      else if (isChildRows(value)) value.records.forEach(visit);
    }
  };
  rows.forEach(visit);
  const classified = new Map<string, Classified>();
  const unreadable: string[] = [];
  const described = new Map<string, SObjectDescribe | undefined>();
  for (const type of types) {
    const c = await classifiedFields(org.crm, type);
    classified.set(type, c.fields);
    if (c.unreadable) unreadable.push(type);
    described.set(type, await org.schema.describe(type).catch(() => undefined));
  }
  const lockdown = org.trust?.lockdown === true;
  const authors = await authorsOf(org, idsByObject);
  const ledger = ledgerOf(org.crm);
  const withheldFields = new Map<string, string>();
  let lockedRecords = 0;

  const screenRecord = (record: Row, path: string): Row => {
    const type = typeOf(record);
    const id = idOf(record);
    const author = id ? authors.get(id) : undefined;
    const outside = author !== undefined && OUTSIDE.has(author);
    const fields = type ? described.get(type)?.fields : undefined;
    const isText = (name: string, value: unknown) => {
      if (typeof value !== "string" || !value || name === "Id") return false;
      if (name === "snippet.text") return true;
      const field = fields?.find((f) => f.name.toLowerCase() === name.toLowerCase());
      return !field || TEXT_TYPES.has(field.type);
    };
    const out: Row = {};
    let locked = false;
    for (const [name, value] of Object.entries(record)) {
      if (name === "attributes" || isRecord(value)) {
        out[name] = name === "attributes" ? value : screenRecord(value as Row, `${path}${name}.`);
        continue;
      }
      if (isChildRows(value)) {
        out[name] = { ...value, records: value.records.map((child) => screenRecord(child, `${path}${name}.`)) };
        continue;
      }
      const why = type ? classified.get(type)?.get(name.toLowerCase()) : undefined;
      if (why && value !== null && value !== undefined) {
        if (!revealing(org)) {
          out[name] = new Withheld(why);
          withheldFields.set(`${type}.${name}`, why);
          continue;
        }
        ledger.classifiedValue(String(value), why);
      }
      if (isText(name, value)) {
        if (lockdown && (outside || author === undefined)) {
          out[name] = new Withheld(outside ? `written by a${author === "e-mail" ? "n" : ""} ${author}` : `its author is unknown (select ${path}Id to know)`);
          locked = true;
          continue;
        }
        if (outside) ledger.outsiderText(value as string, author);
      }
      out[name] = value;
    }
    if (locked) lockedRecords++;
    if (author && author !== "internal user") out[AUTHOR_KEY] = author;
    return out;
  };

  const screened = rows.map((r) => screenRecord(r, ""));
  const notes: string[] = [];
  if (withheldFields.size) notes.push(`Withheld: ${[...withheldFields].map(([f, why]) => `${f} (${why})`).join(", ")} — the org classifies ${withheldFields.size === 1 ? "it" : "them"} as sensitive. ${REVEAL_HOW}`);
  if (lockedRecords) notes.push(`Lockdown: the text of ${lockedRecords} record${lockedRecords === 1 ? "" : "s"} written by people outside the company (or whose author is unknown) is withheld.`);
  if (unreadable.length) notes.push(`The org's classification of ${unreadable.join(", ")} could not be read: no field of ${unreadable.length === 1 ? "it" : "them"} is withheld as classified.`);
  return { rows: screened, notes };
}

const typeOf = (record: Row) => {
  const type = (record.attributes as { type?: unknown } | undefined)?.type;
  return typeof type === "string" && type !== "AggregateResult" ? type : undefined;
};

/** A subquery's rows inside a record: { totalSize, done, records }. */
const isChildRows = (value: unknown): value is { records: Row[] } => !!value && typeof value === "object" && Array.isArray((value as { records?: unknown }).records);

/** A record's ID: its Id, or the end of its attributes' URL (a parent in a query's row, a record read by given fields). */
const idOf = (record: Row): string | undefined => {
  if (typeof record.Id === "string") return record.Id;
  const url = (record.attributes as { url?: unknown } | undefined)?.url;
  const last = typeof url === "string" ? url.slice(url.lastIndexOf("/") + 1) : undefined;
  return isRecordId(last) ? last : undefined;
};

const isRecord = (value: unknown): value is Row => !!value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Withheld) && "attributes" in value;
