/**
 * A worker thread of `crm-knowledge check` (built to dist/crm-knowledge-check.js): checks the articles the main
 * thread hands it, one message each, on the same folder, and answers with each article's outcome (checkThreads.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { type FolderFacts, articleCheckerOf } from "../workflows/knowledgeCheck";
import { nodeFolder, readManifest } from "../workflows/folderFiles";
import { richTextRemovals } from "./richText";
import type { CheckRequest } from "./checkThreads";
import { answer } from "./workers";

const { root, facts } = workerData as { root: string; facts: FolderFacts };
const io = nodeFolder(root, { blocking: true });
// A record the main thread could not read (it reported it) is read here as it was there: as none.
const check = readManifest(io).catch(() => undefined).then((manifest) => articleCheckerOf(io, manifest, facts, richTextRemovals));
const port = parentPort!;
port.on("message", ({ id, name, reported }: CheckRequest) => {
  void answer(id, check.then((checkArticle) => checkArticle(name, reported)), (reply) => port.postMessage(reply));
});
