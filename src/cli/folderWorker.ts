/**
 * The worker thread of `folderThread` (built to dist/crm-knowledge-folder.js): the folder's file calls, each
 * answered in turn, with blocking calls (this thread does nothing else).
 */
import { parentPort, workerData } from "node:worker_threads";
import { nodeFolder } from "../workflows/folderFiles";
import type { FolderCall, FolderReply } from "./folderThread";

const io = nodeFolder((workerData as { root: string }).root, { blocking: true });
const port = parentPort!;
port.on("message", ({ id, op, args }: FolderCall) => {
  (io[op] as (...a: unknown[]) => Promise<unknown>)(...args).then(
    (value) => port.postMessage({ id, value } satisfies FolderReply),
    (err: NodeJS.ErrnoException) => port.postMessage({ id, error: { name: String(err?.name ?? "Error"), message: String(err?.message ?? err), ...(err?.code ? { code: err.code } : {}) } } satisfies FolderReply));
});
