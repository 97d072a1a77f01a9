/**
 * The write history: every write the extension made to an org (grid commits, document saves, imports,
 * knowledge lifecycle actions, posts), per org, newest first — time, what changed, the records with the
 * fields written and, where the writer knew them, their values before; and each record's result. Built
 * from the writes the org accepted (their resource, body and answer), so nothing is missed whichever
 * command wrote. Only data is kept: the OAuth resources never reach it, and no header is read.
 * No VS Code here: tested in Node; the extension keeps it in its global storage.
 */
import type { CompletedWrite } from "../client";
import { sinceWritten } from "../client/records";
import type { WriteAuthor } from "./authorship";
import type { ChangeKind, OrgChange } from "./changes";
import { describeWrite } from "./writeGuard";
import { Emitter } from "../shared/events";

type Json = Record<string, unknown>;

export interface JournalRecord {
  id?: string;
  /** Field values written. */
  after?: Json;
  /** The same fields' values before, where the writer knew them (grid commits, document saves). */
  before?: Json;
  ok: boolean;
  error?: string;
}

export interface JournalEntry {
  id: string;
  time: string;
  orgKey: string;
  alias: string;
  kind: ChangeKind;
  object?: string;
  /** One line: what the write did ("update 3 Contact records (Title)"). */
  summary: string;
  records: JournalRecord[];
  /** Whose work it was, when not the person's own: an agent's (its tool, or its proposal committed in a grid). */
  by?: WriteAuthor;
  /** A migration run (its record kept beside the history): reverted as a whole, by the migration's revert. */
  migration?: { runId: string; plan: string; from: string; reverted?: string };
}

const isJson = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const fieldsOf = (record: Json): Json => Object.fromEntries(Object.entries(record).filter(([k]) => k !== "attributes" && k !== "Id" && k !== "id"));
const errorText = (errors: unknown): string | undefined =>
  Array.isArray(errors) && errors.length ? errors.map((e) => (isJson(e) ? String(e.message ?? e.statusCode ?? "") : String(e))).join(" ") : undefined;
const key15 = (id: string) => id.slice(0, 15);
/** Records an entry names at most (a migration's run record holds every one). */
const MAX_NAMED_RECORDS = 1_000;

/** The records a write names, with the fields it wrote and each one's result, read from its resource, body and answer. */
export function journalRecords(write: CompletedWrite | undefined, change: OrgChange): JournalRecord[] {
  const body = isJson(write?.body) ? write!.body : undefined;
  // What the write was is its intent's to say (client/intent.ts), never read again here from its REST path.
  if (write?.intent?.via === "collection") {
    const results = Array.isArray(write.data) ? (write.data as Json[]) : [];
    const sent = Array.isArray(body?.records) ? (body!.records as Json[]) : [];
    const rows = sent.length ? sent : results;
    return rows.map((row, i) => {
      const result = results[i];
      const id = (isJson(row) && typeof (row.Id ?? row.id) === "string" ? String(row.Id ?? row.id) : undefined) ?? (typeof result?.id === "string" ? result.id : undefined);
      return { ...(id ? { id } : {}), ...(sent.length ? { after: fieldsOf(row) } : {}), ok: result?.success !== false, ...(errorText(result?.errors) ? { error: errorText(result?.errors) } : {}) };
    });
  }
  const recordWrite = write?.intent?.via === "record";
  return change.ids.map((id, i) => ({ id, ...(recordWrite && i === 0 && body ? { after: fieldsOf(body) } : {}), ok: true }));
}

export class WriteJournal {
  private entries: JournalEntry[];
  /** Values a writer is about to overwrite, by org and 15-character ID: taken by the next write naming them. */
  private readonly expected = new Map<string, { before: Json; at: number }>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private sequence = 0;

  constructor(private readonly options: { max: () => number; persist?: (entries: JournalEntry[]) => void; now?: () => Date }, entries: JournalEntry[] = []) {
    this.entries = entries.filter((e) => isJson(e) && typeof e.id === "string" && Array.isArray(e.records));
  }

  /** Says what a write about to be sent will overwrite (kept a minute, for the write's answer to pick up). */
  expectBefore(orgKey: string, before: Map<string, Json>): void {
    const at = Date.now();
    for (const [k, v] of this.expected) if (at - v.at > 60_000) this.expected.delete(k);
    for (const [id, values] of before) this.expected.set(`${orgKey}\u0000${key15(id)}`, { before: values, at });
  }

  /** Records a write the org accepted (or a change it made later, such as a Bulk import, without the write). */
  record(org: { key: string; alias: string }, change: OrgChange, summary: string, write?: CompletedWrite, by?: WriteAuthor): JournalEntry {
    const records = journalRecords(write, change).map((r) => {
      const expected = r.id ? this.expected.get(`${org.key}\u0000${key15(r.id)}`) : undefined;
      if (!expected) return r;
      this.expected.delete(`${org.key}\u0000${key15(r.id!)}`);
      return { ...r, before: expected.before };
    });
    const time = (this.options.now?.() ?? new Date()).toISOString();
    return this.add({ id: `${time}-${++this.sequence}`, time, orgKey: org.key, alias: org.alias, kind: change.kind, ...(change.object ? { object: change.object } : {}), summary, records, ...(by ? { by } : {}) });
  }

  private add(entry: JournalEntry): JournalEntry {
    this.entries.unshift(entry);
    const max = Math.max(1, this.options.max());
    if (this.entries.length > max) this.entries.length = max;
    this.options.persist?.(this.entries);
    this.changed.fire();
    return entry;
  }

  /** Records a change an org accepted, summed up from its write (or, for a change the org made later, from what it names). */
  recordChange(org: { key: string; alias: string }, change: OrgChange, by?: WriteAuthor): JournalEntry {
    const count = change.ids.length;
    const summary = change.write ? describeWrite(change.write) : `${change.kind} ${count} ${change.object ?? ""} record${count === 1 ? "" : "s"}`.replace(/\s+/g, " ");
    return this.record(org, change, summary, change.write, by);
  }

  /**
   * One entry for a whole migration run (or its revert): the records it inserted and updated (the first thousand
   * named; the run's own record holds them all).
   */
  recordMigration(org: { key: string; alias: string }, summary: string, records: JournalRecord[], migration?: JournalEntry["migration"]): JournalEntry {
    const time = (this.options.now?.() ?? new Date()).toISOString();
    const entry: JournalEntry = { id: `${time}-${++this.sequence}`, time, orgKey: org.key, alias: org.alias, kind: "written", summary, records: records.slice(0, MAX_NAMED_RECORDS), ...(migration ? { migration } : {}) };
    return this.add(entry);
  }

  /** Marks a migration's entry reverted (when, so it is not reverted twice). */
  markReverted(id: string, at: string): void {
    const entry = this.get(id);
    if (!entry?.migration) return;
    entry.migration = { ...entry.migration, reverted: at };
    this.options.persist?.(this.entries);
    this.changed.fire();
  }

  /** Entries, newest first: of one org, or of all. */
  list(orgKey?: string): JournalEntry[] {
    return orgKey ? this.entries.filter((e) => e.orgKey === orgKey) : [...this.entries];
  }

  /** Entries whose summary, object, alias, IDs or values hold every word of the search (case-insensitive). */
  search(text: string, orgKey?: string): JournalEntry[] {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    return this.list(orgKey).filter((e) => {
      const hay = `${e.summary} ${e.object ?? ""} ${e.alias} ${e.kind} ${e.by ?? ""} ${JSON.stringify(e.records)}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    });
  }

  get(id: string): JournalEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  clear(orgKey?: string): void {
    this.entries = orgKey ? this.entries.filter((e) => e.orgKey !== orgKey) : [];
    this.options.persist?.(this.entries);
    this.changed.fire();
  }
}

/**
 * What reverting an entry writes: each saved record's before values, where the entry knows them. A record whose
 * fields no longer hold what the entry wrote was changed since (the records kit's `sinceWritten`): it is left out
 * and named, not overwritten.
 */
export function revertPlan(entry: JournalEntry, current: Map<string, Json>): { restore: { id: string; fields: Json }[]; changedSince: { id: string; fields: string[] }[] } {
  const restore: { id: string; fields: Json }[] = [];
  const changedSince: { id: string; fields: string[] }[] = [];
  for (const record of entry.records) {
    if (!record.ok || !record.id || !record.before || !record.after) continue;
    // Only the fields it would restore matter: one written without a value before is not taken back.
    const after = Object.fromEntries(Object.keys(record.before).map((f) => [f, record.after![f]]));
    const since = sinceWritten(current.get(key15(record.id)), { before: record.before, after });
    if (since.state === "asWritten") restore.push({ id: record.id, fields: record.before });
    else changedSince.push({ id: record.id, fields: since.state === "deleted" ? [] : since.fields });
  }
  return { restore, changedSince };
}
