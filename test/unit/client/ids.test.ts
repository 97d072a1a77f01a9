import { test } from "node:test";
import assert from "node:assert/strict";
import { get18CharId, isRecordId, sameRecordId, Crm } from "../../../src/client";

test("15 → 18 conversion matches real published IDs and edge cases", () => {
  const cases: [string, string][] = [
    ["001D000000IqhSL", "001D000000IqhSLIAZ"], ["0053h000002xQ5s", "0053h000002xQ5sAAE"], ["kA01I000000ancB", "kA01I000000ancBSAQ"],
    ["ka0RM00000004Ve", "ka0RM00000004VeYAI"], ["0D53h00000n2hpk", "0D53h00000n2hpkCAA"], ["AAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAA555"],
    ["aaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaAAA"], ["ka4PO0000002hby", "ka4PO0000002hbyYAA"], ["aBcDeFgHiJkLmNo", "aBcDeFgHiJkLmNoKVK"],
  ];
  for (const [short, long] of cases) {
    assert.equal(get18CharId(short), long);
    assert.equal(Crm.get18CharId(short), long, "the static method is the same conversion");
  }
});

test("an 18-character ID comes back unchanged", () => {
  assert.equal(get18CharId("001D000000IqhSLIAZ"), "001D000000IqhSLIAZ");
});

test("wrong lengths and characters raise RangeError naming the problem; non-strings TypeError", () => {
  assert.throws(() => get18CharId("short"), { name: "RangeError", message: /15 or 18 characters long, got 5/ });
  assert.throws(() => get18CharId("001D000000IqhS!"), { name: "RangeError", message: /only letters and digits/ });
  assert.throws(() => get18CharId(12345 as unknown as string), { name: "TypeError" });
});

test("isRecordId and sameRecordId", () => {
  assert.ok(isRecordId("001D000000IqhSL"));
  assert.ok(!isRecordId("001D000000IqhSL1"));
  assert.ok(sameRecordId("001D000000IqhSL", "001D000000IqhSLIAZ"));
  assert.ok(!sameRecordId("001D000000IqhSL", "001d000000IqhSLIAZ"));
});
