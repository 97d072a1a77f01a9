import { test } from "node:test";
import assert from "node:assert/strict";
import { APIRequestError, type Crm, type PendingWrite } from "../../../src/client";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const guarded: PendingWrite[] = [];
const crm = () => (client ??= demoClient(emu(), { beforeWrite: (w) => void guarded.push(w) }));
const collectionRequests = (since: number) => emu().requests.slice(since).filter((r) => /\/composite\/sobjects/.test(r.path));

test("collections: create, update and delete many records; results in order, a refused row carries its own error", async () => {
  const c = await crm();
  const created = await c.collections.create("Contact", [{ LastName: "Bulk A" }, { LastName: "Bulk B" }, { FirstName: "No last name" }]);
  assert.deepEqual(created.map((r) => r.success), [true, true, false]);
  assert.equal(created[2]!.id, undefined, "the org gives no id for a refused row: results are matched by position");
  assert.equal(created[2]!.errors[0]!.statusCode, "REQUIRED_FIELD_MISSING");
  const [a, b] = created.map((r) => r.id!);

  const updated = await c.collections.update([
    { type: "Contact", id: a!, fields: { Title: "Lead engineer", Email: "a@example.com" } },
    { type: "Contact", id: b!, fields: { Email: "not an address" } },
  ]);
  assert.deepEqual(updated.map((r) => r.success), [true, false]);
  assert.equal(updated[1]!.errors[0]!.statusCode, "INVALID_EMAIL_ADDRESS");
  assert.deepEqual(updated[1]!.errors[0]!.fields, ["Email"]);
  const rows = (await c.soqlQuery<{ Id: string; Title: string | null; Email: string | null }>(`SELECT Id, Title, Email FROM Contact WHERE Id IN ('${a}', '${b}') ORDER BY LastName`)).records;
  assert.deepEqual(rows.map((r) => [r.Title, r.Email]), [["Lead engineer", "a@example.com"], [null, null]]);

  const removed = await c.collections.remove([a!, b!]);
  assert.deepEqual(removed.map((r) => [r.id, r.success]), [[a, true], [b, true]]);
  assert.equal((await c.soqlQuery(`SELECT Id FROM Contact WHERE Id IN ('${a}', '${b}')`)).totalSize, 0);
});

test("collections with allOrNone: one refusal rolls back the request and the others say so", async () => {
  const c = await crm();
  const [x] = (await c.collections.create("Contact", [{ LastName: "Atomic" }])).map((r) => r.id!);
  const results = await c.collections.update([
    { type: "Contact", id: x!, fields: { Title: "Changed" } },
    { type: "Contact", id: x!, fields: { LastName: "" } },
  ], { allOrNone: true });
  assert.deepEqual(results.map((r) => r.errors[0]?.statusCode), ["ALL_OR_NONE_OPERATION_ROLLED_BACK", "REQUIRED_FIELD_MISSING"]);
  assert.equal((await c.getSobjectRecord("Contact", x!, { fields: ["Title"] })).Title, null, "nothing was written");
});

test("collections: 450 updates take ⌈450 / 200⌉ requests; the guard is asked once, for all 450", async () => {
  const c = await crm();
  const ids = (await c.collections.create("Contact", Array.from({ length: 450 }, (_, i) => ({ LastName: `Many ${i}` })))).map((r) => r.id!);
  guarded.length = 0;
  const before = emu().requests.length;
  const progress: number[] = [];
  const results = await c.collections.update(ids.map((id, i) => ({ type: "Contact", id, fields: { Title: `T${i}` } })), { onProgress: (done) => progress.push(done) });
  assert.equal(collectionRequests(before).length, 3);
  assert.deepEqual(progress, [200, 400, 450]);
  assert.ok(results.every((r) => r.success));
  assert.equal(guarded.length, 1);
  assert.equal(guarded[0]!.records, 450);
  assert.equal((await c.getSobjectRecord("Contact", ids[449]!, { fields: ["Title"] })).Title, "T449");
});

test("the emulator refuses more than 200 records a request, as the org does; bad arguments are named", async () => {
  const c = await crm();
  const body = { allOrNone: false, records: Array.from({ length: 201 }, () => ({ attributes: { type: "Contact" }, LastName: "x" })) };
  await assert.rejects(c.request("POST", await c.apiPath("/composite/sobjects"), body), (e: unknown) => e instanceof APIRequestError && e.errorCode === "EXCEEDED_ID_LIMIT");
  await assert.rejects(c.collections.update([{ type: "Contact", id: "nope", fields: {} }]), /records\[0\]\.id/);
  await assert.rejects(c.collections.remove(["001"]), /ids\[0\]/);
});
