/**
 * `crm-knowledge check` on more than one core: a large folder's articles are checked in worker threads (reading,
 * parsing and sanitizing are most of a check's time, and each article's are its own), while this thread keeps
 * what spans articles (URL names, links) and the findings in order. A small folder is checked in this thread:
 * starting a worker costs more than it saves.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { startWorker, workerCalls } from "./workers";
import type { ArticleChecker, ArticleOutcome, CheckOptions, FolderFacts } from "../workflows/knowledgeCheck";

export interface CheckRequest { id: number; name: string; reported: boolean }

/** Below this many articles a check stays in one thread. */
export const THREADED_FROM = 500;
/** Articles under way per worker: enough that none waits for the next, few enough to hold little. */
const QUEUED_PER_WORKER = 8;
/**
 * A worker holds a few articles at a time: its young generation is kept small (collected often, the process's
 * memory stays flat: 8 MB against V8's default took 90 MB less at 10,000 articles for 10 % more time); its old
 * generation may grow to what one very large article (4 MB of HTML through jsdom) needs.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 };
/** More threads than this cost memory (each a heap and the code) for little: reading the disk is shared. */
const MOST_THREADS = 4;

/** Worker threads for checking the folder at `root` (`spread` for checkFolder); `close` ends them, whatever happened. */
export function checkThreads(root: string, threads = Math.min(availableParallelism(), MOST_THREADS), threadedFrom = THREADED_FROM): { spread: NonNullable<CheckOptions["spread"]>; close(): Promise<void> } {
  const workers: Worker[] = [];
  return {
    spread: (articles: number, facts: FolderFacts) => {
      if (threads < 2 || articles < threadedFrom) return undefined;
      for (let i = 0; i < threads; i++) workers.push(startWorker("checkWorker.ts", "crm-knowledge-check.js", { workerData: { root, facts }, resourceLimits: WORKER_LIMITS }));
      const { call } = workerCalls(workers, "A worker thread of the check");
      let next = 0;
      const check: ArticleChecker = (name, reported) => call<ArticleOutcome>(next++ % workers.length, { name, reported } satisfies Omit<CheckRequest, "id">);
      return { check, width: threads * QUEUED_PER_WORKER };
    },
    close: async () => {
      await Promise.all(workers.splice(0).map((w) => w.terminate()));
    },
  };
}
