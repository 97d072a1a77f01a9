import { test } from "node:test";
import assert from "node:assert/strict";
import type { SObjectDescribe } from "../../../src/client";
import { parseCsv } from "../../../src/client/csv";
import { dryRun, mapColumns, mappedLines } from "../../../src/connections/dataImport";
import { demoClient, useEmulator } from "../../helpers/emulator";

const emu = useEmulator();
let contact: Promise<SObjectDescribe> | undefined;
const describeContact = () => (contact ??= demoClient(emu()).then(async (c) => (await c.describeObject("Contact"))!));

test("columns match fields by API name or label, either case; unknown columns and read-only fields load nothing", async () => {
  const d = await describeContact();
  const mapping = mapColumns(["lastname", "E-mail", "Email", "Lead Source", "Shoe size", "CreatedDate"], d, "insert");
  assert.deepEqual(mapping, [
    { column: "lastname", field: "LastName" },
    { column: "E-mail" },
    { column: "Email", field: "Email" },
    { column: "Lead Source", field: "LeadSource" },
    { column: "Shoe size" },
    { column: "CreatedDate" },
  ]);
  assert.deepEqual(mapColumns(["ID", "Phone"], d, "update").map((m) => m.field), ["Id", "Phone"], "update names records by Id");
  assert.deepEqual(mapColumns(["Id", "Phone"], d, "delete").map((m) => m.field), ["Id", undefined], "delete loads only Ids");
});

test("the dry run names each problem by line and column before anything is sent", async () => {
  const d = await describeContact();
  const [header, ...rows] = parseCsv(["LastName,Email,LeadSource,Birthdate,AccountId", "Good,good@example.com,Web,1990-01-31,", ",bad-email,Carrier pigeon,31/01/1990,001", `${"x".repeat(300)},,,,`].join("\n"));
  const problems = dryRun(rows, mapColumns(header!, d, "insert"), d, "insert");
  assert.deepEqual(problems.map((p) => `${p.line}:${p.column}`), ["3:LastName", "3:Email", "3:LeadSource", "3:Birthdate", "3:AccountId", "4:LastName"]);
  assert.match(problems[2]!.message, /Lead Source must be one of Web, Phone Inquiry, Partner Referral, Other, not 'Carrier pigeon'/);
  assert.match(problems[5]!.message, /at most 255 characters; this value has 300/);
  assert.deepEqual(dryRun([["smith@example.com"]], [{ column: "Email", field: "Email" }], d, "insert").map((p) => p.message), ["No column loads Last Name, required to create a record"]);
  assert.match(dryRun([["x"]], [{ column: "Phone", field: "Phone" }], d, "update")[0]!.message, /No column loads Id/);
  assert.deepEqual(dryRun(rows.slice(0, 1), mapColumns(header!, d, "insert"), d, "insert"), [], "a good row passes");
});

test("the job's CSV carries the mapped columns under API names, a line at a time", async () => {
  const d = await describeContact();
  const mapping = mapColumns(["Last Name", "Shoe size", "email"], d, "insert");
  const lines: string[] = [];
  for await (const line of mappedLines((async function* () { yield ["O'Neil, Jr.", "44", "a@b.co"]; })(), mapping)) lines.push(line);
  assert.equal(lines.join(""), 'LastName,Email\n"O\'Neil, Jr.",a@b.co\n');
});
