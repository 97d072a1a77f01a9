/**
 * One rule, one place: the record-ID rule, the API-name rule and the production rule are each one function, and every surface that
 * decides by them decides the same — a grid cell, a panel message, a field value, a crm: path; VS Code's write
 * guard, the command-line tools' guard, the agent's default access. One same-value rule behind every "changed
 * since?" check.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { isRecordId, productionLike, type FieldDescribe, type OrgKind } from "../../../src/client";
import path from "node:path";
import { canonicalRecordId, isApiName, requireSobjectName } from "../../../src/client/ids";
import { apiName, asInput } from "../../../src/agent/tools/input";
import { pathNameProblem } from "../../../src/workflows/folderFiles";
import { parsePlan } from "../../../src/workflows/migrationPlan";
import { sameValue } from "../../../src/client/sameValue";
import { valueProblem } from "../../../src/client/fieldValues";
import { parseCellInput } from "../../../src/shared/cellInput";
import { recordId } from "../../../src/webviews/protocol/common";
import { parseCrmPath } from "../../../src/documents/crmFiles";
import { guardsWrites } from "../../../src/connections/writeGuard";
import { defaultAccess } from "../../../src/agent/tools";

const SAMPLES = [
  "001000000000001", // 15 characters
  "001000000000001AAA", // 18, its checksum
  "0015g000000000saaq", // 18, lower-cased (the 18-character form is case-insensitive)
  "001000000000001AA9", // a checksum character outside A–Z and 0–5
  "00100000000001", // 14
  "001000000000001AAAA", // 19
  "001000000000001-AA", // not a letter or digit
  "001000000000001ZZZ", // a checksum marking digits as capitals: mistyped
];

test("every surface that checks a record ID accepts exactly what isRecordId accepts", () => {
  const reference = { name: "AccountId", type: "reference", label: "Account ID" } as unknown as FieldDescribe;
  for (const id of SAMPLES) {
    const expected = isRecordId(id);
    assert.equal(parseCellInput(id, { field: "AccountId", kind: "reference", prefixes: [] }).ok, expected, `grid cell: '${id}'`);
    assert.equal(recordId.safeParse(id).success, expected, `panel message: '${id}'`);
    assert.equal(valueProblem(reference, id) === undefined, expected, `field value: '${id}'`);
    assert.equal(parseCrmPath(`/Demo org/Account/${id}.json`, "Knowledge__kav")?.kind === "record", expected, `crm: path: '${id}'`);
  }
  assert.deepEqual(SAMPLES.map(isRecordId), [true, true, true, false, false, false, false, false]);
  assert.equal(canonicalRecordId("0015g000000000saaq"), "0015g000000000SAAQ", "an 18-character ID gets its case back from its checksum");
});

test("the production rule decides the same in VS Code's write guard, the tools' guard and the agent's default access", () => {
  const kinds: (OrgKind | "unknown" | undefined)[] = ["production", "unknown", undefined, "sandbox", "scratch", "developer", "trial"];
  for (const kind of kinds) {
    const production = productionLike(kind);
    assert.equal(production, kind === "production" || kind === "unknown" || kind === undefined, String(kind));
    if (kind !== "unknown") assert.equal(guardsWrites({ kind }), production, `VS Code's guard: ${kind}`);
    if (kind !== undefined) assert.equal(defaultAccess(kind) === "read", production, `agent's default access: ${kind}`);
  }
});

test("one same-value rule: the org's forms of a value are that value, with the field's type or without it", () => {
  const same: [unknown, unknown, string | undefined][] = [
    [null, "", undefined], [undefined, null, "string"],
    [12.5, "12.50", undefined], ["12.5", "12.50", "currency"], [0.1 + 0.2, 0.3, undefined],
    ["2024-01-02T10:00:00.000+0000", "2024-01-02T10:00:00Z", undefined], ["2024-01-02T11:00:00.000+0100", "2024-01-02T10:00:00.000Z", "datetime"],
    ["001000000000001", "001000000000001AAA", undefined], ["001000000000001", "001000000000001AAA", "reference"],
    [true, "true", undefined], ["TRUE", "true", "boolean"],
  ];
  const different: [unknown, unknown, string | undefined][] = [
    [null, "x", undefined], ["007", "7", "string"], ["a", "A", undefined], [12.5, "12.6", undefined],
    ["2024-01-02T10:00:00Z", "2024-01-02T10:00:01Z", "datetime"], ["001000000000001AAA", "001000000000002AAA", undefined], [false, "true", undefined],
  ];
  for (const [a, b, type] of same) assert.ok(sameValue(a, b, type) && sameValue(b, a, type), `${JSON.stringify(a)} is ${JSON.stringify(b)} (${type ?? "no type"})`);
  for (const [a, b, type] of different) assert.ok(!sameValue(a, b, type) && !sameValue(b, a, type), `${JSON.stringify(a)} is not ${JSON.stringify(b)} (${type ?? "no type"})`);
});

test("the same-value rule is said once: no other module of the product defines its own", async () => {
  const { readdir, readFile } = await import("node:fs/promises");
  const files = (await readdir("src", { recursive: true })).filter((f) => f.endsWith(".ts") && f !== path.join("client", "sameValue.ts"));
  const twins: string[] = [];
  for (const f of files) if (/\b(?:function|const)\s+same(?:Value|Loose)\b/.test(await readFile(path.join("src", f), "utf8"))) twins.push(f);
  assert.deepEqual(twins, []);
});

test("one API-name rule: the client's checks, crm: paths, folder files, agent input and migration plans accept exactly what isApiName accepts", () => {
  const names = ["Account", "ns__Body__c", "Knowledge__kav", "a".repeat(80), "a".repeat(81), "1Account", "Account WHERE Id != null", "Bad-Name", "_Account", ""];
  const accepts = (work: () => unknown) => { try { work(); return true; } catch { return false; } };
  for (const name of names) {
    const expected = isApiName(name);
    assert.equal(accepts(() => requireSobjectName(name)), expected, `client: '${name}'`);
    assert.equal(parseCrmPath(`/Demo org/${name}/001000000000001AAA.json`, "FAQ__kav")?.kind === "record", expected, `crm: path: '${name}'`);
    assert.equal(pathNameProblem("field", name) === undefined, expected, `folder file: '${name}'`);
    assert.equal(accepts(() => apiName(asInput({ object: name }), "object")), expected, `agent input: '${name}'`);
    assert.equal(accepts(() => parsePlan(JSON.stringify({ from: "a", to: "b", objects: [{ object: name, match: ["Name"] }] }))), expected, `migration plan: '${name}'`);
  }
  assert.deepEqual(names.map(isApiName), [true, true, true, true, false, false, false, false, false, false]);
});
