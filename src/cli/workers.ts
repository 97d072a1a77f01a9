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

/**
 * In a worker of batched calls: each list of calls answered in order, by one list of replies, one list after
 * another (a call still under way when the next list comes is finished first).
 */
export function answerInTurn<C extends { id: number }>(port: { on(event: "message", listener: (calls: C[]) => void): unknown; postMessage(replies: WorkerReply[]): void }, work: (call: C) => Promise<unknown>): void {
  let previous = Promise.resolve();
  port.on("message", (calls) => {
    previous = previous.then(async () => {
      const replies: WorkerReply[] = [];
      for (const call of calls) await answer(call.id, Promise.resolve().then(() => work(call)), (reply) => replies.push(reply));
      port.postMessage(replies);
    });
  });
}

function errorFrom({ name, message, code }: { name: string; message: string; code?: string }): Error {
  const made = name === "FolderContentError" ? new FolderContentError(message) : name === "CrmError" ? new CrmError(message) : name === "TypeError" ? new TypeError(message) : new Error(message);
  return Object.assign(made, code ? { code } : {});
}

/**
 * Calls to worker threads that answer each message `{ id, … }` with a WorkerReply: each call a promise. A worker
 * that fails or stops rejects every call under way and every one after (`end` does so too, for closing).
 * `batched`: the calls made to a worker in one turn go as one message, a list, answered by a list of replies
 * (`answerInTurn`): a pull makes about ten file calls an article at once, and each message costs both threads.
 */
export function workerCalls(workers: Worker[], what: string, options: { batched?: boolean } = {}): { call<T>(worker: number, message: object): Promise<T>; end(err: Error): void } {
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let ended: Error | undefined;
  const end = (err: Error) => {
    ended ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  for (const worker of workers) {
    worker.on("message", (replies: WorkerReply | WorkerReply[]) => {
      for (const reply of Array.isArray(replies) ? replies : [replies]) {
        const waiting = pending.get(reply.id);
        pending.delete(reply.id);
        if ("error" in reply) waiting?.reject(errorFrom(reply.error));
        else waiting?.resolve(reply.value);
      }
    });
    worker.on("error", end);
    worker.on("exit", (code) => end(new Error(`${what} stopped (exit code ${code})`)));
  }
  let next = 0;
  /** Each worker's calls of this turn, when batched. */
  const turn = new Map<number, object[]>();
  const post = (worker: number, message: object) => {
    if (!options.batched) return workers[worker]!.postMessage(message);
    const calls = turn.get(worker);
    if (calls) return calls.push(message);
    turn.set(worker, [message]);
    queueMicrotask(() => {
      const batch = turn.get(worker)!;
      turn.delete(worker);
      if (!ended) workers[worker]!.postMessage(batch);
    });
  };
  return {
    call: <T>(worker: number, message: object) => new Promise<T>((resolve, reject) => {
      if (ended) return reject(ended);
      const id = next++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      post(worker, { ...message, id });
    }),
    end,
  };
}
