/**
 * A knowledge folder on disk whose file calls run in a worker thread of their own (`crm-knowledge pull`): there
 * each call blocks, one after another, while this thread goes on reading the org and laying out articles. Through
 * libuv's pool a file write is three hops (open, write, close), each waking a thread; here the calls of a turn (an
 * article's files) are one message, and the writing overlaps the pull's own work on a second core. What the folder
 * refuses is the same: the worker is `nodeFolder`, and the guard wraps this FolderIO as any other.
 */
import type { FolderIO } from "../workflows/folderFiles";
import { startWorker, workerCalls } from "./workers";

export type FolderCall = { [K in keyof FolderIO]-?: FolderIO[K] extends (...args: infer A) => unknown ? { id: number; op: K; args: A } : never }[Exclude<keyof FolderIO, "refusesLinks">];

/** The folder at `root` through a worker thread; `close` ends the thread (calls under way are refused). */
export function folderThread(root: string): FolderIO & { close(): Promise<void> } {
  // It holds one call's data at a time: a small heap.
  const worker = startWorker("folderWorker.ts", "crm-knowledge-folder.js", { workerData: { root }, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 } });
  const { call, end } = workerCalls([worker], "The knowledge folder's file thread", { batched: true });
  const to = <T>(op: FolderCall["op"], ...args: unknown[]) => call<T>(0, { op, args });
  return {
    refusesLinks: true,
    read: (p, maxBytes) => to("read", p, maxBytes),
    write: (p, data) => to("write", p, data),
    remove: (p) => to("remove", p),
    list: (p) => to("list", p),
    stat: (p) => to("stat", p),
    close: async () => {
      end(new Error("The knowledge folder's file thread was closed"));
      await worker.terminate();
    },
  };
}
