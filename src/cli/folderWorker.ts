/**
 * The worker thread of `folderThread` (built to dist/crm-knowledge-folder.js): the folder's file calls, each
 * answered in turn, with blocking calls (this thread does nothing else).
 */
import { parentPort, workerData } from "node:worker_threads";
import { nodeFolder } from "../workflows/folderFiles";
import type { FolderCall } from "./folderThread";
import { answer } from "./workers";

const io = nodeFolder((workerData as { root: string }).root, { blocking: true });
const port = parentPort!;
port.on("message", ({ id, op, args }: FolderCall) => {
  void answer(id, (io[op] as (...a: unknown[]) => Promise<unknown>)(...args), (reply) => port.postMessage(reply));
});
