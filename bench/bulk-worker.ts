/**
 * One export or import of `npm run bench:bulk`, in its own process so that its peak RSS is its own:
 * `tsx bench/bulk-worker.ts <rest|bulk|jsforce|fetch> <export|import> <emulator url> <rows> <file>`. Prints
 * `{ rows, failed, ms, peakRssGrowthMB, finished }` as JSON. `fetch` is an import written with plain `fetch`,
 * the shortest code that does the same job (create, upload, complete, poll, read the results): the yardstick.
 */
import { writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { Connection } from "@jsforce/jsforce-node";
import { Crm } from "../src/client";
import "../src/client/bulk";
import { bulkRecords, exportPages, inPages } from "../src/webviews/resultsExport";
import { DEMO } from "../src/demo-org/seed";

const [client, work, url, limitText, file] = process.argv.slice(2) as ["rest" | "bulk" | "jsforce" | "fetch", "export" | "import", string, string, string];
const limit = Number(limitText);
const SOQL = "SELECT Id, Name, Event_Type__c, Amount__c, Note__c FROM Export_Row__c";
const COLUMNS = ["Id", "Name", "Event_Type__c", "Amount__c", "Note__c"].map((path) => ({ path }));
const TYPES = new Map([["amount__c", "currency"]]);
/** A jsforce export that stops producing rows is given up after this long (measured-baselines.md: it stalls at 1M). */
const STALL_MS = 20_000;

let peak = 0;
let baseline = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));

/**
 * The rows to import, as CSV text in pieces of about 64 KB, as a file is read (never all in memory at once):
 * every 10,000th row has a value that is not a number, which the org refuses.
 */
function* importLines(): Generator<string> {
  let piece = "Name,Value_0001__c\n";
  for (let i = 0; i < limit; i++) {
    piece += `Imported row ${i},${i % 10_000 === 9_999 ? "n/a" : i}\n`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = "";
    }
  }
  if (piece) yield piece;
}

/** The import with nothing but `fetch`: the CSV built whole, the results read whole and written as they came. */
async function plainFetchImport(): Promise<{ rows: number; failed: number; finished: boolean }> {
  const token = (await (await fetch(`${url}/services/oauth2/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", client_id: DEMO.clientId, client_secret: DEMO.clientSecret, username: DEMO.username, password: DEMO.password + DEMO.securityToken }) })).json()) as { access_token: string; instance_url: string };
  baseline = process.memoryUsage().rss;
  const api = `${token.instance_url}/services/data/v62.0/jobs/ingest`;
  const headers = { Authorization: `Bearer ${token.access_token}`, "Content-Type": "application/json" };
  const job = (await (await fetch(api, { method: "POST", headers, body: JSON.stringify({ object: "Obj_0001__c", operation: "insert", contentType: "CSV", lineEnding: "LF" }) })).json()) as { id: string };
  await fetch(`${api}/${job.id}/batches`, { method: "PUT", headers: { ...headers, "Content-Type": "text/csv" }, body: [...importLines()].join("") });
  await fetch(`${api}/${job.id}`, { method: "PATCH", headers, body: JSON.stringify({ state: "UploadComplete" }) });
  for (let wait = 200; ; wait = Math.min(1_000, Math.round(wait * 1.5))) {
    await new Promise((r) => setTimeout(r, wait));
    const state = ((await (await fetch(`${api}/${job.id}`, { headers })).json()) as { state: string }).state;
    if (state === "JobComplete") break;
    if (state === "Failed" || state === "Aborted") throw new Error(`job ${state}`);
  }
  const read = async (resource: string, suffix: string) => {
    const text = await (await fetch(`${api}/${job.id}/${resource}`, { headers: { ...headers, Accept: "text/csv" } })).text();
    await writeFile(`${file}.${suffix}.csv`, text);
    return text.split("\n").filter(Boolean).length - 1;
  };
  return { rows: await read("successfulResults", "success"), failed: await read("failedResults", "failed"), finished: true };
}

async function run(): Promise<{ rows: number; failed?: number; finished: boolean }> {
  if (client === "fetch") return plainFetchImport();
  if (client === "jsforce") {
    const conn = new Connection({ loginUrl: url, version: "62.0", oauth2: { loginUrl: url, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, redirectUri: "http://localhost/cb" } });
    await conn.login(DEMO.username, DEMO.password + DEMO.securityToken);
    conn.bulk2.pollInterval = 200;
    conn.bulk2.pollTimeout = 600_000;
    baseline = process.memoryUsage().rss;
    if (work === "import") {
      const results = await conn.bulk2.loadAndWaitForResults({ object: "Obj_0001__c", operation: "insert", input: Readable.from(importLines()), pollInterval: 200, pollTimeout: 600_000 });
      return { rows: results.successfulResults.length, failed: results.failedResults.length, finished: true };
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
    const result = await crm.bulk.ingest({ object: "Obj_0001__c", operation: "insert" }, Readable.from(importLines()), { poll, resultFiles: file });
    crm.close();
    return { rows: result.successful, failed: result.failed, finished: true };
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
