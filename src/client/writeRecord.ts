/**
 * The write record: every write the org accepts is announced (the client's `write` event) with what it meant —
 * its intent (intent.ts) — and the context it was made in: whose work it was (`by`), the values it replaced
 * (`before`, of the records it names) and the piece of work it belongs to (`group`). Whoever keeps writes —
 * VS Code's Write History, the change events, the command-line tools' `--journal` — reads them from the record,
 * never from a side channel. The context is set around work with `withWriteContext` and follows the work's own
 * async calls (AsyncLocalStorage), so concurrent work of someone else keeps its own.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { WriteIntent, WriteKind } from "./intent";

/** Whose work a write is when not the person's own: an agent's (its tool, its proposal applied or committed). */
export type WriteAuthor = "agent";

/** The piece of work a write belongs to (a migration run, an agent's change set). */
export interface WriteGroup {
  id: string;
  /** Whoever runs the work keeps it as one whole (a migration's run record and its one history entry), not write by write. */
  recordedWhole?: boolean;
}

type Values = Record<string, unknown>;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

export interface WriteContext {
  by?: WriteAuthor;
  group?: WriteGroup;
  /** The values the writes are about to replace, by record ID (15 or 18 characters). */
  before?: ReadonlyMap<string, Values>;
}

/** A write the org accepted (a 2xx answer): what was sent and what it answered, for callers that follow changes. */
export interface CompletedWrite {
  method: HttpMethod;
  /** The resource written, without its query string. */
  path: string;
  status: number;
  /** The JSON body sent. */
  body?: unknown;
  /** The JSON answer (such as the new record's `id`). */
  data?: unknown;
  /** What it meant, with the IDs the org answered (always set by the client; see intent.ts). */
  intent?: WriteIntent;
  by?: WriteAuthor;
  group?: WriteGroup;
  /** The values it replaced, by record ID, of the records it names, where the work said them. */
  before?: Record<string, Values>;
}

const context = new AsyncLocalStorage<WriteContext>();
const key15 = (id: string) => id.slice(0, 15);

/** Runs `work` with its writes recorded as `written`'s (inside other work, what it does not say is kept). */
export function withWriteContext<T>(written: WriteContext, work: () => T): T {
  const outer = context.getStore();
  const before = outer?.before && written.before ? merged(outer.before, written.before) : written.before ?? outer?.before;
  return context.run({ ...outer, ...written, ...(before ? { before } : {}) }, work);
}

/** The outer work's values before, with the inner's for the same records (an ID in either form) in their place. */
function merged(outer: ReadonlyMap<string, Values>, inner: ReadonlyMap<string, Values>): Map<string, Values> {
  const said = new Set([...inner.keys()].map(key15));
  return new Map([...[...outer].filter(([id]) => !said.has(key15(id))), ...inner]);
}

/** A write about to be sent, as its guard is asked about it: with whose work it is. */
export function pendingWrite<W extends object>(write: W): W & { by?: WriteAuthor } {
  const by = context.getStore()?.by;
  return by ? { ...write, by } : write;
}

/** The write's record: the write, and the context of the work that sent it. */
export function completedWrite(write: Omit<CompletedWrite, "by" | "group" | "before">): CompletedWrite {
  const current = context.getStore();
  if (!current) return write;
  const named = current.before && write.intent?.ids.length ? beforeOf(current.before, write.intent.ids) : undefined;
  return { ...write, ...(current.by ? { by: current.by } : {}), ...(current.group ? { group: current.group } : {}), ...(named ? { before: named } : {}) };
}

function beforeOf(before: ReadonlyMap<string, Values>, ids: string[]): Record<string, Values> | undefined {
  const wanted = new Set(ids.map(key15));
  const found = [...before].filter(([id]) => wanted.has(key15(id)));
  return found.length ? Object.fromEntries(found) : undefined;
}

/** What a write did, in the past tense: the word the write history, the change events and the journals use. */
export type WriteDone = "created" | "updated" | "deleted" | "published" | "archived" | "posted" | "commented" | "written";

export const WRITE_DONE: Readonly<Record<WriteKind, WriteDone>> = {
  create: "created", update: "updated", upsert: "updated", delete: "deleted", publish: "published", archive: "archived",
  draft: "created", post: "posted", comment: "commented", load: "written", batch: "written", write: "written",
};

/** A record a write named: the fields it wrote, their values before (where the work said them), its result. */
export interface WrittenRecord {
  id?: string;
  after?: Values;
  before?: Values;
  ok: boolean;
  error?: string;
}

/**
 * A write as every journal keeps it — VS Code's Write History and the command-line tools' `--journal` — read from
 * the write's record alone: what it did, to which records, whose work it was, and the work it belonged to.
 */
export interface WriteEntry {
  kind: WriteDone;
  object?: string;
  /** One line: what the write did ("update 3 Contact records (Title)"). */
  summary: string;
  records: WrittenRecord[];
  by?: WriteAuthor;
  /** The piece of work it was part of (an agent's change set, a migration run). */
  group?: string;
}

const isJson = (v: unknown): v is Values => !!v && typeof v === "object" && !Array.isArray(v);
const fieldsOf = (record: Values): Values => Object.fromEntries(Object.entries(record).filter(([k]) => k !== "attributes" && k !== "Id" && k !== "id"));
const errorText = (errors: unknown): string | undefined =>
  Array.isArray(errors) && errors.length ? errors.map((e) => (isJson(e) ? String(e.message ?? e.statusCode ?? "") : String(e))).join(" ") : undefined;

/** The journal's entry of a write (`summary`: in the reader's language, where the journal has one; else the intent's). */
export function writeEntry(write: CompletedWrite, summary = write.intent?.summary ?? `${write.method} ${write.path}`): WriteEntry {
  const intent = write.intent;
  return {
    kind: intent ? WRITE_DONE[intent.kind] : "written", ...(intent?.object ? { object: intent.object } : {}), summary, records: writtenRecords(write),
    ...(write.by ? { by: write.by } : {}), ...(write.group ? { group: write.group.id } : {}),
  };
}

/** The records a write names, with the fields it wrote, their values before and each one's result, from its intent, body and answer. */
export function writtenRecords(write: CompletedWrite): WrittenRecord[] {
  const body = isJson(write.body) ? write.body : undefined;
  const before = new Map(Object.entries(write.before ?? {}).map(([id, values]) => [key15(id), values]));
  const withBefore = (record: WrittenRecord): WrittenRecord => {
    const values = record.id ? before.get(key15(record.id)) : undefined;
    return values ? { ...record, before: values } : record;
  };
  // What the write was is its intent's to say (intent.ts), never read again from its REST path.
  if (write.intent?.via === "collection") {
    const results = Array.isArray(write.data) ? (write.data as Values[]) : [];
    const sent = Array.isArray(body?.records) ? (body!.records as Values[]) : [];
    const rows = sent.length ? sent : results;
    return rows.map((row, i) => {
      const result = results[i];
      const id = (isJson(row) && typeof (row.Id ?? row.id) === "string" ? String(row.Id ?? row.id) : undefined) ?? (typeof result?.id === "string" ? result.id : undefined);
      return withBefore({ ...(id ? { id } : {}), ...(sent.length ? { after: fieldsOf(row) } : {}), ok: result?.success !== false, ...(errorText(result?.errors) ? { error: errorText(result?.errors) } : {}) });
    });
  }
  const recordWrite = write.intent?.via === "record";
  return (write.intent?.ids ?? []).map((id, i) => withBefore({ id, ...(recordWrite && i === 0 && body ? { after: fieldsOf(body) } : {}), ok: true }));
}

/** Records a run's journal entry names at most: its own record holds every one. */
export const MAX_NAMED_RECORDS = 1_000;

/** What a run's entry reads of the run's record (a migration's `MigrationRun`). */
export interface RunOfWrites {
  id: string;
  objects: { updated: { id: string; before: Values; after: Values }[] }[];
}

/**
 * A run of many writes kept whole (a migration, or its revert) as the journals keep it: one entry, the run's
 * group, naming the records it updated (with their values before and after) and inserted (`inserted`: the run's
 * first IDs) — the first thousand; a revert's entry names none (the run's record says what it took back).
 */
export function runEntry(run: RunOfWrites, summary: string, options: { revert?: boolean; inserted?: readonly string[] } = {}): WriteEntry {
  const records: WrittenRecord[] = options.revert ? [] : [
    ...run.objects.flatMap((o) => o.updated.map((u) => ({ id: u.id, before: u.before, after: u.after, ok: true }))),
    ...(options.inserted ?? []).map((id) => ({ id, ok: true })),
  ];
  return { kind: "written", summary, records: records.slice(0, MAX_NAMED_RECORDS), group: run.id };
}
