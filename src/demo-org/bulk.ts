/**
 * Bulk API 2.0 (`/jobs/query`, `/jobs/ingest`) as the docs describe it: jobs run asynchronously, so a client
 * must poll the job until JobComplete, Failed or Aborted; query results come as CSV sets read by locator
 * (`Sforce-Locator`, `maxRecords`, `Sforce-NumberOfRecords`); ingest takes one CSV upload per job and checks
 * every row with the same validation as the REST API, so failures are per row (`sf__Error`).
 */
import { parse as parseCsvText } from "csv-parse/sync";
import { type Ctx, type Reply, type Route, bodyObject, json, noContent, notFound } from "./context";
import { validateWrite, type WriteHooks } from "./data";
import type { ObjectDef } from "./schema";
import { ApiError, executeSoql, parseSoql } from "./soql";
import { sfDateTime, type Rec } from "./store";

type Kind = "query" | "ingest";
type State = "Open" | "UploadComplete" | "InProgress" | "JobComplete" | "Failed" | "Aborted";
const INGEST_OPERATIONS = ["insert", "update", "upsert", "delete", "hardDelete"];
/** Rows per result set when the client gives no maxRecords. */
const DEFAULT_MAX_RECORDS = 50_000;
/** Rows an ingest job writes per turn of the event loop: the org answers polls and other requests while a big job loads. */
const INGEST_SLICE = 2_000;

interface Job {
  id: string;
  kind: Kind;
  operation: string;
  object: string;
  state: State;
  createdById: string;
  createdDate: string;
  systemModstamp: string;
  apiVersion: number;
  externalIdFieldName?: string;
  query?: string;
  /** When processing started (UploadComplete); the job runs for a while, then completes. */
  startedAt?: number;
  errorMessage?: string;
  numberRecordsProcessed: number;
  numberRecordsFailed: number;
  /** The request context that started the job (its user, store and version do the work). */
  ctx?: Ctx;
  upload?: string;
  /** An ingest job under way: its parsed rows and the next one to write. */
  loading?: { rows: string[][]; next: number; stopAfter: number };
  columns: string[];
  /** Query results: how many rows, and CSV lines (without header) from an offset, read when asked for. */
  resultCount: number;
  resultLines: (offset: number, count: number) => string[];
  successful: string[];
  failed: string[];
}

/** One CSV field as Salesforce writes it: every value quoted, inner quotes doubled; null as an empty quoted value. */
const csvField = (value: unknown) => `"${value === null || value === undefined ? "" : String(value).replace(/"/g, '""')}"`;
const csvLine = (values: unknown[]) => values.map(csvField).join(",");

function jobInfo(job: Job): Record<string, unknown> {
  const base: Record<string, unknown> = {
    id: job.id, operation: job.operation, object: job.object, createdById: job.createdById, createdDate: job.createdDate,
    systemModstamp: job.systemModstamp, state: job.state, concurrencyMode: "Parallel", contentType: "CSV", apiVersion: job.apiVersion,
    lineEnding: "LF", columnDelimiter: "COMMA",
  };
  if (job.kind === "ingest") {
    base.jobType = "V2Ingest";
    if (job.externalIdFieldName) base.externalIdFieldName = job.externalIdFieldName;
    if (job.state === "Open") base.contentUrl = `services/data/v${job.apiVersion.toFixed(1)}/jobs/ingest/${job.id}/batches`;
    base.numberRecordsFailed = job.numberRecordsFailed;
  } else base.jobType = "V2Query";
  base.numberRecordsProcessed = job.numberRecordsProcessed;
  base.retries = 0;
  base.totalProcessingTime = job.state === "JobComplete" ? 42 : 0;
  if (job.errorMessage) base.errorMessage = job.errorMessage;
  return base;
}

/** A value of a projected REST record at a dotted path (`Account.Owner.Name`), case-insensitive. */
function valueAt(record: Record<string, unknown>, path: string): unknown {
  let current: unknown = record;
  for (const part of path.split(".")) {
    if (!current || typeof current !== "object") return null;
    const entry = Object.entries(current as Record<string, unknown>).find(([k]) => k.toLowerCase() === part.toLowerCase());
    current = entry?.[1];
  }
  return current ?? null;
}

/** A CSV value as a field value: `#N/A` sets null, an empty value is left out, booleans are read. */
function fieldValue(def: ObjectDef, column: string, raw: string): { skip: true } | { skip: false; value: unknown } {
  if (raw === "") return { skip: true };
  if (raw === "#N/A") return { skip: false, value: null };
  const field = def.fieldMap.get(column.toLowerCase());
  if (field?.type === "boolean" && /^(true|false)$/i.test(raw)) return { skip: false, value: raw.toLowerCase() === "true" };
  // As the org does: a number field refuses text that is not a number, for that row alone.
  if (field && ["int", "double", "currency", "percent"].includes(field.type) && !(raw.trim() !== "" && Number.isFinite(Number(raw)))) {
    throw new ApiError(400, "INVALID_TYPE_ON_FIELD_IN_RECORD", `${field.label ?? field.name}: value not of required type: ${raw}`, [field.name]);
  }
  return { skip: false, value: raw };
}

function rowError(err: unknown): string {
  if (err instanceof ApiError) return `${err.errorCode}:${err.message}:${(err.fields ?? []).join(",")} --`;
  return `UNKNOWN_EXCEPTION:${(err as Error).message}: --`;
}

export function bulkRoutes(options: { latencyMs: number; hooks: WriteHooks; faults: { loseResultRows: number; failIngestAfterRows: number } }): Route[] {
  const jobs = new Map<string, Job>();

  /** Jobs run in the background: each state lasts `latencyMs`, so a client sees UploadComplete, InProgress, then the end. */
  function advance(job: Job): void {
    if (job.startedAt === undefined || job.state === "JobComplete" || job.state === "Failed" || job.state === "Aborted") return;
    const elapsed = Date.now() - job.startedAt;
    if (elapsed < options.latencyMs) return;
    job.state = "InProgress";
    if (elapsed < 2 * options.latencyMs) return;
    try {
      if (job.kind === "query") runQueryJob(job);
      else if (!ingestSlice(job)) return;
      job.state = "JobComplete";
    } catch (err) {
      job.state = "Failed";
      job.errorMessage = err instanceof ApiError ? err.message : String(err);
    }
    job.systemModstamp = sfDateTime(Date.now());
    job.ctx = undefined;
    job.loading = undefined;
    // A failed job's upload stays: its rows are the unprocessed records.
    if (job.state === "JobComplete") job.upload = undefined;
  }

  function runQueryJob(job: Job): void {
    const { store, version, user } = job.ctx!;
    const run = (window: { offset: number; count: number }) =>
      executeSoql({ store, version, userId: user.Id, includeDeleted: job.operation === "queryAll", now: Date.now(), window }, job.query!, { childBatchSize: 200, registerChildCursor: () => "", projectLater: true });
    const toLine = (r: Record<string, unknown>) => csvLine(job.columns.map((c) => valueAt(r, c)));
    const first = run({ offset: 0, count: 1 });
    const chosen = first.window;
    if (chosen) {
      // The rows the job chose, in its order: each result set is projected as it is read.
      job.resultLines = (offset, count) => chosen(offset, count).map(toLine);
    } else if (first.totalSize > first.records.length) {
      // A generated table: its result sets are generated when read, never held.
      job.resultLines = (offset, count) => run({ offset, count }).records.map(toLine);
    } else {
      const lines = first.records.map(toLine);
      job.resultLines = (offset, count) => lines.slice(offset, offset + count);
    }
    job.resultCount = first.totalSize;
    job.numberRecordsProcessed = first.totalSize;
  }

  /** Writes the next slice of an ingest job's rows; true when every row is written. */
  function ingestSlice(job: Job): boolean {
    const ctx = job.ctx!;
    const def = ctx.store.object(job.object)!;
    if (!job.loading) {
      if (!job.upload) throw new ApiError(400, "InvalidBatch", "InvalidBatch : No data was uploaded for this job");
      const rows = parseCsvText(job.upload, { columns: false, skip_empty_lines: true, relax_column_count: true }) as string[][];
      job.columns = rows.shift() ?? [];
      const known = (c: string) => c.toLowerCase() === "id" || def.fieldMap.has(c.toLowerCase());
      const unknown = job.columns.find((c) => !known(c));
      if (unknown) throw new ApiError(400, "InvalidBatch", `InvalidBatch : Field name not found : ${unknown}`);
      job.loading = { rows, next: 0, stopAfter: options.faults.failIngestAfterRows };
      options.faults.failIngestAfterRows = 0;
    }
    const { rows, stopAfter } = job.loading;
    const header = job.columns;
    const end = Math.min(rows.length, job.loading.next + INGEST_SLICE);
    for (; job.loading.next < end; job.loading.next++) {
      const row = rows[job.loading.next]!;
      if (stopAfter > 0 && job.numberRecordsProcessed >= stopAfter) {
        job.numberRecordsFailed = job.failed.length;
        throw new ApiError(500, "UNKNOWN_EXCEPTION", `The job stopped after ${stopAfter} records: an internal error`);
      }
      const values: Record<string, unknown> = {};
      let id: string | undefined;
      try {
        header.forEach((column, i) => {
          const raw = row[i] ?? "";
          if (column.toLowerCase() === "id") id = raw || undefined;
          else {
            const read = fieldValue(def, column, raw);
            if (!read.skip) values[column] = read.value;
          }
        });
        const { recordId, created } = writeRow(ctx, def, job, values, id);
        job.successful.push(csvLine([recordId, created, ...row]));
      } catch (err) {
        job.failed.push(csvLine([id ?? "", rowError(err), ...row]));
      }
      job.numberRecordsProcessed++;
    }
    job.numberRecordsFailed = job.failed.length;
    return job.loading.next === rows.length;
  }

  function existing(ctx: Ctx, def: ObjectDef, id: string | undefined): Rec {
    if (!id) throw new ApiError(400, "MISSING_ARGUMENT", "Id not specified in an update call", ["Id"]);
    const found = ctx.store.find(id);
    if (!found || found.def.name !== def.name) throw new ApiError(400, "INVALID_CROSS_REFERENCE_KEY", `invalid cross reference id`, ["Id"]);
    return found.rec;
  }

  function writeRow(ctx: Ctx, def: ObjectDef, job: Job, values: Record<string, unknown>, id: string | undefined): { recordId: string; created: boolean } {
    switch (job.operation) {
      case "insert": {
        const checked = validateWrite(ctx, def, values, "create");
        const hook = options.hooks.create?.[def.name];
        return { recordId: (hook ? hook(ctx, checked) : ctx.store.insert(def.name, checked, ctx.user.Id)).Id, created: true };
      }
      case "update": {
        const rec = existing(ctx, def, id);
        Object.assign(rec, validateWrite(ctx, def, values, "update", rec));
        ctx.store.touch(rec, ctx.user.Id);
        return { recordId: rec.Id, created: false };
      }
      case "upsert": {
        const key = job.externalIdFieldName!;
        const keyValue = values[key] ?? values[Object.keys(values).find((k) => k.toLowerCase() === key.toLowerCase()) ?? ""];
        if (keyValue === undefined || keyValue === null) throw new ApiError(400, "MISSING_ARGUMENT", `${key} not specified`, [key]);
        const matches = ctx.store.liveRecords(def.name).filter((r) => String(r[def.fieldMap.get(key.toLowerCase())!.name] ?? "").toLowerCase() === String(keyValue).toLowerCase());
        if (matches.length > 1) throw new ApiError(300, "DUPLICATE_EXTERNAL_ID", `${key}: more than one record found for external id field: ${String(keyValue)}`, [key]);
        if (matches[0]) {
          const rec = matches[0];
          Object.assign(rec, validateWrite(ctx, def, values, "update", rec));
          ctx.store.touch(rec, ctx.user.Id);
          return { recordId: rec.Id, created: false };
        }
        const checked = validateWrite(ctx, def, values, "create");
        return { recordId: ctx.store.insert(def.name, checked, ctx.user.Id).Id, created: true };
      }
      case "delete": case "hardDelete": {
        const rec = existing(ctx, def, id);
        options.hooks.remove?.[def.name]?.(ctx, rec);
        if (job.operation === "hardDelete") ctx.store.table(def.name).delete(rec.Id);
        else rec.IsDeleted = true;
        ctx.store.touch(rec, ctx.user.Id);
        ctx.store.cascade(def, rec, ctx.user.Id);
        return { recordId: rec.Id, created: false };
      }
      default:
        throw new ApiError(400, "InvalidJob", `Unknown operation ${job.operation}`);
    }
  }

  function jobOr404(kind: Kind, id: string): Job {
    const job = jobs.get(id.slice(0, 15)) ?? jobs.get(id);
    if (!job || job.kind !== kind) throw notFound();
    advance(job);
    return job;
  }

  function newJob(ctx: Ctx, kind: Kind, fields: Partial<Job> & { operation: string; object: string }): Job {
    const now = sfDateTime(Date.now());
    const job: Job = {
      id: ctx.store.newId("750"), kind, state: kind === "query" ? "UploadComplete" : "Open", createdById: ctx.user.Id, createdDate: now, systemModstamp: now,
      apiVersion: Number(ctx.version), numberRecordsProcessed: 0, numberRecordsFailed: 0, columns: [], resultCount: 0, resultLines: () => [], successful: [], failed: [],
      ...fields,
    };
    jobs.set(job.id.slice(0, 15), job);
    return job;
  }

  function createQueryJob(ctx: Ctx): Reply {
    const body = bodyObject(ctx);
    if (body.operation !== "query" && body.operation !== "queryAll") throw new ApiError(400, "INVALIDJOB", `Invalid operation: ${String(body.operation)} (expected query or queryAll)`);
    if (typeof body.query !== "string" || !body.query.trim()) throw new ApiError(400, "INVALIDJOB", "The query is required");
    const query = body.query;
    const parsed = parseSoql(query);
    if (parsed.groupBy || parsed.offset !== undefined || (parsed.fields ?? []).some((f) => f.type === "FieldFunctionExpression" || f.type === "FieldSubquery" || f.type === "FieldTypeof")) {
      throw new ApiError(400, "API_ERROR", "Bulk API 2.0 does not support GROUP BY, OFFSET, TYPEOF, aggregate functions or parent-to-child (nested) queries");
    }
    const def = ctx.store.object(parsed.sObject ?? "");
    if (!def) throw new ApiError(400, "INVALID_TYPE", `sObject type '${parsed.sObject ?? ""}' is not supported.`);
    const columns = (parsed.fields ?? []).flatMap((f) => (f.type === "Field" ? [f.field] : f.type === "FieldRelationship" ? [f.rawValue ?? [...f.relationships, f.field].join(".")] : []));
    const expanded = columns.flatMap((c) => (/^fields\((all|standard|custom)\)$/i.test(c) ? def.fields.map((f) => f.name) : [c]));
    // The statement is checked now, as the org does when the job is created.
    executeSoql({ store: ctx.store, version: ctx.version, userId: ctx.user.Id, includeDeleted: false, now: Date.now(), rowFilter: () => false }, query, { childBatchSize: 1, registerChildCursor: () => "" });
    const job = newJob(ctx, "query", { operation: body.operation, object: def.name, query, columns: expanded, startedAt: Date.now(), ctx });
    return json(200, jobInfo(job));
  }

  function createIngestJob(ctx: Ctx): Reply {
    const body = bodyObject(ctx);
    const operation = String(body.operation ?? "");
    if (!INGEST_OPERATIONS.includes(operation)) throw new ApiError(400, "INVALIDJOB", `InvalidJob : Invalid operation: ${operation}`);
    const def = ctx.store.object(String(body.object ?? ""));
    if (!def) throw new ApiError(400, "INVALIDJOB", `InvalidJob : Invalid object: ${String(body.object ?? "")}`);
    if (body.contentType !== undefined && body.contentType !== "CSV") throw new ApiError(400, "INVALIDJOB", `InvalidJob : Unsupported content type: ${String(body.contentType)}`);
    let externalIdFieldName: string | undefined;
    if (operation === "upsert") {
      const field = def.fieldMap.get(String(body.externalIdFieldName ?? "").toLowerCase());
      if (!field || !(field.externalId || field.name === "Id")) throw new ApiError(400, "INVALIDJOB", `InvalidJob : External ID field not found or not an external ID: ${String(body.externalIdFieldName ?? "")}`);
      externalIdFieldName = field.name;
    }
    const job = newJob(ctx, "ingest", { operation, object: def.name, externalIdFieldName });
    return json(200, jobInfo(job));
  }

  function resultsOf(job: Job, lines: string[], header: string[]): Reply {
    if (job.state !== "JobComplete" && job.state !== "Failed" && job.state !== "Aborted") {
      throw new ApiError(412, "JOB_NOT_COMPLETE", `can only download results of a completed bulk job. Current status: ${job.state}`);
    }
    return { status: 200, body: [csvLine(header), ...lines].join("\n") + "\n", headers: { "content-type": "text/csv" } };
  }

  function changeState(ctx: Ctx, kind: Kind, id: string): Reply {
    const job = jobOr404(kind, id);
    const state = bodyObject(ctx).state;
    const finished = job.state === "JobComplete" || job.state === "Failed" || job.state === "Aborted";
    if (state === "Aborted") {
      if (finished) throw new ApiError(400, "INVALIDJOBSTATE", `Job is already ${job.state} and can't be aborted`);
      job.state = "Aborted";
      job.ctx = undefined;
      job.loading = undefined; // the rows written so far stay, as an org keeps them
    } else if (state === "UploadComplete" && kind === "ingest") {
      if (job.state !== "Open") throw new ApiError(409, "INVALIDJOBSTATE", `Job is ${job.state}, not Open: it can't be closed again`);
      job.state = "UploadComplete";
      job.startedAt = Date.now();
      job.ctx = ctx;
      // An org processes a job whether or not anyone asks about it (a client that died included).
      const processInBackground = () => {
        advance(job);
        if (job.loading && job.state === "InProgress") setImmediate(processInBackground).unref();
        else if (job.state === "UploadComplete" || job.state === "InProgress") setTimeout(processInBackground, Math.max(1, options.latencyMs)).unref();
      };
      setTimeout(processInBackground, Math.max(1, options.latencyMs)).unref();
    } else throw new ApiError(400, "INVALIDJOBSTATE", `Invalid state change to ${String(state)}`);
    job.systemModstamp = sfDateTime(Date.now());
    return json(200, jobInfo(job));
  }

  function list(kind: Kind): Reply {
    const records = [...jobs.values()].filter((j) => j.kind === kind).map((j) => (advance(j), jobInfo(j)));
    return json(200, { done: true, records, nextRecordsUrl: null });
  }

  function remove(kind: Kind, id: string): Reply {
    const job = jobOr404(kind, id);
    if (job.state === "UploadComplete" || job.state === "InProgress") throw new ApiError(400, "INVALIDJOBSTATE", `Job is ${job.state}: abort it before deleting it`);
    jobs.delete(job.id.slice(0, 15));
    return noContent();
  }

  /** Create, list, read, change the state of and delete the jobs of a kind. */
  const jobRoutes = (kind: Kind, create: (ctx: Ctx) => Reply): Route[] => [
    { method: "POST", pattern: new RegExp(`^/jobs/${kind}/?$`), handler: create },
    { method: "GET", pattern: new RegExp(`^/jobs/${kind}/?$`), handler: () => list(kind) },
    { method: "GET", pattern: new RegExp(`^/jobs/${kind}/([^/]+)/?$`), handler: (_ctx, [id]) => json(200, jobInfo(jobOr404(kind, id!))) },
    { method: "PATCH", pattern: new RegExp(`^/jobs/${kind}/([^/]+)/?$`), handler: (ctx, [id]) => changeState(ctx, kind, id!) },
    { method: "DELETE", pattern: new RegExp(`^/jobs/${kind}/([^/]+)/?$`), handler: (_ctx, [id]) => remove(kind, id!) },
  ];

  return [
    ...jobRoutes("query", createQueryJob),
    {
      method: "GET", pattern: /^\/jobs\/query\/([^/]+)\/results\/?$/,
      handler: (ctx, [id]) => {
        const job = jobOr404("query", id!);
        if (job.state !== "JobComplete") throw new ApiError(412, "JOB_NOT_COMPLETE", `can only download query results of successfully completed bulk job with status: JOB_COMPLETE. Current status: ${job.state.toUpperCase()}`);
        if (job.apiVersion !== Number(ctx.version)) throw new ApiError(409, "INVALIDVERSION", "Use the API version the job was created with to get its results");
        const locator = ctx.query.get("locator");
        const offset = locator ? Number(Buffer.from(locator, "base64url").toString("utf8")) : 0;
        if (!Number.isInteger(offset) || offset < 0 || offset > job.resultCount) throw new ApiError(400, "INVALIDLOCATOR", `Invalid locator: ${locator ?? ""}`);
        const maxRecords = Number(ctx.query.get("maxRecords") ?? DEFAULT_MAX_RECORDS);
        if (!Number.isInteger(maxRecords) || maxRecords < 1) throw new ApiError(400, "INVALIDPARAMETER", `Invalid maxRecords: ${ctx.query.get("maxRecords") ?? ""}`);
        const lines = job.resultLines(offset, maxRecords);
        const next = offset + lines.length < job.resultCount ? Buffer.from(String(offset + lines.length)).toString("base64url") : "null";
        return {
          status: 200, body: [csvLine(job.columns), ...lines].join("\n") + "\n",
          headers: { "content-type": "text/csv", "sforce-locator": next, "sforce-numberofrecords": String(lines.length) },
        };
      },
    },
    ...jobRoutes("ingest", createIngestJob),
    {
      method: "PUT", pattern: /^\/jobs\/ingest\/([^/]+)\/batches\/?$/,
      handler: (ctx, [id]) => {
        const job = jobOr404("ingest", id!);
        if (job.state !== "Open") throw new ApiError(409, "INVALIDJOBSTATE", `Job is ${job.state}, not Open: data can be uploaded only to an open job`);
        if (typeof ctx.body !== "string") throw new ApiError(400, "ClientInputError", "The job data must be CSV (Content-Type: text/csv)");
        if (job.upload !== undefined) throw new ApiError(409, "INVALIDJOBSTATE", "Data was already uploaded to this job: create another job for more");
        job.upload = ctx.body;
        return { status: 201 };
      },
    },
    { method: "GET", pattern: /^\/jobs\/ingest\/([^/]+)\/successfulResults\/?$/, handler: (_ctx, [id]) => { const job = jobOr404("ingest", id!); const lose = options.faults.loseResultRows > 0 && options.faults.loseResultRows--; return resultsOf(job, lose ? job.successful.slice(0, -1) : job.successful, ["sf__Id", "sf__Created", ...job.columns]); } },
    { method: "GET", pattern: /^\/jobs\/ingest\/([^/]+)\/failedResults\/?$/, handler: (_ctx, [id]) => { const job = jobOr404("ingest", id!); return resultsOf(job, job.failed, ["sf__Id", "sf__Error", ...job.columns]); } },
    {
      method: "GET", pattern: /^\/jobs\/ingest\/([^/]+)\/unprocessedrecords\/?$/,
      handler: (_ctx, [id]) => {
        const job = jobOr404("ingest", id!);
        // Rows never processed: all of them when the job was aborted or failed before it ran, the rest when it stopped part way.
        const rows = job.state === "JobComplete" || !job.upload ? [] : (parseCsvText(job.upload, { skip_empty_lines: true, relax_column_count: true }) as string[][]);
        const header = rows.shift() ?? job.columns;
        return resultsOf(job, rows.slice(job.numberRecordsProcessed).map(csvLine), header);
      },
    },
  ];
}
