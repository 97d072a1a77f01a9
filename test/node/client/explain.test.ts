import { test } from "node:test";
import assert from "node:assert/strict";
import { APIRequestError, type Crm } from "../../../src/client";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

test("explain: an unfiltered query over a large object is a table scan that costs more than 1", async () => {
  const { plans } = await (await crm()).explain("SELECT Id, Subject FROM Task");
  assert.equal(plans.length, 1);
  assert.deepEqual({ ...plans[0], relativeCost: plans[0]!.relativeCost > 1 }, { cardinality: 150_000, fields: [], leadingOperationType: "TableScan", notes: [], relativeCost: true, sobjectCardinality: 150_000, sobjectType: "Task" });
});

test("explain: a selective filter on an indexed field leads with an Index plan; unindexed filters get notes; nothing is run", async () => {
  const c = await crm();
  const contact = emu().seeded.store.liveRecords("Contact")[0]!;
  const before = emu().requests.length;
  const { plans } = await c.explain(`SELECT Id FROM Contact WHERE Id = '${contact.Id}' AND Title = 'CTO'`);
  assert.equal(plans[0]!.leadingOperationType, "Index");
  assert.deepEqual(plans[0]!.fields, ["Id"]);
  assert.ok(plans[0]!.relativeCost < 1, "selective");
  assert.equal(plans.at(-1)!.leadingOperationType, "TableScan");
  assert.deepEqual(plans[0]!.notes, [{ description: "Not considering filter for optimization because unindexed", fields: ["Title"], tableEnumOrId: "Contact" }]);
  assert.match(emu().requests.slice(before)[0]!.path, /\/query$/);
  const negative = await c.explain("SELECT Id FROM Contact WHERE Name != 'x'");
  assert.equal(negative.plans[0]!.leadingOperationType, "TableScan", "a negative filter uses no index");
  await assert.rejects(c.explain("SELECT Nope FROM"), (e: unknown) => e instanceof APIRequestError && e.errorCode === "MALFORMED_QUERY");
  await assert.rejects(c.explain(" "), TypeError);
});
