/**
 * Bulk API 2.0: large exports and imports done by the org's own asynchronous engine. Each function takes the
 * client first (`bulk.query(crm, soql)`); the same functions are bound on `crm.bulk`.
 *
 * Query jobs are polled with a growing interval until JobComplete, then read set by set through
 * `Sforce-Locator` (`pageSize` rows a set): rows are yielded as they are parsed and never all held. Ingest
 * jobs take one CSV upload each (at most `maxUploadBytes`, 100 MB by default, as the docs advise for the
 * 150 MB base64 limit); larger inputs are split over several jobs. An AbortSignal aborts the job at the org.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { create as createRecords, remove as removeRecords, update as updateRecords, writtenBefore, type SaveResult } from "./collections";
import { DEFAULT_TIMEOUT_MS } from "./constants";
import type { Crm } from "./crm";
import { bulkValue, csvLine, csvRecordBatches, csvRows, uploadLine } from "./csv";
import { delay } from "./delay";
import { BulkJobError, CancelledError, IngestCountError, InvalidResponseError, MissingRequiredDataError } from "./errors";
import { isRecordId, recordIdSource, requireRecordId, requireSobjectName } from "./ids";
import type { CrmStreamResponse } from "./transport";
import { pageLinks } from "./urls";
import { plugIn, type Bound } from "./plugins";
import { bulkIntent } from "./intent";
import { workFolder } from "./workFolders";
import type { IngestResult, IngestResultKind } from "./ingestResult";

export type { IngestResult, IngestResultKind };

export type BulkJobState = "Open" | "UploadComplete" | "InProgress" | "JobComplete" | "Failed" | "Aborted";
export type BulkJobKind = "query" | "ingest";
export type IngestOperation = "insert" | "update" | "upsert" | "delete" | "hardDelete";

/** A job as the org describes it (Job Info). */
export interface BulkJobInfo {
  id: string;
  operation: string;
  object: string;
  state: BulkJobState;
  createdDate: string;
  systemModstamp: string;
  apiVersion: number;
  numberRecordsProcessed?: number;
  numberRecordsFailed?: number;
  errorMessage?: string;
  [field: string]: unknown;
}

/** A Bulk row: column name → text (an empty value is null: Bulk CSV does not tell empty from null). */
export type BulkRow = Record<string, string | null>;

export interface PollOptions {
  /** First wait between two looks at the job, growing by half each time up to `maxIntervalMs`. Default 1,000 ms. */
  intervalMs?: number;
  /** Default 10,000 ms. */
  maxIntervalMs?: number;
}

export interface BulkProgress {
  jobId: string;
  state: BulkJobState;
  /** Query: rows read so far. Ingest: rows uploaded so far. */
  rows: number;
  /** Ingest: rows the org processed and failed (for the job that runs now). */
  processed?: number;
  failed?: number;
  /** Set when a small load goes through sObject Collections rather than a Bulk job (`jobId` is then empty). */
  via?: "collections";
}

export interface BulkQueryOptions {
  /** Include deleted and archived records (`queryAll`). */
  queryAll?: boolean;
  /** Rows per result set (`maxRecords`). Default 5,000. */
  pageSize?: number;
  signal?: AbortSignal;
  onProgress?(progress: BulkProgress): void;
  poll?: PollOptions;
}

/**
 * Rows per result set: smaller sets keep memory low and steady (bench:bulk: a 1,000,000-row export grew by
 * 46 MB in every run at 5,000, by 51–92 MB at 10,000) at the cost of more requests.
 */
const DEFAULT_PAGE_SIZE = 5_000;
/** The docs: at most 150 MB of base64 per upload, so at most 100 MB of CSV. */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

const jobsPath = (crm: Crm, kind: BulkJobKind, suffix = "") => crm.apiPath(`/jobs/${kind}${suffix}`);

function jobIdOf(value: string): string {
  return requireRecordId(value, "jobId");
}

/** The job's facts now. */
export async function getJob(crm: Crm, jobId: string, kind: BulkJobKind = "query"): Promise<BulkJobInfo> {
  return crm.getJson(await jobsPath(crm, kind, `/${jobIdOf(jobId)}`));
}

/** Every job of a kind the org keeps (it keeps them seven days), page by page. */
export async function jobs(crm: Crm, kind: BulkJobKind = "query", options: { signal?: AbortSignal } = {}): Promise<BulkJobInfo[]> {
  const all: BulkJobInfo[] = [];
  const next = pageLinks(kind === "query" ? /^\/jobs\/query\/?$/ : /^\/jobs\/ingest\/?$/);
  let endpoint: string | null = await jobsPath(crm, kind);
  while (endpoint) {
    options.signal?.throwIfAborted();
    const page: { records: BulkJobInfo[]; nextRecordsUrl?: string | null } = await crm.getJson(endpoint, { signal: options.signal });
    if (!Array.isArray(page?.records)) throw new InvalidResponseError(`GET ${endpoint} answered no records list`, 200, "GET", endpoint);
    for (const job of page.records) all.push(job);
    endpoint = page.nextRecordsUrl ? next(page.nextRecordsUrl) : null;
  }
  return all;
}

/** Aborts a job that has not ended; resolves to its facts. */
export async function abortJob(crm: Crm, jobId: string, kind: BulkJobKind = "query"): Promise<BulkJobInfo> {
  const response = await crm.request<BulkJobInfo>("PATCH", await jobsPath(crm, kind, `/${jobIdOf(jobId)}`), { state: "Aborted" }, { write: kind === "query" ? "none" : "confirmed" });
  return response.data!;
}

/** Deletes an ended job (and its results) at the org. */
export async function deleteJob(crm: Crm, jobId: string, kind: BulkJobKind = "query"): Promise<void> {
  await crm.request("DELETE", await jobsPath(crm, kind, `/${jobIdOf(jobId)}`), undefined, { write: kind === "query" ? "none" : "confirmed" });
}

/**
 * Polls a job until it ends. JobComplete resolves; Failed and Aborted raise BulkJobError with the org's
 * message; an abort of `signal` aborts the job at the org (unless `leaveRunning`: only the waiting stops) and
 * raises CancelledError.
 */
export async function waitForJob(crm: Crm, jobId: string, kind: BulkJobKind, options: { signal?: AbortSignal; poll?: PollOptions; onState?(job: BulkJobInfo): void; leaveRunning?: boolean } = {}): Promise<BulkJobInfo> {
  let interval = options.poll?.intervalMs ?? 1_000;
  const max = options.poll?.maxIntervalMs ?? 10_000;
  for (;;) {
    const job = await getJob(crm, jobId, kind);
    options.onState?.(job);
    if (job.state === "JobComplete") return job;
    if (job.state === "Failed" || job.state === "Aborted") throw new BulkJobError(job.id, job.state, job.errorMessage);
    try {
      await delay(interval, options.signal, `Bulk job ${jobId} was cancelled`);
    } catch (err) {
      if (!options.leaveRunning) await abortJob(crm, jobId, kind).catch(() => undefined); // it may have ended meanwhile
      throw err;
    }
    interval = Math.min(max, Math.round(interval * 1.5));
  }
}

/** A job's final states: the org does nothing more with it. */
const ended = (state: BulkJobState) => state === "JobComplete" || state === "Failed" || state === "Aborted";

/**
 * Brings an ingest job to an end: one still open or running is aborted at the org (the rows it processed stay
 * written, as the org keeps them) and its final state returned. One that already ended is only read.
 */
export async function stopJob(crm: Crm, jobId: string): Promise<BulkJobInfo> {
  const job = await getJob(crm, jobId, "ingest");
  if (ended(job.state)) return job;
  // It may end between the read and the abort: the org then refuses the abort, and the job is read again.
  return (await abortJob(crm, jobId, "ingest").catch(() => undefined)) ?? getJob(crm, jobId, "ingest");
}

function requirePageSize(value: number | undefined): number {
  const size = value ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`pageSize must be a whole number of rows of 1 or more, got ${String(value)}`);
  return size;
}

/** Creates a query job (it changes no data: no write guard, no change event). */
export async function createQueryJob(crm: Crm, soql: string, options: { queryAll?: boolean } = {}): Promise<BulkJobInfo> {
  if (typeof soql !== "string" || !soql.trim()) throw new MissingRequiredDataError("soql must be a SOQL statement", "soql");
  const response = await crm.request<BulkJobInfo>("POST", await jobsPath(crm, "query"), { operation: options.queryAll ? "queryAll" : "query", query: soql, contentType: "CSV" }, { write: "none" });
  return response.data!;
}

/**
 * The result sets of a completed query job, each read as it arrives (its header line first). The next set is
 * asked for as soon as a set's answer starts, so the org works while the caller reads; a set is never held whole.
 */
async function* resultSets(crm: Crm, jobId: string, options: BulkQueryOptions, onSet: (rows: number) => void): AsyncGenerator<Readable> {
  const pageSize = requirePageSize(options.pageSize);
  const endpoint = await jobsPath(crm, "query", `/${jobIdOf(jobId)}/results`);
  const fetchSet = (locator: string | undefined) => {
    const set = crm.requestStream("GET", endpoint, { params: { maxRecords: pageSize, locator }, headers: { Accept: "text/csv" }, signal: options.signal });
    set.catch(() => undefined); // a set asked for ahead and never read (the caller stopped) must not go unhandled
    return set;
  };
  let pending: Promise<CrmStreamResponse> | undefined = fetchSet(undefined);
  try {
    while (pending) {
      if (options.signal?.aborted) throw new CancelledError(`Reading the results of bulk job ${jobId} was cancelled`);
      const response: CrmStreamResponse = await pending;
      const next = response.headers["sforce-locator"];
      pending = next && next !== "null" ? fetchSet(next) : undefined;
      onSet(Number(response.headers["sforce-numberofrecords"] ?? 0));
      try {
        yield response.stream;
      } finally {
        response.stream.destroy();
      }
    }
  } finally {
    // The caller stopped before the last set: the one asked for ahead is let go unread.
    void pending?.then((r) => r.stream.destroy(), () => undefined);
  }
}

/** A query job the org runs from now on; its rows are read when asked for. */
export interface StartedQuery {
  /** Settles once the org has run the job: true when its rows are ready, false when it failed (reading says why). */
  readonly exported: Promise<boolean>;
  rows(): AsyncGenerator<BulkRow>;
  /** The same rows a batch at a time (those each piece of a result set completes): a step per piece, not per row. */
  batches(): AsyncGenerator<BulkRow[]>;
}

/**
 * Starts a query job now and reads it later: the org runs the job while the caller finishes other work (a
 * migration has the next object's rows exported while the last chunk of the one before loads). Nothing is read
 * until `rows()`; a job whose rows are never read is left to the org, which deletes it after a week.
 */
export function startQuery(crm: Crm, soql: string, options: BulkQueryOptions = {}): StartedQuery {
  requirePageSize(options.pageSize);
  const done = jobDone(crm, soql, options);
  return {
    exported: done.then(() => true, () => false), // a failure is said when the rows are read
    rows: () => rowsOf(resultSetsOf(crm, done, options)),
    batches: () => rowBatchesOf(resultSetsOf(crm, done, options)),
  };
}

/** Creates a query job and waits for the org to finish it. */
async function jobDone(crm: Crm, soql: string, options: BulkQueryOptions): Promise<BulkJobInfo> {
  const job = await createQueryJob(crm, soql, options);
  return waitForJob(crm, job.id, "query", { signal: options.signal, poll: options.poll, onState: (j) => options.onProgress?.({ jobId: j.id, state: j.state, rows: 0 }) });
}

/** The result sets of a query job once it is done, reporting progress. */
async function* resultSetsOf(crm: Crm, job: Promise<BulkJobInfo>, options: BulkQueryOptions): AsyncGenerator<Readable> {
  const done = await job;
  let rows = 0;
  yield* resultSets(crm, done.id, options, (n) => {
    rows += n;
    options.onProgress?.({ jobId: done.id, state: done.state, rows });
  });
}

/** Runs a query job (once asked for its first set) and hands its result sets on as they arrive. */
async function* runQuery(crm: Crm, soql: string, options: BulkQueryOptions): AsyncGenerator<Readable> {
  requirePageSize(options.pageSize);
  yield* resultSetsOf(crm, jobDone(crm, soql, options), options);
}

/** The rows of result sets (column → text, empty as null), each set's header line first. */
async function* rowsOf(sets: AsyncIterable<Readable>): AsyncGenerator<BulkRow> {
  for await (const batch of rowBatchesOf(sets)) yield* batch;
}

/** The rows of result sets a batch at a time: those each piece of a set completes. */
async function* rowBatchesOf(sets: AsyncIterable<Readable>): AsyncGenerator<BulkRow[]> {
  for await (const set of sets) {
    let header: string[] | undefined;
    for await (const records of csvRecordBatches(set)) {
      const rows: BulkRow[] = [];
      for (const record of records) {
        for (const line of csvRows(record)) {
          if (header) rows.push(rowOf(header, line));
          else header = line;
        }
      }
      if (rows.length) yield rows;
    }
  }
}

/**
 * A SOQL query through a Bulk query job, as rows (column → text, empty as null), read as the result sets arrive.
 * Bulk API 2.0 takes no GROUP BY, OFFSET, TYPEOF, aggregates or nested (parent-to-child) queries.
 */
export async function* query(crm: Crm, soql: string, options: BulkQueryOptions = {}): AsyncGenerator<BulkRow> {
  yield* rowsOf(runQuery(crm, soql, options));
}

/** The same query as raw CSV: the header once, then each result set's records (one line each, LF). */
export async function* queryCsv(crm: Crm, soql: string, options: BulkQueryOptions = {}): AsyncGenerator<string> {
  let first = true;
  for await (const set of runQuery(crm, soql, options)) {
    // Every set starts with the header line; only the first keeps it.
    let header = !first;
    for await (const records of csvRecordBatches(set)) {
      const lines = header ? records.slice(1) : records;
      header = false;
      if (lines.length) yield `${lines.join("\n")}\n`;
    }
    first = false;
  }
}

// ---- ingest ----------------------------------------------------------------------------------

export interface IngestJobSpec {
  object: string;
  operation: IngestOperation;
  /** Upsert: the external ID field that matches rows to records. */
  externalIdFieldName?: string;
}

/**
 * Rows to load: objects (`null` empties a field, a missing or empty value leaves it), CSV text with a header
 * line, or a stream of CSV text (a file) read piece by piece. Blank lines of CSV text are skipped.
 */
export type IngestInput = readonly Record<string, unknown>[] | string | AsyncIterable<string | Buffer>;

export interface IngestOptions {
  signal?: AbortSignal;
  onProgress?(progress: BulkProgress): void;
  poll?: PollOptions;
  /** Largest CSV upload per job; more data goes to further jobs. Default 100 MB (the documented limit). */
  maxUploadBytes?: number;
  /**
   * Each result row as it is read: `successful` (`sf__Id`, `sf__Created` and the row as sent), `failed`
   * (`sf__Id`, `sf__Error`, the row) or `unprocessed` (the row). Rows are never all held; a promise it returns
   * is awaited before the next row is read.
   */
  onResult?(kind: IngestResultKind, row: BulkRow): void | Promise<void>;
  /**
   * Each Bulk job as soon as the org has created it, before any row is uploaded; a promise it returns is awaited.
   * A caller that keeps a write-ahead record saves the ID here: a job goes on at the org when its caller dies, and
   * whoever picks up the pieces must stop it (or wait for it) before reading what it wrote.
   */
  onJob?(jobId: string): void | Promise<void>;
  /**
   * Writes the results as CSV while they are read: `<resultFiles>.success.csv` and `<resultFiles>.failed.csv`
   * always, `<resultFiles>.unprocessed.csv` when the org left rows unprocessed.
   */
  resultFiles?: string;
  /**
   * Below this many rows an insert, update or delete goes through sObject Collections (200 records a request)
   * instead of a Bulk job, as Salesforce advises for small loads: same results, same counts check. Default
   * 2,000; 0 always uses Bulk (upsert and hardDelete always do).
   */
  collectionsBelow?: number;
}

const OPERATIONS: IngestOperation[] = ["insert", "update", "upsert", "delete", "hardDelete"];
/** Salesforce advises Bulk API for loads of more than about 2,000 records; below, Collections are quicker. */
const DEFAULT_COLLECTIONS_BELOW = 2_000;
/** The operations a small load makes through sObject Collections. */
const COLLECTIONS_OPERATIONS: readonly IngestOperation[] = ["insert", "update", "delete"];
const BULK_JOB_ID = new RegExp(`^${recordIdSource("750")}$`);

/** An ID of a Bulk job as the org answered it: checked before it becomes part of a path. */
function jobIdFromOrg(value: unknown): string {
  if (typeof value !== "string" || !BULK_JOB_ID.test(value)) {
    throw new InvalidResponseError(`The org answered ${JSON.stringify(String(value)).slice(0, 80)} as a new Bulk job's ID, which is not a job ID (750…, 15 or 18 characters): nothing was uploaded`, 200, "POST", "/jobs/ingest");
  }
  return value;
}

/** CSV records (header first) of any input, each as one line of CSV text, a batch at a time. */
async function* csvRecords(input: IngestInput): AsyncGenerator<string[]> {
  if (typeof input === "string") {
    yield* csvRecordBatches([input]);
    return;
  }
  if (Array.isArray(input)) {
    const rows = input as readonly Record<string, unknown>[];
    const columns = new Set<string>();
    rows.forEach((row, i) => {
      if (!row || typeof row !== "object" || Array.isArray(row)) throw new TypeError(`input[${i}] must be an object of field values (column → value), got ${row === null ? "null" : Array.isArray(row) ? "an array" : typeof row}`);
      for (const column of Object.keys(row)) columns.add(column);
    });
    const header = [...columns];
    if (!header.length) return;
    yield [csvLine(header)];
    for (let i = 0; i < rows.length; i += 1000) yield rows.slice(i, i + 1000).map((row) => uploadLine(header.map((column) => bulkValue(row[column]))));
    return;
  }
  if (!input || typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] !== "function") {
    throw new TypeError(`input must be an array of row objects, CSV text, or a stream of CSV text (such as fs.createReadStream), got ${input === null ? "null" : typeof input}`);
  }
  yield* csvRecordBatches(input as AsyncIterable<string | Buffer>);
}

/** One upload: its CSV spooled to a file, so that memory stays flat whatever the job's size. */
interface Upload {
  file: string;
  bytes: number;
  rows: number;
  /** A file of the caller's (`ingestCsvFile`): uploaded as it is, left where it is. */
  callers?: boolean;
}

/**
 * Groups records into uploads of at most `maxBytes` each, every upload starting with the header, each written
 * to a file in `dir` as it is read (the upload then streams it with its exact length).
 */
async function* uploads(header: string, batches: AsyncIterable<string[]>, maxBytes: number, dir: string): AsyncGenerator<Upload> {
  const headerBytes = Buffer.byteLength(header) + 1;
  let current: { writer: FileWriter; upload: Upload } | undefined;
  let count = 0;
  for await (const batch of batches) for (const record of batch) {
    const size = Buffer.byteLength(record) + 1;
    if (headerBytes + size > maxBytes) throw new RangeError(`A CSV row is larger than one upload may be (${maxBytes} bytes)`);
    if (current && current.upload.bytes + size > maxBytes) {
      await current.writer.close();
      yield current.upload;
      current = undefined;
    }
    if (!current) {
      const file = path.join(dir, `upload-${++count}.csv`);
      current = { writer: new FileWriter(file), upload: { file, bytes: headerBytes, rows: 0 } };
      void current.writer.line(header);
    }
    const writing = current.writer.line(record);
    if (writing) await writing;
    current.upload.bytes += size;
    current.upload.rows++;
  }
  if (current) {
    await current.writer.close();
    yield current.upload;
  }
}

/**
 * Lines to a file through a buffer, waiting when the disk is behind. `line` returns a promise only when it
 * wrote to the disk (once per 64 KB): a million lines are not a million awaits.
 */
class FileWriter {
  private readonly stream: WriteStream;
  private buffered = "";
  constructor(readonly file: string) {
    this.stream = createWriteStream(file);
  }
  line(text: string): Promise<void> | undefined {
    this.buffered += `${text}\n`;
    return this.buffered.length >= 64 * 1024 ? this.flush() : undefined;
  }
  private async flush(): Promise<void> {
    const chunk = this.buffered;
    this.buffered = "";
    if (chunk && !this.stream.write(chunk)) await once(this.stream, "drain");
  }
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}

const RESULT_FILES: Record<IngestResultKind, string> = { successful: "success", failed: "failed", unprocessed: "unprocessed" };

/** Where result rows go as they are read: counted, written to the result files, handed to `onResult`. */
class ResultSink {
  readonly counts: Record<IngestResultKind, number> = { successful: 0, failed: 0, unprocessed: 0 };
  private readonly writers = new Map<IngestResultKind, FileWriter>();
  constructor(private readonly options: IngestOptions) {}

  /** The rows of one result resource, as batches of CSV records (the header first). */
  async take(kind: IngestResultKind, batches: AsyncIterable<string[]>): Promise<number> {
    let header: string[] | undefined;
    let headerLine = "";
    let taken = 0;
    for await (const batch of batches) for (const record of batch) {
      if (!header) {
        headerLine = record;
        header = fieldsOfRecord(record);
        continue;
      }
      const writing = this.row(kind, headerLine, record, header);
      if (writing) await writing;
      taken++;
    }
    return taken;
  }

  /** One row: `line` as CSV (for the file), `header` its columns (for `onResult`). A promise only when there is something to wait for. */
  row(kind: IngestResultKind, headerLine: string, line: string, header: string[], parsed?: BulkRow): Promise<void> | undefined {
    this.counts[kind]++;
    const written = this.options.resultFiles ? this.writer(kind, headerLine).line(line) : undefined;
    const handed = this.options.onResult?.(kind, parsed ?? rowOf(header, fieldsOfRecord(line)));
    return written || handed ? Promise.all([written, handed]).then(() => undefined) : undefined;
  }

  private writer(kind: IngestResultKind, headerLine: string): FileWriter {
    let writer = this.writers.get(kind);
    if (!writer) {
      writer = new FileWriter(`${this.options.resultFiles}.${RESULT_FILES[kind]}.csv`);
      this.writers.set(kind, writer);
      void writer.line(headerLine);
    }
    return writer;
  }

  /** Closes the files; the success and failed files exist even when empty (a header-less empty file). */
  async close(): Promise<IngestResult["files"]> {
    if (!this.options.resultFiles) return undefined;
    for (const kind of ["successful", "failed"] as const) if (!this.writers.has(kind)) this.writers.set(kind, new FileWriter(`${this.options.resultFiles}.${RESULT_FILES[kind]}.csv`));
    await Promise.all([...this.writers.values()].map((w) => w.close()));
    const file = (kind: IngestResultKind) => `${this.options.resultFiles}.${RESULT_FILES[kind]}.csv`;
    return { successful: file("successful"), failed: file("failed"), ...(this.writers.has("unprocessed") ? { unprocessed: file("unprocessed") } : {}) };
  }
}

/** The fields of one CSV record (one line of CSV text). */
const fieldsOfRecord = (record: string): string[] => csvRows(record).next().value ?? [];

const rowOf = (header: string[], values: string[]): BulkRow => {
  const row: BulkRow = {};
  header.forEach((column, i) => (row[column] = values[i] === undefined || values[i] === "" ? null : values[i]!));
  return row;
};

/** A job's result resource, read as a stream of CSV records, a batch at a time. */
async function* resultRecords(crm: Crm, jobId: string, resource: "successfulResults" | "failedResults" | "unprocessedrecords", signal?: AbortSignal): AsyncGenerator<string[]> {
  const response = await crm.requestStream("GET", await jobsPath(crm, "ingest", `/${jobId}/${resource}`), { headers: { Accept: "text/csv" }, signal });
  yield* csvRecordBatches(response.stream);
}

/**
 * Loads rows: insert, update (an `Id` column), upsert (by `externalIdFieldName`), delete or hardDelete (an
 * `Id` column). A small load (under `collectionsBelow` rows) of an insert, update or delete goes through sObject
 * Collections; anything else through Bulk ingest jobs, one per upload: created (the write the production guard
 * asks about, once), uploaded, closed, polled; then its results are read as a stream — counted, written to the
 * result files, handed to `onResult` — and never held whole. After every job the successful, failed and
 * unprocessed rows must add up to the rows uploaded: when they do not, IngestCountError names the job.
 * A load that stops part way (a job the org stopped, a refused or unanswered request) throws with `partial`:
 * what was written until then, whose rows were reported like any result.
 */
export async function ingest(crm: Crm, job: IngestJobSpec, input: IngestInput, options: IngestOptions = {}): Promise<IngestResult> {
  const { maxBytes, collectionsBelow } = checkedLoad(job, options);
  if (input === null || input === undefined || (typeof input !== "string" && !Array.isArray(input) && typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] !== "function")) {
    throw new TypeError(`input must be an array of row objects, CSV text, or a stream of CSV text (such as fs.createReadStream), got ${input === null ? "null" : typeof input}`);
  }

  const batches = csvRecords(input)[Symbol.asyncIterator]();
  const ahead: string[] = [];
  let ended = false;
  const readBatch = async () => {
    const next = await batches.next();
    if (next.done) ended = true;
    else for (const record of next.value) ahead.push(record);
  };
  while (!ended && !ahead.length) await readBatch();
  const header = ahead.shift();
  if (header === undefined) throw new MissingRequiredDataError("There are no rows to load: the input is empty or has only a header", "input");
  // A small load is read ahead to learn that it is small: about `collectionsBelow` records are held at most.
  while (!ended && ahead.length < collectionsBelow) await readBatch();
  if (ended && !ahead.length) throw new MissingRequiredDataError("There are no rows to load: the input is empty or has only a header", "input");
  const sink = new ResultSink(options);
  if (ended && ahead.length < collectionsBelow) return viaCollections(crm, job, header, ahead, sink, options);
  const rest = (async function* () {
    yield ahead;
    if (!ended) for (let next = await batches.next(); !next.done; next = await batches.next()) yield next.value;
  })();
  return viaBulk(crm, job, (dir) => uploads(header, rest, maxBytes, dir), sink, options);
}

/**
 * A load's job and options, checked before anything is read or sent: its upload limit, and below how many rows it
 * goes through sObject Collections (0 for an operation they do not make).
 */
function checkedLoad(job: IngestJobSpec, options: IngestOptions): { maxBytes: number; collectionsBelow: number } {
  if (!job || typeof job !== "object") throw new TypeError("job must be { object, operation }");
  requireSobjectName(job.object, "job.object");
  if (!OPERATIONS.includes(job.operation)) throw new RangeError(`job.operation must be one of ${OPERATIONS.join(", ")}, got ${JSON.stringify(job.operation)}`);
  if (job.operation === "upsert" && !job.externalIdFieldName) throw new MissingRequiredDataError("An upsert needs job.externalIdFieldName", "externalIdFieldName");
  if (job.externalIdFieldName !== undefined) requireSobjectName(job.externalIdFieldName, "job.externalIdFieldName");
  const maxBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_UPLOAD_BYTES) throw new RangeError(`maxUploadBytes must be a whole number from 1 to ${MAX_UPLOAD_BYTES}, got ${String(options.maxUploadBytes)}`);
  const threshold = options.collectionsBelow ?? DEFAULT_COLLECTIONS_BELOW;
  if (!Number.isInteger(threshold) || threshold < 0) throw new RangeError(`collectionsBelow must be a whole number of rows of 0 or more, got ${String(options.collectionsBelow)}`);
  if (options.onResult !== undefined && typeof options.onResult !== "function") throw new TypeError("onResult must be a function (kind, row)");
  if (options.resultFiles !== undefined && (typeof options.resultFiles !== "string" || !options.resultFiles)) throw new TypeError("resultFiles must be a path to write the result files beside (`<path>.success.csv`, …)");
  return { maxBytes, collectionsBelow: COLLECTIONS_OPERATIONS.includes(job.operation) ? threshold : 0 };
}

/**
 * Loads a CSV file the caller wrote as one upload — its header line, then one record per row, LF line ends, in
 * the org's CSV (`csvLine`, `uploadLine`) — as one Bulk job, sending the file as it is (no copy is parsed and
 * written first). `rows` is how many records it holds, which the org's results must add up to. A file of fewer
 * than `collectionsBelow` rows, or larger than one upload may be, is loaded as `ingest` loads a stream of it.
 */
export async function ingestCsvFile(crm: Crm, job: IngestJobSpec, csv: { file: string; rows: number }, options: IngestOptions = {}): Promise<IngestResult> {
  const { maxBytes, collectionsBelow } = checkedLoad(job, options);
  if (!csv || typeof csv.file !== "string" || !csv.file) throw new TypeError("csv.file must be the path of a CSV file");
  if (!Number.isInteger(csv.rows) || csv.rows < 1) throw new RangeError(`csv.rows must be the whole number of records the file holds (1 or more), got ${String(csv.rows)}`);
  const bytes = (await stat(csv.file)).size;
  if (csv.rows < collectionsBelow || bytes > maxBytes) return ingest(crm, job, createReadStream(csv.file), options);
  const upload: Upload = { file: csv.file, bytes, rows: csv.rows, callers: true };
  return viaBulk(crm, job, async function* () {
    yield upload;
  }, new ResultSink(options), options);
}

async function viaBulk(crm: Crm, job: IngestJobSpec, uploadsIn: (dir: string) => AsyncIterable<Upload>, sink: ResultSink, options: IngestOptions): Promise<IngestResult> {
  const result: IngestResult = { via: "bulk", jobIds: [], rows: 0, processed: 0, successful: 0, failed: 0, unprocessed: 0 };
  const settle = async () => {
    Object.assign(result, sink.counts);
    const files = await sink.close();
    if (files) result.files = files;
  };
  const dir = workFolder("bulk");
  try {
    for await (const upload of uploadsIn(dir)) {
      if (options.signal?.aborted) throw new CancelledError("The import was cancelled");
      const body = { object: job.object, operation: job.operation, contentType: "CSV", lineEnding: "LF", ...(job.externalIdFieldName ? { externalIdFieldName: job.externalIdFieldName } : {}) };
      // The first job is the write a production guard asks about; the rest of the import is that same write.
      const created = (await crm.request<BulkJobInfo>("POST", await jobsPath(crm, "ingest"), body, { write: result.jobIds.length ? "confirmed" : undefined, intent: bulkIntent(job.operation, job.object) })).data;
      const jobId = jobIdFromOrg(created?.id);
      result.jobIds.push(jobId);
      const jobPath = await jobsPath(crm, "ingest", `/${jobId}`);
      try {
        await options.onJob?.(jobId);
        const data = { stream: () => createReadStream(upload.file), bytes: upload.bytes };
        await crm.request("PUT", `${jobPath}/batches`, undefined, { rawBody: { data, contentType: "text/csv" }, write: "confirmed", retryable: false, signal: options.signal, timeoutMs: uploadTimeout(upload.bytes) });
        await crm.request("PATCH", jobPath, { state: "UploadComplete" }, { write: "confirmed", signal: options.signal });
      } catch (err) {
        await abortJob(crm, jobId, "ingest").catch(() => undefined);
        throw err;
      }
      if (!upload.callers) await rm(upload.file, { force: true });
      result.rows += upload.rows;
      const report = (j: BulkJobInfo) => options.onProgress?.({ jobId: j.id, state: j.state, rows: result.rows, processed: result.processed + (j.numberRecordsProcessed ?? 0), failed: result.failed + (j.numberRecordsFailed ?? 0) });
      let done: BulkJobInfo;
      try {
        done = await waitForJob(crm, jobId, "ingest", { signal: options.signal, poll: options.poll, onState: report });
      } catch (err) {
        // A job the org stopped part way (Failed, or Aborted) keeps what it wrote: its successful and failed rows
        // are read like a finished job's — into the counts, the result files and onResult — and go with the
        // error beside what the earlier jobs did and this job's rows never processed. Nothing written goes unsaid.
        if (err instanceof BulkJobError) {
          for (const [kind, resource] of [["successful", "successfulResults"], ["failed", "failedResults"], ["unprocessed", "unprocessedrecords"]] as const) {
            await sink.take(kind, resultRecords(crm, jobId, resource)).catch(() => 0);
          }
          result.processed = sink.counts.successful + sink.counts.failed;
          await settle();
          err.partial = { ...result };
        }
        throw err;
      }
      const before = { ...sink.counts };
      // A job that processed every row has none unprocessed: that resource is asked for only when the counts say so.
      const resources: [IngestResultKind, "successfulResults" | "failedResults" | "unprocessedrecords"][] = [["successful", "successfulResults"], ["failed", "failedResults"]];
      if (done.numberRecordsProcessed !== upload.rows) resources.push(["unprocessed", "unprocessedrecords"]);
      for (const [kind, resource] of resources) await sink.take(kind, resultRecords(crm, jobId, resource, options.signal));
      const got = (kind: IngestResultKind) => sink.counts[kind] - before[kind];
      result.processed += done.numberRecordsProcessed ?? got("successful") + got("failed");
      if (got("successful") + got("failed") + got("unprocessed") !== upload.rows) {
        await settle();
        throw new IngestCountError(jobId, upload.rows, got("successful"), got("failed"), got("unprocessed"));
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await settle();
  return result;
}

/**
 * The results of ingest jobs whose client is gone — a script or a window that died while the org went on: a job
 * still running is waited for; one never closed (Open: its upload never finished, so the org will never process
 * it) is aborted; then each job's successful, failed and unprocessed rows are read as ingest reads its own, into
 * the counts, the result files and `onResult`. `states` says how each job ended. Cancelling (`signal`) stops the
 * waiting and leaves a running job to run: it is someone's import.
 */
export async function resultsOf(crm: Crm, jobIds: readonly string[], options: Pick<IngestOptions, "signal" | "poll" | "onResult" | "resultFiles"> = {}): Promise<IngestResult & { states: BulkJobState[] }> {
  const sink = new ResultSink(options);
  const states: BulkJobState[] = [];
  for (const jobId of jobIds.map(jobIdOf)) {
    let job = await getJob(crm, jobId, "ingest");
    if (job.state === "Open") job = await stopJob(crm, jobId);
    else if (!ended(job.state)) {
      job = await waitForJob(crm, jobId, "ingest", { signal: options.signal, poll: options.poll, leaveRunning: true }).catch((err: unknown) => (err instanceof BulkJobError ? getJob(crm, jobId, "ingest") : Promise.reject(err)));
    }
    states.push(job.state);
    for (const [kind, resource] of [["successful", "successfulResults"], ["failed", "failedResults"], ["unprocessed", "unprocessedrecords"]] as const) {
      await sink.take(kind, resultRecords(crm, jobId, resource, options.signal));
    }
  }
  const files = await sink.close();
  const { successful, failed, unprocessed } = sink.counts;
  return { via: "bulk", jobIds: [...jobIds], rows: successful + failed + unprocessed, processed: successful + failed, successful, failed, unprocessed, states, ...(files ? { files } : {}) };
}

/** The time an upload of this size may take: the client's usual deadline, and a minute more per 10 MB. */
const uploadTimeout = (bytes: number) => Math.max(DEFAULT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS + Math.ceil(bytes / (10 * 1024 * 1024)) * 60_000);

/** A small load through sObject Collections, with the same result rows, files and counts as a Bulk job's. */
async function viaCollections(crm: Crm, job: IngestJobSpec, header: string, records: string[], sink: ResultSink, options: IngestOptions): Promise<IngestResult> {
  const columns = fieldsOfRecord(header);
  const rows = records.map(fieldsOfRecord);
  const idColumn = columns.findIndex((c) => c.toLowerCase() === "id");
  if (job.operation !== "insert" && idColumn < 0) throw new MissingRequiredDataError(`An ${job.operation} needs an Id column`, "input");
  const types = job.operation === "delete" ? new Map<string, string>() : new Map((await crm.getSobject(job.object, { describe: true })).fields.map((f) => [f.name.toLowerCase(), f.type]));
  const value = (column: string, text: string): unknown => {
    if (text === "#N/A") return null;
    const type = types.get(column.toLowerCase());
    if (type === "boolean") return /^(true|1|yes)$/i.test(text) ? true : /^(false|0|no)$/i.test(text) ? false : text;
    if (type === "int" || type === "double" || type === "currency" || type === "percent") return text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
    return text;
  };
  // A malformed Id fails its row here, as the org fails it in a Bulk job: the others still go.
  const valid = (values: string[]) => job.operation === "insert" || isRecordId(values[idColumn]);
  const indexed = rows.map((values, i) => ({ i, values }));
  const sendable = indexed.filter((r) => valid(r.values));
  const results = new Map<number, SaveResult>();
  for (const { i, values } of indexed) {
    if (!valid(values)) results.set(i, { success: false, errors: [{ statusCode: "MALFORMED_ID", message: `Id: malformed id ${values[idColumn] ?? ""}`, fields: ["Id"] }] });
  }
  const fieldsOf = (values: string[]) => Object.fromEntries(columns.flatMap((c, k) => (k === idColumn || values[k] === undefined || values[k] === "" ? [] : [[c, value(c, values[k]!)]])));
  const progress = (done: number) => options.onProgress?.({ jobId: "", state: done === sendable.length ? "JobComplete" : "InProgress", rows: rows.length, processed: done, failed: 0, via: "collections" });
  const collectionOptions = { signal: options.signal, onProgress: progress };
  // The same columns a Bulk job's results have: the org's, then the row as sent.
  const successColumns = ["sf__Id", "sf__Created", ...columns];
  const failedColumns = ["sf__Id", "sf__Error", ...columns];
  const [successHeader, failedHeader, unprocessedHeader] = [uploadLine(successColumns), uploadLine(failedColumns), uploadLine(columns)];
  /** Every row as a result: as the org answered it, or — where no answer came — unprocessed, as sent. */
  const report = async () => {
    for (const [i, values] of rows.entries()) {
      const saved = results.get(i);
      if (!saved) {
        await sink.row("unprocessed", unprocessedHeader, uploadLine(values), columns, rowOf(columns, values));
        continue;
      }
      const id = saved.id ?? (idColumn >= 0 ? values[idColumn] ?? "" : "");
      const line = saved.success
        ? [id, String(job.operation === "insert"), ...values]
        : [id, saved.errors.map((e) => `${e.statusCode}:${e.message}`).join("; ") || "UNKNOWN_ERROR:the org gave no reason", ...values];
      const header = saved.success ? successColumns : failedColumns;
      await sink.row(saved.success ? "successful" : "failed", saved.success ? successHeader : failedHeader, uploadLine(line), header, rowOf(header, line));
    }
    const files = await sink.close();
    const { successful, failed, unprocessed } = sink.counts;
    return { via: "collections" as const, jobIds: [], rows: rows.length, processed: successful + failed, successful, failed, unprocessed, ...(files ? { files } : {}) };
  };
  let answers: SaveResult[];
  try {
    answers = !sendable.length ? []
      : job.operation === "insert" ? await createRecords(crm, job.object, sendable.map((r) => fieldsOf(r.values)), collectionOptions)
      : job.operation === "update" ? await updateRecords(crm, sendable.map((r) => ({ type: job.object, id: r.values[idColumn]!, fields: fieldsOf(r.values) })), collectionOptions)
      : await removeRecords(crm, sendable.map((r) => r.values[idColumn]!), collectionOptions);
  } catch (err) {
    // A load stopped part way: what the org confirmed is reported like any result (files, onResult), the rows
    // after it as unprocessed, and the whole goes with the error as its `partial`.
    writtenBefore(err).forEach((saved, k) => results.set(sendable[k]!.i, saved));
    const partial = await report();
    if (err && typeof err === "object") Object.defineProperty(err, "partial", { value: partial, enumerable: false, configurable: true });
    throw err;
  }
  sendable.forEach((r, k) => results.set(r.i, answers[k]!));
  const result = await report();
  if (result.successful + result.failed !== rows.length) throw new IngestCountError("", rows.length, result.successful, result.failed, 0);
  return result;
}

/** The functions this module adds to every client as `crm.bulk`. */
const api = { getJob, jobs, abortJob, stopJob, deleteJob, waitForJob, createQueryJob, query, startQuery, queryCsv, ingest, ingestCsvFile, resultsOf };
plugIn("bulk", api);
declare module "./crm" {
  interface Crm {
    /** Bulk API 2.0: query and ingest jobs. */
    readonly bulk: Bound<typeof api>;
  }
}
