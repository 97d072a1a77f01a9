/**
 * The records kit: how every surface that writes over records someone may have changed meanwhile finds out.
 * Two rules, each said once:
 * - **Changed since it was read** (the grid's commit, an agent's change set): the record's SystemModstamp is no
 *   longer the one read (`changedSinceRead`); a record the org no longer answers was deleted.
 * - **Changed since it was written** (Write History's revert, a migration's revert and its reconciling of a
 *   chunk whose answer was lost): each field written is compared by value (`sameValue`) with what was written
 *   and with what it held before (`sinceWritten`).
 * Both read the records' current values with `currentRecords`, which checks every name and ID it puts in SOQL
 * (they come from files we wrote earlier, the org's own answers, an agent's arguments: never trusted).
 * And one commit engine over the first rule (`commitRecords`): check, write in chunks, say per record what
 * happened — the grid's Commit (and so Write History's revert, staged in a grid) and an agent's change set.
 */
import type { SaveResult } from "./collections";
import { COLLECTION_LIMIT } from "./constants";
import { isRecordId, requireSobjectName } from "./ids";
import { withWriteContext } from "./writeRecord";
import { soqlLiteral } from "./soql-text";
import { sameValue } from "./sameValue";

type Row = Record<string, unknown>;

/** The field that changes whenever a record does, by anyone (users, automation, the API). */
export const STAMP_FIELD = "SystemModstamp";

/**
 * IDs per read: an IN list of 400 IDs is about 9,000 characters, far below SOQL's 100,000, and a grid's commit
 * reads a chunk of 200 to check with the 200 it just saved in one statement.
 */
const IDS_PER_READ = 400;

const key15 = (id: string) => id.slice(0, 15);

/** What reading records needs of a client (a `Crm` is one). */
export interface RecordReader {
  queryAll(query: string, options?: { signal?: AbortSignal }): Promise<{ records: Row[] }>;
}

/**
 * The records' current values of `fields` (with Id and SystemModstamp), by 15-character ID; a record missing
 * from the answer was deleted (or this user no longer sees it). One statement per 400 IDs.
 * @throws RangeError naming the object, a field or an ID that is not one (before anything is sent).
 */
export async function currentRecords(crm: RecordReader, object: string, ids: readonly string[], fields: readonly string[] = [], options: { signal?: AbortSignal } = {}): Promise<Map<string, Row>> {
  requireSobjectName(object, "object");
  for (const field of fields) requireSobjectName(field, `a field of ${object}`);
  const bad = ids.find((id) => !isRecordId(id));
  if (bad !== undefined) throw new RangeError(`${object}: ${JSON.stringify(bad)} is not a record ID, so its current values were not read`);
  const columns = [...new Map(["Id", STAMP_FIELD, ...fields].map((f) => [f.toLowerCase(), f])).values()];
  const found = new Map<string, Row>();
  for (let start = 0; start < ids.length; start += IDS_PER_READ) {
    const list = ids.slice(start, start + IDS_PER_READ).map(soqlLiteral).join(", ");
    const { records } = await crm.queryAll(`SELECT ${columns.join(", ")} FROM ${object} WHERE Id IN (${list})`, { signal: options.signal });
    for (const r of records) found.set(key15(String(r.Id)), r);
  }
  return found;
}

/** A field's value in a record as the org answers it (its field names in their own case). */
export function fieldValue(record: Row, field: string): unknown {
  if (field in record) return record[field];
  const key = Object.keys(record).find((k) => k.toLowerCase() === field.toLowerCase());
  return key === undefined ? undefined : record[key];
}

/**
 * The stamp rule: a record read at `stamp` has since been deleted, or changed (by anyone), or not. What was
 * read is compared exactly: the org answers a stamp in the same form each time.
 */
export function changedSinceRead(now: Row | undefined, stamp: unknown): "deleted" | "changed" | undefined {
  if (!now) return "deleted";
  return String(fieldValue(now, STAMP_FIELD)) === String(stamp) ? undefined : "changed";
}

/**
 * What a record holds now of a write of its fields (`after`, over values `before`):
 * - `asWritten`: every field still holds what was written — taking the write back restores `before`;
 * - `asBefore`: some field no longer holds what was written, and every field holds its value before — the write
 *   never landed, or was taken back already;
 * - `changed`: someone changed `fields` since — taking the write back would overwrite their work;
 * - `deleted`: the record is gone.
 */
export type SinceWritten = { state: "asWritten" } | { state: "asBefore" | "changed"; fields: string[] } | { state: "deleted" };

export function sinceWritten(now: Row | undefined, write: { before: Row; after: Row }): SinceWritten {
  if (!now) return { state: "deleted" };
  const written = Object.keys(write.after);
  const moved = written.filter((f) => !sameValue(fieldValue(now, f), write.after[f]));
  if (!moved.length) return { state: "asWritten" };
  return { state: written.every((f) => sameValue(fieldValue(now, f), write.before[f])) ? "asBefore" : "changed", fields: moved };
}

/** What committing needs of a client (a `Crm` is one). */
export interface RecordWriter extends RecordReader {
  collections: {
    update(records: { type: string; id: string; fields: Row }[], options?: { allOrNone?: boolean }): Promise<SaveResult[]>;
    create(sobject: string, records: Row[], options?: { allOrNone?: boolean }): Promise<SaveResult[]>;
    remove(ids: string[], options?: { allOrNone?: boolean }): Promise<SaveResult[]>;
  };
}

/**
 * A write of one record. An update or delete names the stamp its record was read at (it is written only if the
 * org still holds the record at that stamp) and may say the values it replaces (they travel on the write's record).
 */
export type RecordWrite =
  | { operation: "create"; object: string; fields: Row }
  | { operation: "update"; object: string; id: string; stamp: unknown; fields: Row; before?: Row }
  | { operation: "delete"; object: string; id: string; stamp: unknown };

/** What became of a write: written (an update's stamp after it is added once read), left out as a conflict, or refused by the org. */
export type RecordOutcome =
  | { state: "written"; result: SaveResult; stamp?: string }
  | { state: "conflict"; why: "changed" | "deleted"; stamp?: string }
  | { state: "refused"; result: SaveResult };

export interface CommitOptions {
  allOrNone?: boolean;
  signal?: AbortSignal;
  /** Hears each write's outcome as its chunk is done (`index` in the writes given). */
  onOutcome?(index: number, outcome: RecordOutcome): void;
  /** Hears the stamp an updated record has after the write, once read (with the next chunk's check, or last). */
  onStamp?(index: number, stamp: string): void;
  onProgress?(done: number, total: number): void;
}

/**
 * Commits writes: updates and deletes object by object, 200 records a request (sObject Collections), each chunk
 * checked first — a record changed or deleted since it was read is a conflict, not written — by one read that
 * also takes the new stamps of the chunk written just before (so a later commit of those is no false conflict;
 * a last read takes the last chunk's); then creates, 200 a request. Resolves with every write's outcome and the
 * requests sent.
 */
export async function commitRecords(crm: RecordWriter, writes: readonly RecordWrite[], options: CommitOptions = {}): Promise<{ outcomes: RecordOutcome[]; writes: number; reads: number }> {
  const outcomes: RecordOutcome[] = [];
  const stats = { writes: 0, reads: 0 };
  let done = 0;
  const settle = (index: number, outcome: RecordOutcome) => {
    outcomes[index] = outcome;
    options.onOutcome?.(index, outcome);
  };
  /** Takes the org's answer for the writes of a request; says which were written. */
  const answered = (indexes: number[], results: SaveResult[]): number[] => indexes.filter((i, n) => {
    const result = results[n] ?? { success: false, errors: [] };
    settle(i, result.success ? { state: "written", result } : { state: "refused", result });
    return result.success;
  });
  const byObject = new Map<string, number[]>();
  writes.forEach((w, i) => {
    if (w.operation === "create") return;
    byObject.set(w.object, [...(byObject.get(w.object) ?? []), i]);
  });
  const idOf = (i: number) => (writes[i] as { id: string }).id;
  for (const [object, indexes] of byObject) {
    let justWritten: number[] = [];
    for (let start = 0; ; start += COLLECTION_LIMIT) {
      options.signal?.throwIfAborted();
      const chunk = indexes.slice(start, start + COLLECTION_LIMIT);
      if (!chunk.length && !justWritten.length) break;
      const current = await currentRecords(crm, object, [...chunk, ...justWritten].map(idOf), [], { signal: options.signal });
      stats.reads++;
      const nowOf = (i: number) => current.get(key15(idOf(i)));
      const stampOf = (i: number) => {
        const now = nowOf(i);
        return now ? String(fieldValue(now, STAMP_FIELD)) : undefined;
      };
      for (const i of justWritten) {
        const stamp = stampOf(i);
        if (!stamp) continue;
        (outcomes[i] as Extract<RecordOutcome, { state: "written" }>).stamp = stamp;
        options.onStamp?.(i, stamp);
      }
      justWritten = [];
      if (!chunk.length) break;
      const fresh: number[] = [];
      for (const i of chunk) {
        const why = changedSinceRead(nowOf(i), (writes[i] as { stamp: unknown }).stamp);
        if (why) settle(i, { state: "conflict", why, ...(stampOf(i) ? { stamp: stampOf(i) } : {}) });
        else fresh.push(i);
      }
      const updates = fresh.filter((i) => writes[i]!.operation === "update");
      const deletes = fresh.filter((i) => writes[i]!.operation === "delete");
      if (updates.length) {
        const sent = updates.map((i) => writes[i] as Extract<RecordWrite, { operation: "update" }>);
        const before = new Map(sent.filter((w) => w.before).map((w) => [w.id, w.before!]));
        const results = await withWriteContext(before.size ? { before } : {}, () => crm.collections.update(sent.map((w) => ({ type: object, id: w.id, fields: w.fields })), { allOrNone: options.allOrNone }));
        stats.writes++;
        justWritten = answered(updates, results);
      }
      if (deletes.length) {
        const results = await crm.collections.remove(deletes.map(idOf), { allOrNone: options.allOrNone });
        stats.writes++;
        answered(deletes, results);
      }
      done += chunk.length;
      options.onProgress?.(done, writes.length);
    }
  }
  const creates = new Map<string, number[]>();
  writes.forEach((w, i) => {
    if (w.operation === "create") creates.set(w.object, [...(creates.get(w.object) ?? []), i]);
  });
  for (const [object, indexes] of creates) {
    for (let start = 0; start < indexes.length; start += COLLECTION_LIMIT) {
      options.signal?.throwIfAborted();
      const chunk = indexes.slice(start, start + COLLECTION_LIMIT);
      const results = await crm.collections.create(object, chunk.map((i) => (writes[i] as Extract<RecordWrite, { operation: "create" }>).fields), { allOrNone: options.allOrNone });
      stats.writes++;
      answered(chunk, results);
      done += chunk.length;
      options.onProgress?.(done, writes.length);
    }
  }
  return { outcomes, ...stats };
}
