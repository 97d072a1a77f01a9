#!/usr/bin/env node
// Exports a query's rows to a CSV file through a Bulk API 2.0 job, streamed: the rows are never all in memory.
// Runs with plain Node on the built client:  node examples/bulk-export.mjs helper.json "SELECT Id, Name FROM Account" accounts.csv
// Ctrl+C aborts the job at the org and removes the half-written file.
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { once } from "node:events";
import { Crm } from "crm-explorer/client";
import "crm-explorer/client/bulk"; // adds crm.bulk

const [helper, soql, file] = process.argv.slice(2);
if (!helper || !soql || !file) {
  console.error('usage: node examples/bulk-export.mjs <helper.json|helper.yaml> "<SOQL>" <file.csv>');
  process.exit(2);
}

const crm = await Crm.create({ helper });
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
const out = createWriteStream(file);
try {
  let rows = 0;
  const chunks = crm.bulk.queryCsv(soql, {
    signal: controller.signal,
    onProgress: (p) => {
      rows = p.rows;
      process.stderr.write(`\rjob ${p.jobId}: ${p.state}, ${rows} rows`);
    },
  });
  for await (const chunk of chunks) if (!out.write(chunk)) await once(out, "drain");
  out.end();
  await once(out, "finish");
  process.stderr.write("\n");
  console.log(`Exported ${rows} rows to ${file}`);
} catch (err) {
  out.destroy();
  await rm(file, { force: true });
  throw err;
} finally {
  crm.close();
}
