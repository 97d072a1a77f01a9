import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletedWrite, PendingWrite } from "../../src/client";
import { useEmulator, demoClient } from "../helpers/emulator";

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
