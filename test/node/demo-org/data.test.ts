import { test } from "node:test";
import assert from "node:assert/strict";
import { get18CharId } from "../../../src/client";
import { useEmulator, demoToken, api } from "../../helpers/emulator";

const emu = useEmulator();
let token: Promise<string> | undefined;
const call = async (path: string, init?: Parameters<typeof api>[3]) => api(emu(), await (token ??= demoToken(emu())), path, init);
const query = async (soql: string, headers?: Record<string, string>) => call(`/query?q=${encodeURIComponent(soql)}`, { headers });

test("versions (no auth, no limit header) and resources of a version", async () => {
  const res = await fetch(`${emu().url}/services/data/`);
  const versions = (await res.json()) as { version: string; url: string; label: string }[];
  assert.equal(res.headers.get("sforce-limit-info"), null);
  assert.equal(versions.at(-1)!.version, "62.0");
  assert.ok(versions.every((v) => v.url === `/services/data/v${v.version}`));
  const resources = await call("/services/data/v62.0/");
  assert.equal(resources.json.query, "/services/data/v62.0/query");
  assert.match(resources.json.identity, /\/id\/00D/);
  assert.equal((await call("/services/data/v99.0/limits")).status, 404);
});

test("every data response carries Sforce-Limit-Info that counts calls", async () => {
  const a = await call("/limits");
  const b = await call("/limits");
  const used = (h: Headers) => Number(/api-usage=(\d+)\/15000/.exec(h.get("sforce-limit-info") ?? "")?.[1]);
  assert.equal(used(b.headers), used(a.headers) + 1);
  assert.equal(b.json.DailyApiRequests.Max, 15000);
});

test("describe global and describe, with If-Modified-Since giving 304", async () => {
  const global = await call("/sobjects");
  assert.equal(global.json.encoding, "UTF-8");
  const account = global.json.sobjects.find((s: { name: string }) => s.name === "Account");
  assert.equal(account.keyPrefix, "001");
  assert.equal(account.urls.rowTemplate, "/services/data/v62.0/sobjects/Account/{ID}");
  const describe = await call("/sobjects/Contact/describe");
  const accountId = describe.json.fields.find((f: { name: string }) => f.name === "AccountId");
  assert.deepEqual([accountId.type, accountId.referenceTo, accountId.relationshipName], ["reference", ["Account"], "Account"]);
  assert.equal(describe.json.fields.find((f: { name: string }) => f.name === "LeadSource").picklistValues.length, 4);
  const accountDescribe = await call("/sobjects/Account/describe");
  assert.ok(accountDescribe.json.childRelationships.some((c: { relationshipName: string }) => c.relationshipName === "Contacts"));
  const kav = await call("/sobjects/Knowledge__kav/describe");
  assert.equal(kav.json.fields.find((f: { name: string }) => f.name === "Answer__c").extraTypeInfo, "richtextarea");
  assert.ok(kav.json.recordTypeInfos.some((r: { developerName: string }) => r.developerName === "FAQ"));
  const notModified = await call("/sobjects/Account/describe", { headers: { "if-modified-since": new Date().toUTCString() } });
  assert.equal(notModified.status, 304);
  assert.equal(notModified.text, "");
  assert.equal((await call("/sobjects/Account/describe", { headers: { "if-modified-since": new Date(0).toUTCString() } })).status, 200);
  assert.deepEqual((await call("/sobjects/Nope__c/describe")).json, [{ message: "The requested resource does not exist", errorCode: "NOT_FOUND" }]);
});

test("record create, read, update and delete with the real status codes and errors", async () => {
  const created = await call("/sobjects/Account", { method: "POST", body: { Name: "Test Co", Industry: "Energy" } });
  assert.equal(created.status, 201);
  assert.deepEqual(Object.keys(created.json).sort(), ["errors", "id", "success"]);
  const id = created.json.id as string;
  assert.equal(get18CharId(id.slice(0, 15)), id, "IDs are valid 18-character IDs");
  const read = await call(`/sobjects/Account/${id}`);
  assert.equal(read.json.attributes.type, "Account");
  assert.equal(read.json.Name, "Test Co");
  assert.match(read.json.CreatedDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  const some = await call(`/sobjects/Account/${id.slice(0, 15)}?fields=Name,Industry`);
  assert.deepEqual(Object.keys(some.json), ["attributes", "Name", "Industry"]);
  const patched = await call(`/sobjects/Account/${id}`, { method: "PATCH", body: { BillingCity: "Leeds" } });
  assert.equal(patched.status, 204);
  assert.equal(patched.text, "");
  assert.equal((await call(`/sobjects/Account/${id}`)).json.BillingCity, "Leeds");
  assert.equal((await call(`/sobjects/Account/${id}`, { method: "DELETE" })).status, 204);
  const again = await call(`/sobjects/Account/${id}`, { method: "DELETE" });
  assert.equal(again.status, 404);
  assert.deepEqual(again.json, [{ message: "entity is deleted", errorCode: "ENTITY_IS_DELETED", fields: [] }]);
});

test("validation errors are worded like the API's", async () => {
  const missing = await call("/sobjects/Contact", { method: "POST", body: { FirstName: "No" } });
  assert.deepEqual(missing.json, [{ message: "Required fields are missing: [LastName]", errorCode: "REQUIRED_FIELD_MISSING", fields: ["LastName"] }]);
  const withId = await call("/sobjects/Account", { method: "POST", body: { Id: "001000000000000AAA", Name: "x" } });
  assert.equal(withId.json[0].message, "The Id field should not be specified in the sobject data.");
  assert.equal((await call("/sobjects/Account", { method: "POST", body: { Name: "x", Bogus__c: 1 } })).json[0].errorCode, "INVALID_FIELD");
  assert.equal((await call("/sobjects/Account", { method: "POST", body: { Name: "x", Industry: "Magic" } })).json[0].errorCode, "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST");
  assert.equal((await call("/sobjects/Account", { method: "POST", body: { Name: "x", CreatedDate: "2020-01-01T00:00:00Z" } })).json[0].errorCode, "INVALID_FIELD_FOR_INSERT_UPDATE");
  assert.equal((await call("/sobjects/Contact", { method: "POST", body: { LastName: "x", AccountId: "001nothere" } })).json[0].errorCode, "MALFORMED_ID");
  const badJson = await fetch(`${emu().url}/services/data/v62.0/sobjects/Account`, { method: "POST", headers: { authorization: `Bearer ${await token}`, "content-type": "application/json" }, body: "{nope" });
  assert.equal(((await badJson.json()) as { errorCode: string }[])[0]!.errorCode, "JSON_PARSER_ERROR");
  assert.equal((await call("/sobjects/Account/001garbage")).status, 404);
  assert.equal((await call("/sobjects/Account", { method: "PUT", body: {} })).status, 405);
});

test("If-Unmodified-Since on PATCH: 412 when the record changed after that time", async () => {
  const { json } = await call("/sobjects/Account", { method: "POST", body: { Name: "Conflict Co" } });
  const before = new Date(Date.now() - 60_000).toUTCString();
  const refused = await call(`/sobjects/Account/${json.id}`, { method: "PATCH", body: { Name: "Mine" }, headers: { "if-unmodified-since": before } });
  assert.equal(refused.status, 412);
  assert.equal((await call(`/sobjects/Account/${json.id}`)).json.Name, "Conflict Co", "nothing was written");
  const ok = await call(`/sobjects/Account/${json.id}`, { method: "PATCH", body: { Name: "Mine" }, headers: { "if-unmodified-since": new Date(Date.now() + 1000).toUTCString() } });
  assert.equal(ok.status, 204);
});

test("SOQL: field lists, parent paths, null lookups and child subqueries", async () => {
  const res = await query("SELECT Id, Name, Owner.Name, Parent.Name, (SELECT LastName, Account.Name FROM Contacts ORDER BY LastName) FROM Account WHERE Name = 'Acme Ltd'");
  assert.equal(res.status, 200);
  const [acme] = res.json.records;
  assert.equal(acme.Name, "Acme Ltd");
  assert.equal(acme.Owner.attributes.type, "User");
  assert.equal(typeof acme.Owner.Name, "string");
  assert.equal(acme.Parent, null, "an empty lookup is null");
  assert.equal(acme.Contacts.done, true);
  assert.ok(acme.Contacts.records.every((c: { Account: { Name: string } }) => c.Account.Name === "Acme Ltd"));
  const deep = await query("SELECT Id, Contact.Account.Owner.Name FROM Case LIMIT 1");
  assert.equal(typeof deep.json.records[0].Contact.Account.Owner.Name, "string");
});

test("SOQL WHERE operators, null, booleans, LIKE, IN, INCLUDES, NOT, parentheses", async () => {
  const count = async (where: string, from = "Account") => (await query(`SELECT COUNT() FROM ${from} WHERE ${where}`)).json.totalSize as number;
  await call("/sobjects/Account", { method: "POST", body: { Name: "No Revenue Co" } });
  const all = (await query("SELECT COUNT() FROM Account")).json.totalSize;
  const london = await count("BillingCity = 'London'");
  assert.ok(london > 0 && london < all);
  assert.equal(await count("BillingCity != 'London'"), all - london);
  assert.equal(await count("BillingCity = 'london'"), london, "string equality ignores case");
  assert.equal(await count("NOT BillingCity = 'London'"), all - london);
  assert.equal(await count("Name LIKE 'Acme%'"), (await query("SELECT Id, Name FROM Account")).json.records.filter((r: { Name: string }) => r.Name.startsWith("Acme")).length);
  assert.equal(await count("BillingCity IN ('London', 'Paris')"), london + (await count("BillingCity = 'Paris'")));
  assert.equal(await count("BillingCity NOT IN ('London')"), all - london);
  assert.equal(await count("Description = null") + (await count("Description != null")), all);
  assert.equal(await count("(BillingCity = 'London' OR BillingCity = 'Paris') AND NumberOfEmployees > 100000"), 0);
  // null satisfies neither side of a comparison, as in the real SOQL.
  assert.equal((await count("AnnualRevenue >= 5000000")) + (await count("AnnualRevenue < 5000000")) + (await count("AnnualRevenue = null")), all);
  assert.ok((await count("AnnualRevenue = null")) > 0);
  assert.ok((await count("Tags__c INCLUDES ('Export')", "Invoice__c")) > 0);
  assert.equal(await count("Tags__c INCLUDES ('Export')", "Invoice__c") + (await count("Tags__c EXCLUDES ('Export')", "Invoice__c")), (await query("SELECT COUNT() FROM Invoice__c")).json.totalSize);
  assert.equal(await count("IsClosed = true", "Case"), await count("Status = 'Closed'", "Case"));
  assert.ok((await count("AccountId IN (SELECT Id FROM Account WHERE BillingCity = 'London')", "Contact")) > 0, "semi-join");
});

test("SOQL dates: literals and date values", async () => {
  const { json } = await call("/sobjects/Account", { method: "POST", body: { Name: "Today Co" } });
  const today = await query("SELECT Id FROM Account WHERE CreatedDate = TODAY");
  assert.ok(today.json.records.some((r: { Id: string }) => r.Id === json.id));
  assert.ok((await query("SELECT Id FROM Account WHERE CreatedDate = LAST_N_DAYS:3")).json.records.some((r: { Id: string }) => r.Id === json.id));
  assert.ok(!(await query("SELECT Id FROM Account WHERE CreatedDate < TODAY")).json.records.some((r: { Id: string }) => r.Id === json.id));
  assert.ok((await query("SELECT COUNT() FROM Contact WHERE Birthdate < 1980-01-01")).json.totalSize > 0);
  assert.ok((await query("SELECT COUNT() FROM Account WHERE CreatedDate > 2024-01-01T00:00:00Z")).json.totalSize > 0);
});

test("SOQL ORDER BY with NULLS FIRST/LAST, LIMIT and OFFSET", async () => {
  const first = await query("SELECT Name, Description FROM Account ORDER BY Description ASC NULLS LAST, Name DESC LIMIT 3");
  assert.ok(first.json.records.every((r: { Description: string | null }) => r.Description !== null));
  const nullsFirst = await query("SELECT Name, Description FROM Account ORDER BY Description ASC NULLS FIRST LIMIT 1");
  assert.equal(nullsFirst.json.records[0].Description, null);
  const names = (await query("SELECT Name FROM Account ORDER BY Name LIMIT 5")).json.records.map((r: { Name: string }) => r.Name);
  assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b)));
  const offset = (await query("SELECT Name FROM Account ORDER BY Name LIMIT 2 OFFSET 3")).json.records.map((r: { Name: string }) => r.Name);
  assert.deepEqual(offset, (await query("SELECT Name FROM Account ORDER BY Name LIMIT 5")).json.records.slice(3).map((r: { Name: string }) => r.Name));
});

test("SOQL aggregates: COUNT(), GROUP BY with aliases and exprN, LIMIT and OFFSET over the groups", async () => {
  const total = (await query("SELECT COUNT() FROM Case")).json;
  assert.deepEqual([total.done, total.records], [true, []]);
  const grouped = await query("SELECT Status, COUNT(Id) n, MAX(Priority) FROM Case GROUP BY Status");
  assert.equal(grouped.json.records[0].attributes.type, "AggregateResult");
  assert.equal(grouped.json.records.reduce((s: number, r: { n: number }) => s + r.n, 0), total.totalSize);
  assert.ok("expr0" in grouped.json.records[0]);
  // LIMIT and OFFSET count the groups.
  const second = await query("SELECT Status, COUNT(Id) n FROM Case GROUP BY Status LIMIT 1 OFFSET 1");
  assert.deepEqual([second.json.totalSize, second.json.records.map((r: { Status: string }) => r.Status)], [1, [grouped.json.records[1].Status]]);
  const sum = await query("SELECT SUM(Amount__c) total FROM Invoice__c");
  assert.equal(typeof sum.json.records[0].total, "number");
});

test("SOQL aggregates by date functions (UTC), ordered by a grouped key or by an aggregate; a date function of a text field is refused", async () => {
  const rows = (await query("SELECT CreatedDate FROM Case")).json.records as { CreatedDate: string }[];
  const months = await query("SELECT CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate) m, COUNT(Id) n FROM Case GROUP BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate) ORDER BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate)");
  const got = (months.json.records as { expr0: number; m: number; n: number }[]).map((r) => [`${r.expr0}-${String(r.m).padStart(2, "0")}`, r.n]);
  const counted = new Map<string, number>();
  for (const r of rows) counted.set(r.CreatedDate.slice(0, 7), (counted.get(r.CreatedDate.slice(0, 7)) ?? 0) + 1);
  assert.deepEqual(got, [...counted].sort(([a], [b]) => a.localeCompare(b)), "one group per month of the rows, in order");
  const busiest = (await query("SELECT Status, COUNT(Id) n FROM Case GROUP BY Status ORDER BY COUNT(Id) DESC")).json.records as { n: number }[];
  assert.deepEqual(busiest.map((r) => r.n), [...busiest.map((r) => r.n)].sort((a, b) => b - a));
  const days = (await query("SELECT DAY_ONLY(CreatedDate) d, COUNT(Id) FROM Case GROUP BY DAY_ONLY(CreatedDate) ORDER BY DAY_ONLY(CreatedDate) DESC LIMIT 1")).json.records as { d: string }[];
  assert.equal(days[0]!.d, rows.map((r) => r.CreatedDate.slice(0, 10)).sort().at(-1));
  const refused = await query("SELECT CALENDAR_MONTH(Subject) FROM Case GROUP BY CALENDAR_MONTH(Subject)");
  assert.equal(refused.status, 400);
  assert.match(refused.json[0].message, /CALENDAR_MONTH takes a date or dateTime field/);
});

test("SOQL GROUP BY ROLLUP and CUBE: the groups, each subtotal after the groups it sums, the grand total last; GROUPING() tells a subtotal from a group whose value is empty", async () => {
  const cases = (await query("SELECT Status, Priority FROM Case")).json.records as { Status: string | null; Priority: string | null }[];
  const rolled = (await query("SELECT Status, Priority, GROUPING(Status) gs, GROUPING(Priority) gp, COUNT(Id) n FROM Case GROUP BY ROLLUP(Status, Priority)")).json.records as { Status: string | null; Priority: string | null; gs: number; gp: number; n: number }[];
  const groups = rolled.filter((r) => r.gs === 0 && r.gp === 0);
  assert.equal(groups.reduce((sum, r) => sum + r.n, 0), cases.length, "the groups count every case once");
  assert.equal(groups.length, new Set(cases.map((c) => JSON.stringify([c.Status, c.Priority]))).size);
  const total = rolled.at(-1)!;
  assert.deepEqual([total.Status, total.Priority, total.gs, total.gp, total.n], [null, null, 1, 1, cases.length], "the grand total is the last row");
  for (const status of new Set(cases.map((c) => c.Status))) {
    const at = rolled.findIndex((r) => r.Status === status && r.gs === 0 && r.gp === 1);
    assert.equal(rolled[at]!.n, cases.filter((c) => c.Status === status).length, `the subtotal of ${status}`);
    assert.ok(rolled.slice(at + 1).every((r) => r.Status !== status || r.gs === 1), `${status}'s subtotal follows its groups`);
  }
  const cube = (await query("SELECT Status, Priority, GROUPING(Status) gs, GROUPING(Priority) gp, COUNT(Id) n FROM Case GROUP BY CUBE(Status, Priority)")).json.records as { Status: string | null; Priority: string | null; gs: number; gp: number; n: number }[];
  for (const priority of new Set(cases.map((c) => c.Priority))) {
    assert.equal(cube.find((r) => r.gs === 1 && r.gp === 0 && r.Priority === priority)?.n, cases.filter((c) => c.Priority === priority).length, `CUBE's subtotal of priority ${priority}`);
  }
  const mixed = await query("SELECT Status, COUNT(Id) FROM Case GROUP BY ROLLUP(Status), Priority");
  assert.equal(mixed.status, 400);
  assert.match(mixed.json[0].message, /within the parentheses of ROLLUP/);
});

test("SOQL over a generated table larger than a scan (150,000 Tasks): aggregates answer, counted row by row; a filtered read of its rows is refused as too long", async () => {
  const byStatus = (await query("SELECT Status, COUNT(Id) n FROM Task GROUP BY Status ORDER BY Status")).json.records as { Status: string; n: number }[];
  assert.deepEqual(byStatus.map((r) => [r.Status, r.n]), [["Completed", 50_000], ["In Progress", 50_000], ["Not Started", 50_000]]);
  const high = await query("SELECT COUNT() FROM Task WHERE Priority = 'High' AND Status = 'Completed'");
  // Every tenth task is High and every third Completed: indexes 0 mod 30 + 20 → one in thirty.
  assert.equal(high.json.totalSize, 5_000);
  const months = (await query("SELECT CALENDAR_YEAR(CreatedDate) y, CALENDAR_MONTH(CreatedDate) m, COUNT(Id) n FROM Task GROUP BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate) ORDER BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate)")).json.records as { y: number; m: number; n: number }[];
  // A task a minute from 2025-01-01: 44,640 in January (31 days), the rest in February and March.
  assert.deepEqual(months.map((r) => [r.y, r.m, r.n]), [[2025, 1, 44_640], [2025, 2, 40_320], [2025, 3, 44_640], [2025, 4, 20_400]]);
  const refused = await query("SELECT Id FROM Task WHERE Status = 'Completed'");
  assert.equal(refused.status, 400);
  assert.equal(refused.json[0].errorCode, "QUERY_TIMEOUT");
});

test("SOQL errors are worded like the API's", async () => {
  const malformed = await query("SELECT Id FORM Account");
  assert.equal(malformed.status, 400);
  assert.equal(malformed.json[0].errorCode, "MALFORMED_QUERY");
  assert.match(malformed.json[0].message, /ERROR at Row:1:Column:\d+/);
  const field = await query("SELECT Nope FROM Account");
  assert.equal(field.json[0].errorCode, "INVALID_FIELD");
  assert.match(field.json[0].message, /No such column 'Nope' on entity 'Account'/);
  const type = await query("SELECT Id FROM Nope__c");
  assert.equal(type.json[0].errorCode, "INVALID_TYPE");
  assert.match(type.json[0].message, /sObject type 'Nope__c' is not supported/);
  assert.match((await query("SELECT Nope.Name FROM Account")).json[0].message, /Didn't understand relationship 'Nope'/);
  assert.equal((await call("/query")).json[0].message, "A query string has to be specified");
});

test("query paging: 2,000 rows per batch by default, Sforce-Query-Options batchSize, locator pages", async () => {
  const first = await query("SELECT Id FROM Contact", { "sforce-query-options": "batchSize=200" });
  assert.equal(first.json.totalSize, 320);
  assert.equal(first.json.done, false);
  assert.equal(first.json.records.length, 200);
  assert.match(first.json.nextRecordsUrl, /^\/services\/data\/v62\.0\/query\/01g\w+-200$/);
  const second = await call(first.json.nextRecordsUrl);
  assert.equal(second.json.done, true);
  assert.equal(second.json.records.length, 120);
  assert.equal(second.json.nextRecordsUrl, undefined);
  const ids = new Set([...first.json.records, ...second.json.records].map((r: { Id: string }) => r.Id));
  assert.equal(ids.size, 320);
  assert.equal((await query("SELECT Id FROM Contact")).json.done, true, "320 rows fit the default batch");
  assert.equal((await call("/query/01gNOPE-200")).json[0].errorCode, "INVALID_QUERY_LOCATOR");
});

test("queryAll returns deleted rows; query does not", async () => {
  const { json } = await call("/sobjects/Account", { method: "POST", body: { Name: "Deleted Soon" } });
  await call(`/sobjects/Account/${json.id}`, { method: "DELETE" });
  const soql = encodeURIComponent("SELECT Id, IsDeleted FROM Account WHERE Name = 'Deleted Soon'");
  assert.equal((await call(`/query?q=${soql}`)).json.totalSize, 0);
  const all = await call(`/queryAll?q=${soql}`);
  assert.deepEqual(all.json.records.map((r: { IsDeleted: boolean }) => r.IsDeleted), [true]);
});

test("SOSL search with RETURNING, field lists, WHERE and LIMIT", async () => {
  const sosl = (q: string) => call(`/search?q=${encodeURIComponent(q)}`);
  const acme = await sosl("FIND {Acme} RETURNING Account(Id, Name WHERE BillingCity != null LIMIT 3)");
  assert.equal(acme.json.searchRecords.length, 3);
  assert.ok(acme.json.searchRecords.every((r: { Name: string }) => /acme/i.test(r.Name)));
  const wildcard = await sosl("FIND {Glob*} IN NAME FIELDS RETURNING Account(Name), Contact");
  assert.ok(wildcard.json.searchRecords.length > 0);
  assert.ok(wildcard.json.searchRecords.every((r: { attributes: { type: string } }) => r.attributes.type === "Account"));
  const overall = await sosl("FIND {Acme} RETURNING Account(Id) LIMIT 2");
  assert.equal(overall.json.searchRecords.length, 2);
  assert.equal((await sosl("SELECT Id FROM Account")).json[0].errorCode, "MALFORMED_SEARCH");
});

test("UserRecordAccess: owner and admin rights; bad shapes refused", async () => {
  const users = (await query("SELECT Id, Profile.Name FROM User")).json.records;
  const admin = users.find((u: { Profile: { Name: string } }) => u.Profile.Name === "System Administrator").Id;
  const someone = users.find((u: { Id: string; Profile: { Name: string } }) => u.Profile.Name !== "System Administrator" && u.Id !== emu().seeded.integrationUserId).Id;
  const notOwned = (await query(`SELECT Id FROM Account WHERE OwnerId != '${someone}' AND CreatedById != '${someone}' LIMIT 1`)).json.records[0].Id;
  const access = async (user: string) => (await query(`SELECT RecordId, HasReadAccess, HasEditAccess, HasDeleteAccess FROM UserRecordAccess WHERE UserId = '${user}' AND RecordId = '${notOwned}'`)).json.records[0];
  assert.deepEqual([(await access(admin)).HasEditAccess, (await access(admin)).HasDeleteAccess], [true, true]);
  const limited = await access(someone);
  assert.deepEqual([limited.HasReadAccess, limited.HasEditAccess, limited.HasDeleteAccess], [true, false, false]);
  assert.equal((await query("SELECT RecordId FROM UserRecordAccess")).status, 400);
});

test("tooling query serves tooling objects", async () => {
  const res = await call(`/tooling/query?q=${encodeURIComponent("SELECT Id, Name FROM ApexClass ORDER BY Name")}`);
  assert.deepEqual(res.json.records.map((r: { Name: string }) => r.Name), ["AccountService", "FeedNotifier", "KnowledgePublisher"]);
});
