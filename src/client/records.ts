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
 */
import { isRecordId, requireSobjectName } from "./ids";
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
