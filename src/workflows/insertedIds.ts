/**
 * The IDs a migration run inserted, kept in a file beside its record — one `<object>,<id>` line each, appended as
 * each chunk is answered — rather than in the record: a run of millions of rows holds none of them in memory, and
 * its record stays small enough to save after every chunk. The record vouches for the file's first `bytes` by
 * their SHA-256 (so a signed record signs them too). Lines past those are a chunk whose answer the record never
 * saved (a run killed in between): they are dropped when the file is opened again, and `reconcile` finds those
 * records in the org. A file shorter than the record says, or changed, is refused before anything is sent.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, constants, createReadStream, mkdirSync, openSync, truncateSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

/** Where a run's inserted IDs are and what of the file its record vouches for. */
export interface InsertedIdsFile {
  file: string;
  bytes: number;
  /** SHA-256 (hex) of the file's first `bytes`. */
  sha256: string;
}

/** A file of inserted IDs that is not the one the run's record describes. */
export class InsertedIdsError extends Error {
  override name = "InsertedIdsError";
}

const EMPTY_SHA256 = createHash("sha256").digest("hex");
const LINE = /^(\w+),([a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?)$/;
/** IDs handed to the reader at a time: a query's `IN (…)` takes this many. */
const BATCH = 200;
/** Lines a writer gathers before it appends them (one small write, not one per ID). */
const LINES_PER_WRITE = 2_000;

/** A new run's (empty) file: where the caller asked, else in the system's temporary folder under the run's ID. */
export function newInsertedIds(runId: string, file?: string): InsertedIdsFile {
  return { file: path.resolve(file ?? path.join(tmpdir(), "crm-explorer-runs", `${runId}.ids`)), bytes: 0, sha256: EMPTY_SHA256 };
}

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === "ENOENT";
}

/**
 * Reads the file's first `kept.bytes`, line by line, and checks them against the record (then that each line is an
 * object and an ID): resolves with their digest so far, for a writer to go on from. `onLine` hears lines before
 * the end is checked, so whoever acts on the IDs checks the whole file first.
 */
async function readLines(kept: InsertedIdsFile, onLine?: (object: string, id: string) => void): Promise<Hash> {
  const hash = createHash("sha256");
  if (!kept.bytes) return hash;
  let read = 0;
  let notAnId: string | undefined;
  const stream = createReadStream(kept.file, { start: 0, end: kept.bytes - 1 });
  stream.on("data", (chunk) => {
    hash.update(chunk);
    read += chunk.length;
  });
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      const match = LINE.exec(line);
      if (match) onLine?.(match[1]!, match[2]!);
      else notAnId ??= line;
    }
  } catch (err) {
    if (missing(err)) throw new InsertedIdsError(`${kept.file}, the file of the IDs the run inserted, is missing (keep it beside the run's record): refused, nothing was sent`);
    throw err;
  }
  if (read !== kept.bytes || hash.copy().digest("hex") !== kept.sha256) throw new InsertedIdsError(`${kept.file} is not the file of inserted IDs the run's record describes (changed, or cut short, since the run wrote it): refused, nothing was sent`);
  if (notAnId !== undefined) throw new InsertedIdsError(`${kept.file} is not a run's file of inserted IDs (a line reads '${notAnId.slice(0, 40)}'): refused, nothing was sent`);
  return hash;
}

/** Checks the file against the record, telling each line to `onLine` as it goes (see readLines); refuses with InsertedIdsError. */
export async function verifyInsertedIds(kept: InsertedIdsFile, onLine?: (object: string, id: string) => void): Promise<void> {
  await readLines(kept, onLine);
}

/**
 * The IDs the run inserted into one object (or into any), a batch at a time, in the order inserted. Verify the file first
 * (verifyInsertedIds): this reads it again, and only the lines the record vouches for.
 */
export async function* insertedIdsOf(kept: InsertedIdsFile, object?: string): AsyncGenerator<string[]> {
  if (!kept.bytes) return;
  let batch: string[] = [];
  const wanted = object?.toLowerCase();
  for await (const line of createInterface({ input: createReadStream(kept.file, { start: 0, end: kept.bytes - 1 }), crlfDelay: Infinity })) {
    const match = LINE.exec(line);
    if (!match || (wanted !== undefined && match[1]!.toLowerCase() !== wanted)) continue;
    batch.push(match[2]!);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** The first `count` IDs the run inserted (into any object): what a journal entry names. */
export async function firstInsertedIds(kept: InsertedIdsFile, count: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of insertedIdsOf(kept)) {
    ids.push(...batch.slice(0, count - ids.length));
    if (ids.length >= count) break;
  }
  return ids;
}

/**
 * The file a running run appends to: opened where the record left it (checked, and cut back to the bytes the
 * record vouches for), its digest kept up to date as lines are added.
 */
export class InsertedIdsWriter {
  private constructor(
    readonly file: string,
    private readonly hash: Hash,
    private bytes: number,
  ) {}

  private lines: string[] = [];

  static async open(kept: InsertedIdsFile): Promise<InsertedIdsWriter> {
    const writer = new InsertedIdsWriter(kept.file, await readLines(kept), kept.bytes);
    try {
      truncateSync(kept.file, kept.bytes);
    } catch (err) {
      if (!missing(err)) throw err;
    }
    return writer;
  }

  /**
   * Notes an ID the run inserted: written with the next few thousand, and before the record is next saved
   * (`state`). The ID is the org's answer: one that is not a record ID is refused, not written into the file.
   */
  add(object: string, id: string): void {
    const line = `${object},${id}`;
    if (!LINE.test(line)) throw new InsertedIdsError(`the org answered an insert into ${object} with '${id.slice(0, 40)}', which is not a record ID`);
    this.lines.push(`${line}\n`);
    if (this.lines.length >= LINES_PER_WRITE) this.flush();
  }

  /**
   * Writes the lines noted at the end of what the file holds for sure: a write that failed part way (a full disk)
   * is written over by the next, so the file never holds bytes its digest does not.
   */
  private flush(): void {
    if (!this.lines.length) return;
    const text = Buffer.from(this.lines.join(""));
    mkdirSync(path.dirname(this.file), { recursive: true });
    const fd = openSync(this.file, constants.O_WRONLY | constants.O_CREAT, 0o600);
    try {
      for (let done = 0; done < text.length;) done += writeSync(fd, text, done, text.length - done, this.bytes + done);
    } finally {
      closeSync(fd);
    }
    this.lines = [];
    this.hash.update(text);
    this.bytes += text.length;
  }

  /** What the record says of the file: every ID noted so far is in it. */
  get state(): InsertedIdsFile {
    this.flush();
    return { file: this.file, bytes: this.bytes, sha256: this.hash.copy().digest("hex") };
  }
}
