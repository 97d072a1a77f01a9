/**
 * Bulk API 2.0: large exports and imports done by the org's own asynchronous engine. Each function takes the
 * client first (`bulk.query(crm, soql)`); the same functions are bound on `crm.bulk`.
 *
 * Query jobs are polled with a growing interval until JobComplete, then read set by set through
 * `Sforce-Locator` (`pageSize` rows a set): rows are yielded as they are parsed and never all held. Ingest
 * jobs take one CSV upload each (at most `maxUploadBytes`, 100 MB by default, as the docs advise for the
 * 150 MB base64 limit); larger inputs are split over several jobs. An AbortSignal aborts the job at the org.
 */
import type { Crm } from "./crm";
import { bulkValue, csvLine, csvRows } from "./csv";
import { delay } from "./delay";
import { BulkJobError, CancelledError, MissingRequiredDataError } from "./errors";
import { requireRecordId, requireSobjectName } from "./ids";
import type { CrmResponse } from "./transport";

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

/** Every job of a kind the org keeps (it keeps them seven days). */
export async function jobs(crm: Crm, kind: BulkJobKind = "query"): Promise<BulkJobInfo[]> {
  const all: BulkJobInfo[] = [];
  let endpoint: string | null = await jobsPath(crm, kind);
  while (endpoint) {
    const page: { records: BulkJobInfo[]; nextRecordsUrl?: string | null } = await crm.getJson(endpoint);
    all.push(...page.records);
    endpoint = page.nextRecordsUrl ?? null;
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
 * message; an abort of `signal` aborts the job at the org and raises CancelledError.
 */
export async function waitForJob(crm: Crm, jobId: string, kind: BulkJobKind, options: { signal?: AbortSignal; poll?: PollOptions; onState?(job: BulkJobInfo): void } = {}): Promise<BulkJobInfo> {
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
      await abortJob(crm, jobId, kind).catch(() => undefined); // it may have ended meanwhile
      throw err;
    }
    interval = Math.min(max, Math.round(interval * 1.5));
  }
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
 * The result sets of a completed query job, as the org sends them (each with its header line). The next set
 * is asked for as soon as a set arrives, so the org works while the caller reads: at most two sets are held.
 */
async function* resultSets(crm: Crm, jobId: string, options: BulkQueryOptions, onSet: (rows: number) => void): AsyncGenerator<string> {
  const pageSize = requirePageSize(options.pageSize);
  const endpoint = await jobsPath(crm, "query", `/${jobIdOf(jobId)}/results`);
  const fetchSet = (locator: string | undefined) => {
    const set = crm.request("GET", endpoint, undefined, { params: { maxRecords: pageSize, locator }, headers: { Accept: "text/csv" }, signal: options.signal });
    set.catch(() => undefined); // a set asked for ahead and never read (the caller stopped) must not go unhandled
    return set;
  };
  let pending: Promise<CrmResponse> | undefined = fetchSet(undefined);
  while (pending) {
    if (options.signal?.aborted) throw new CancelledError(`Reading the results of bulk job ${jobId} was cancelled`);
    const response: CrmResponse = await pending;
    const next = response.headers["sforce-locator"];
    pending = next && next !== "null" ? fetchSet(next) : undefined;
    onSet(Number(response.headers["sforce-numberofrecords"] ?? 0));
    yield response.body.toString("utf8");
  }
}

/** Runs a query job and hands its result sets to `read`, reporting progress. */
async function* runQuery(crm: Crm, soql: string, options: BulkQueryOptions): AsyncGenerator<string> {
  requirePageSize(options.pageSize);
  const job = await createQueryJob(crm, soql, options);
  const done = await waitForJob(crm, job.id, "query", { signal: options.signal, poll: options.poll, onState: (j) => options.onProgress?.({ jobId: j.id, state: j.state, rows: 0 }) });
  let rows = 0;
  yield* resultSets(crm, job.id, options, (n) => {
    rows += n;
    options.onProgress?.({ jobId: job.id, state: done.state, rows });
  });
}

/**
 * A SOQL query through a Bulk query job, as rows (column → text, empty as null), one result set at a time.
 * Bulk API 2.0 takes no GROUP BY, OFFSET, TYPEOF, aggregates or nested (parent-to-child) queries.
 */
export async function* query(crm: Crm, soql: string, options: BulkQueryOptions = {}): AsyncGenerator<BulkRow> {
  for await (const set of runQuery(crm, soql, options)) yield* bulkRows(set);
}

/** The same query as raw CSV: the header once, then each result set's lines, as the org wrote them. */
export async function* queryCsv(crm: Crm, soql: string, options: BulkQueryOptions = {}): AsyncGenerator<string> {
  let first = true;
  for await (const set of runQuery(crm, soql, options)) {
    // Every set starts with the header line; only the first keeps it.
    yield first ? set : set.slice(headerEnd(set));
    first = false;
  }
}

/** Where the first CSV record (the header) ends, past its line break. */
function headerEnd(csv: string): number {
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "\n") return i + 1;
  }
  return csv.length;
}

/** The rows of a Bulk CSV result (its first line the header), read one at a time. */
function* bulkRows(csv: string): Generator<BulkRow> {
  const lines = csvRows(csv);
  const header = lines.next();
  if (header.done) return;
  for (const line of lines) {
    const row: BulkRow = {};
    header.value.forEach((column, i) => (row[column] = line[i] === undefined || line[i] === "" ? null : line[i]!));
    yield row;
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
 * line, or a stream of CSV text (a file) read piece by piece.
 */
export type IngestInput = readonly Record<string, unknown>[] | string | AsyncIterable<string | Buffer>;

export interface IngestOptions {
  signal?: AbortSignal;
  onProgress?(progress: BulkProgress): void;
  poll?: PollOptions;
  /** Largest CSV upload per job; more data goes to further jobs. Default 100 MB (the documented limit). */
  maxUploadBytes?: number;
}

export interface IngestResult {
  /** One job per upload, in order. */
  jobIds: string[];
  processed: number;
  failed: number;
  /** `sf__Id`, `sf__Created` and the row as sent. */
  successfulRows: BulkRow[];
  /** `sf__Id`, `sf__Error` (the org's reason) and the row as sent. */
  failedRows: BulkRow[];
  /** Rows the org never processed (a job aborted or failed), as sent. */
  unprocessedRows: BulkRow[];
}

const OPERATIONS: IngestOperation[] = ["insert", "update", "upsert", "delete", "hardDelete"];

/** CSV records (header first) of any input, each as one line of CSV text. */
async function* csvRecords(input: IngestInput): AsyncGenerator<string> {
  if (typeof input === "string") {
    yield* splitRecords([input]);
    return;
  }
  if (Array.isArray(input)) {
    const rows = input as readonly Record<string, unknown>[];
    const header = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    if (!header.length) return;
    yield csvLine(header);
    for (const row of rows) yield csvLine(header.map((column) => bulkValue(row[column])));
    return;
  }
  yield* splitRecords(input as AsyncIterable<string | Buffer>);
}

/** Splits CSV text arriving in pieces into whole records (a quoted field may hold line breaks). */
async function* splitRecords(pieces: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  let pending = "";
  let quoted = false;
  let scanned = 0;
  for await (const piece of pieces) {
    pending += typeof piece === "string" ? piece : piece.toString("utf8");
    let start = 0;
    for (let i = scanned; i < pending.length; i++) {
      const c = pending[i];
      if (c === '"') quoted = !quoted;
      else if (!quoted && (c === "\n" || c === "\r")) {
        const record = pending.slice(start, i);
        if (c === "\r" && pending[i + 1] === "\n") i++;
        start = i + 1;
        if (record.trim()) yield record;
      }
    }
    pending = pending.slice(start);
    scanned = pending.length;
  }
  if (quoted) throw new SyntaxError("The CSV ends inside a quoted field");
  if (pending.trim()) yield pending;
}

/** Groups records into uploads of at most `maxBytes` each, every upload starting with the header. */
async function* uploads(records: AsyncGenerator<string>, maxBytes: number): AsyncGenerator<{ csv: string; rows: number }> {
  const first = await records.next();
  if (first.done) return;
  const header = first.value;
  const headerBytes = Buffer.byteLength(header) + 1;
  let lines: string[] = [];
  let bytes = headerBytes;
  for await (const record of records) {
    const size = Buffer.byteLength(record) + 1;
    if (headerBytes + size > maxBytes) throw new RangeError(`A CSV row is larger than one upload may be (${maxBytes} bytes)`);
    if (bytes + size > maxBytes && lines.length) {
      yield { csv: `${header}\n${lines.join("\n")}\n`, rows: lines.length };
      lines = [];
      bytes = headerBytes;
    }
    lines.push(record);
    bytes += size;
  }
  if (lines.length) yield { csv: `${header}\n${lines.join("\n")}\n`, rows: lines.length };
}

async function resultRows(crm: Crm, jobId: string, resource: "successfulResults" | "failedResults" | "unprocessedrecords"): Promise<BulkRow[]> {
  const response = await crm.request("GET", await jobsPath(crm, "ingest", `/${jobId}/${resource}`), undefined, { headers: { Accept: "text/csv" } });
  return [...bulkRows(response.body.toString("utf8"))];
}

/**
 * Loads rows with Bulk ingest jobs: insert, update (an `Id` column), upsert (by `externalIdFieldName`),
 * delete or hardDelete (an `Id` column). Each upload is one job: created (the write the production guard
 * asks about, once), uploaded, closed, polled; then its successful, failed and unprocessed rows are read.
 */
export async function ingest(crm: Crm, job: IngestJobSpec, input: IngestInput, options: IngestOptions = {}): Promise<IngestResult> {
  if (!job || typeof job !== "object") throw new TypeError("job must be { object, operation }");
  requireSobjectName(job.object, "job.object");
  if (!OPERATIONS.includes(job.operation)) throw new RangeError(`job.operation must be one of ${OPERATIONS.join(", ")}, got ${JSON.stringify(job.operation)}`);
  if (job.operation === "upsert" && !job.externalIdFieldName) throw new MissingRequiredDataError("An upsert needs job.externalIdFieldName", "externalIdFieldName");
  const maxBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_UPLOAD_BYTES) throw new RangeError(`maxUploadBytes must be a whole number from 1 to ${MAX_UPLOAD_BYTES}, got ${String(options.maxUploadBytes)}`);

  const result: IngestResult = { jobIds: [], processed: 0, failed: 0, successfulRows: [], failedRows: [], unprocessedRows: [] };
  let uploaded = 0;
  for await (const upload of uploads(csvRecords(input), maxBytes)) {
    if (options.signal?.aborted) throw new CancelledError("The import was cancelled");
    const body = { object: job.object, operation: job.operation, contentType: "CSV", lineEnding: "LF", ...(job.externalIdFieldName ? { externalIdFieldName: job.externalIdFieldName } : {}) };
    // The first job is the write a production guard asks about; the rest of the import is that same write.
    const created = (await crm.request<BulkJobInfo>("POST", await jobsPath(crm, "ingest"), body, { write: result.jobIds.length ? "confirmed" : undefined })).data!;
    result.jobIds.push(created.id);
    const jobPath = await jobsPath(crm, "ingest", `/${created.id}`);
    try {
      await crm.request("PUT", `${jobPath}/batches`, undefined, { rawBody: { data: upload.csv, contentType: "text/csv" }, write: "confirmed", retryable: false, signal: options.signal });
      await crm.request("PATCH", jobPath, { state: "UploadComplete" }, { write: "confirmed", signal: options.signal });
    } catch (err) {
      await abortJob(crm, created.id, "ingest").catch(() => undefined);
      throw err;
    }
    uploaded += upload.rows;
    const report = (j: BulkJobInfo) => options.onProgress?.({ jobId: j.id, state: j.state, rows: uploaded, processed: result.processed + (j.numberRecordsProcessed ?? 0), failed: result.failed + (j.numberRecordsFailed ?? 0) });
    let ended: BulkJobInfo;
    try {
      ended = await waitForJob(crm, created.id, "ingest", { signal: options.signal, poll: options.poll, onState: report });
    } catch (err) {
      // What the earlier jobs did, and this job's rows that were never processed, go with the error.
      if (err instanceof BulkJobError) {
        result.unprocessedRows.push(...(await resultRows(crm, created.id, "unprocessedrecords").catch(() => [])));
        err.partial = result;
      }
      throw err;
    }
    const [ok, bad, unprocessed] = await Promise.all([
      resultRows(crm, created.id, "successfulResults"), resultRows(crm, created.id, "failedResults"), resultRows(crm, created.id, "unprocessedrecords"),
    ]);
    result.successfulRows.push(...ok);
    result.failedRows.push(...bad);
    result.unprocessedRows.push(...unprocessed);
    result.processed += ended.numberRecordsProcessed ?? ok.length + bad.length;
    result.failed += ended.numberRecordsFailed ?? bad.length;
  }
  if (!result.jobIds.length) throw new MissingRequiredDataError("There are no rows to load: the input is empty or has only a header", "input");
  return result;
}
