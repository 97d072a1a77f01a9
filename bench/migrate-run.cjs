// One migration run with the shipped library (dist/), in a process of its own, for bench/migrate.bench.ts: what a
// script that imports the client sees. Arguments: the source's and the target's helper files, the plan as JSON,
// the poll options as JSON. The run's record is the last line on stdout. With --startup it
// loads the library and ends: the bench measures each run's peak RSS from that. With --thread first, the same in a
// worker thread whose heap is bounded as crm-data bounds its command's (src/cli/bin.ts: young 8 MB, old 1 GB).
const { Worker, isMainThread } = require("node:worker_threads");
const { Crm } = require("../dist/client.js");
require("../dist/client-bulk.js");
const migration = require("../dist/workflows-migration.js");

async function main() {
  const argv = process.argv.slice(2);
  if (isMainThread && argv[0] === "--thread") {
    const worker = new Worker(__filename, { argv: argv.slice(1), resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 1024 } });
    worker.on("exit", (code) => (process.exitCode = code));
    return;
  }
  if (argv[0] === "--startup") return;
  const [from, to, plan, poll] = argv;
  const [source, target] = await Promise.all([Crm.create({ helper: from }), Crm.create({ helper: to })]);
  const began = performance.now();
  const run = await migration.run(source, JSON.parse(plan), target, { poll: JSON.parse(poll) });
  const ms = performance.now() - began;
  source.close();
  target.close();
  require("node:fs").rmSync(run.insertedIds.file, { force: true });
  process.stdout.write(`${JSON.stringify({ ms, state: run.state, error: run.error, requests: run.requests, objects: run.objects.map((o) => ({ object: o.object, inserted: o.inserted, failed: o.failed, via: o.via })) })}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
