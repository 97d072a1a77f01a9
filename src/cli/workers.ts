import path from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { CrmError } from "../client/errors";
import { FolderContentError } from "../workflows/folderFiles";

/** A worker thread running `file`: a bundle of dist/, or a source file through tsx (run from source: the tests), found from here whatever the working folder. */
export const workerOf = (file: string, options: WorkerOptions): Worker => (file.endsWith(".ts")
  ? new Worker(`require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`, { ...options, eval: true })
  : new Worker(file, options));

/** A worker thread of the tool: `bundle` beside this one in dist/, or run from source, `source` beside this file. */
export const startWorker = (source: string, bundle: string, options: WorkerOptions): Worker =>
  workerOf(path.join(__dirname, __filename.endsWith(".ts") ? source : bundle), options);

/** A worker's answer to the call `id`: its value, or its error by class name (a FolderContentError refuses one article, not the run). */
export type WorkerReply = { id: number; value?: unknown } | { id: number; error: { name: string; message: string; code?: string } };

/** In a worker: posts what `work` ends with as the answer to the call `id`. */
export const answer = (id: number, work: Promise<unknown>, post: (reply: WorkerReply) => void): Promise<void> => work.then(
  (value) => post({ id, value }),
  (err: NodeJS.ErrnoException) => post({ id, error: { name: String(err?.name ?? "Error"), message: String(err?.message ?? err), ...(err?.code ? { code: err.code } : {}) } }));

function errorFrom({ name, message, code }: { name: string; message: string; code?: string }): Error {
  const made = name === "FolderContentError" ? new FolderContentError(message) : name === "CrmError" ? new CrmError(message) : name === "TypeError" ? new TypeError(message) : new Error(message);
  return Object.assign(made, code ? { code } : {});
}

/**
 * Calls to worker threads that answer each message `{ id, … }` with a WorkerReply: each call a promise. A worker
 * that fails or stops rejects every call under way and every one after (`end` does so too, for closing).
 */
export function workerCalls(workers: Worker[], what: string): { call<T>(worker: number, message: object): Promise<T>; end(err: Error): void } {
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let ended: Error | undefined;
  const end = (err: Error) => {
    ended ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  for (const worker of workers) {
    worker.on("message", (reply: WorkerReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ("error" in reply) waiting?.reject(errorFrom(reply.error));
      else waiting?.resolve(reply.value);
    });
    worker.on("error", end);
    worker.on("exit", (code) => end(new Error(`${what} stopped (exit code ${code})`)));
  }
  let next = 0;
  return {
    call: <T>(worker: number, message: object) => new Promise<T>((resolve, reject) => {
      if (ended) return reject(ended);
      const id = next++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      workers[worker]!.postMessage({ ...message, id });
    }),
    end,
  };
}
