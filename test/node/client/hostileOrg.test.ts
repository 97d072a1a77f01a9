// An org or a proxy that answers strangely: bodies that trickle or never end, a small gzip that inflates to a
// giant, error bodies that echo the request's headers, IDs and links that point elsewhere or at themselves.
// The client ends each call with a clear error, holds no more than its limits, and never repeats its token.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { APIRequestError, Crm, InvalidResponseError, InvalidURLError, NetworkError } from "../../../src/client";
import "../../../src/client/bulk";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator({ bulkLatencyMs: 20 });
const poll = { intervalMs: 20, maxIntervalMs: 40 };
const clear = () => {
  emu().setFault("hostileAnswer", null);
  emu().setFault("answerPatch", null);
};

test("a body that trickles a byte at a time ends at timeoutMs, a deadline for the whole request", { timeout: 30_000 }, async () => {
  const c = await demoClient(emu(), { timeoutMs: 1500, retry: { retries: 0 } });
  await c.apiPath();
  emu().setFault("hostileAnswer", { path: "/limits$", kind: "trickle" });
  try {
    const started = performance.now();
    const err = await c.getOrgLimits().catch((e: unknown) => e);
    assert.ok(err instanceof NetworkError && err.code === "ETIMEDOUT", String(err));
    assert.match(err.message, /GET \/services\/data\/v[\d.]+\/limits timed out after 2 s/);
    assert.ok(performance.now() - started < 10_000, "it ended, though bytes kept coming");
  } finally {
    clear();
  }
});

test("an endless body and a gzip bomb stop at maxResponseBytes with an error naming the limit", { timeout: 60_000 }, async () => {
  const c = await demoClient(emu(), { maxResponseBytes: 1024 * 1024 });
  await c.apiPath();
  try {
    emu().setFault("hostileAnswer", { path: "/limits$", kind: "endless" });
    const endless = await c.getOrgLimits().catch((e: unknown) => e);
    assert.ok(endless instanceof InvalidResponseError, String(endless));
    assert.match(endless.message, /larger than the client reads whole \(maxResponseBytes, 1 MB\); it was not read/);
    emu().setFault("hostileAnswer", { path: "/limits$", kind: "gzipBomb" });
    const inflated = await c.getOrgLimits().catch((e: unknown) => e);
    assert.ok(inflated instanceof InvalidResponseError, String(inflated));
    assert.match(inflated.message, /maxResponseBytes, 1 MB/);
    // The default cap (64 MB) holds too: 100 MB inflated is refused.
    const plain = await demoClient(emu());
    const big = await plain.getOrgLimits().catch((e: unknown) => e);
    assert.ok(big instanceof InvalidResponseError && /maxResponseBytes, 64 MB/.test(big.message), String(big));
    assert.throws(() => new Crm({ maxResponseBytes: 10 }), /maxResponseBytes must be a whole number of bytes of at least 1024/);
  } finally {
    clear();
  }
});

test("an error body that echoes the request's headers never puts the client's token in the error (REST, composite, Bulk)", async () => {
  const c = await demoClient(emu(), { retry: { retries: 0 } });
  const account = emu().seeded.store.liveRecords("Account")[0]!;
  await c.apiPath();
  const token = String(emu().requests.at(-1)!.headers.authorization).replace(/^Bearer /, "");
  assert.ok(token.length > 20);
  const leaks = (err: unknown) => [String(err), (err as Error).stack ?? "", JSON.stringify(err), inspect(err, { depth: Infinity, showHidden: true })].some((text) => text.includes(token));
  try {
    emu().setFault("hostileAnswer", { path: "/query$", kind: "echoHeaders" });
    const rest = await c.soqlQuery("SELECT Id FROM Account").catch((e: unknown) => e);
    assert.ok(rest instanceof APIRequestError && /The proxy refused the request/.test(rest.message), String(rest));
    assert.match(rest.message, /authorization: Bearer \[redacted\]/i, "the rest of the echo stays, to diagnose the proxy");
    assert.equal(leaks(rest), false);
    emu().setFault("hostileAnswer", { path: "/composite$", kind: "echoHeaders" });
    const composite = await c.composite.updateAndRead("Account", account.Id, { Phone: "1" }).catch((e: unknown) => e);
    assert.ok(composite instanceof APIRequestError, String(composite));
    assert.equal(leaks(composite), false);
    emu().setFault("hostileAnswer", { path: "/jobs/ingest$", kind: "echoHeaders" });
    const bulk = await c.bulk.ingest({ object: "Contact", operation: "insert" }, [{ LastName: "Echo" }], { poll, collectionsBelow: 0 }).catch((e: unknown) => e);
    assert.ok(bulk instanceof APIRequestError, String(bulk));
    assert.equal(leaks(bulk), false);
  } finally {
    clear();
  }
});

test("a job ID from the org that is not a job ID sends nothing to the path it names", async () => {
  const c = await demoClient(emu());
  emu().setFault("answerPatch", { path: "/jobs/ingest$", patch: { id: "../../../oauth2/revoke" } });
  const since = emu().requests.length;
  try {
    const err = await c.bulk.ingest({ object: "Contact", operation: "insert" }, [{ LastName: "Odd" }], { poll, collectionsBelow: 0 }).catch((e: unknown) => e);
    assert.ok(err instanceof InvalidResponseError, String(err));
    assert.match(err.message, /as a new Bulk job's ID, which is not a job ID .*nothing was uploaded/);
    const after = emu().requests.slice(since);
    assert.equal(after.some((r) => /revoke/.test(r.path) || r.method === "PUT"), false, after.map((r) => `${r.method} ${r.path}`).join(", "));
  } finally {
    clear();
  }
});

test("a next page link that repeats, or points elsewhere, is refused; jobs() takes an AbortSignal", { timeout: 30_000 }, async () => {
  const c = await demoClient(emu());
  await c.bulk.createQueryJob("SELECT Id FROM Account");
  try {
    emu().setFault("answerPatch", { path: "/jobs/query$", patch: { nextRecordsUrl: "$self" } });
    const since = emu().requests.length;
    await assert.rejects(c.bulk.jobs("query"), (e: unknown) => e instanceof InvalidURLError && /a second time: following it would never end/.test(e.message));
    assert.ok(emu().requests.length - since <= 3, `${emu().requests.length - since} requests`);
    emu().setFault("answerPatch", { path: "/jobs/query$", patch: { nextRecordsUrl: "/services/oauth2/revoke" } });
    await assert.rejects(c.bulk.jobs("query"), /not one of this resource's pages: "\/services\/oauth2\/revoke"/);
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(c.bulk.jobs("query", { signal: aborted.signal }), { name: "AbortError" });

    const cursor = (await c.soqlQuery("SELECT Id FROM Account", { batchSize: 200 })).nextRecordsUrl!;
    assert.match(cursor, /\/query\/.+/);
    emu().setFault("answerPatch", { path: "/query", patch: { done: false, nextRecordsUrl: cursor } });
    await assert.rejects(c.queryAll("SELECT Id FROM Account"), /a second time/);
    let pages = 0;
    await assert.rejects((async () => { for await (const _ of c.queryPages("SELECT Id FROM Account")) pages++; })(), /a second time/);
    assert.equal(pages, 2, "the first page and the one its link named, then the repeat is refused");
  } finally {
    clear();
  }
});

test("text holding @{…} is saved as written: the org never reads a user's value as a composite reference", async () => {
  const c = await demoClient(emu());
  const account = emu().seeded.store.liveRecords("Account")[1]!;
  const text = "Ask for @{x} and @{update.id} in the template";
  const record = await c.composite.updateAndRead("Account", account.Id, { Description: text }, { fields: ["Description"] });
  assert.equal(record.Description, text);
  assert.equal(emu().seeded.store.find(account.Id)!.rec.Description, text);
});

test("bad input is named before anything is sent: ingest, collections, composite", async () => {
  const c = await demoClient(emu());
  await c.apiPath();
  const since = emu().requests.length;
  const contact = { object: "Contact", operation: "insert" } as const;
  await assert.rejects(c.bulk.ingest(contact, 42 as never), /input must be an array of row objects, CSV text, or a stream of CSV text .* got number/);
  await assert.rejects(c.bulk.ingest(contact, null as never), /input must be .* got null/);
  await assert.rejects(c.bulk.ingest(contact, [["Name", "Acme"]] as never), /input\[0\] must be an object of field values .* got an array/);
  await assert.rejects(c.bulk.ingest({ object: "Contact", operation: "merge" as never }, [{ LastName: "x" }]), /job.operation must be one of insert, update, upsert, delete, hardDelete, got "merge"/);
  await assert.rejects(c.bulk.ingest(contact, [{ LastName: "x", Birthdate: new Date(Number.NaN) }]), /not a valid date \(Invalid Date\)/);
  await assert.rejects(c.bulk.ingest(contact, (async function* () { yield 42; })() as never), /The CSV stream must yield text or bytes, got number/);
  await assert.rejects(c.collections.create("Account", "Acme" as never), /records must be an array of objects of field values, got string/);
  await assert.rejects(c.collections.update({} as never), /records must be an array/);
  await assert.rejects(c.collections.remove("001" as never), /ids must be an array of record IDs, got string/);
  await assert.rejects(c.composite.batch([null] as never), /subrequests\[0\] must be an object \{ method, url, … \}, got null/);
  await assert.rejects(c.composite.batch([{ method: "BREW", url: "/limits" }] as never), /subrequests\[0\]\.method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, got "BREW"/);
  const circular: Record<string, unknown> = { Name: "Loop" };
  circular.self = circular;
  await assert.rejects(c.composite.batch([{ method: "POST", url: "/sobjects/Account", body: circular }]), /The request body cannot be sent as JSON: Converting circular structure/);
  await assert.rejects(c.request("POST", "/services/data/v62.0/sobjects/Account", circular), /cannot be sent as JSON/);
  assert.equal(emu().requests.length, since, "nothing was sent");
});
