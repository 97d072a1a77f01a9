import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm } from "../../../src/client";
import { OrgSchema } from "../../../src/connections/schema";
import { SoqlCatalogCache } from "../../../src/soql/catalogCache";
import type { SoqlCatalog } from "../../../src/soql/catalog";
import { completionsAt } from "../../../src/soql/completion";
import { splitStatements } from "../../../src/soql/statements";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let catalogPromise: Promise<SoqlCatalog> | undefined;

/** The SOQL features' catalog of the demo org's schema with a few objects' describes read (built once, lazily). */
const getCatalog = () => (catalogPromise ??= (async (): Promise<SoqlCatalog> => {
  const c: Crm = await demoClient(emu());
  const schema = new OrgSchema(c);
  const catalog = new SoqlCatalogCache(async () => schema);
  await catalog.load(["Account", "Contact", "User", "Case", "Invoice__c"]);
  return catalog;
})());

/** Completions at the `|` in the text. */
async function at(textWithCursor: string) {
  const offset = textWithCursor.indexOf("|");
  const result = completionsAt(textWithCursor.replace("|", ""), offset, await getCatalog());
  return { ...result, labels: result.items.map((i) => i.label) };
}

test("statements split on semicolons and blank lines, not inside strings", async () => {
  const doc = "SELECT Id FROM Account;\nSELECT Name FROM Contact WHERE Name = 'a;b'\n\n// note\n\nSELECT Id FROM Case";
  assert.deepEqual(splitStatements(doc).map((s) => s.text), ["SELECT Id FROM Account", "SELECT Name FROM Contact WHERE Name = 'a;b'", "SELECT Id FROM Case"]);
  assert.equal(doc.slice(splitStatements(doc)[2]!.start, splitStatements(doc)[2]!.start + 6), "SELECT");
});

test("keywords at the start, objects after FROM, the FROM keyword after a select list", async () => {
  assert.deepEqual((await at("|")).labels, ["SELECT", "FIND"]);
  const objects = await at("SELECT Id FROM Acc|");
  assert.ok(objects.labels.includes("Account") && objects.labels.includes("Invoice__c"));
  assert.equal(objects.replaceFrom, "SELECT Id FROM ".length, "the typed prefix is replaced");
  assert.ok((await at("SELECT Id |")).labels.includes("FROM"));
});

test("fields of the FROM object in the select list, even when FROM comes after the cursor", async () => {
  const r = await at("SELECT Id, | FROM Contact");
  assert.ok(r.labels.includes("LastName") && r.labels.includes("Account.") && r.labels.includes("COUNT()"));
  assert.match(r.items.find((i) => i.label === "AccountId")!.detail!, /→ Account/);
});

test("relationship paths at any depth, asking for the describes they need", async () => {
  const r = await at("SELECT Account.Owner.| FROM Contact");
  assert.ok(r.labels.includes("Username") && r.labels.includes("Manager."), r.labels.join(","));
  assert.equal(r.replaceFrom, "SELECT Account.Owner.".length);
  const missing = await at("SELECT Account.RecordType.| FROM Contact");
  assert.deepEqual(missing.needs, [], "RecordType is not a relationship of Account in the demo org");
  const uncached = await at("SELECT Parent.| FROM FeedItem");
  assert.deepEqual(uncached.needs, ["FeedItem"], "an uncached describe is asked for");
});

test("child relationships after FROM in a subquery, and the child object's fields inside it", async () => {
  assert.ok((await at("SELECT Id, (SELECT Id FROM |) FROM Account")).labels.includes("Contacts"));
  const inner = await at("SELECT Id, (SELECT | FROM Contacts) FROM Account");
  assert.ok(inner.labels.includes("LastName") && !inner.labels.includes("AnnualRevenue"), "the subquery's object is Contact");
});

test("picklist values after =, IN and INCLUDES; date literals after date fields; TRUE/FALSE for booleans", async () => {
  assert.deepEqual((await at("SELECT Id FROM Case WHERE Status = |")).labels, ["'New'", "'Working'", "'Escalated'", "'Closed'"]);
  assert.ok((await at("SELECT Id FROM Case WHERE Status IN ('New', |")).labels.includes("'Closed'"));
  assert.ok((await at("SELECT Id FROM Invoice__c WHERE Tags__c INCLUDES (|")).labels.includes("'Export'"));
  assert.ok((await at("SELECT Id FROM Account WHERE CreatedDate > |")).labels.includes("LAST_N_DAYS:"));
  assert.deepEqual((await at("SELECT Id FROM Case WHERE IsClosed = |")).labels, ["TRUE", "FALSE"]);
});

test("fields after WHERE and AND, operators after a field, ORDER BY directions", async () => {
  assert.ok((await at("SELECT Id FROM Account WHERE |")).labels.includes("BillingCity"));
  assert.ok((await at("SELECT Id FROM Account WHERE Name != null AND |")).labels.includes("Industry"));
  assert.ok((await at("SELECT Id FROM Account WHERE Name |")).labels.includes("LIKE"));
  assert.ok((await at("SELECT Id FROM Account ORDER BY |")).labels.includes("Name"));
  assert.ok((await at("SELECT Id FROM Account ORDER BY Name |")).labels.includes("NULLS LAST"));
  assert.ok((await at("SELECT Id FROM Account |")).labels.includes("WHERE"));
});

async function diagnostics(doc: string) {
  const { diagnose } = await import("../../../src/soql/diagnostics");
  const result = diagnose(doc, await getCatalog());
  return { ...result, found: result.diagnostics.map((d) => ({ text: doc.slice(d.start, d.end), message: d.message, severity: d.severity })) };
}

test("syntax errors get the exact range of the offending token", async () => {
  const { found } = await diagnostics("SELECT Id FORM Account");
  assert.deepEqual(found, [{ text: "Account", message: "Unexpected 'Account'; expected FROM", severity: "error" }]);
});

test("unknown objects, fields and relationships are warnings; valid queries have none", async () => {
  assert.deepEqual((await diagnostics("SELECT Id, Name, Owner.Name, (SELECT LastName FROM Contacts) FROM Account WHERE Industry = 'Energy' ORDER BY Name")).found, []);
  assert.deepEqual((await diagnostics("SELECT Id FROM Acount")).found, [{ text: "Acount", message: "Unknown object 'Acount' in this org", severity: "warning" }]);
  assert.deepEqual((await diagnostics("SELECT Id, Nmae FROM Account")).found, [{ text: "Nmae", message: "No field 'Nmae' on Account", severity: "warning" }]);
  assert.deepEqual((await diagnostics("SELECT Id FROM Contact WHERE Acount.Name = 'x'")).found, [{ text: "Acount.Name", message: "No relationship 'Acount' on the path Acount.Name", severity: "warning" }]);
  assert.deepEqual((await diagnostics("SELECT Id, (SELECT Nope FROM Contacts) FROM Account")).found.map((f) => f.text), ["Nope"]);
  assert.deepEqual((await diagnostics("SELECT Id FROM Account WHERE Name = :name AND Industry IN :industries")).found, [], "bind variables are asked for at run time, not mistakes");
  assert.deepEqual((await diagnostics("// name: A saved query\n-- tags: x\nSELECT Id FROM Account // the end")).found, [], "comments are removed before sending");
});

test("aggregates with aliases, date literals, semi-joins and several statements are understood", async () => {
  const doc = "SELECT Status, COUNT(Id) n FROM Case WHERE CreatedDate = LAST_N_DAYS:30 GROUP BY Status;\n\nSELECT Id FROM Contact WHERE AccountId IN (SELECT Id FROM Account WHERE Name LIKE 'A%')";
  assert.deepEqual((await diagnostics(doc)).found, []);
  const second = "SELECT Id FROM Account\n\nSELECT Bogus FROM Contact";
  const { diagnostics: list } = await diagnostics(second);
  assert.equal(list.length, 1);
  assert.equal(second.slice(list[0]!.start, list[0]!.end), "Bogus", "ranges are in document offsets across statements");
});

test("a describe that is not cached is asked for, not guessed", async () => {
  const { found, needs } = await diagnostics("SELECT Id, Whatever FROM FeedItem");
  assert.deepEqual(found, []);
  assert.deepEqual(needs, ["FeedItem"]);
});

test("hover names a field's label, type, length, references and help text, through relationship paths", async () => {
  const { hoverAt } = await import("../../../src/soql/hoverFormat");
  const catalog = await getCatalog();
  const text = "SELECT Account.Name, LeadSource FROM Contact";
  const path = hoverAt(text, text.indexOf("Account.Name") + 9, catalog)!;
  assert.equal(text.slice(path.start, path.end), "Account.Name");
  assert.match(path.markdown, /^\*\*Name\*\* `Account\.Name`/);
  const pick = hoverAt(text, text.indexOf("LeadSource") + 2, catalog)!;
  assert.match(pick.markdown, /Type: picklist \(255\)/);
  assert.match(pick.markdown, /Values: Web, Phone Inquiry, Partner Referral, Other/);
  const ref = hoverAt("SELECT AccountId FROM Contact", 9, catalog)!;
  assert.match(ref.markdown, /References: Account \(as `Account`\)/);
  assert.match(hoverAt(text, text.indexOf("Contact") + 1, catalog)!.markdown, /\*\*Contact\*\* `Contact`/);
  assert.equal(hoverAt(text, 2, catalog), undefined, "keywords have no hover");
});

test("Format Document formats each valid statement, round-trip safe, and leaves broken ones alone", async () => {
  const { formatDocument } = await import("../../../src/soql/hoverFormat");
  const { parseQuery } = await import("@jetstreamapp/soql-parser-js");
  const doc = "select id, name, (select id from contacts) from account where name = 'a' and type = 'b' order by name limit 5\n\nSELECT Id FORM Broken";
  const edits = formatDocument(doc);
  assert.equal(edits.length, 1, "the broken statement is left alone");
  const edit = edits[0]!;
  assert.equal(doc.slice(edit.start, edit.end), doc.split("\n\n")[0]);
  assert.match(edit.text, /^SELECT id, name,\n\t\(\n\t\tSELECT id\n\t\tFROM contacts\n\t\)\nFROM account\nWHERE name = 'a'\n\tAND type = 'b'/);
  assert.deepEqual(parseQuery(edit.text), parseQuery(doc.split("\n\n")[0]!), "the formatted query means the same");
  assert.deepEqual(formatDocument(edit.text), [], "formatting is stable");
});
