/**
 * Moving related records from one org to another, by a plan (see migrationPlan.ts): a dry run that reads both
 * orgs and writes nothing, a run that writes objects in dependency order through the target's own guard (asked
 * once, for the whole run), and a revert. Each function takes the source client first
 * (`migration.dryRun(source, plan, target)`); the same functions are bound on `crm.migration`.
 *
 * How records are known: a plan object's `match` fields identify a record in both orgs. A source row whose key
 * the target already holds updates that record (or is left alone when nothing differs); any other is inserted.
 * A run is therefore resumable: run it again (`resume`) and what it wrote is found, never written twice.
 *
 * Lookups to objects of the plan are re-pointed to the target's records (through the source ID → target ID
 * map built as each object is written); a lookup to the object itself, or one that closes a cycle, is written
 * in a second pass once both ends exist. Owners go by username (a sandbox's `.suffix` allowed), record types by
 * developer name, each with a default. Rows are streamed (Bulk API 2.0 above `bulkThreshold` rows, REST below)
 * and written a chunk at a time (Bulk jobs, or sObject Collections for a small chunk): what is held grows with
 * the records that other objects point at (their ID maps), never with whole rows.
 */
import { createHash, hash as hashOnce } from "node:crypto";
import { appendFileSync, closeSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { ingest, ingestCsvFile, startQuery, stopJob, type BulkRow, type IngestInput, type IngestOptions, type PollOptions } from "../client/bulk";
import { csvLine, uploadLine } from "../client/csv";
import type { Crm } from "../client/crm";
import { isRequiredOnCreate, type ChildRelationship, type FieldDescribe, type SObjectDescribe } from "../client/describe";
import { CancelledError } from "../client/errors";
import { DiskTable } from "./diskTable";
import { firstInsertedIds, InsertedIdsWriter, insertedIdsOf, newInsertedIds, verifyInsertedIds, type InsertedIdsFile } from "./insertedIds";
import { workFolder } from "../client/workFolders";
import { valueProblem, valueProblemText } from "../client/fieldValues";
import { sameRecordId } from "../client/ids";
import { checkPlan, MigrationPlanError, parsePlan, planDigest, transformed, type MigrationPlan, type PlanInput, type PlanObject, type Transform } from "./migrationPlan";
import { CLOCK_SKEW_MS, withinSkew } from "../client/orgTime";
import { currentRecords, sinceWritten } from "../client/records";
import { MAX_NAMED_RECORDS, runEntry, withWriteContext, type WriteEntry } from "../client/writeRecord";
import { batchIntent } from "../client/intent";
import type { PendingWrite } from "../client/transport";
import { sameValue } from "../client/sameValue";
import { soqlLiteral } from "../client/soql-text";

export { InsertedIdsError, insertedIdsOf, verifyInsertedIds, type InsertedIdsFile } from "./insertedIds";
export { parsePlan, checkPlan, planDigest, mask, MigrationPlanError, type MigrationPlan, type PlanInput, type PlanObject, type Transform } from "./migrationPlan";

export interface MigrationOptions {
  signal?: AbortSignal;
  onProgress?(progress: MigrationProgress): void;
  /** Objects of at least this many rows are read, and chunks written, with the Bulk API; below, REST and sObject Collections. Default 2,000. */
  bulkThreshold?: number;
  /** Rows written at a time (a cancel takes effect between two chunks, so a run always knows what it wrote). Default 50,000. */
  chunkRows?: number;
  poll?: PollOptions;
}

export interface RunOptions extends MigrationOptions {
  /** An unfinished run of the same plan into the same org: it goes on, and its record grows (one revert undoes both). */
  resume?: MigrationRun;
  /** The dry run's report, for the one question the target's guard asks (what the run will change). */
  report?: MigrationReport;
  /** That question's words instead of the client's own (English) sentence. */
  summary?: string;
  /** Hears the run's record after each chunk written, to keep it (a crash then leaves a record to resume or revert from). */
  onRecord?(run: MigrationRun): void | Promise<void>;
  /**
   * The file the run appends the IDs it inserts to (keep it beside the record: revert reads it), or a function of
   * the run's ID that names it. Default: where the resumed run's record says, or `<run id>.ids` in the system's
   * temporary folder. The record names it and vouches for what it holds.
   */
  insertedIdsFile?: string | ((runId: string) => string);
}

export interface MigrationProgress {
  phase: "read" | "write" | "second pass" | "revert";
  object: string;
  /** Rows of the object done so far, and in all (0 when not known yet). */
  done: number;
  total: number;
}

/** A row the dry run or the run could not move, by its source ID. */
export interface RowProblem {
  sourceId: string;
  message: string;
}

export interface ObjectReport {
  object: string;
  /** Source rows read (those the plan's `where` selects). */
  rows: number;
  insert: number;
  update: number;
  unchanged: number;
  /** Rows that will not be written: a value the target refuses, a required lookup that cannot be resolved, a duplicate or ambiguous match. */
  refused: number;
  problems: RowProblem[];
  /** Lookups that could not be resolved (set empty, or the row refused when the lookup is required). */
  unresolvedLookups: number;
  /** Owners and record types with no namesake in the target (given the default, or the org's own). */
  unmatchedOwners: number;
  unmatchedRecordTypes: number;
  /** Lookups written in the second pass (a self-reference or a circular reference). */
  secondPass: number;
  /** The fields moved, and those the plan leaves out with the reason. */
  fields: string[];
  leftOut: { field: string; reason: string }[];
  /** How the rows are read and written. */
  read: "rest" | "bulk";
  write: "bulk" | "collections" | "none";
  /** Requests the writes will take, about (Bulk jobs take several each: create, upload, close, polls, results). */
  requests: number;
}

export interface MigrationReport {
  planDigest: string;
  source: { orgId?: string; instanceUrl?: string };
  target: { orgId?: string; instanceUrl?: string };
  /** In dependency order (the order of the run). */
  objects: ObjectReport[];
  /** Objects whose lookups close a cycle: the fields written in the second pass. */
  deferred: { object: string; field: string }[];
}

export interface UpdatedRecord {
  id: string;
  /** The fields' values in the target before the run, and what the run wrote (text; null is empty). */
  before: Record<string, string | null>;
  after: Record<string, string | null>;
}

/**
 * A chunk being written, saved before it is sent (write-ahead): if the run dies before the org answers, resume and
 * revert find what the org did — the records the run's user created since with these match keys, the records
 * whose values are now what was being written — and make them the run's own.
 */
export interface PendingChunk {
  /** When the chunk went out: the records it created are no older. */
  since: string;
  /** The match fields, and the match keys (digests) of the rows being inserted. */
  match: string[];
  inserts: string[];
  /** The records being updated: their values before and what is being written. */
  updates: UpdatedRecord[];
  /** The Bulk jobs the chunk went out in, each saved as soon as the org created it: stopped before the org is read. */
  jobs?: string[];
}

export interface ObjectOutcome {
  object: string;
  /** Records the run inserted: their IDs are in the run's file of inserted IDs (`MigrationRun.insertedIds`). */
  inserted: number;
  updated: UpdatedRecord[];
  /** A chunk sent and not yet answered (see PendingChunk). */
  pending?: PendingChunk;
  unchanged: number;
  failed: number;
  /** Rows refused by the target (or by the dry run's checks), by source ID: at most 1,000 kept. */
  failures: RowProblem[];
  via: ("bulk" | "collections")[];
}

export interface MigrationRun {
  id: string;
  planDigest: string;
  source: { orgId?: string; instanceUrl?: string };
  /** The target, and the user the run wrote as: a revert deletes only records the org says that user created. */
  target: { orgId?: string; instanceUrl?: string; userId?: string };
  startedAt: string;
  finishedAt?: string;
  /** `complete`: every object written (rows may have failed); `cancelled` and `failed` can be resumed. */
  state: "running" | "complete" | "cancelled" | "failed";
  error?: string;
  objects: ObjectOutcome[];
  /** The file of the IDs the run inserted, and what of it this record vouches for (see insertedIds.ts). */
  insertedIds: InsertedIdsFile;
  /** Requests the run sent to the target. */
  requests: number;
}

export interface RevertResult {
  deleted: number;
  restored: number;
  /**
   * Records already as they were before the run, so nothing was sent for them: inserted ones the org no longer
   * holds, updated ones holding their values before (an earlier revert, or someone who undid them by hand).
   */
  alreadyReverted: number;
  /** Records changed in the target since the run: not restored, named with the fields that moved. */
  conflicts: { object: string; id: string; fields: string[]; why?: string }[];
  failures: { object: string; id: string; message: string }[];
  /** Writes of a chunk the run never heard back about, found in the org and reverted with the rest (see reconcile). */
  reconciled: { inserted: number; updated: number };
  /** What could not be known, and so may be left in the target: the revert is not complete while this holds anything. */
  unknown: string[];
}

const DEFAULT_BULK_THRESHOLD = 2_000;
/** The org's words for deleting a record it no longer holds: in the Recycle Bin, or no such record. */
const ALREADY_DELETED = /^(ENTITY_IS_DELETED|INVALID_CROSS_REFERENCE_KEY)\b/;
const DEFAULT_CHUNK_ROWS = 50_000;
/**
 * The row loop gives the event loop a turn every this many rows (a few milliseconds' work). Rows already read
 * come through promises alone, and the chunk in flight (its upload, its results) moves only when the event loop
 * turns: without, a chunk went out only once the next one had been read, and the process answered nothing else.
 */
const ROWS_PER_TURN = 200;
/** A chunk's lines are written to its file about this many characters at a time. */
const CHUNK_WRITE_BYTES = 1 << 20;
const MAX_KEPT_PROBLEMS = 1_000;
const COLLECTION_LIMIT = 200;
/** A parent the run will insert (the dry run has no ID for it yet). */
const NEW = "(new)";
const SYSTEM_FIELDS = new Set(["id", "isdeleted", "createddate", "createdbyid", "lastmodifieddate", "lastmodifiedbyid", "systemmodstamp", "lastactivitydate", "lastvieweddate", "lastreferenceddate", "masterrecordid"]);

type Row = Record<string, string | null>;
const id15 = (id: string) => id.slice(0, 15);
/**
 * The text of a string in memory of its own. A value parsed out of the org's CSV is a slice that keeps the whole
 * piece of CSV it came from alive (150 bytes per ID the run record keeps, against 40 for a copy).
 */
const ownCopy = (text: string) => Buffer.from(text, "utf8").toString("utf8");

interface Lookup {
  field: string;
  parent: string;
  deferred: boolean;
  describe: FieldDescribe;
}

/** A plan object made concrete against both orgs' describes. */
interface Step {
  plan: PlanObject;
  object: string;
  target: SObjectDescribe;
  copied: FieldDescribe[];
  lookups: Lookup[];
  owner: boolean;
  recordTypes?: Map<string, string>;
  sourceRecordTypes?: Map<string, string>;
  leftOut: { field: string; reason: string }[];
  /** Whether other objects (or its own second pass) need this object's source → target ID map. */
  keepIds: boolean;
}

interface Prepared {
  steps: Step[];
  deferred: { object: string; field: string }[];
  sourceUsers: Map<string, string>;
  targetUsers: Map<string, string>;
  ownerDefault?: string;
}

const fieldNamed = (d: SObjectDescribe, name: string) => d.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());

function requireClient(crm: unknown, argument: string): Crm {
  if (!crm || typeof crm !== "object" || typeof (crm as Crm).getSobject !== "function") throw new TypeError(`${argument} must be a Crm client (the org the records go ${argument === "target" ? "to" : "from"})`);
  return crm as Crm;
}

function planOf(plan: PlanInput | string): MigrationPlan {
  return typeof plan === "string" ? parsePlan(plan) : checkPlan(plan);
}

async function describeIn(crm: Crm, object: string, org: "source" | "target", at: string): Promise<SObjectDescribe> {
  try {
    return await crm.getSobject(object, { describe: true });
  } catch (err) {
    throw new MigrationPlanError(`${at}: ${object} cannot be described in the ${org} org (${(err as Error).message})`, at);
  }
}

/** Active users of the target by username, and by the username without a sandbox's `.suffix`. */
async function targetUsers(crm: Crm): Promise<Map<string, string>> {
  const users = new Map<string, string>();
  const rows: { Id: string; Username: string }[] = [];
  for await (const u of crm.queryIterator<{ Id: string; Username: string }>("SELECT Id, Username FROM User WHERE IsActive = true")) rows.push(u);
  for (const u of rows) users.set(u.Username.toLowerCase(), u.Id);
  for (const u of rows) {
    const base = u.Username.toLowerCase().replace(/\.[a-z0-9_]+$/, "");
    if (base.includes("@") && base.includes(".", base.indexOf("@")) && !users.has(base)) users.set(base, u.Id);
  }
  return users;
}

async function sourceUsers(crm: Crm): Promise<Map<string, string>> {
  const users = new Map<string, string>();
  for await (const u of crm.queryIterator<{ Id: string; Username: string }>("SELECT Id, Username FROM User")) users.set(id15(u.Id), u.Username.toLowerCase());
  return users;
}

/** The plan against both orgs: fields, lookups, order (and the lookups left for a second pass). */
async function prepare(source: Crm, target: Crm, plan: MigrationPlan): Promise<Prepared> {
  const inPlan = new Map(plan.objects.map((o) => [o.object.toLowerCase(), o.object]));
  const steps: Step[] = [];
  let owners = false;
  for (const [i, o] of plan.objects.entries()) {
    const at = `objects[${i}]`;
    const [src, tgt] = await Promise.all([describeIn(source, o.object, "source", at), describeIn(target, o.object, "target", at)]);
    if (!tgt.createable && !tgt.updateable) throw new MigrationPlanError(`${at}: ${o.object} takes no inserts or updates in the target org`, at);
    for (const path of o.match) {
      const head = path.split(".")[0]!.toLowerCase();
      const known = (d: SObjectDescribe) => d.fields.some((f) => f.name.toLowerCase() === head || f.relationshipName?.toLowerCase() === head);
      if (!known(src) || !known(tgt)) throw new MigrationPlanError(`${at}.match: ${o.object} has no field ${path.split(".")[0]} in the ${known(src) ? "target" : "source"} org`, `${at}.match`);
    }
    for (const name of [...(o.include ?? []), ...o.exclude, ...Object.keys(o.transform)]) {
      if (!fieldNamed(src, name)) throw new MigrationPlanError(`${at}: ${o.object} has no field ${name} in the source org`, at);
    }
    const include = o.include?.map((f) => f.toLowerCase());
    const exclude = new Set(o.exclude.map((f) => f.toLowerCase()));
    const step: Step = { plan: o, object: tgt.name, target: tgt, copied: [], lookups: [], owner: false, leftOut: [], keepIds: false };
    for (const field of src.fields) {
      const name = field.name.toLowerCase();
      if (SYSTEM_FIELDS.has(name) || field.calculated || field.autoNumber || field.type === "address" || field.type === "location") continue;
      const t = fieldNamed(tgt, field.name);
      if (exclude.has(name)) {
        step.leftOut.push({ field: field.name, reason: "excluded by the plan" });
        continue;
      }
      if (!t || !(t.createable || t.updateable)) {
        if (t === undefined && (!include || include.includes(name))) step.leftOut.push({ field: field.name, reason: "not in the target org" });
        continue;
      }
      if (name === "ownerid") {
        step.owner = t.createable;
        owners ||= step.owner;
        continue;
      }
      if (name === "recordtypeid") {
        const byName = new Map(tgt.recordTypeInfos.filter((r) => !r.master && r.active !== false).map((r) => [r.developerName.toLowerCase(), r.recordTypeId]));
        if (byName.size) {
          step.recordTypes = byName;
          step.sourceRecordTypes = new Map(src.recordTypeInfos.map((r) => [id15(r.recordTypeId), r.developerName.toLowerCase()]));
          if (o.recordTypeDefault && !byName.has(o.recordTypeDefault.toLowerCase())) throw new MigrationPlanError(`${at}.recordType.default: ${o.object} has no record type ${o.recordTypeDefault} in the target org`, `${at}.recordType.default`);
        }
        continue;
      }
      if (include && !include.includes(name) && !o.match.some((m) => m.toLowerCase() === name)) continue;
      if (t.type === "reference") {
        const parents = (t.referenceTo ?? []).filter((r) => inPlan.has(r.toLowerCase()));
        if (parents.length === 1) step.lookups.push({ field: t.name, parent: inPlan.get(parents[0]!.toLowerCase())!, deferred: false, describe: t });
        else step.leftOut.push({ field: field.name, reason: parents.length ? "refers to more than one object of the plan" : `refers to ${(t.referenceTo ?? []).join(", ") || "another object"}, not in the plan` });
        continue;
      }
      step.copied.push(t);
    }
    steps.push(step);
  }
  const ordered = dependencyOrder(steps);
  for (const s of ordered) s.keepIds = ordered.some((o) => o.lookups.some((l) => l.parent.toLowerCase() === s.object.toLowerCase()));
  const deferred = ordered.flatMap((s) => s.lookups.filter((l) => l.deferred).map((l) => ({ object: s.object, field: l.field })));
  let ownerDefault: string | undefined;
  const [srcUsers, tgtUsers] = owners ? await Promise.all([sourceUsers(source), targetUsers(target)]) : [new Map<string, string>(), new Map<string, string>()];
  if (plan.ownerDefault) {
    ownerDefault = tgtUsers.get(plan.ownerDefault.toLowerCase()) ?? (owners ? undefined : "");
    if (ownerDefault === undefined) throw new MigrationPlanError(`owner.default: no active user ${plan.ownerDefault} in the target org`, "owner.default");
  }
  return { steps: ordered, deferred, sourceUsers: srcUsers, targetUsers: tgtUsers, ...(ownerDefault ? { ownerDefault } : {}) };
}

/**
 * Objects so that each comes after the objects its lookups point at. A lookup to the object itself is written
 * in the second pass; so is, where objects point at each other, a lookup that can be empty at first (one per
 * cycle). A cycle of lookups that must all be filled cannot be moved.
 */
function dependencyOrder(steps: Step[]): Step[] {
  const key = (s: string) => s.toLowerCase();
  for (const s of steps) for (const l of s.lookups) if (key(l.parent) === key(s.object)) l.deferred = true;
  const ordered: Step[] = [];
  const left = [...steps];
  while (left.length) {
    const ready = left.find((s) => s.lookups.every((l) => l.deferred || ordered.some((o) => key(o.object) === key(l.parent))));
    if (ready) {
      ordered.push(ready);
      left.splice(left.indexOf(ready), 1);
      continue;
    }
    // A cycle: defer a lookup that may be empty, from the object that comes first in the plan.
    const breakable = left.flatMap((s) => s.lookups.filter((l) => !l.deferred && l.describe.nillable && left.some((o) => key(o.object) === key(l.parent))));
    if (!breakable.length) throw new MigrationPlanError(`The lookups of ${left.map((s) => s.object).join(", ")} form a cycle of required fields: no record could be written first`, "objects");
    breakable[0]!.deferred = true;
  }
  return ordered;
}

function sourceColumns(step: Step): string[] {
  const columns = new Map<string, string>([["id", "Id"]]);
  const add = (c: string) => void (columns.has(c.toLowerCase()) || columns.set(c.toLowerCase(), c));
  for (const f of step.copied) add(f.name);
  for (const l of step.lookups) add(l.field);
  for (const m of step.plan.match) add(m);
  if (step.owner) add("OwnerId");
  if (step.recordTypes) add("RecordTypeId");
  return [...columns.values()];
}

function targetColumns(step: Step): string[] {
  const columns = new Map<string, string>([["id", "Id"]]);
  for (const c of [...step.copied.map((f) => f.name), ...step.lookups.map((l) => l.field), ...step.plan.match]) if (!columns.has(c.toLowerCase())) columns.set(c.toLowerCase(), c);
  return [...columns.values()];
}

/** A REST or Bulk value as text (null when empty): the one form both orgs' rows are compared in. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "object") return null;
  return String(value);
}

/** A REST record flattened to `path → text` (lower-case paths: `account.name`). */
function flatten(record: Record<string, unknown>, columns: string[]): Row {
  const row: Row = {};
  for (const column of columns) {
    let value: unknown = record;
    for (const part of column.split(".")) {
      if (!value || typeof value !== "object") {
        value = undefined;
        break;
      }
      const k = Object.keys(value).find((key) => key.toLowerCase() === part.toLowerCase());
      value = k === undefined ? undefined : (value as Record<string, unknown>)[k];
    }
    row[column.toLowerCase()] = asText(value);
  }
  return row;
}

/**
 * Bulk rows under the columns' lower-case names. Which of a row's keys each column is (the CSV header's
 * spelling) is worked out once per header, not per row: on hundreds of thousands of rows it was a pass's
 * largest cost.
 */
function rowsLowered(columns: string[]): (row: BulkRow) => Row {
  const names = columns.map((c) => c.toLowerCase());
  let header: string[] = [];
  let keyOf: (string | undefined)[] = [];
  return (row) => {
    const keys = Object.keys(row);
    if (keys.length !== header.length || keys.some((k, i) => k !== header[i])) {
      const byLower = new Map(keys.map((k) => [k.toLowerCase(), k]));
      header = keys;
      keyOf = names.map((n) => byLower.get(n));
    }
    const out: Row = {};
    names.forEach((n, i) => (out[n] = asText(keyOf[i] === undefined ? undefined : row[keyOf[i]!])));
    return out;
  };
}

/** A read of an object's rows, begun: its count asked and, at or above the threshold, its Bulk job running at the org. */
interface StartedRows {
  /** How many rows, and how they are read. */
  size: Promise<{ count: number; read: "rest" | "bulk" }>;
  /** Settles once the org has the rows ready (a Bulk read: its job is done): false when it failed (reading says why). */
  exported: Promise<boolean>;
  /** The rows a batch at a time (a Bulk read's batches are what each piece of its result sets completes). */
  batches(): AsyncGenerator<Row[]>;
}

/**
 * Begins reading the rows of a query as `path → text` — REST below the threshold, a Bulk job at or above it — so
 * the org counts and exports them while the caller finishes other work; they are read when asked for.
 */
function startRows(crm: Crm, object: string, columns: string[], where: string | undefined, options: MigrationOptions): StartedRows {
  const condition = where ? ` WHERE ${where}` : "";
  const soql = `SELECT ${columns.join(", ")} FROM ${object}${condition}`;
  const size = crm.soqlQuery(`SELECT COUNT() FROM ${object}${condition}`, { signal: options.signal })
    .then(({ totalSize: count }) => ({ count, read: count >= (options.bulkThreshold ?? DEFAULT_BULK_THRESHOLD) ? ("bulk" as const) : ("rest" as const) }));
  const bulk = size.then(({ read }) => (read === "bulk" ? startQuery(crm, soql, { signal: options.signal, poll: options.poll }) : undefined));
  bulk.catch(() => undefined); // said when the rows are read; a read begun and never made must not go unhandled
  return {
    size,
    exported: bulk.then((started) => started?.exported ?? true, () => false),
    async *batches() {
      const started = await bulk;
      const lowered = rowsLowered(columns);
      if (started) for await (const batch of started.batches()) yield batch.map(lowered);
      // Below the threshold: a few thousand rows at most, one at a time.
      else for await (const record of crm.queryIterator(soql, { signal: options.signal })) yield [flatten(record, columns)];
    },
  };
}

/** What a pass reads: the target's records of its object (to match), and the source's (to write). */
interface PassReads {
  target: StartedRows;
  source: StartedRows;
}

const startReads = (ctx: PassContext, step: Step): PassReads => ({
  target: startRows(ctx.target, step.object, targetColumns(step), undefined, ctx.options),
  source: startRows(ctx.source, step.object, sourceColumns(step), step.plan.where, ctx.options),
});

/** Match values compare as the org compares text: trimmed, either case. */
function matchKey(values: (string | null)[]): string | undefined {
  if (values.every((v) => v === null)) return undefined;
  return JSON.stringify(values.map((v) => (v === null ? null : v.trim().toLowerCase())));
}

/** A match key's digest: 20 characters of base64 (120 bits). One-shot `hash`: a third of `createHash`'s time, paid per row. */
const KEY_DIGEST_BYTES = 20;
const digest = (text: string) => hashOnce("sha1", text, "base64").slice(0, KEY_DIGEST_BYTES);

interface Existing {
  id: string;
  values: Row;
  ambiguous?: boolean;
}

/** A row's values as sent, as 20 bytes of SHA-1 in a string of their own (what a result row is known by again). */
const sentDigest = (values: string[]) => hashOnce("sha1", values.join("\u0000"), "binary");

/**
 * A chunk of rows to insert, gathered while the org loads the one before: their CSV lines in a file (not in
 * memory), and what each result row is known by again — the values it was sent with, as the org echoes them.
 */
class InsertChunk {
  rows = 0;
  /** The rows' match-key digests: the chunk's write-ahead record. */
  readonly hashes: string[] = [];
  /** Source IDs by the digest of the values sent (rows sent with the same values: in order). */
  private readonly sources = new Map<string, string | string[]>();
  private lines: string[] = [];
  private bytes = 0;
  private fd: number | undefined;

  constructor(
    readonly file: string,
    columns: string[],
  ) {
    this.fd = openSync(file, "w", 0o600);
    this.lines.push(csvLine(columns));
  }

  add(sourceId: string, hash: string, values: string[]): void {
    const sent = sentDigest(values);
    const before = this.sources.get(sent);
    this.sources.set(sent, before === undefined ? sourceId : [...(typeof before === "string" ? [before] : before), sourceId]);
    this.hashes.push(ownCopy(hash));
    const line = uploadLine(values);
    this.lines.push(line);
    this.bytes += line.length;
    this.rows++;
    if (this.bytes >= CHUNK_WRITE_BYTES) this.flush();
  }

  /** The source row a result row was sent as (each once). */
  sourceOf(values: string[]): string | undefined {
    const sent = sentDigest(values);
    const found = this.sources.get(sent);
    if (typeof found !== "object") {
      this.sources.delete(sent);
      return found;
    }
    const first = found.shift();
    if (!found.length) this.sources.delete(sent);
    return first;
  }

  /** Every row is in the file, which is closed: ready to upload. */
  written(): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  remove(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.file, { force: true });
  }

  private flush(): void {
    if (!this.lines.length || this.fd === undefined) return;
    writeSync(this.fd, `${this.lines.join("\n")}\n`);
    this.lines = [];
    this.bytes = 0;
  }
}

/** What one object's pass does: decides each row, and (running) writes it. Shared by the dry run and the run. */
class ObjectPass {
  readonly report: ObjectReport;
  readonly outcome: ObjectOutcome;
  private readonly existing = new Map<string, Existing>();
  /** The match keys of the source rows taken so far (a second row with one is refused). */
  private readonly seen: DiskTable;
  /** The values of each unique or external-ID field the pass writes: the target's record holding it (an ID), or the source row that takes it. */
  private readonly uniqueValues = new Map<string, Map<string, { target?: string; source?: string }>>();
  /** The fields whose values the target holds once (unique or external IDs), that the plan writes and does not match by. */
  private readonly uniqueFields: FieldDescribe[];
  /** The fields a new record is written with, in order: an empty value leaves the field as the org makes it. */
  private readonly insertColumns: string[];
  /** Each copied field's transform from the plan, if any (in the order of `step.copied`). */
  private readonly transforms: (Transform | undefined)[];
  /** Each match field's lookup, if it is one: its key is the target ID the lookup resolves to (in the order of the plan's match). */
  private readonly matchLookups: (Lookup | undefined)[];
  /** The inserts being gathered for the next chunk (running only). */
  private chunk?: InsertChunk;
  private updates: { sourceId: string; id: string; before: Row; after: Row }[] = [];
  private written = 0;
  /** The chunk the org is working on, if any: the next one is read meanwhile, and sent once this one is answered. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly step: Step,
    private readonly ctx: PassContext,
  ) {
    this.report = {
      object: step.object, rows: 0, insert: 0, update: 0, unchanged: 0, refused: 0, problems: [], unresolvedLookups: 0, unmatchedOwners: 0, unmatchedRecordTypes: 0, secondPass: 0,
      fields: [...step.copied.map((f) => f.name), ...step.lookups.map((l) => l.field), ...(step.owner ? ["OwnerId"] : []), ...(step.recordTypes ? ["RecordTypeId"] : [])],
      leftOut: step.leftOut, read: "rest", write: "none", requests: 0,
    };
    this.outcome = ctx.outcomeOf(step.object);
    this.seen = ctx.table(`seen ${step.object}`, KEY_DIGEST_BYTES, 0);
    const matched = new Set(step.plan.match.map((m) => m.toLowerCase()));
    this.uniqueFields = step.copied.filter((f) => (f.unique || f.externalId) && !matched.has(f.name.toLowerCase()));
    this.insertColumns = [...step.copied.map((f) => f.name), ...step.lookups.filter((l) => !l.deferred).map((l) => l.field), ...(step.owner ? ["OwnerId"] : []), ...(step.recordTypes ? ["RecordTypeId"] : [])];
    this.transforms = step.copied.map((f) => Object.entries(step.plan.transform).find(([name]) => name.toLowerCase() === f.name.toLowerCase())?.[1]);
    this.matchLookups = step.plan.match.map((m) => step.lookups.find((l) => l.field.toLowerCase() === m.toLowerCase()));
  }

  private get ids(): DiskTable | undefined {
    return this.ctx.idMaps.get(this.step.object.toLowerCase());
  }


  /** The target's records of the object by match key (a key two records share is ambiguous), and the unique values they hold. */
  async indexTarget(target: StartedRows): Promise<void> {
    const uniques = this.uniqueFields;
    for (const f of uniques) this.uniqueValues.set(f.name.toLowerCase(), new Map());
    for await (const batch of target.batches()) for (const row of batch) {
      for (const f of uniques) {
        const value = row[f.name.toLowerCase()];
        if (value !== null && value !== undefined) this.uniqueValues.get(f.name.toLowerCase())!.set(value.toLowerCase(), { target: row.id! });
      }
      const key = matchKey(this.step.plan.match.map((m) => row[m.toLowerCase()] ?? null));
      if (key === undefined) continue;
      const hash = digest(key);
      const found = this.existing.get(hash);
      if (found) found.ambiguous = true;
      else this.existing.set(hash, { id: row.id!, values: row });
    }
  }

  private problem(sourceId: string, message: string): void {
    this.report.refused++;
    if (this.report.problems.length < MAX_KEPT_PROBLEMS) this.report.problems.push({ sourceId, message });
    this.fail(sourceId, message, false);
  }

  private fail(sourceId: string, message: string, byOrg: boolean): void {
    this.ctx.refuse(this.step.object, sourceId);
    if (!this.ctx.running) return;
    this.outcome.failed++;
    if (this.outcome.failures.length < MAX_KEPT_PROBLEMS) this.outcome.failures.push({ sourceId, message: byOrg ? `the target org refused it: ${message}` : message });
  }

  /** The target ID a source lookup value becomes (NEW for a parent the dry run would insert), or undefined. */
  private resolve(parent: string, sourceId: string): string | undefined {
    return this.ctx.idMaps.get(parent.toLowerCase())?.get(id15(sourceId));
  }

  /**
   * Decides one source row: insert, update, leave alone or refuse; a running pass queues the write. Returns a
   * promise only when a full chunk goes out (most rows need none: a promise per row is most of a pass's CPU).
   */
  take(row: Row): Promise<void> | undefined {
    const { step } = this;
    this.report.rows++;
    const sourceId = row.id!;
    const fields: Row = {};
    const problems: string[] = [];
    step.copied.forEach((f, i) => (fields[f.name] = transformed(this.transforms[i], row[f.name.toLowerCase()] ?? null)));
    const deferred: { field: string; parentSource: string }[] = [];
    for (const l of step.lookups) {
      const value = row[l.field.toLowerCase()] ?? null;
      if (value === null) {
        fields[l.field] = null;
        continue;
      }
      if (l.deferred) {
        deferred.push({ field: l.field, parentSource: value });
        continue;
      }
      const resolved = this.resolve(l.parent, value);
      if (resolved === undefined && this.ctx.refused(l.parent, value)) {
        // Its parent is in the plan but was refused: written without it, the record would lose its place.
        problems.push(`held back: its ${l.parent} ${value} (${l.field}) was refused`);
      } else if (resolved === undefined) {
        this.report.unresolvedLookups++;
        if (!l.describe.nillable) problems.push(`${l.field}: the ${l.parent} ${value} is not moved (outside the plan's where)`);
        fields[l.field] = null;
      } else fields[l.field] = resolved;
    }
    const keyValues = step.plan.match.map((m, i) => {
      const lookup = this.matchLookups[i];
      return lookup ? (fields[lookup.field] ?? null) : (row[m.toLowerCase()] ?? null);
    });
    const key = matchKey(keyValues);
    if (key === undefined) problems.push(`every match field (${step.plan.match.join(", ")}) is empty: the record could not be found again`);
    const hash = key === undefined ? undefined : digest(key);
    if (hash !== undefined) {
      if (this.seen.has(hash)) problems.push(`another source row has the same ${step.plan.match.join(", ")}`);
      else this.seen.set(hash);
    }
    const existing = hash === undefined ? undefined : this.existing.get(hash);
    if (existing?.ambiguous) problems.push(`more than one ${step.object} in the target has this ${step.plan.match.join(", ")}`);
    for (const f of step.copied) {
      const value = fields[f.name];
      if (value === null || value === undefined) {
        if (!existing && isRequiredOnCreate(f)) problems.push(`${f.label} is required in the target`);
        continue;
      }
      const found = valueProblem(f, value);
      if (found) problems.push(valueProblemText(f, value, found));
      // A unique value another record holds is refused by the target (DUPLICATE_VALUE): foreseen, and named.
      const holder = this.uniqueValues.get(f.name.toLowerCase())?.get(value.toLowerCase());
      if (holder?.target && holder.target !== existing?.id) problems.push(`${f.label}: the target's ${step.object} ${holder.target} already holds '${value}' (its values are unique)`);
      else if (holder?.source && holder.source !== sourceId) problems.push(`${f.label}: the source ${step.object} ${holder.source} takes '${value}' first (its values are unique)`);
    }
    if (problems.length) {
      this.problem(sourceId, problems.join("; "));
      return undefined;
    }
    for (const f of this.uniqueFields) {
      const value = fields[f.name];
      const taken = this.uniqueValues.get(f.name.toLowerCase())!;
      if (value !== null && value !== undefined && !taken.has(value.toLowerCase())) taken.set(value.toLowerCase(), { source: sourceId });
    }
    if (existing) {
      const after: Row = {};
      const before: Row = {};
      for (const [name, value] of Object.entries(fields)) {
        const current = existing.values[name.toLowerCase()] ?? null;
        if (!sameValue(current, value ?? null, fieldNamed(step.target, name)?.type)) {
          after[name] = value ?? null;
          before[name] = current;
        }
      }
      this.ids?.set(id15(sourceId), existing.id);
      for (const d of deferred) this.ctx.deferLookup(step.object, sourceId, d.field, d.parentSource, existing.values[d.field.toLowerCase()] ?? null);
      if (!Object.keys(after).length) {
        this.report.unchanged++;
        this.outcome.unchanged++;
        return undefined;
      }
      this.report.update++;
      if (!this.ctx.running) return undefined;
      this.updates.push({ sourceId, id: existing.id, before, after });
      return this.updates.length >= this.ctx.chunkRows ? this.flushUpdates() : undefined;
    }
    this.ownerAndRecordType(row, fields);
    this.report.insert++;
    for (const d of deferred) this.ctx.deferLookup(step.object, sourceId, d.field, d.parentSource, undefined);
    if (!this.ctx.running) {
      this.ids?.set(id15(sourceId), NEW);
      return undefined;
    }
    this.chunk ??= new InsertChunk(this.ctx.chunkFile(this.step.object), this.insertColumns);
    this.chunk.add(ownCopy(sourceId), hash!, this.insertColumns.map((c) => fields[c] ?? ""));
    return this.chunk.rows >= this.ctx.chunkRows ? this.flushInserts() : undefined;
  }

  /** A new record's owner (by username) and record type (by developer name), each with its default. */
  private ownerAndRecordType(row: Row, fields: Row): void {
    const { step, ctx } = this;
    if (step.owner) {
      const username = ctx.prepared.sourceUsers.get(id15(row.ownerid ?? ""));
      const owner = username === undefined ? undefined : ctx.prepared.targetUsers.get(username);
      if (owner) fields.OwnerId = owner;
      else {
        this.report.unmatchedOwners++;
        if (ctx.prepared.ownerDefault) fields.OwnerId = ctx.prepared.ownerDefault;
      }
    }
    if (step.recordTypes && row.recordtypeid) {
      const name = step.sourceRecordTypes?.get(id15(row.recordtypeid));
      const type = name === undefined ? undefined : step.recordTypes.get(name);
      if (type) fields.RecordTypeId = type;
      else {
        this.report.unmatchedRecordTypes++;
        const fallback = step.plan.recordTypeDefault && step.recordTypes.get(step.plan.recordTypeDefault.toLowerCase());
        if (fallback) fields.RecordTypeId = fallback;
      }
    }
  }

  /** Sends a chunk once the one before it is answered, and returns to reading: one chunk is ever in flight (its write-ahead record the only pending one). */
  private async queue(send: () => Promise<void>): Promise<void> {
    await this.sending;
    const sending = send();
    sending.catch(() => undefined); // awaited by the next chunk, or by drained()
    this.sending = sending;
  }

  /** The chunk in flight answered, or failed: nothing of this pass still writes. */
  async settled(): Promise<void> {
    await this.sending.catch(() => undefined);
  }

  /** Every chunk sent, and answered. */
  async drained(): Promise<void> {
    await this.flushInserts();
    await this.flushUpdates();
    await this.sending;
  }

  async flushInserts(): Promise<void> {
    const chunk = this.chunk;
    this.chunk = undefined;
    if (!chunk) return;
    chunk.written();
    await this.queue(() => this.sendInserts(chunk));
  }

  /** The pass is over, or failed: a chunk still being gathered goes. */
  close(): void {
    this.chunk?.remove();
    this.ctx.closeTable(this.seen);
  }

  private async sendInserts(chunk: InsertChunk): Promise<void> {
    try {
      this.ctx.checkCancelled();
      await this.ctx.writeAhead(this.outcome, { since: new Date().toISOString(), match: this.step.plan.match, inserts: chunk.hashes, updates: [] });
      await this.write("insert", chunk, (kind, result) => {
        const sourceId = chunk.sourceOf(this.insertColumns.map((c) => result[c] ?? "")) ?? "";
        if (kind === "successful" && result.sf__Id) {
          this.ctx.noteInserted(this.outcome, result.sf__Id);
          this.ids?.set(id15(sourceId), result.sf__Id);
        } else this.fail(sourceId, result.sf__Error ?? "not processed", true);
      });
    } finally {
      chunk.remove();
    }
  }

  async flushUpdates(): Promise<void> {
    const batch = this.updates;
    this.updates = [];
    if (batch.length) await this.queue(() => this.sendUpdates(batch));
  }

  private async sendUpdates(batch: { sourceId: string; id: string; before: Row; after: Row }[]): Promise<void> {
    this.ctx.checkCancelled();
    const byId = new Map(batch.map((b) => [id15(b.id), b]));
    await this.ctx.writeAhead(this.outcome, { since: new Date().toISOString(), match: this.step.plan.match, inserts: [], updates: batch.map((b) => ({ id: b.id, before: b.before, after: b.after })) });
    await this.write("update", batch.map((b) => ({ Id: b.id, ...b.after })), (kind, result) => {
      const b = byId.get(id15(result.Id ?? result.sf__Id ?? ""));
      if (!b) return;
      if (kind === "successful") this.ctx.noteUpdate(this.outcome, b.id, b.before, b.after);
      else this.fail(b.sourceId, result.sf__Error ?? "not processed", true);
    });
  }

  /** Writes updates (rows), or a chunk of inserts (its file, sent as it is). */
  private async write(operation: "insert" | "update", rows: IngestInput | InsertChunk, onResult: (kind: string, row: BulkRow) => void): Promise<void> {
    const threshold = this.ctx.options.bulkThreshold ?? DEFAULT_BULK_THRESHOLD;
    const job = { object: this.step.object, operation };
    const options: IngestOptions = {
      collectionsBelow: threshold, poll: this.ctx.options.poll, onResult, onJob: this.ctx.jobNoter(this.outcome),
      onProgress: (p) => this.ctx.progress({ phase: "write", object: this.step.object, done: this.written + (p.processed ?? 0), total: this.report.insert + this.report.update }),
    };
    const result = rows instanceof InsertChunk ? await ingestCsvFile(this.ctx.target, job, rows, options) : await ingest(this.ctx.target, job, rows, options);
    this.written += result.rows;
    if (!this.outcome.via.includes(result.via)) this.outcome.via.push(result.via);
    delete this.outcome.pending;
    await this.ctx.saved();
  }

  /** The report's estimate of how the writes go. */
  estimate(): void {
    const r = this.report;
    const threshold = this.ctx.options.bulkThreshold ?? DEFAULT_BULK_THRESHOLD;
    const writes = [r.insert, r.update].flatMap((n) => {
      const sizes: number[] = [];
      for (let left = n; left > 0; left -= this.ctx.chunkRows) sizes.push(Math.min(left, this.ctx.chunkRows));
      return sizes;
    });
    r.write = !writes.length ? "none" : writes.some((n) => n >= threshold) ? "bulk" : "collections";
    // A Bulk job: create, upload, close, about three looks at its state, successful and failed results.
    r.requests = writes.reduce((sum, n) => sum + (n >= threshold ? 8 : Math.ceil(n / COLLECTION_LIMIT)), 0);
  }
}

/** What the passes of one dry run or run share: the clients, the ID maps, the second pass's lookups, the record. */
class PassContext {
  /** Per object others look up (or its own second pass), its records' source ID (15 characters) → target ID. */
  readonly idMaps = new Map<string, DiskTable>();
  /** Where the passes' tables live while they run (the system's temporary folder): removed when they end. */
  private folder?: string;
  private readonly tables = new Set<DiskTable>();
  readonly deferred: { object: string; sourceId: string; field: string; parentSource: string; before: string | null | undefined }[] = [];
  readonly chunkRows: number;

  constructor(
    readonly source: Crm,
    readonly target: Crm,
    readonly prepared: Prepared,
    readonly options: RunOptions,
    /** The run's record and the file of the IDs it inserts (none: a dry run, which writes nothing). */
    readonly run?: MigrationRun,
    private readonly insertedIds?: InsertedIdsWriter,
  ) {
    this.chunkRows = options.chunkRows ?? DEFAULT_CHUNK_ROWS;
    if (!Number.isInteger(this.chunkRows) || this.chunkRows < 1) throw new RangeError(`chunkRows must be a whole number of rows of 1 or more, got ${String(options.chunkRows)}`);
    for (const s of prepared.steps) if (s.keepIds) this.idMaps.set(s.object.toLowerCase(), this.table(`ids ${s.object}`, 15, 18));
  }

  private get workFolder(): string {
    return (this.folder ??= workFolder("migration"));
  }

  table(name: string, keyBytes: number, valueBytes: number): DiskTable {
    const table = new DiskTable(this.workFolder, name, keyBytes, valueBytes);
    this.tables.add(table);
    return table;
  }

  private chunks = 0;

  /** A new file for a chunk of an object's rows, in the passes' folder. */
  chunkFile(object: string): string {
    return path.join(this.workFolder, `${object.replace(/\W/g, "_")}.${++this.chunks}.csv`);
  }

  closeTable(table: DiskTable): void {
    if (this.tables.delete(table)) table.close();
  }

  /** The passes are over (or failed): their tables and folder go. */
  close(): void {
    for (const table of this.tables) this.closeTable(table);
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
  }

  get running(): boolean {
    return !!this.run;
  }

  outcomeOf(object: string): ObjectOutcome {
    const found = this.run?.objects.find((o) => o.object.toLowerCase() === object.toLowerCase());
    if (found) return found;
    const outcome: ObjectOutcome = { object, inserted: 0, updated: [], unchanged: 0, failed: 0, failures: [], via: [] };
    this.run?.objects.push(outcome);
    return outcome;
  }

  private readonly refusedRows = new Map<string, Set<string>>();

  /** Notes a row of the plan that will not be written (the dry run foresees it, or the target refused it). */
  refuse(object: string, sourceId: string): void {
    const key = object.toLowerCase();
    if (!this.refusedRows.has(key)) this.refusedRows.set(key, new Set());
    this.refusedRows.get(key)!.add(id15(sourceId));
  }

  /** Whether a row of the plan was refused: its children are held back rather than written without it. */
  refused(object: string, sourceId: string): boolean {
    return this.refusedRows.get(object.toLowerCase())?.has(id15(sourceId)) ?? false;
  }

  deferLookup(object: string, sourceId: string, field: string, parentSource: string, before: string | null | undefined): void {
    this.deferred.push({ object, sourceId, field, parentSource, before });
  }

  /** Each outcome's updated records by ID (15 characters): a run that updates a million records looks each up in one step. */
  private readonly updatedIndex = new Map<ObjectOutcome, Map<string, UpdatedRecord>>();

  /** Keeps the first values before and the last written of a record the run updated (twice: its fields, then a second-pass lookup). */
  noteUpdate(outcome: ObjectOutcome, id: string, before: Row, after: Row): void {
    let index = this.updatedIndex.get(outcome);
    if (!index) this.updatedIndex.set(outcome, (index = new Map(outcome.updated.map((u) => [id15(u.id), u]))));
    const found = index.get(id15(id));
    if (!found) {
      const noted = { id, before: { ...before }, after: { ...after } };
      outcome.updated.push(noted);
      index.set(id15(id), noted);
    } else {
      for (const [k, v] of Object.entries(before)) if (!(k in found.before)) found.before[k] = v;
      Object.assign(found.after, after);
    }
  }

  checkCancelled(): void {
    if (this.options.signal?.aborted) throw new CancelledError("The migration was cancelled");
  }

  progress(p: MigrationProgress): void {
    this.options.onProgress?.(p);
  }

  noteInserted(outcome: ObjectOutcome, id: string): void {
    noteInserted(this.insertedIds!, outcome, id);
  }

  async saved(): Promise<void> {
    if (!this.run) return;
    this.run.insertedIds = this.insertedIds!.state;
    await this.options.onRecord?.(this.run);
  }

  /** Saves what a chunk is about to write before it is sent (see PendingChunk). */
  async writeAhead(outcome: ObjectOutcome, pending: PendingChunk): Promise<void> {
    outcome.pending = pending;
    await this.saved();
  }

  /** Adds each Bulk job of the pending chunk to the record, saved before any of its rows is uploaded. */
  jobNoter(outcome: ObjectOutcome): IngestOptions["onJob"] {
    return async (jobId) => {
      if (!outcome.pending) return;
      outcome.pending.jobs = [...(outcome.pending.jobs ?? []), jobId];
      await this.saved();
    };
  }
}

/** An ID the run inserted: in its file, and counted. */
function noteInserted(file: InsertedIdsWriter, outcome: ObjectOutcome, id: string): void {
  file.add(outcome.object, id);
  outcome.inserted++;
}

async function passes(source: Crm, target: Crm, plan: MigrationPlan, options: RunOptions, run?: { record: MigrationRun; insertedIds: InsertedIdsWriter }): Promise<MigrationReport> {
  const prepared = await prepare(source, target, plan);
  const ctx = new PassContext(source, target, prepared, options, run?.record, run?.insertedIds);
  const report: MigrationReport = { planDigest: planDigest(plan), source: orgOf(source), target: orgOf(target), objects: [], deferred: prepared.deferred };
  const work = async () => {
    // The next object's reads begin once this one's rows are exported: the source exports them while this
    // object's rows are written (one export at a time, always one ahead).
    let ahead: Promise<PassReads | undefined> | undefined;
    for (const [n, step] of prepared.steps.entries()) {
      ctx.checkCancelled();
      const pass = new ObjectPass(step, ctx);
      report.objects.push(pass.report);
      try {
        const reads = (await ahead) ?? startReads(ctx, step);
        const next = prepared.steps[n + 1];
        ahead = next && reads.source.exported.then((ready) => (ready && !options.signal?.aborted ? startReads(ctx, next) : undefined));
        await pass.indexTarget(reads.target);
        const { count: total, read } = await reads.source.size;
        pass.report.read = read;
        try {
          for await (const batch of reads.source.batches()) for (const row of batch) {
            const sending = pass.take(row);
            if (sending) await sending;
            if (pass.report.rows % 1000 === 0) ctx.progress({ phase: "read", object: step.object, done: pass.report.rows, total });
            if (pass.report.rows % ROWS_PER_TURN === 0) await nextTurn();
          }
        } catch (err) {
          // A read that fails, or a cancel, while a chunk is in flight: its answer is heard (and recorded) before the run ends.
          await pass.settled();
          throw err;
        }
        ctx.progress({ phase: "read", object: step.object, done: pass.report.rows, total });
        await pass.drained();
        pass.estimate();
      } finally {
        pass.close();
      }
    }
    await secondPass(ctx, report);
  };
  try {
    await work();
  } finally {
    ctx.close();
  }
  return report;
}

/** Lookups to the object itself or closing a cycle: written once both ends exist. */
async function secondPass(ctx: PassContext, report: MigrationReport): Promise<void> {
  const byObject = new Map<string, typeof ctx.deferred>();
  for (const d of ctx.deferred) {
    const items = byObject.get(d.object);
    if (items) items.push(d);
    else byObject.set(d.object, [d]);
  }
  for (const [object, items] of byObject) {
    const objectReport = report.objects.find((o) => o.object === object)!;
    const step = ctx.prepared.steps.find((s) => s.object === object)!;
    const rows = new Map<string, { id: string; before: Row; after: Row; existing: boolean }>();
    for (const d of items) {
      const lookup = step.lookups.find((l) => l.field === d.field)!;
      const id = ctx.idMaps.get(object.toLowerCase())?.get(id15(d.sourceId));
      const parent = ctx.idMaps.get(lookup.parent.toLowerCase())?.get(id15(d.parentSource));
      if (!id) continue; // the row itself was refused
      if (!parent) {
        objectReport.unresolvedLookups++;
        continue;
      }
      if (d.before !== undefined && parent !== NEW && sameValue(d.before, parent, lookup.describe.type)) continue;
      objectReport.secondPass++;
      const found = rows.get(id);
      if (found) {
        found.before[d.field] = d.before ?? null;
        found.after[d.field] = parent;
      } else rows.set(id, { id, before: { [d.field]: d.before ?? null }, after: { [d.field]: parent }, existing: d.before !== undefined });
    }
    if (!ctx.running || !rows.size) continue;
    const outcome = ctx.outcomeOf(object);
    const all = [...rows.values()];
    for (let i = 0; i < all.length; i += ctx.chunkRows) {
      ctx.checkCancelled();
      const chunk = all.slice(i, i + ctx.chunkRows);
      const byId = new Map(chunk.map((r) => [id15(r.id), r]));
      await ctx.writeAhead(outcome, { since: new Date().toISOString(), match: step.plan.match, inserts: [], updates: chunk.filter((r) => r.existing).map((r) => ({ id: r.id, before: r.before, after: r.after })) });
      const result = await ingest(ctx.target, { object, operation: "update" }, chunk.map((r) => ({ Id: r.id, ...r.after })), {
        collectionsBelow: ctx.options.bulkThreshold ?? DEFAULT_BULK_THRESHOLD, poll: ctx.options.poll, onJob: ctx.jobNoter(outcome),
        onProgress: (p) => ctx.progress({ phase: "second pass", object, done: i + (p.processed ?? 0), total: all.length }),
        onResult: (kind, result) => {
          const r = byId.get(id15(result.Id ?? result.sf__Id ?? ""));
          if (!r) return;
          // A record the run inserted is reverted by its deletion; a record it found is restored to its value before.
          if (kind === "successful") {
            if (r.existing) ctx.noteUpdate(outcome, r.id, r.before, r.after);
          } else {
            outcome.failed++;
            if (outcome.failures.length < MAX_KEPT_PROBLEMS) outcome.failures.push({ sourceId: r.id, message: `the target org refused the second-pass lookup: ${result.sf__Error ?? "not processed"}` });
          }
        },
      });
      if (!outcome.via.includes(result.via)) outcome.via.push(result.via);
      delete outcome.pending;
      await ctx.saved();
    }
  }
}

const orgOf = (crm: Crm) => ({ ...(crm.orgId ? { orgId: crm.orgId } : {}), ...(crm.instanceUrl ? { instanceUrl: crm.instanceUrl } : {}), ...(crm.userId ? { userId: crm.userId } : {}) });

async function connected(crm: Crm): Promise<void> {
  if (!crm.isConnected) await crm.connect();
}

/**
 * Reads both orgs and says what a run would do, writing nothing: per object the rows to insert, update and leave
 * alone, the rows the target would refuse (and why), lookups that cannot be resolved, owners and record types
 * with no namesake, the fields moved and left out, and how the writes would go.
 */
export async function dryRun(source: Crm, plan: PlanInput | string, target: Crm, options: MigrationOptions = {}): Promise<MigrationReport> {
  requireClient(source, "source");
  requireClient(target, "target");
  const checked = planOf(plan);
  await Promise.all([connected(source), connected(target)]);
  return passes(source, target, checked, options);
}

/**
 * What the target's guard is asked once for a run or a revert: its intent, a batch of record writes in words —
 * sent as Bulk ingest jobs, or sObject Collections below the threshold.
 */
function wholeBatch(summary: string, records: number | undefined): PendingWrite {
  return { method: "POST", path: "/jobs/ingest", summary, ...(records ? { records } : {}), intent: batchIntent(summary, { area: "records", ...(records ? { records } : {}) }) };
}

/** The one sentence the target's guard is asked: what the whole run writes. */
function runSummary(plan: MigrationPlan, report: MigrationReport | undefined, source: Crm): string {
  const from = source.instanceUrl ? new URL(source.instanceUrl).host : "the source org";
  if (!report) return `migrate ${plan.objects.map((o) => o.object).join(", ")} records from ${from}`;
  const parts = report.objects.filter((o) => o.insert || o.update).map((o) => `${o.object}: insert ${o.insert}, update ${o.update}`);
  return `migrate records from ${from} (${parts.join("; ") || "nothing to write"})`;
}

/**
 * Runs the plan: asks the target's guard once (the whole run), then reads and writes object by object in
 * dependency order, then the second-pass lookups. Resolves with the run's record whatever happens once writing
 * began — `complete`, `cancelled` (between two chunks, with exactly what was written) or `failed` (with why) —
 * which `revert` takes, and `resume` goes on from.
 */
export async function run(source: Crm, plan: PlanInput | string, target: Crm, options: RunOptions = {}): Promise<MigrationRun> {
  requireClient(source, "source");
  requireClient(target, "target");
  const checked = planOf(plan);
  await Promise.all([connected(source), connected(target)]);
  const digestOfPlan = planDigest(checked);
  const given = options.resume;
  if (given) {
    if (given.planDigest !== digestOfPlan) throw new MigrationPlanError("The run to resume was started with another plan: resume it with the plan it started with, or start a new run", "");
    if (given.target.orgId && target.orgId && given.target.orgId !== target.orgId) throw new MigrationPlanError(`The run to resume wrote to another org (${given.target.instanceUrl ?? given.target.orgId})`, "");
    if (given.state === "complete") throw new MigrationPlanError("That run is complete: there is nothing to resume", "");
  }
  const idsFile = (id: string) => (typeof options.insertedIdsFile === "function" ? options.insertedIdsFile(id) : options.insertedIdsFile);
  const resume = given && (await upgradedRun(given, idsFile(given.id)));
  const id = resume?.id ?? `run-${new Date().toISOString().replace(/[:.]/g, "-")}-${createHash("sha1").update(`${Math.random()}`).digest("hex").slice(0, 6)}`;
  // The resumed run's file is checked against its record (and cut back to what the record vouches for) before anything is sent.
  const kept = resume ? resume.insertedIds : newInsertedIds(id, idsFile(id));
  const insertedIds = await InsertedIdsWriter.open(kept);
  const record: MigrationRun = resume
    ? { ...resume, state: "running", insertedIds: kept, objects: resume.objects.map((o) => ({ ...o, updated: [...o.updated], failures: [], failed: 0 })) }
    : { id, planDigest: digestOfPlan, source: orgOf(source), target: orgOf(target), startedAt: new Date().toISOString(), state: "running", objects: [], insertedIds: kept, requests: 0 };
  delete record.error;
  // The run's writes are one piece of work, kept whole by whoever runs it (the run's record, one history entry).
  const wholeRun = <T>(work: () => Promise<T>) => withWriteContext({ group: { id: record.id, recordedWhole: true } }, work);
  // A chunk the last run sent and never heard back about: what the org did with it becomes this run's own first.
  if (resume) await wholeRun(() => reconcile(target, record, (outcome, insertedId) => noteInserted(insertedIds, outcome, insertedId), options.signal));
  const counted = (info: { method: string }) => void (info.method && record.requests++);
  target.on("request", counted);
  try {
    const summary = options.summary ?? runSummary(checked, options.report, source);
    await wholeRun(() => target.withConfirmedWrites(wholeBatch(summary, options.report?.objects.reduce((n, o) => n + o.insert + o.update, 0)), () => passes(source, target, checked, options, { record, insertedIds })));
    record.state = "complete";
  } catch (err) {
    // Nothing written (a guard that said no, a plan an org refuses): the error is the answer, there is no run to keep.
    if (!resume && !record.objects.some((o) => o.inserted || o.updated.length)) throw err;
    record.state = err instanceof CancelledError || options.signal?.aborted ? "cancelled" : "failed";
    if (record.state === "failed") record.error = target.redact(err as Error).message;
  } finally {
    target.off("request", counted);
  }
  record.finishedAt = new Date().toISOString();
  record.insertedIds = insertedIds.state;
  await options.onRecord?.(record);
  return record;
}

/** A run's one entry in a write journal: the first records it updated and inserted named (`runEntry`), the IDs read from its file. */
export async function runJournalEntry(run: MigrationRun, summary: string): Promise<WriteEntry> {
  return runEntry(run, summary, { inserted: await firstInsertedIds(run.insertedIds, MAX_NAMED_RECORDS) });
}

/**
 * Takes a run back, in reverse order: the records it updated get their values before (unless changed in the target
 * since: those are named, not overwritten), then the records it inserted are deleted. The target's guard is asked
 * once. The run's file of inserted IDs is checked against its record first, and read as a stream: a run of
 * millions of records is reverted in flat memory.
 */
export async function revert(target: Crm, runRecord: MigrationRun, options: MigrationOptions & { summary?: string; insertedIdsFile?: string } = {}): Promise<RevertResult> {
  requireClient(target, "target");
  if (!runRecord || typeof runRecord !== "object" || !Array.isArray(runRecord.objects)) throw new TypeError("revert takes the record a migration run resolved with (its objects, inserted and updated)");
  await connected(target);
  if (runRecord.target.orgId && target.orgId && id15(runRecord.target.orgId) !== id15(target.orgId)) throw new MigrationPlanError(`That run wrote to another org (${runRecord.target.instanceUrl ?? runRecord.target.orgId}): revert it there`, "");
  // Counted and reconciled on a copy: the caller's record stays the run's.
  const toGoOn = await upgradedRun(runRecord, options.insertedIdsFile);
  const run: MigrationRun = { ...toGoOn, objects: toGoOn.objects.map((o) => ({ ...o })) };
  const folder = workFolder("migration");
  // Every ID the run inserted, to tell its own records from others' (15 characters, on disk).
  const runIds = new DiskTable(folder, "run ids", 15, 0);
  try {
    await verifyInsertedIds(run.insertedIds, (_object, id) => runIds.set(id15(id)));
    // The revert is one piece of work with the run, kept whole by whoever reverts it.
    const wholeRevert = <T>(work: () => Promise<T>) => withWriteContext({ group: { id: run.id, recordedWhole: true } }, work);
    const reconciledIds = new Map<ObjectOutcome, string[]>();
    const found = await wholeRevert(() => reconcile(target, run, (outcome, id) => {
      if (!reconciledIds.has(outcome)) reconciledIds.set(outcome, []);
      reconciledIds.get(outcome)!.push(id);
      runIds.set(id15(id));
      outcome.inserted++;
    }, options.signal));
    const result: RevertResult = { deleted: 0, restored: 0, alreadyReverted: 0, conflicts: [], failures: [], reconciled: { inserted: found.inserted, updated: found.updated }, unknown: found.unknown };
    const deletes = run.objects.reduce((n, o) => n + o.inserted, 0);
    const restores = run.objects.reduce((n, o) => n + o.updated.length, 0);
    const collectionsBelow = options.bulkThreshold ?? DEFAULT_BULK_THRESHOLD;
    const ours = (r: Record<string, unknown>) => runIds.has(id15(String(r.Id))) || (!!run.target.userId && sameRecordId(String(r.CreatedById), run.target.userId) && duringRun(r, run));
    await wholeRevert(() => target.withConfirmedWrites(wholeBatch(options.summary ?? `revert a migration: delete ${deletes} records it inserted, restore ${restores} it updated`, deletes + restores), async () => {
      for (const outcome of [...run.objects].reverse()) {
        options.signal?.throwIfAborted();
        const restore: Record<string, unknown>[] = [];
        for (let i = 0; i < outcome.updated.length; i += COLLECTION_LIMIT) {
          const chunk = outcome.updated.slice(i, i + COLLECTION_LIMIT);
          const current = await currentValues(target, outcome.object, chunk, options.signal);
          for (const u of chunk) {
            const since = sinceWritten(current.get(id15(u.id)), u);
            if (since.state === "asWritten") restore.push({ Id: u.id, ...u.before });
            else if (since.state === "asBefore") result.alreadyReverted++;
            else result.conflicts.push({ object: outcome.object, id: u.id, fields: since.state === "deleted" ? [] : since.fields });
          }
          options.onProgress?.({ phase: "revert", object: outcome.object, done: i + chunk.length, total: outcome.updated.length });
        }
        const record = (kind: string, row: BulkRow, count: () => void) => {
          if (kind === "successful") count();
          else result.failures.push({ object: outcome.object, id: row.Id ?? row.sf__Id ?? "", message: row.sf__Error ?? "not processed" });
        };
        // A record already deleted is reverted: a second revert, or one after someone emptied the records, is no failure.
        const deleted = (kind: string, row: BulkRow) => {
          if (kind !== "successful" && ALREADY_DELETED.test(row.sf__Error ?? "")) result.alreadyReverted++;
          else record(kind, row, () => result.deleted++);
        };
        if (restore.length) await ingest(target, { object: outcome.object, operation: "update" }, restore, { collectionsBelow, poll: options.poll, onResult: (k, r) => record(k, r, () => result.restored++) });
        if (!outcome.inserted) continue;
        const doomed = path.join(folder, `${outcome.object.replace(/\W/g, "_")}.delete.csv`);
        writeFileSync(doomed, "Id\n", { mode: 0o600 });
        let doomedRows = 0;
        const children = await childrenToCheck(target, outcome.object, run);
        const unchecked = new Set<string>();
        for await (const batch of idsOf(run.insertedIds, outcome, reconciledIds.get(outcome) ?? [])) {
          // Deleted only when the org says the run's user created it: an ID that names anyone else's record (a record
          // file from elsewhere, a mistake) is named and left as it is.
          const theirs = run.target.userId ? await createdBy(target, outcome.object, batch, run, options.signal) : new Map<string, string>();
          // A parent goes only when nothing the run did not create points to it: deleting it would take those along.
          const mine = batch.filter((id) => !theirs.has(id15(id)));
          for (const [id, why] of await pointedAtByOthers(target, outcome.object, children, mine, ours, unchecked, options.signal)) theirs.set(id, why);
          const lines: string[] = [];
          for (const id of batch) {
            const why = theirs.get(id15(id));
            if (why) result.conflicts.push({ object: outcome.object, id, fields: [], why });
            else lines.push(`${id}\n`);
          }
          appendFileSync(doomed, lines.join(""));
          doomedRows += lines.length;
        }
        result.unknown.push(...unchecked);
        if (doomedRows) {
          await ingestCsvFile(target, { object: outcome.object, operation: "delete" }, { file: doomed, rows: doomedRows }, {
            collectionsBelow, poll: options.poll, onResult: deleted,
            onProgress: (p) => options.onProgress?.({ phase: "revert", object: outcome.object, done: p.processed ?? 0, total: outcome.inserted }),
          });
        }
      }
    }));
    return result;
  } finally {
    runIds.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The IDs a run inserted into an object, a batch at a time: its file's, then those reconcile found in the org. */
async function* idsOf(kept: InsertedIdsFile, outcome: ObjectOutcome, reconciled: string[]): AsyncGenerator<string[]> {
  yield* insertedIdsOf(kept, outcome.object);
  for (let i = 0; i < reconciled.length; i += COLLECTION_LIMIT) yield reconciled.slice(i, i + COLLECTION_LIMIT);
}

/**
 * A run's record as resume and revert take it, its file of inserted IDs where the caller keeps it (`file`, else
 * where the record says). A record kept before the IDs moved to a file of their own (`inserted` a list) has them
 * written to that file (else one in the system's temporary folder) and counted, as a run records them now.
 */
export async function upgradedRun(runRecord: MigrationRun, file?: string): Promise<MigrationRun> {
  const lists = runRecord.objects.map((o) => (o as { inserted: unknown }).inserted);
  if (!lists.some(Array.isArray)) {
    const kept = runRecord.insertedIds as Partial<InsertedIdsFile> | undefined;
    if (!kept || typeof kept.file !== "string" || !Number.isSafeInteger(kept.bytes) || kept.bytes! < 0 || !/^[0-9a-f]{64}$/.test(String(kept.sha256))) {
      throw new TypeError("the run's record does not name its file of inserted IDs (insertedIds: file, bytes, sha256)");
    }
    return file ? { ...runRecord, insertedIds: { ...runRecord.insertedIds, file: path.resolve(file) } } : runRecord;
  }
  const writer = await InsertedIdsWriter.open(newInsertedIds(runRecord.id, file));
  const objects = runRecord.objects.map((o, i) => {
    const ids = Array.isArray(lists[i]) ? (lists[i] as unknown[]).map(String) : [];
    for (const id of ids) writer.add(o.object, id);
    return { ...o, inserted: ids.length };
  });
  return { ...runRecord, objects, insertedIds: writer.state };
}

/**
 * Makes a chunk that was sent and never answered (the run died, or its answer was lost) the run's own, as the
 * org holds it: records the run's user created since the chunk went out with one of its match keys are inserted
 * records of the run (`onInserted` hears each one the run's file does not name yet); records whose values are now
 * what was being written are updated records (with their values before); a record still as it was was not written,
 * and the resumed run writes it again. Says what it found.
 */
export async function reconcile(target: Crm, runRecord: MigrationRun, onInserted: (outcome: ObjectOutcome, id: string) => void, signal?: AbortSignal): Promise<{ inserted: number; updated: number; unknown: string[] }> {
  const found = { inserted: 0, updated: 0, unknown: [] as string[] };
  for (const outcome of runRecord.objects) {
    const pending = outcome.pending;
    if (!pending) continue;
    // A job of the chunk may still be writing at the org: it is stopped first, so what is read below is all it wrote.
    for (const jobId of pending.jobs ?? []) await stopJob(target, jobId);
    if (pending.inserts.length) {
      if (!runRecord.target.userId) {
        found.unknown.push(`${outcome.object}: ${pending.inserts.length} rows were being inserted, and the run's record does not say which user wrote them`);
        continue;
      }
      const keys = new Set(pending.inserts);
      // At most the chunk's rows: those already in the run's file (answered before it died) are not the run's twice.
      const created = new Map<string, string>();
      const columns = ["Id", ...pending.match];
      const since = new Date(Date.parse(pending.since) - CLOCK_SKEW_MS).toISOString();
      const soql = `SELECT ${columns.join(", ")} FROM ${outcome.object} WHERE CreatedById = ${soqlLiteral(runRecord.target.userId)} AND CreatedDate >= ${since.replace(/\.\d{3}Z$/, "Z")}`;
      for await (const r of target.queryIterator(soql, { signal })) {
        const row = flatten(r, columns);
        const key = matchKey(pending.match.map((m) => row[m.toLowerCase()] ?? null));
        if (key !== undefined && keys.has(digest(key))) created.set(id15(row.id!), row.id!);
      }
      if (created.size) for await (const batch of insertedIdsOf(runRecord.insertedIds, outcome.object)) for (const id of batch) created.delete(id15(id));
      for (const id of created.values()) {
        onInserted(outcome, id);
        found.inserted++;
      }
    }
    for (let i = 0; i < pending.updates.length; i += COLLECTION_LIMIT) {
      const chunk = pending.updates.slice(i, i + COLLECTION_LIMIT);
      const current = await currentValues(target, outcome.object, chunk, signal);
      for (const u of chunk) {
        // Still as it was: the update never landed. Anything else is the run's write (or a change since, which revert names).
        if (sinceWritten(current.get(id15(u.id)), u).state === "asBefore") continue;
        const kept = outcome.updated.find((x) => id15(x.id) === id15(u.id));
        if (kept) {
          for (const [k, v] of Object.entries(u.before)) if (!(k in kept.before)) kept.before[k] = v;
          Object.assign(kept.after, u.after);
        } else outcome.updated.push({ id: u.id, before: { ...u.before }, after: { ...u.after } });
        found.updated++;
      }
    }
    delete outcome.pending;
  }
  return found;
}

/** Records an org keeps about a record by itself (its history, sharing, feed, change events): never someone's data. */
const BOOKKEEPING = /(History|Share|Feed|ChangeEvent)$/;

/** The relationships whose children hold a parent back: those the org deletes with it, and those from objects the run wrote. */
async function childrenToCheck(crm: Crm, object: string, runRecord: MigrationRun): Promise<ChildRelationship[]> {
  const runObjects = new Set(runRecord.objects.map((o) => o.object.toLowerCase()));
  const described = await crm.getSobject(object, { describe: true });
  return (described.childRelationships ?? []).filter((child) => child.field && !BOOKKEEPING.test(child.childSObject) && (child.cascadeDelete || runObjects.has(child.childSObject.toLowerCase())));
}

/**
 * Of records the run would delete, those that records it did not create (not `ours`) point to, and why. A child
 * the run's user made while the run went on is the run's doing (a trigger's, say), not someone else's. Children
 * that cannot be read by their field are said in `unchecked` where the org deletes them with the parent.
 */
async function pointedAtByOthers(crm: Crm, object: string, children: ChildRelationship[], ids: string[], ours: (r: Record<string, unknown>) => boolean, unchecked: Set<string>, signal?: AbortSignal): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  if (!ids.length) return held;
  for (const child of children) {
    try {
      for (let i = 0; i < ids.length; i += COLLECTION_LIMIT) {
        const chunk = ids.slice(i, i + COLLECTION_LIMIT);
        for await (const r of crm.queryIterator(`SELECT Id, ${child.field}, CreatedById, CreatedDate FROM ${child.childSObject} WHERE ${child.field} IN (${chunk.map(soqlLiteral).join(", ")})`, { signal })) {
          if (ours(r)) continue;
          const parent = id15(String(r[child.field!]));
          if (!held.has(parent)) held.set(parent, `records the run did not create point to it (${child.childSObject} ${String(r.Id)}${child.cascadeDelete ? ", which the org would delete with it" : ""})`);
        }
      }
    } catch (err) {
      if (signal?.aborted) throw err;
      if (child.cascadeDelete) unchecked.add(`${object}: its ${child.childSObject} records (${child.field}) could not be read (${(err as Error).message.split("\n")[0]}); the org deletes them with the records the revert deleted`);
    }
  }
  return held;
}

/** The current values of the fields the run wrote, by 15-character ID. */
function currentValues(target: Crm, object: string, records: UpdatedRecord[], signal?: AbortSignal): Promise<Map<string, Record<string, unknown>>> {
  return currentRecords(target, object, records.map((u) => u.id), [...new Set(records.flatMap((u) => Object.keys(u.after)))], { signal });
}

/** Whether the org made a record while the run went on (a run still going, or killed, has no end). */
const duringRun = (r: Record<string, unknown>, runRecord: MigrationRun) => withinSkew(r.CreatedDate, runRecord.startedAt, runRecord.finishedAt);

/**
 * Of these IDs, those the org holds as not the run's creation, and why: created by someone other than the run's
 * user, or outside the run's time (IDs the org does not hold are not named).
 */
async function createdBy(crm: Crm, object: string, ids: string[], runRecord: MigrationRun, signal?: AbortSignal): Promise<Map<string, string>> {
  const others = new Map<string, string>();
  for (let i = 0; i < ids.length; i += COLLECTION_LIMIT) {
    const chunk = ids.slice(i, i + COLLECTION_LIMIT);
    for await (const r of crm.queryIterator(`SELECT Id, CreatedById, CreatedDate FROM ${object} WHERE Id IN (${chunk.map(soqlLiteral).join(", ")})`, { signal })) {
      if (!sameRecordId(String(r.CreatedById), runRecord.target.userId!)) others.set(id15(String(r.Id)), "not created by the run's user");
      else if (!duringRun(r, runRecord)) others.set(id15(String(r.Id)), "created outside the run's time");
    }
  }
  return others;
}

/** The report as Markdown: a table per plan, then each object's problems (the first 20), for a person to read before the run. */
export function formatReport(report: MigrationReport, options: { from?: string; to?: string } = {}): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const lines = [`# Migration dry run: ${options.from ?? report.source.instanceUrl ?? "source"} → ${options.to ?? report.target.instanceUrl ?? "target"}`, ""];
  lines.push("| object | rows | insert | update | unchanged | refused | lookups unresolved | owners unmatched | record types unmatched | second pass | writes |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const o of report.objects) {
    const writes = o.write === "none" ? "none" : `${o.write === "bulk" ? "Bulk API" : "sObject Collections"}, about ${n(o.requests)} request${o.requests === 1 ? "" : "s"}`;
    lines.push(`| ${o.object} | ${n(o.rows)} | ${n(o.insert)} | ${n(o.update)} | ${n(o.unchanged)} | ${n(o.refused)} | ${n(o.unresolvedLookups)} | ${n(o.unmatchedOwners)} | ${n(o.unmatchedRecordTypes)} | ${n(o.secondPass)} | ${writes} |`);
  }
  lines.push("", `Order: ${report.objects.map((o) => o.object).join(" → ")}.`);
  if (report.deferred.length) lines.push(`Second pass (self or circular references): ${report.deferred.map((d) => `${d.object}.${d.field}`).join(", ")}.`);
  for (const o of report.objects) {
    lines.push("", `## ${o.object}`, "", `Fields moved: ${o.fields.join(", ") || "none"}.`);
    if (o.leftOut.length) lines.push("", `Left out: ${o.leftOut.map((l) => `${l.field} (${l.reason})`).join("; ")}.`);
    if (o.problems.length) {
      lines.push("", `Rows refused (${n(o.refused)}${o.refused > 20 ? ", the first 20" : ""}):`, "");
      for (const p of o.problems.slice(0, 20)) lines.push(`- ${p.sourceId}: ${p.message.replace(/[\r\n]+/g, " ")}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** A run's outcome as Markdown: per object what it wrote, then the rows refused (the first 20 of each). */
export function formatRun(run: MigrationRun, from?: string, to?: string): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const state = run.state === "complete" ? "complete" : run.state === "cancelled" ? "cancelled (resume it by running the plan again)" : `failed: ${run.error ?? ""} (resume it by running the plan again)`;
  const lines = [`# Migration run: ${from ?? run.source.instanceUrl ?? "source"} → ${to ?? run.target.instanceUrl ?? "target"}`, "", `Run ${run.id}, started ${run.startedAt}: ${state}; ${n(run.requests)} requests to the target.`, ""];
  lines.push("| object | inserted | updated | unchanged | failed | written with |", "|---|---:|---:|---:|---:|---|");
  for (const o of run.objects) lines.push(`| ${o.object} | ${n(o.inserted)} | ${n(o.updated.length)} | ${n(o.unchanged)} | ${n(o.failed)} | ${o.via.map((v) => (v === "bulk" ? "Bulk API" : "sObject Collections")).join(", ") || "—"} |`);
  for (const o of run.objects.filter((x) => x.failures.length)) {
    lines.push("", `## ${o.object}: rows refused (${n(o.failed)}${o.failed > 20 ? ", the first 20" : ""})`, "");
    for (const f of o.failures.slice(0, 20)) lines.push(`- ${f.sourceId}: ${f.message.replace(/[\r\n]+/g, " ")}`);
  }
  return `${lines.join("\n")}\n`;
}
