/**
 * The write history: every write the extension made to an org (grid commits, document saves, imports,
 * knowledge lifecycle actions, posts), per org, newest first — time, what changed, the records with the
 * fields written and, where the writer knew them, their values before; and each record's result. Built
 * from the record each write the org accepted carries (client/writeRecord.ts: intent, by, before, group), so
 * nothing is missed whichever command wrote, and the entry is the one the command-line tools' journals keep.
 * Only data is kept: the OAuth resources never reach it, and no header is read.
 * No VS Code here: tested in Node; the extension keeps it in its global storage.
 */
import type { CompletedWrite } from "../client";
import { sinceWritten } from "../client/records";
import { writeEntry, type WriteEntry, type WrittenRecord } from "../client/writeRecord";
import type { OrgChange } from "./changes";
import { describeWrite } from "./writeGuard";
import { Emitter } from "../shared/events";

type Json = Record<string, unknown>;

export type JournalRecord = WrittenRecord;

/** A write as the client's journals keep it (writeRecord.ts), in the org it went to, with an ID of its own. */
export interface JournalEntry extends WriteEntry {
  id: string;
  time: string;
  orgKey: string;
  alias: string;
  /** A migration run (its record kept beside the history): reverted as a whole, by the migration's revert. */
  migration?: { runId: string; plan: string; from: string; reverted?: string };
}

const isJson = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const key15 = (id: string) => id.slice(0, 15);

export class WriteJournal {
  private entries: JournalEntry[];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private sequence = 0;

  constructor(private readonly options: { max: () => number; persist?: (entries: JournalEntry[]) => void; now?: () => Date }, entries: JournalEntry[] = []) {
    this.entries = entries.filter((e) => isJson(e) && typeof e.id === "string" && Array.isArray(e.records));
  }

  /**
   * Records a write the org accepted, as its record says (`summary` in the reader's language), or a change the org
   * made later (a Bulk import), from the records the change names.
   */
  record(org: { key: string; alias: string }, change: OrgChange, summary: string, write?: CompletedWrite): JournalEntry {
    const time = (this.options.now?.() ?? new Date()).toISOString();
    const entry: WriteEntry = write
      ? writeEntry(write, summary)
      : { kind: change.kind, ...(change.object ? { object: change.object } : {}), summary, records: change.ids.map((id) => ({ id, ok: true })) };
    return this.add({ id: `${time}-${++this.sequence}`, time, orgKey: org.key, alias: org.alias, ...entry });
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
  recordChange(org: { key: string; alias: string }, change: OrgChange): JournalEntry {
    const count = change.ids.length;
    const summary = change.write ? describeWrite(change.write) : `${change.kind} ${count} ${change.object ?? ""} record${count === 1 ? "" : "s"}`.replace(/\s+/g, " ");
    return this.record(org, change, summary, change.write);
  }

  /** One entry for a whole migration run or its revert (the client's `runEntry`). */
  recordMigration(org: { key: string; alias: string }, entry: WriteEntry, migration?: JournalEntry["migration"]): JournalEntry {
    const time = (this.options.now?.() ?? new Date()).toISOString();
    return this.add({ id: `${time}-${++this.sequence}`, time, orgKey: org.key, alias: org.alias, ...entry, ...(migration ? { migration } : {}) });
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
      const hay = `${e.summary} ${e.object ?? ""} ${e.alias} ${e.kind} ${e.by ?? ""} ${e.group ?? ""} ${JSON.stringify(e.records)}`.toLowerCase();
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
