/**
 * A command-line tool's process: the command runs in a worker thread whose heap is bounded, and the process's exit
 * code is the command's. Given a bound, V8 keeps a heap near what is live; the main thread's heap is sized from the
 * machine's memory and lets garbage pile up between collections (a pull of 10,000 articles, back to back: 163 MB at
 * its peak there, 116 MB here, for about 6 % more time). A bin cannot give Node the flags for this (`--max-old-space-size`), a worker's
 * resourceLimits can. The main thread only waits.
 */
import path from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { workerOf } from "./workers";
import type { CliContext } from "./usage";

/** Young 8 MB: collected often, little garbage held; old 1 GB: far above what a command holds live (a knowledge folder's articles a chunk at a time), a bound so V8 sizes it to its use. */
const COMMAND_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 1024 };

export function runBin(name: string, run: (ctx: CliContext) => Promise<number>): void {
  if (!isMainThread) {
    void run({
      argv: (workerData as { argv: string[] }).argv, env: process.env, cwd: process.cwd(),
      out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`),
    }).then((code) => parentPort!.postMessage(code));
    return;
  }
  let told = false;
  // The entry the process was started with (the bin's bundle, or its source through tsx), again in the worker.
  const worker = workerOf(path.resolve(process.argv[1]!), { workerData: { argv: process.argv.slice(2) }, resourceLimits: COMMAND_LIMITS });
  worker.on("message", (code: number) => {
    told = true;
    process.exitCode = code;
  });
  worker.on("error", (err: Error & { code?: string }) => {
    process.stderr.write(`${name}: ${err.code === "ERR_WORKER_OUT_OF_MEMORY" ? `ran out of memory (${COMMAND_LIMITS.maxOldGenerationSizeMb} MB)` : err.stack ?? err.message}\n`);
    process.exitCode = 1;
  });
  worker.on("exit", (code) => {
    if (!told) process.exitCode ||= code || 1;
  });
  // A reader that stopped reading (`| head`): the rest of the output is let go, and the command still runs to its
  // end — a push or a migration piped to head completes its writes — with its own exit code.
  process.stdout.on("error", (err: Error & { code?: string }) => {
    if (err.code !== "EPIPE") throw err;
    worker.stdout.resume();
  });
}
