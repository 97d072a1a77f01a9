import { test } from "node:test";
import assert from "node:assert/strict";
import { coerceFieldValue } from "../../../src/views/recordValues";

const f = (type: string, extra: Partial<{ length: number; picklistValues: string[] }> = {}) => ({ name: "F__c", type, length: extra.length ?? 0, picklistValues: extra.picklistValues ?? [] });

test("typed text becomes the value the API expects, or an error naming the field and the expected form", () => {
  assert.equal(coerceFieldValue(f("int"), " 42 "), 42);
  assert.throws(() => coerceFieldValue(f("int"), "4.2"), /F__c takes a whole number/);
  assert.equal(coerceFieldValue(f("currency"), "19.99"), 19.99);
  assert.equal(coerceFieldValue(f("boolean"), "TRUE"), true);
  assert.throws(() => coerceFieldValue(f("boolean"), "yes"), /true or false/);
  assert.equal(coerceFieldValue(f("date"), "2026-01-31"), "2026-01-31");
  assert.throws(() => coerceFieldValue(f("date"), "31/01/2026"), /YYYY-MM-DD/);
  assert.equal(coerceFieldValue(f("datetime"), "2026-01-31T09:00:00Z"), "2026-01-31T09:00:00.000Z");
  assert.equal(coerceFieldValue(f("picklist", { picklistValues: ["Open", "Closed"] }), "Open"), "Open");
  assert.throws(() => coerceFieldValue(f("picklist", { picklistValues: ["Open", "Closed"] }), "Pending"), /one of Open, Closed/);
  assert.equal(coerceFieldValue(f("multipicklist", { picklistValues: ["A", "B"] }), "A; B"), "A;B");
  assert.throws(() => coerceFieldValue(f("string", { length: 3 }), "abcd"), /at most 3 characters/);
  assert.equal(coerceFieldValue(f("string"), "  "), null, "empty clears the field");
});
