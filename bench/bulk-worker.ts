/**
 * One export or import of `npm run bench:bulk`, in its own process so that its peak RSS is its own:
 * `tsx bench/bulk-worker.ts <rest|bulk|jsforce> <export|import> <emulator url> <rows> <file>`. Prints
 * `{ rows, ms, peakRssGrowthMB, finished }` as JSON.
 */
import { Readable } from "node:stream";
import { Connection } from "@jsforce/jsforce-node";
import { Crm } from "../src/client";
import { bulkRecords, exportPages, inPages } from "../src/webviews/resultsExport";
import { DEMO } from "../test/emulator/seed";

const [client, work, url, limitText, file] = process.argv.slice(2) as ["rest" | "bulk" | "jsforce", "export" | "import", string, string, string];
const limit = Number(limitText);
const SOQL = "SELECT Id, Name, Event_Type__c, Amount__c, Note__c FROM Export_Row__c";
const COLUMNS = ["Id", "Name", "Event_Type__c", "Amount__c", "Note__c"].map((path) => ({ path }));
const TYPES = new Map([["amount__c", "currency"]]);
/** A jsforce export that stops producing rows is given up after this long (measured-baselines.md: it stalls at 1M). */
const STALL_MS = 20_000;

let peak = 0;
let baseline = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));

/** The rows to import, as CSV text produced line by line (never all in memory at once). */
function* importLines(): Generator<string> {
  yield "Name,Value_0001__c\n";
  for (let i = 0; i < limit; i++) yield `Imported row ${i},${i}\n`;
}

async function run(): Promise<{ rows: number; finished: boolean }> {
  if (client === "jsforce") {
    const conn = new Connection({ loginUrl: url, version: "62.0", oauth2: { loginUrl: url, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, redirectUri: "http://localhost/cb" } });
    await conn.login(DEMO.username, DEMO.password + DEMO.securityToken);
    conn.bulk2.pollInterval = 200;
    conn.bulk2.pollTimeout = 600_000;
    baseline = process.memoryUsage().rss;
    if (work === "import") {
      const results = await conn.bulk2.loadAndWaitForResults({ object: "Obj_0001__c", operation: "insert", input: Readable.from(importLines()), pollInterval: 200, pollTimeout: 600_000 });
      return { rows: results.successfulResults.length, finished: true };
    }
    const stream = await conn.bulk2.query(`${SOQL}${limit < 1_000_000 ? ` LIMIT ${limit}` : ""}`, { pollInterval: 200, pollTimeout: 600_000 });
    return new Promise((resolve, reject) => {
      let rows = 0;
      let last = Date.now();
      const stall = setInterval(() => Date.now() - last > STALL_MS && (clearInterval(stall), resolve({ rows, finished: false })), 1_000);
      stream.on("record", () => ((rows += 1), (last = Date.now())));
      stream.on("end", () => (clearInterval(stall), resolve({ rows, finished: true })));
      stream.on("error", (err: Error) => (clearInterval(stall), reject(err)));
    });
  }
  const crm = await Crm.create({ endpointUrl: url, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, username: DEMO.username, password: DEMO.password, securityToken: DEMO.securityToken });
  baseline = process.memoryUsage().rss;
  const poll = { intervalMs: 200, maxIntervalMs: 1_000 };
  if (work === "import") {
    const result = await crm.bulk.ingest({ object: "Obj_0001__c", operation: "insert" }, Readable.from(importLines()), { poll });
    crm.close();
    return { rows: result.successful, finished: true };
  }
  const soql = `${SOQL}${limit < 1_000_000 ? ` LIMIT ${limit}` : ""}`;
  // The product's export path: REST pages, or a Bulk job's rows typed as REST's, through the same writer.
  const pages = client === "rest"
    ? (async function* () { for await (const page of crm.queryPages(soql, { batchSize: 2000 })) yield page.records; })()
    : inPages(bulkRecords(crm.bulk.queryCsv(soql, { poll }), TYPES), 2000);
  const { rows } = await exportPages(pages, file, { format: "csv", columns: COLUMNS });
  crm.close();
  return { rows, finished: true };
}

const timer = setInterval(sample, 20);
const started = performance.now();
run().then(
  (result) => {
    clearInterval(timer);
    sample();
    process.stdout.write(`${JSON.stringify({ ...result, ms: Math.round(performance.now() - started), peakRssGrowthMB: Math.round((peak - baseline) / 1048576) })}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
