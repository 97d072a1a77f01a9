import path from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** A worker thread running `file`: a bundle of dist/, or a source file through tsx (run from source: the tests), found from here whatever the working folder. */
export const workerOf = (file: string, options: WorkerOptions): Worker => (file.endsWith(".ts")
  ? new Worker(`require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`, { ...options, eval: true })
  : new Worker(file, options));

/** A worker thread of the tool: `bundle` beside this one in dist/, or run from source, `source` beside this file. */
export const startWorker = (source: string, bundle: string, options: WorkerOptions): Worker =>
  workerOf(path.join(__dirname, __filename.endsWith(".ts") ? source : bundle), options);
