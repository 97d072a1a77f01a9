/**
 * Imports under way, each written to a file of its own before its rows go (write-ahead): the CSV, the object and
 * the operation, when it began, the process running it, and each Bulk job as soon as the org has created it. The
 * file goes once the import has its answer. One left behind by a process that is gone is an import whose window
 * closed (or crashed) while the org went on with it: its jobs' results can still be read from the org
 * (`crm.bulk.resultsOf`), so nothing written goes unreported. Files in the folder are read as hostile: a
 * malformed one is skipped. No VS Code here: tested in Node.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import type { IngestOperation } from "../client/bulk";
import { isRecordId } from "../client/ids";
import { processRunning } from "../client/workFolders";
import { writeWhole } from "./wholeFile";

export interface ImportInFlight {
  id: string;
  orgKey: string;
  /** The CSV file (a URI's text: a local file or a virtual workspace's). */
  file: string;
  object: string;
  operation: IngestOperation;
  rows: number;
  startedAt: string;
  /** The process that ran it: while it lives the import is someone's work in progress, not an interrupted one. */
  pid: number;
  /** The Bulk jobs it created, in order (none when it went as sObject Collections requests). */
  jobs: string[];
}

const OPERATIONS: readonly string[] = ["insert", "update", "upsert", "delete", "hardDelete"];

/** One file's contents as an import record, or undefined when it is not one (the folder is read as hostile). */
function importOf(value: unknown): ImportInFlight | undefined {
  const v = value as Partial<ImportInFlight> | null;
  if (!v || typeof v !== "object") return undefined;
  const texts = [v.id, v.orgKey, v.file, v.object, v.startedAt];
  if (texts.some((t) => typeof t !== "string" || !t) || !/^[\w-]+$/.test(v.id!) || !OPERATIONS.includes(v.operation as string)) return undefined;
  if (!Number.isInteger(v.rows) || !Number.isInteger(v.pid) || !Array.isArray(v.jobs) || !v.jobs.every((j) => isRecordId(j))) return undefined;
  return v as ImportInFlight;
}

export class ImportsInFlight {
  /** This process's imports still waiting for their answer. */
  private readonly running = new Set<string>();

  constructor(private readonly dir: string, private readonly pid = process.pid) {}

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  /** Records an import before any of its rows is sent; `end` it once it has its answer, whatever the answer. */
  async begin(what: Omit<ImportInFlight, "id" | "pid" | "jobs" | "startedAt">): Promise<RecordedImport> {
    const record: ImportInFlight = { id: randomUUID(), ...what, startedAt: new Date().toISOString(), pid: this.pid, jobs: [] };
    await mkdir(this.dir, { recursive: true });
    await writeWhole(this.fileOf(record.id), JSON.stringify(record));
    this.running.add(record.id);
    return {
      record,
      noteJob: async (jobId) => {
        record.jobs.push(jobId);
        await writeWhole(this.fileOf(record.id), JSON.stringify(record));
      },
      end: () => this.forget(record.id),
      abandon: () => void this.running.delete(record.id),
    };
  }

  /** Imports that lost their answer: their process is gone, or it gave up on them (`abandon`). Oldest first. */
  async interrupted(): Promise<ImportInFlight[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const found: ImportInFlight[] = [];
    for (const name of names.filter((n) => n.endsWith(".json"))) {
      const record = importOf(await readFile(path.join(this.dir, name), "utf8").then((t) => JSON.parse(t) as unknown).catch(() => undefined));
      const waiting = record?.pid === this.pid ? this.running.has(record.id) : record && processRunning(record.pid);
      if (record && `${record.id}.json` === name && !waiting) found.push(record);
    }
    return found.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  async forget(id: string): Promise<void> {
    this.running.delete(id);
    await rm(this.fileOf(id), { force: true });
  }
}

export interface RecordedImport {
  readonly record: ImportInFlight;
  /** Adds a Bulk job, saved before its rows are uploaded (`ingest`'s `onJob`). */
  noteJob(jobId: string): Promise<void>;
  /** The import has its answer: the record goes. */
  end(): Promise<void>;
  /** The import lost its answer (a dropped connection): the record stays, to be checked at the org. */
  abandon(): void;
}
