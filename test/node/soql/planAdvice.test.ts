import { test } from "node:test";
import assert from "node:assert/strict";
import type { Crm } from "../../../src/client";
import { planAdvice, planLine } from "../../../src/soql/planAdvice";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

test("plan advice: a table scan of a large object, a cost above 1, no LIMIT nor selective filter; notes as information", async () => {
  const c = await crm();
  const scan = planAdvice(await c.explain("SELECT Id, Subject FROM Task"), "SELECT Id, Subject FROM Task");
  assert.deepEqual(scan.map((a) => a.severity), ["warning", "warning", "warning"]);
  assert.match(scan[0]!.message, /^Full table scan of Task \(150,000 rows\)/);
  assert.match(scan[1]!.message, /relative cost is \d+(\.\d+)? \(above 1\)/);
  assert.match(scan[2]!.message, /Task holds 150,000 rows and this query may return 150,000 of them: add LIMIT or a selective filter/);
  const limited = planAdvice(await c.explain("SELECT Id FROM Task LIMIT 10"), "SELECT Id FROM Task LIMIT 10");
  assert.ok(!limited.some((a) => /add LIMIT/.test(a.message)), "a LIMIT answers the unbounded read");
  const contact = emu().seeded.store.liveRecords("Contact")[0]!;
  const selective = `SELECT Id FROM Contact WHERE Id = '${contact.Id}' AND Title = 'CTO'`;
  assert.deepEqual(planAdvice(await c.explain(selective), selective), [{ severity: "info", message: "Not considering filter for optimization because unindexed: Title." }]);
  assert.equal(planLine((await c.explain(selective)).plans[0]!).split(" · ")[0], "Index on Id");
});
