import path from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread of the tool: the bundle beside this one in dist/ — or, run from source (the tests), its source
 * through tsx, as the tests are.
 */
export const startWorker = (source: string, bundle: string, options: WorkerOptions): Worker => (__filename.endsWith(".ts")
  ? new Worker(`require("tsx/cjs"); require(${JSON.stringify(path.join(__dirname, source))});`, { ...options, eval: true })
  : new Worker(path.join(__dirname, bundle), options));
