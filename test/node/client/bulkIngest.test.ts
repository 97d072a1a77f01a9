// Imports that lose nothing, at any size: every row accounted for, results streamed to files, small loads
// through sObject Collections with the same results.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import "../../../src/client/bulk";
import { IngestCountError } from "../../../src/client/errors";
import { parseCsv } from "../../../src/client/csv";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator({ seed: "empty", bulkLatencyMs: 10 });
const poll = { intervalMs: 20, maxIntervalMs: 100 };
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function resultBase(name: string) {
  const dir = await mkdtemp(path.join(tmpdir(), "ingest-"));
  dirs.push(dir);
  return path.join(dir, name);
}
const jobRequests = (since: number) => emu().requests.slice(since).filter((r) => r.path.includes("/jobs/ingest"));

test("a row of one empty column is a row: three rows in, three processed", async () => {
  const c = await demoClient(emu());
  const failed: Record<string, string | null>[] = [];
  const result = await c.bulk.ingest({ object: "Account", operation: "insert" }, [{ Name: "One" }, { Name: "" }, { Name: "Three" }], {
    poll, collectionsBelow: 0, onResult: (kind, row) => void (kind === "failed" && failed.push(row)),
  });
  assert.deepEqual([result.rows, result.processed, result.successful, result.failed], [3, 3, 2, 1]);
  assert.match(failed[0]!.sf__Error!, /REQUIRED_FIELD_MISSING/);
});

test("results that do not add up to the rows uploaded raise IngestCountError naming the job; the files keep what came", async () => {
  const c = await demoClient(emu());
  const base = await resultBase("lost");
  emu().setFault("loseResultRows", 1);
  const err = await c.bulk.ingest({ object: "Account", operation: "insert" }, "Name\nA\nB\nC\n", { poll, collectionsBelow: 0, resultFiles: base }).catch((e: unknown) => e);
  assert.ok(err instanceof IngestCountError, String(err));
  assert.match(err.message, /^Bulk job 750\w+ was sent 3 rows, but its results list 2 successful, 0 failed and 0 unprocessed: 1 are unaccounted for\. Check the job's results in the org/);
  assert.equal(parseCsv(await readFile(`${base}.success.csv`, "utf8")).length, 3, "header and the two rows that came");
});

test("200,000 rows: exact counts, results streamed into their files, never held", { timeout: 180_000 }, async () => {
  const c = await demoClient(emu());
  const base = await resultBase("big");
  const total = 200_000;
  const lines = function* () {
    yield "Name,Phone\n";
    // Every thousandth row has no name: the org refuses it.
    for (let i = 0; i < total; i++) yield `${i % 1000 === 0 ? "" : `Big ${i}`},+1 555 ${i}\n`;
  };
  const result = await c.bulk.ingest({ object: "Account", operation: "insert" }, Readable.from(lines()), { poll, resultFiles: base });
  const bad = total / 1000;
  assert.deepEqual([result.via, result.rows, result.processed, result.successful, result.failed, result.unprocessed], ["bulk", total, total, total - bad, bad, 0]);
  const success = await readFile(`${base}.success.csv`, "utf8");
  assert.equal(success.trimEnd().split("\n").length, total - bad + 1);
  assert.match(success, /^"?sf__Id"?,"?sf__Created"?,"?Name"?,"?Phone"?\n/);
  const failedRows = parseCsv(await readFile(`${base}.failed.csv`, "utf8"));
  assert.equal(failedRows.length, bad + 1);
  assert.match(failedRows[1]![1]!, /REQUIRED_FIELD_MISSING/);
  assert.deepEqual(result.files, { successful: `${base}.success.csv`, failed: `${base}.failed.csv` });
});

test("an org loads a big job a slice at a time: other requests are answered meanwhile and see its rows arrive", async () => {
  const c = await demoClient(emu());
  const total = 30_000;
  const before = (await c.soqlQuery("SELECT COUNT() FROM Contact")).totalSize;
  let loading = true;
  const ingest = c.bulk.ingest({ object: "Contact", operation: "insert" }, Readable.from((function* () {
    yield "LastName\n";
    for (let i = 0; i < total; i++) yield `Sliced ${i}\n`;
  })()), { poll, collectionsBelow: 0 }).finally(() => (loading = false));
  const seen: number[] = [];
  while (loading) seen.push((await c.soqlQuery("SELECT COUNT() FROM Contact")).totalSize - before);
  assert.equal((await ingest).successful, total);
  assert.ok(seen.some((n) => n > 0 && n < total), `a count answered part way through the load (counts seen: ${[...new Set(seen)].join(", ")})`);
});

test("a small load goes through sObject Collections with the same results, files and counts", async () => {
  const c = await demoClient(emu());
  const base = await resultBase("small");
  const since = emu().requests.length;
  const rows: string[] = [];
  const result = await c.bulk.ingest({ object: "Account", operation: "insert" }, [{ Name: "Small 1", NumberOfEmployees: 5 }, { Name: "", NumberOfEmployees: 2 }, { Name: "Small 3", NumberOfEmployees: null }], {
    resultFiles: base, onResult: (kind, row) => void rows.push(`${kind}:${row.Name ?? ""}:${row.sf__Created ?? row.sf__Error ?? ""}`),
  });
  assert.deepEqual([result.via, result.jobIds, result.rows, result.successful, result.failed], ["collections", [], 3, 2, 1]);
  assert.equal(jobRequests(since).length, 0, "no Bulk job");
  assert.equal(emu().requests.slice(since).filter((r) => r.path.endsWith("/composite/sobjects")).length, 1);
  assert.deepEqual(rows.map((r) => r.replace(/:REQUIRED_FIELD_MISSING.*/, ":REQUIRED_FIELD_MISSING")), ["successful:Small 1:true", "failed::REQUIRED_FIELD_MISSING", "successful:Small 3:true"]);
  const created = emu().seeded.store.liveRecords("Account").filter((a) => String(a.Name).startsWith("Small "));
  assert.deepEqual(created.map((a) => [a.Name, a.NumberOfEmployees ?? null]).sort(), [["Small 1", 5], ["Small 3", null]], "typed values, #N/A as empty");
  assert.deepEqual(parseCsv(await readFile(`${base}.success.csv`, "utf8"))[0], ["sf__Id", "sf__Created", "Name", "NumberOfEmployees"]);
  // The same load as a Bulk job answers the same rows.
  const bulk = await c.bulk.ingest({ object: "Account", operation: "insert" }, [{ Name: "Small 4" }], { poll, collectionsBelow: 0 });
  assert.equal(bulk.via, "bulk");
  // Updates with a malformed Id fail that row alone, as a Bulk job does.
  const updated = await c.bulk.ingest({ object: "Account", operation: "update" }, `Id,Phone\n${created[0]!.Id},+1 555 0199\nnot-an-id,+1\n`, {});
  assert.deepEqual([updated.via, updated.successful, updated.failed], ["collections", 1, 1]);
  assert.equal(created[0]!.Phone, "+1 555 0199");
});

test("a CSV file the caller wrote is loaded as one job, sent as it is and left in place; a small one goes through Collections, a large one is split; a wrong count is named", async () => {
  const c = await demoClient(emu());
  const file = `${await resultBase("written")}.csv`;
  const text = `Name,Phone\n${Array.from({ length: 30 }, (_, i) => `Written ${i},"+1 555, ${i}"`).join("\n")}\n`;
  await writeFile(file, text);
  const since = emu().requests.length;
  const names: string[] = [];
  const result = await c.bulk.ingestCsvFile({ object: "Account", operation: "insert" }, { file, rows: 30 }, { poll, collectionsBelow: 10, onResult: (kind, row) => void (kind === "successful" && names.push(row.Name!)) });
  assert.deepEqual([result.via, result.jobIds.length, result.rows, result.successful], ["bulk", 1, 30, 30]);
  assert.equal(names.length, 30);
  const upload = jobRequests(since).find((r) => r.method === "PUT");
  assert.equal(upload?.body, text, "the file's bytes are the upload");
  assert.equal(await readFile(file, "utf8"), text, "the caller's file is left as it was");

  const small = await c.bulk.ingestCsvFile({ object: "Account", operation: "insert" }, { file, rows: 30 }, { poll, collectionsBelow: 100 });
  assert.deepEqual([small.via, small.successful], ["collections", 30]);

  const split = await c.bulk.ingestCsvFile({ object: "Account", operation: "insert" }, { file, rows: 30 }, { poll, collectionsBelow: 10, maxUploadBytes: 300 });
  assert.ok(split.jobIds.length > 1 && split.successful === 30, "a file larger than one upload may be is split as ingest splits a stream");

  const miscounted = await c.bulk.ingestCsvFile({ object: "Account", operation: "insert" }, { file, rows: 31 }, { poll, collectionsBelow: 10 }).catch((e: unknown) => e);
  assert.ok(miscounted instanceof IngestCountError && /was sent 31 rows/.test(miscounted.message), String(miscounted));
  await assert.rejects(c.bulk.ingestCsvFile({ object: "Account", operation: "insert" }, { file, rows: 0 }), /csv\.rows must be the whole number of records the file holds/);
  await assert.rejects(c.bulk.ingestCsvFile({ object: "Account", operation: "merge" as "insert" }, { file, rows: 30 }), /job\.operation must be one of/);
});
