import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { APIRequestError, BulkJobError, CancelledError, Crm, MissingRequiredDataError, type PendingWrite } from "../../../src/client";
import "../../../src/client/bulk";
import type { BulkProgress } from "../../../src/client/bulk";
import { parseCsv } from "../../../src/client/csv";
import { useEmulator, demoClient } from "../../helpers/emulator";
import type { IngestResult } from "../../../src/client/bulk";

const emu = useEmulator({ bulkLatencyMs: 40 });
/** An org whose jobs stay unfinished for the whole file, whatever the machine's load: what "not finished yet" is tested on. */
const slow = useEmulator({ bulkLatencyMs: 600_000 });
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));
const poll = { intervalMs: 20, maxIntervalMs: 50 };
/** Bulk jobs whatever the size (small loads would otherwise go through Collections), with every result row collected. */
function bulkOptions() {
  const rows: Record<"successful" | "failed" | "unprocessed", Record<string, string | null>[]> = { successful: [], failed: [], unprocessed: [] };
  return { rows, poll, collectionsBelow: 0, onResult: (kind: keyof typeof rows, row: Record<string, string | null>) => void rows[kind].push(row) };
}
const bulkRequests = (since: number, pattern: RegExp) => emu().requests.slice(since).filter((r) => pattern.test(r.path));

test("CSV: quotes, doubled quotes, commas and line breaks inside fields, CRLF and LF; a quote left open names its line", () => {
  assert.deepEqual(parseCsv('"Id","Name"\r\n"001","O\'Reilly, ""Zeta"""\n"002","two\nlines"\n'), [["Id", "Name"], ["001", 'O\'Reilly, "Zeta"'], ["002", "two\nlines"]]);
  assert.deepEqual(parseCsv("a,b\n1,\n"), [["a", "b"], ["1", ""]]);
  assert.throws(() => parseCsv('a\n"open\nstill'), /starts on line 2/);
  assert.throws(() => parseCsv('a,b\n"x"y,z\n'), /after a closing quote on line 2/);
  assert.deepEqual(parseCsv('"a\r\nb",c\r\nlast'), [["a\r\nb", "c"], ["last"]], "CRLF inside quotes is data; no trailing newline is fine");
});

test("a query job is polled until JobComplete, then read set by set by locator: every row once, parents flattened", async () => {
  const c = await crm();
  const contacts = emu().seeded.store.liveRecords("Contact");
  const before = emu().requests.length;
  const states: string[] = [];
  const rows: Record<string, string | null>[] = [];
  for await (const row of c.bulk.query("SELECT Id, Name, Account.Name FROM Contact", { pageSize: 100, poll, onProgress: (p: BulkProgress) => states.push(`${p.state}:${p.rows}`) })) rows.push(row);
  assert.equal(rows.length, contacts.length);
  assert.equal(new Set(rows.map((r) => r.Id)).size, contacts.length, "each row once");
  const first = contacts.find((k) => k.Id === rows[0]!.Id)!;
  const account = emu().seeded.store.liveRecords("Account").find((a) => a.Id === first.AccountId);
  assert.deepEqual(rows[0], { Id: first.Id, Name: first.Name, "Account.Name": account?.Name ?? null });
  const sets = bulkRequests(before, /\/jobs\/query\/\w+\/results$/);
  assert.equal(sets.length, Math.ceil(contacts.length / 100), "one request per set of pageSize rows");
  assert.ok(sets.every((r) => /maxRecords=100/.test(r.query)));
  assert.ok(sets.slice(1).every((r) => /locator=/.test(r.query)), "later sets by the locator the org gave");
  const polls = bulkRequests(before, /\/jobs\/query\/\w+$/).filter((r) => r.method === "GET");
  assert.ok(polls.length >= 2, "the job was polled until it completed");
  assert.ok(states.includes("UploadComplete:0") || states.includes("InProgress:0"), states.join(" "));
  assert.equal(states.at(-1), `JobComplete:${contacts.length}`);
});

test("startQuery starts the job at once and reads it when asked: batches() hands on the rows rows() does, many to a step", async () => {
  const c = await crm();
  const soql = "SELECT Id, Name, Account.Name FROM Contact";
  const [forBatches, forRows] = [c.bulk.startQuery(soql, { pageSize: 100, poll }), c.bulk.startQuery(soql, { pageSize: 100, poll })];
  const batches: Record<string, string | null>[][] = [];
  for await (const batch of forBatches.batches()) batches.push(batch);
  const rows: Record<string, string | null>[] = [];
  for await (const row of forRows.rows()) rows.push(row);
  assert.equal(rows.length, emu().seeded.store.liveRecords("Contact").length);
  assert.deepEqual(batches.flat(), rows);
  assert.ok(batches.every((b) => b.length > 0) && batches.length < rows.length / 10, `${batches.length} steps for ${rows.length} rows`);
});

test("queryCsv yields the org's CSV: one header, then every set's lines", async () => {
  const c = await crm();
  let csv = "";
  for await (const chunk of c.bulk.queryCsv("SELECT Id, Name FROM Account", { pageSize: 7, poll })) csv += chunk;
  const parsed = parseCsv(csv);
  assert.deepEqual(parsed[0], ["Id", "Name"]);
  assert.equal(parsed.length - 1, emu().seeded.store.liveRecords("Account").length);
  assert.equal(parsed.filter((r) => r[0] === "Id").length, 1, "the header once");
});

test("queryAll includes deleted rows; a nested query, a bad field and a bad pageSize are refused before any result", async () => {
  const c = await crm();
  const gone = await c.createSobjectRecord("Account", { Name: "Deleted for queryAll" });
  await c.deleteSobjectRecord("Account", gone.id);
  const all: string[] = [];
  for await (const row of c.bulk.query("SELECT Id FROM Account", { queryAll: true, poll })) all.push(row.Id!);
  assert.ok(all.includes(gone.id));
  const live: string[] = [];
  for await (const row of c.bulk.query("SELECT Id FROM Account", { poll })) live.push(row.Id!);
  assert.ok(!live.includes(gone.id));
  const drain = async (soql: string, options = {}) => { for await (const _ of c.bulk.query(soql, { poll, ...options })) void _; };
  await assert.rejects(drain("SELECT Id, (SELECT Id FROM Contacts) FROM Account"), (e: unknown) => e instanceof APIRequestError && /nested/.test(e.message));
  await assert.rejects(drain("SELECT Nope__c FROM Account"), (e: unknown) => e instanceof APIRequestError && e.errorCode === "INVALID_FIELD");
  await assert.rejects(drain("SELECT Id FROM Account", { pageSize: 0 }), RangeError);
});

test("an AbortSignal aborts the job at the org while it runs, and the caller gets CancelledError", async () => {
  const slow = await demoClient(emu());
  const controller = new AbortController();
  const seen: BulkProgress[] = [];
  const running = (async () => { for await (const _ of slow.bulk.query("SELECT Id FROM Contact", { poll: { intervalMs: 200, maxIntervalMs: 200 }, signal: controller.signal, onProgress: (p: BulkProgress) => seen.push(p) })) void _; })();
  while (!seen.length) await new Promise((r) => setTimeout(r, 5));
  controller.abort();
  await assert.rejects(running, CancelledError);
  const job = await slow.bulk.getJob(seen[0]!.jobId);
  assert.equal(job.state, "Aborted");
  slow.close();
});

test("jobs lists them; a finished job is deleted; results of an unfinished job are refused naming its state", async () => {
  const s = await demoClient(slow());
  const unfinished = await s.bulk.createQueryJob("SELECT Id FROM Account");
  const early = await s.request("GET", await s.apiPath(`/jobs/query/${unfinished.id}/results`), undefined).catch((e: unknown) => e);
  assert.ok(early instanceof APIRequestError && early.status === 412 && /Current status: UPLOADCOMPLETE/i.test(early.message), String(early));
  await s.bulk.abortJob(unfinished.id, "query");
  const c = await crm();
  const job = await c.bulk.createQueryJob("SELECT Id FROM Account");
  assert.ok((await c.bulk.jobs()).some((j) => j.id === job.id));
  await c.bulk.waitForJob(job.id, "query", { poll });
  await c.bulk.deleteJob(job.id);
  assert.ok(!(await c.bulk.jobs()).some((j) => j.id === job.id));
});

test("ingest inserts rows; a row the org refuses fails alone, with its reason, and the others are in the org", async () => {
  const c = await crm();
  const rows = [
    { LastName: "Bulk One", Email: "one@example.com" },
    { LastName: "Bulk Two", Email: "not an email" },
    { LastName: "Bulk Three", Email: null },
  ];
  const progress: BulkProgress[] = [];
  const options = bulkOptions();
  const result = await c.bulk.ingest({ object: "Contact", operation: "insert" }, rows, { ...options, onProgress: (p: BulkProgress) => progress.push(p) });
  assert.equal(result.processed, 3);
  assert.equal(result.failed, 1);
  assert.equal(result.successful, 2);
  assert.deepEqual(options.rows.successful.map((r) => [r.LastName, r.sf__Created]), [["Bulk One", "true"], ["Bulk Three", "true"]]);
  assert.equal(options.rows.failed[0]!.LastName, "Bulk Two");
  assert.match(options.rows.failed[0]!.sf__Error!, /^INVALID_EMAIL_ADDRESS:.*not an email/);
  const inOrg = emu().seeded.store.liveRecords("Contact").filter((k) => String(k.LastName).startsWith("Bulk "));
  assert.deepEqual(inOrg.map((k) => k.LastName).sort(), ["Bulk One", "Bulk Three"]);
  assert.equal(inOrg.find((k) => k.LastName === "Bulk One")!.Id, options.rows.successful[0]!.sf__Id);
  assert.equal(progress.at(-1)!.state, "JobComplete");
  assert.equal(progress.at(-1)!.rows, 3);
});

test("update, upsert by an external ID, delete and hardDelete, from CSV text and from a stream", async () => {
  const c = await crm();
  const accounts = emu().seeded.store.liveRecords("Account").slice(0, 2);
  const update = await c.bulk.ingest({ object: "Account", operation: "update" }, `Id,Phone\n${accounts[0]!.Id},+1 555 0100\n${accounts[1]!.Id},+1 555 0101\n`, bulkOptions());
  assert.equal(update.failed, 0);
  assert.equal(accounts[0]!.Phone, "+1 555 0100");
  // A file read in pieces, split inside a quoted field.
  const csv = 'AccountNumber,Name\nBULK-1,"Upserted, new"\nBULK-2,"Second ""one"""\n';
  const stream = Readable.from([csv.slice(0, 30), csv.slice(30)]);
  const upsert = bulkOptions();
  await c.bulk.ingest({ object: "Account", operation: "upsert", externalIdFieldName: "AccountNumber" }, stream, upsert);
  assert.deepEqual(upsert.rows.successful.map((r) => [r.AccountNumber, r.sf__Created]), [["BULK-1", "true"], ["BULK-2", "true"]]);
  const again = bulkOptions();
  await c.bulk.ingest({ object: "Account", operation: "upsert", externalIdFieldName: "AccountNumber" }, [{ AccountNumber: "BULK-1", Name: "Upserted again" }], again);
  assert.equal(again.rows.successful[0]!.sf__Created, "false", "the second upsert updates");
  const made = emu().seeded.store.liveRecords("Account").filter((a) => String(a.AccountNumber).startsWith("BULK-"));
  assert.deepEqual(made.map((a) => a.Name).sort(), ['Second "one"', "Upserted again"]);
  const removed = await c.bulk.ingest({ object: "Account", operation: "delete" }, made.slice(0, 1).map((a) => ({ Id: a.Id })), bulkOptions());
  assert.equal(removed.failed, 0);
  assert.equal(emu().seeded.store.liveRecords("Account").some((a) => a.Id === made[0]!.Id), false);
  await c.bulk.ingest({ object: "Account", operation: "hardDelete" }, [{ Id: made[1]!.Id }], bulkOptions());
  assert.equal(emu().seeded.store.table("Account").has(String(made[1]!.Id)), false, "hard-deleted: gone from the recycle bin too");
});

test("an input larger than one upload allows is split over several jobs, each with the header", async () => {
  const c = await crm();
  const rows = Array.from({ length: 30 }, (_, i) => ({ LastName: `Split ${i}` }));
  const before = emu().requests.length;
  const result = await c.bulk.ingest({ object: "Contact", operation: "insert" }, rows, { ...bulkOptions(), maxUploadBytes: 100 });
  assert.ok(result.jobIds.length >= 3, `${result.jobIds.length} jobs`);
  assert.equal(result.successful, 30);
  const uploads = bulkRequests(before, /\/batches$/);
  assert.equal(uploads.length, result.jobIds.length);
  assert.ok(uploads.every((u) => u.body.startsWith("LastName\n") && Buffer.byteLength(u.body) <= 100));
  assert.equal(emu().seeded.store.liveRecords("Contact").filter((k) => String(k.LastName).startsWith("Split ")).length, 30);
});

test("a bad column fails the job with the org's message naming it; its rows come back unprocessed", async () => {
  const c = await crm();
  const options = bulkOptions();
  const failure = await c.bulk.ingest({ object: "Contact", operation: "insert" }, "LastName,Nope__c\nA,b\n", options).catch((e: unknown) => e);
  assert.ok(failure instanceof BulkJobError, String(failure));
  assert.equal(failure.state, "Failed");
  assert.match(failure.message, /Field name not found : Nope__c/);
  assert.equal(failure.partial?.unprocessed, 1);
  assert.deepEqual(options.rows.unprocessed, [{ LastName: "A", Nope__c: "b" }]);
});

test("a job the org stops part way keeps what it wrote: its written rows come back as results, in the error and to onResult, the rest unprocessed", async () => {
  const c = await crm();
  const options = bulkOptions();
  emu().setFault("failIngestAfterRows", 3);
  const csv = ["LastName,Email", "Partway 1,p1@example.com", "Partway 2,not an email", "Partway 3,p3@example.com", "Partway 4,p4@example.com", "Partway 5,p5@example.com"].join("\n") + "\n";
  const failure = await c.bulk.ingest({ object: "Contact", operation: "insert" }, csv, options).catch((e: unknown) => e);
  assert.ok(failure instanceof BulkJobError, String(failure));
  assert.equal(failure.state, "Failed");
  assert.deepEqual({ ...failure.partial, jobIds: failure.partial?.jobIds.length, files: undefined }, { via: "bulk", jobIds: 1, rows: 5, processed: 3, successful: 2, failed: 1, unprocessed: 2, files: undefined });
  const inOrg = emu().seeded.store.liveRecords("Contact").filter((k) => String(k.LastName).startsWith("Partway "));
  assert.deepEqual(options.rows.successful.map((r) => r.sf__Id).sort(), inOrg.map((k) => String(k.Id)).sort(), "every record the org holds is reported, by its ID");
  assert.deepEqual(options.rows.failed.map((r) => r.LastName), ["Partway 2"]);
  assert.deepEqual(options.rows.unprocessed.map((r) => r.LastName), ["Partway 4", "Partway 5"]);
});

test("a Collections load that stops on its second request keeps what the first wrote: reported, in the error's partial, the rest unprocessed", async () => {
  const c = await crm();
  const rows: Record<"successful" | "failed" | "unprocessed", Record<string, string | null>[]> = { successful: [], failed: [], unprocessed: [] };
  const input = Array.from({ length: 450 }, (_, i) => ({ LastName: `Stopped ${i}` }));
  // The org is unavailable from the second request on (an insert is never sent twice: it fails).
  const failure = await c.bulk.ingest({ object: "Contact", operation: "insert" }, input, {
    onResult: (kind, row) => void rows[kind].push(row),
    onProgress: (p) => p.processed === 200 && emu().setFault("unavailable", 1),
  }).catch((e: unknown) => e);
  assert.ok(failure instanceof Error, String(failure));
  const partial = (failure as { partial?: IngestResult }).partial;
  assert.deepEqual({ ...partial, jobIds: undefined }, { via: "collections", jobIds: undefined, rows: 450, processed: 200, successful: 200, failed: 0, unprocessed: 250 });
  const inOrg = emu().seeded.store.liveRecords("Contact").filter((k) => String(k.LastName).startsWith("Stopped "));
  assert.deepEqual(rows.successful.map((r) => r.sf__Id).sort(), inOrg.map((k) => String(k.Id)).sort(), "every record the org holds is reported by its ID");
  assert.equal(rows.unprocessed.length, 250);
  assert.equal(rows.unprocessed[0]!.LastName, "Stopped 200");
});

test("bad ingest input is named before anything is sent", async () => {
  const c = await crm();
  const before = emu().requests.length;
  await assert.rejects(c.bulk.ingest({ object: "Contact", operation: "merge" as never }, []), /operation must be one of/);
  await assert.rejects(c.bulk.ingest({ object: "Account", operation: "upsert" }, []), (e: unknown) => e instanceof MissingRequiredDataError && e.parameter === "externalIdFieldName");
  await assert.rejects(c.bulk.ingest({ object: "Contact; DROP", operation: "insert" }, []), /job.object/);
  await assert.rejects(c.bulk.ingest({ object: "Contact", operation: "insert" }, "LastName\n"), (e: unknown) => e instanceof MissingRequiredDataError && e.parameter === "input");
  await assert.rejects(c.bulk.ingest({ object: "Contact", operation: "insert" }, [{ LastName: { nested: true } }]), TypeError);
  assert.equal(bulkRequests(before, /\/jobs\//).length, 0);
});

test("the production guard asks once per import, and never for a query job", async () => {
  const asked: PendingWrite[] = [];
  const c = await demoClient(emu(), { beforeWrite: (w: PendingWrite) => void asked.push(w) });
  for await (const _ of c.bulk.query("SELECT Id FROM Account", { poll })) void _;
  assert.equal(asked.length, 0, "an export changes nothing");
  await c.bulk.ingest({ object: "Contact", operation: "insert" }, Array.from({ length: 10 }, (_, i) => ({ LastName: `Guarded ${i}` })), { ...bulkOptions(), maxUploadBytes: 60 });
  assert.equal(asked.length, 1, "several jobs, one question");
  assert.deepEqual(asked[0]!.body, { object: "Contact", operation: "insert", contentType: "CSV", lineEnding: "LF" });
  c.close();
});

test("a generated table is read a set at a time: Bulk and REST paging read every row exactly once, and COUNT() counts them", async () => {
  const c = await crm();
  const total = emu().seeded.store.generated.get("usage_event__c")!.count;
  let rows = 0;
  let quoted = 0;
  for await (const row of c.bulk.query("SELECT Id, Name, Note__c FROM Usage_Event__c", { pageSize: 25_000, poll })) {
    rows++;
    if (row.Note__c === `Said "hello, world" at ${rows - 1}`) quoted++;
  }
  assert.equal(rows, total);
  assert.equal(quoted, total, "quotes and commas survive the CSV");
  let rest = 0;
  for await (const page of c.queryPages("SELECT Id FROM Usage_Event__c")) rest += page.records.length;
  assert.equal(rest, total);
  assert.equal((await c.soqlQuery("SELECT COUNT() FROM Usage_Event__c")).totalSize, total);
});
