/**
 * `npm run bench:bulk`: exports of the `large` seed's 1,000,000 generated rows (five fields, a quoted phrase
 * and a comma in each note) through REST pages, through a Bulk API 2.0 job (both the product's export path, to
 * a CSV file) and through @jsforce/jsforce-node's bulk2; smaller sizes find where Bulk starts to pay; imports
 * of 1,000,000 rows with 100 the org refuses through this client's ingest, plain `fetch` doing the same job, and
 * jsforce's bulk2, each against an emulator of its own. Each run is its own process (bench/bulk-worker.ts), so
 * its peak RSS is its own. Figures go to bench/results/bulk.json and the README.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { recordResults } from "./readme";
import { startEmulatorProcess } from "./emulator-process";

const run = promisify(execFile);
interface Outcome { rows: number; failed?: number; ms: number; peakRssGrowthMB: number; finished: boolean }

async function worker(client: "rest" | "bulk" | "jsforce" | "fetch", work: "export" | "import", url: string, rows: number, dir: string): Promise<Outcome> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/bulk-worker.ts", client, work, url, String(rows), path.join(dir, `${client}-${work}-${rows}.csv`)], { maxBuffer: 1 << 20, timeout: 900_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Outcome;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const rate = (o: Outcome) => (o.finished ? fmt(Math.round(o.rows / (o.ms / 1000))) : "—");
const line = (label: string, o: Outcome) =>
  `| ${label} | ${o.finished ? `${fmt(o.rows)} rows in ${(o.ms / 1000).toFixed(1)} s` : `stalled after ${fmt(o.rows)} rows`} | ${rate(o)} | ${o.peakRssGrowthMB} MB |`;

const importLine = (label: string, o: Outcome, yardstick: Outcome) =>
  `| ${label} | ${fmt(o.rows)} rows in ${(o.ms / 1000).toFixed(1)} s | ${rate(o)} | ${fmt(o.failed ?? 0)} | ${(o.ms / yardstick.ms).toFixed(2)}× | ${o.peakRssGrowthMB} MB |`;

async function main() {
  const emu = await startEmulatorProcess("large");
  const dir = mkdtempSync(path.join(tmpdir(), "crm-bench-bulk-"));
  try {
    const results: Record<string, Outcome> = {};
    const measure = async (key: string, client: "rest" | "bulk" | "jsforce", work: "export" | "import", rows: number) => {
      results[key] = await worker(client, work, emu.url, rows, dir);
      console.log(key, JSON.stringify(results[key]));
    };
    await measure("rest-1M", "rest", "export", 1_000_000);
    // A process's peak RSS follows its garbage collector's timing: the Bulk export is run three times and its median kept.
    const bulkRuns: Outcome[] = [];
    for (let i = 0; i < 3; i++) bulkRuns.push(await worker("bulk", "export", emu.url, 1_000_000, dir));
    const median = (pick: (o: Outcome) => number) => [...bulkRuns].map(pick).sort((a, b) => a - b)[1]!;
    results["bulk-1M"] = { rows: bulkRuns[0]!.rows, finished: bulkRuns.every((o) => o.finished), ms: median((o) => o.ms), peakRssGrowthMB: median((o) => o.peakRssGrowthMB) };
    const rssRange = `${Math.min(...bulkRuns.map((o) => o.peakRssGrowthMB))}–${Math.max(...bulkRuns.map((o) => o.peakRssGrowthMB))} MB`;
    console.log("bulk-1M", JSON.stringify(bulkRuns));
    await measure("jsforce-1M", "jsforce", "export", 1_000_000);
    await measure("bulk-100k", "bulk", "export", 100_000);
    await measure("jsforce-100k", "jsforce", "export", 100_000);
    for (const size of [5_000, 20_000, 50_000]) {
      await measure(`rest-${size}`, "rest", "export", size);
      await measure(`bulk-${size}`, "bulk", "export", size);
    }
    // Each import into an org of its own: a million new records each would weigh on the next.
    const importInFreshOrg = async (key: string, client: "bulk" | "fetch" | "jsforce") => {
      const org = await startEmulatorProcess("large");
      try {
        results[key] = await worker(client, "import", org.url, 1_000_000, dir);
        console.log(key, JSON.stringify(results[key]));
      } finally {
        org.stop();
      }
    };
    await importInFreshOrg("import-bulk-1M", "bulk");
    await importInFreshOrg("import-fetch-1M", "fetch");
    await importInFreshOrg("import-jsforce-1M", "jsforce");

    const crossover = [5_000, 20_000, 50_000].find((size) => results[`bulk-${size}`]!.ms <= results[`rest-${size}`]!.ms);
    const meta = { date: new Date().toISOString(), node: process.version };
    const goals = [
      `Bulk at least as fast as jsforce: **${results["bulk-100k"]!.ms <= results["jsforce-100k"]!.ms ? "met" : "not met"}** at 100,000 rows (jsforce ${results["jsforce-1M"]!.finished ? "finished" : "did not finish"} at 1,000,000)`,
      `an export's peak RSS growth under 64 MB whatever the row count: **${Math.max(results["bulk-1M"]!.peakRssGrowthMB, results["bulk-100k"]!.peakRssGrowthMB) < 64 ? "met" : "not met"}** (Bulk export at 1,000,000 rows: median ${results["bulk-1M"]!.peakRssGrowthMB} MB of three runs, ${rssRange})`,
    ];
    const imported = results["import-bulk-1M"]!;
    const exact = imported.rows === 999_900 && imported.failed === 100;
    const ratio = (o: Outcome) => (o.ms / results["import-fetch-1M"]!.ms).toFixed(2);
    goals.push(`an import of 1,000,000 rows with exact counts (999,900 successful, 100 failed) in at most 1.2× the plain-fetch time, peak RSS growth under 64 MB: **${exact && imported.ms <= 1.2 * results["import-fetch-1M"]!.ms && imported.peakRssGrowthMB < 64 ? "met" : "not met"}** (${fmt(imported.rows)} successful and ${fmt(imported.failed ?? 0)} failed, ${ratio(imported)}× plain fetch, ${imported.peakRssGrowthMB} MB; jsforce ${ratio(results["import-jsforce-1M"]!)}× and ${results["import-jsforce-1M"]!.peakRssGrowthMB} MB)`);
    const extra = results["jsforce-100k"]!.rows - 100_000;
    if (extra > 0) goals.push(`jsforce's count at 100,000 rows is ${fmt(extra)} too many: it reads a later result set's header line as a record`);
    const body = [
      `Written by \`npm run bench:bulk\` (${meta.date}, Node ${meta.node}); the emulator (\`large\` seed) in its own process on 127.0.0.1, each export or import in a process of its own. Exports write CSV through the product's export path (REST pages of 2,000, or a Bulk job's rows); jsforce counts the rows its \`bulk2.query\` emits (given up after 20 s without a row).`,
      "",
      "| export | result | rows/s | peak RSS growth |",
      "|---|---|---:|---:|",
      line("REST pages, 1,000,000 rows", results["rest-1M"]!),
      line("Bulk API job, 1,000,000 rows (median of 3)", results["bulk-1M"]!),
      line("jsforce bulk2, 1,000,000 rows", results["jsforce-1M"]!),
      line("Bulk API job, 100,000 rows", results["bulk-100k"]!),
      line("jsforce bulk2, 100,000 rows", results["jsforce-100k"]!),
      ...[5_000, 20_000, 50_000].flatMap((size) => [line(`REST pages, ${fmt(size)} rows`, results[`rest-${size}`]!), line(`Bulk API job, ${fmt(size)} rows`, results[`bulk-${size}`]!)]),
      "",
      "| import (1,000,000 rows, 100 refused) | result | rows/s | failed rows | time vs plain fetch | peak RSS growth |",
      "|---|---|---:|---:|---:|---:|",
      importLine("this client's ingest (results streamed to files)", results["import-bulk-1M"]!, results["import-fetch-1M"]!),
      importLine("plain `fetch` (CSV and results held whole)", results["import-fetch-1M"]!, results["import-fetch-1M"]!),
      importLine("jsforce bulk2", results["import-jsforce-1M"]!, results["import-fetch-1M"]!),
      "",
      `Goals: ${goals.join("; ")}. On loopback a Bulk job pays for its polling, so REST pages win below ${crossover ? `about ${fmt(crossover)} rows` : "50,000 rows"}; against a real org each REST page costs a round trip and an API call, so \`crm.export.bulkThreshold\` defaults to 10,000 rows.`,
    ].join("\n");
    recordResults("bulk", { meta, results, bulk1MRuns: bulkRuns }, "Bulk API 2.0", body);
  } finally {
    emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
