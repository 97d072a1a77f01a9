import { test } from "node:test";
import assert from "node:assert/strict";
import { APIRequestError, type CompletedWrite, type PendingWrite } from "../../../src/client";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
const posts = () => emu().requests.filter((r) => r.method === "POST" && /\/composite(\/batch)?$/.test(r.path)).length;

test("composite: a new account and a contact referring to it, and a query of both, in one request", async () => {
  const crm = await demoClient(emu());
  const written: CompletedWrite[] = [];
  crm.on("write", (w) => written.push(w));
  const before = posts();
  const results = await crm.composite.run([
    { method: "POST", url: "/sobjects/Account", referenceId: "newAccount", body: { Name: "Composite Ltd" } },
    { method: "POST", url: "/sobjects/Contact", referenceId: "newContact", body: { LastName: "Ref", AccountId: "@{newAccount.id}" } },
    { method: "GET", url: "/query?q=SELECT+Id,+Account.Name+FROM+Contact+WHERE+AccountId+=+'@{newAccount.id}'", referenceId: "check" },
  ]);
  assert.equal(posts() - before, 1, "one round trip");
  assert.deepEqual(results.map((r) => [r.referenceId, r.httpStatusCode]), [["newAccount", 201], ["newContact", 201], ["check", 200]]);
  const account = (results[0]!.body as { id: string }).id;
  const contact = emu().seeded.store.find((results[1]!.body as { id: string }).id)!.rec;
  assert.equal(contact.AccountId, account, "the reference was filled in");
  assert.equal((results[2]!.body as { totalSize: number }).totalSize, 1);
  assert.deepEqual(written.filter((w) => /\/sobjects\//.test(w.path)).map((w) => w.path.replace(/.*\/sobjects/, "")), ["/Account", "/Contact"], "each write is announced as a change");
});

test("composite partial failure: without allOrNone only what refers to the failure is skipped; with it, everything is rolled back", async () => {
  const crm = await demoClient(emu());
  const accounts = () => emu().seeded.store.liveRecords("Account").length;
  const n = accounts();
  const partial = await crm.composite.run([
    { method: "POST", url: "/sobjects/Account", referenceId: "good", body: { Name: "Kept" } },
    { method: "POST", url: "/sobjects/Account", referenceId: "bad", body: { Nope__c: 1 } },
    { method: "PATCH", url: "/sobjects/Account/@{bad.id}", referenceId: "dependent", body: { Name: "Never" } },
  ]);
  assert.deepEqual(partial.map((r) => r.httpStatusCode), [201, 400, 400]);
  assert.match(JSON.stringify(partial[1]!.body), /INVALID_FIELD/);
  assert.match(JSON.stringify(partial[2]!.body), /PROCESSING_HALTED/);
  assert.equal(accounts(), n + 1, "the good one stays");
  const all = await crm.composite.run([
    { method: "POST", url: "/sobjects/Account", referenceId: "first", body: { Name: "Rolled back" } },
    { method: "PATCH", url: "/sobjects/Account/@{first.id}", referenceId: "rename", body: { Name: "Renamed" } },
    { method: "POST", url: "/sobjects/Account", referenceId: "bad", body: { Nope__c: 1 } },
  ], { allOrNone: true });
  assert.deepEqual(all.map((r) => r.httpStatusCode), [400, 400, 400]);
  assert.match(JSON.stringify(all[0]!.body), /PROCESSING_HALTED.*rolled back/);
  assert.equal(accounts(), n + 1, "nothing of the failed transaction stays");
  assert.ok(!emu().seeded.store.liveRecords("Account").some((a) => a.Name === "Rolled back" || a.Name === "Renamed"));
});

test("composite batch: independent calls in one request, halting on the first error when asked; reads need no confirmation", async () => {
  const asked: PendingWrite[] = [];
  const crm = await demoClient(emu(), { beforeWrite: (w) => void asked.push(w) });
  const account = emu().seeded.store.liveRecords("Account")[0]!;
  const reads = await crm.composite.batch([{ method: "GET", url: `/sobjects/Account/${account.Id}` }, { method: "GET", url: "/limits" }]);
  assert.equal(reads.hasErrors, false);
  assert.deepEqual(reads.results.map((r) => r.statusCode), [200, 200]);
  assert.equal((reads.results[0]!.result as { Name: string }).Name, account.Name);
  assert.equal(asked.length, 0, "reading in a batch is not a write");
  const halted = await crm.composite.batch([
    { method: "PATCH", url: `/sobjects/Account/${account.Id}`, body: { Nope__c: 1 } },
    { method: "PATCH", url: `/sobjects/Account/${account.Id}`, body: { Phone: "+1 555 0199" } },
  ], { haltOnError: true });
  assert.equal(halted.hasErrors, true);
  assert.deepEqual(halted.results.map((r) => r.statusCode), [400, 412]);
  assert.notEqual(account.Phone, "+1 555 0199");
  assert.equal(asked.length, 1, "a batch with writes is confirmed once");
  await assert.rejects(crm.composite.batch(Array.from({ length: 26 }, () => ({ method: "GET" as const, url: "/limits" }))), /1 to 25 subrequests, got 26/);
  await assert.rejects(crm.composite.run([{ method: "GET", url: "/limits", referenceId: "1bad" }]), /must start with a letter/);
});

test("update and read back in one round trip: the record as saved; a guarded update refused when changed since, as the update alone would be", async () => {
  const asked: PendingWrite[] = [];
  const crm = await demoClient(emu(), { beforeWrite: (w) => void asked.push(w) });
  const written: CompletedWrite[] = [];
  crm.on("write", (w) => written.push(w));
  const contact = emu().seeded.store.liveRecords("Contact")[2]!;
  const before = emu().requests.length;
  const record = await crm.composite.updateAndRead("Contact", String(contact.Id), { Title: "Composer" }, { ifUnmodifiedSince: new Date(Date.now() + 60_000), fields: ["Title", "LastModifiedDate"] });
  assert.equal(emu().requests.length - before, 1, "one request");
  assert.deepEqual([record.Title, record.LastModifiedDate], ["Composer", contact.LastModifiedDate], "the record as the org now holds it");
  assert.equal(record.Phone, undefined, "only the fields asked for");
  assert.equal(asked.length, 1, "the update is confirmed once");
  assert.deepEqual(written.map((w) => [w.method, w.path.replace(/.*\/sobjects/, "")]), [["PATCH", `/Contact/${contact.Id}`]], "announced as the update it is");

  const stale = await crm.composite.updateAndRead("Contact", String(contact.Id), { Title: "Too late" }, { ifUnmodifiedSince: new Date(Date.parse(String(contact.LastModifiedDate).replace(/\+0000$/, "Z")) - 60_000) }).catch((err: unknown) => err);
  assert.ok(stale instanceof APIRequestError && stale.status === 412 && stale.method === "PATCH", String(stale));
  assert.match(stale.path, /\/sobjects\/Contact\/003/);
  assert.equal(contact.Title, "Composer", "nothing was written");
  const refused = await crm.composite.updateAndRead("Contact", String(contact.Id), { LastName: null }).catch((err: unknown) => err);
  assert.ok(refused instanceof APIRequestError && refused.status === 400, String(refused));
  assert.deepEqual([refused.errorCode, refused.fields], ["REQUIRED_FIELD_MISSING", ["LastName"]], "the refused field is named");
  await assert.rejects(crm.composite.updateAndRead("Contact", "nope", {}), /recordId/);
});

test("a subrequest's own headers: conditions apply to it alone; the headers it inherits cannot be set", async () => {
  const crm = await demoClient(emu());
  const account = emu().seeded.store.liveRecords("Account")[3]!;
  const old = new Date(Date.parse(String(account.LastModifiedDate).replace(/\+0000$/, "Z")) - 60_000).toUTCString();
  const results = await crm.composite.run([
    { method: "PATCH", url: `/sobjects/Account/${account.Id}`, referenceId: "guarded", body: { Phone: "1" }, httpHeaders: { "If-Unmodified-Since": old } },
    { method: "PATCH", url: `/sobjects/Account/${account.Id}`, referenceId: "plain", body: { Phone: "2" } },
  ]);
  assert.deepEqual(results.map((r) => r.httpStatusCode), [412, 204]);
  assert.equal(account.Phone, "2");
  const refused = await crm.composite.run([{ method: "GET", url: "/limits", referenceId: "x", httpHeaders: { Accept: "text/xml" } }]).catch((err: unknown) => err);
  assert.ok(refused instanceof APIRequestError && refused.status === 400, String(refused));
  assert.match(refused.message, /Accept header is inherited/);
});
