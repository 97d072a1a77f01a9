/**
 * A knowledge folder on disk whose file calls run in a worker thread of their own (`crm-knowledge pull`): there
 * each call blocks, one after another, while this thread goes on reading the org and laying out articles. Through
 * libuv's pool a file write is three hops (open, write, close), each waking a thread; here it is one message, and
 * the writing overlaps the pull's own work on a second core. What the folder refuses is the same: the worker is
 * `nodeFolder`, and the guard wraps this FolderIO as any other.
 */
import type { Worker } from "node:worker_threads";
import { CrmError } from "../client/errors";
import { type FolderIO, FolderContentError } from "../workflows/folderFiles";
import { startWorker } from "./workers";

export type FolderCall = { [K in keyof FolderIO]-?: FolderIO[K] extends (...args: infer A) => unknown ? { id: number; op: K; args: A } : never }[Exclude<keyof FolderIO, "refusesLinks">];
export type FolderReply = { id: number; value?: unknown } | { id: number; error: { name: string; message: string; code?: string } };

/** The error a call failed with, of the class the sync tells apart (a FolderContentError refuses one article, not the pull). */
function errorFrom({ name, message, code }: { name: string; message: string; code?: string }): Error {
  const made = name === "FolderContentError" ? new FolderContentError(message) : name === "CrmError" ? new CrmError(message) : name === "TypeError" ? new TypeError(message) : new Error(message);
  return Object.assign(made, code ? { code } : {});
}

/** The folder at `root` through a worker thread; `close` ends the thread (calls under way are refused). */
export function folderThread(root: string): FolderIO & { close(): Promise<void> } {
  const worker: Worker = startWorker("folderWorker.ts", "crm-knowledge-folder.js", { workerData: { root }, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 } });
  const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let ended: Error | undefined;
  const end = (err: Error) => {
    ended ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on("message", (reply: FolderReply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ("error" in reply) waiting?.reject(errorFrom(reply.error));
    else waiting?.resolve(reply.value);
  });
  worker.on("error", end);
  worker.on("exit", (code) => end(new Error(`The knowledge folder's file thread stopped (exit code ${code})`)));
  let next = 0;
  const call = <T>(op: FolderCall["op"], ...args: unknown[]) => new Promise<T>((resolve, reject) => {
    if (ended) return reject(ended);
    const id = next++;
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    worker.postMessage({ id, op, args });
  });
  return {
    refusesLinks: true,
    read: (p, maxBytes) => call("read", p, maxBytes),
    write: (p, data) => call("write", p, data),
    remove: (p) => call("remove", p),
    list: (p) => call("list", p),
    stat: (p) => call("stat", p),
    close: async () => {
      end(new Error("The knowledge folder's file thread was closed"));
      await worker.terminate();
    },
  };
}
