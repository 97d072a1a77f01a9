/**
 * The worker thread of `folderThread` (built to dist/crm-knowledge-folder.js): the folder's file calls, each
 * answered in turn, with blocking calls (this thread does nothing else); the calls of one turn come as one message.
 */
import { parentPort, workerData } from "node:worker_threads";
import { nodeFolder } from "../workflows/folderFiles";
import type { FolderCall } from "./folderThread";
import { answerInTurn } from "./workers";

const io = nodeFolder((workerData as { root: string }).root, { blocking: true });
answerInTurn<FolderCall>(parentPort!, ({ op, args }) => (io[op] as (...a: unknown[]) => Promise<unknown>)(...args));
