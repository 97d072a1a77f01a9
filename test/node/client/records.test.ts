import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Crm, MissingRequiredDataError, APIRequestError, CrmError } from "../../../src/client";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator({ childBatchSize: 3 });
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

test("create, get, update (with If-Unmodified-Since) and delete a record", async () => {
  const c = await crm();
  const created = await c.createSobjectRecord("Contact", { LastName: "Record", FirstName: "Test" });
  assert.equal(created.success, true);
  const rec = await c.getSobjectRecord("Contact", created.id, { fields: ["Name", "LastModifiedDate"] });
  assert.equal(rec.Name, "Test Record");
  assert.equal((await c.updateSobjectRecord("Contact", created.id, { Title: "CTO" })).status, 204);
  const stale = new Date(Date.now() - 3600_000);
  await assert.rejects(c.updateSobjectRecord("Contact", created.id, { Title: "CEO" }, { ifUnmodifiedSince: stale }), (e: unknown) => e instanceof APIRequestError && e.status === 412);
  assert.equal((await c.getSobjectRecord("Contact", created.id)).Title, "CTO");
  assert.equal((await c.deleteSobjectRecord("Contact", created.id)).status, 204);
  await assert.rejects(c.getSobjectRecord("Contact", created.id), (e: unknown) => e instanceof APIRequestError && e.errorCode === "ENTITY_IS_DELETED");
  await assert.rejects(c.createSobjectRecord("Contact", [] as never), TypeError);
  await assert.rejects(c.updateSobjectRecord("Contact", "bad-id", {}), RangeError);
});

test("soqlQuery: one page; double quotes replaced outside literals; nextRecordsUrl mode", async () => {
  const c = await crm();
  const quoted = await c.soqlQuery(`SELECT Id, Name FROM Account WHERE Name = "Acme Ltd"`);
  assert.equal(quoted.records.length, 1);
  const first = await c.soqlQuery("SELECT Id FROM Contact", { batchSize: 200 });
  assert.equal(first.done, false);
  const second = await c.soqlQuery(first.nextRecordsUrl!, { nextRecordsUrl: true });
  assert.equal(first.records.length + second.records.length, first.totalSize);
  const byLocator = await c.soqlQuery(first.nextRecordsUrl!.split("/").pop()!, { nextRecordsUrl: true });
  assert.equal(byLocator.records.length, second.records.length);
  await assert.rejects(c.soqlQuery("  "), TypeError);
});

test("queryAll follows every page and completes child subqueries that have their own cursor", async () => {
  const c = await crm();
  const acme = (await c.soqlQuery<{ Id: string }>("SELECT Id FROM Account WHERE Name = 'Acme Ltd'")).records[0]!.Id;
  for (let i = 0; i < 5; i++) await c.createSobjectRecord("Contact", { LastName: `Child ${i}`, AccountId: acme });
  const all = await c.queryAll("SELECT Id, (SELECT Id FROM Contacts) FROM Account WHERE Name LIKE 'Acme%'", { batchSize: 200 });
  assert.equal(all.truncated, false);
  assert.equal(all.records.length, all.totalSize);
  const direct = await c.soqlQuery("SELECT Id, (SELECT Id FROM Contacts) FROM Account WHERE Name LIKE 'Acme%'");
  const cut = direct.records.find((r) => (r.Contacts as { done: boolean } | null)?.done === false);
  assert.ok(cut, "the emulator pages child rows beyond 3 (childBatchSize)");
  const complete = all.records.find((r) => r.Id === cut!.Id)!.Contacts as { done: boolean; totalSize: number; records: unknown[]; nextRecordsUrl?: string };
  assert.equal(complete.done, true);
  assert.equal(complete.records.length, complete.totalSize);
  assert.equal(complete.nextRecordsUrl, undefined);
});

test("queryAll with maxRows says truncated instead of staying silent", async () => {
  const c = await crm();
  const some = await c.queryAll("SELECT Id FROM Contact", { maxRows: 250, batchSize: 200 });
  assert.equal(some.records.length, 250);
  assert.equal(some.truncated, true);
  assert.equal(some.done, false);
  assert.ok(some.totalSize > 250);
  await assert.rejects(c.queryAll("SELECT Id FROM Contact", { maxRows: 0 }), RangeError);
});

test("queryIterator yields every row across pages; includeDeleted uses queryAll", async () => {
  const c = await crm();
  let n = 0;
  for await (const row of c.queryIterator("SELECT Id FROM Contact", { batchSize: 200 })) {
    assert.ok(row.Id);
    n++;
  }
  assert.equal(n, (await c.soqlQuery("SELECT COUNT() FROM Contact")).totalSize);
  const { id } = await c.createSobjectRecord("Account", { Name: "Iterated Away" });
  await c.deleteSobjectRecord("Account", id);
  const deleted = await c.queryAll("SELECT Id FROM Account WHERE Name = 'Iterated Away'", { includeDeleted: true });
  assert.equal(deleted.records.length, 1);
});

test("toolingQuery and SOSL: search() as written, searchString() escaping reserved characters", async () => {
  const c = await crm();
  assert.ok((await c.toolingQuery("SELECT Name FROM ApexClass")).records.length >= 3);
  assert.ok((await c.search("FIND {Acme} RETURNING Account(Name)")).searchRecords.length > 0);
  const found = await c.searchString("Acme");
  assert.ok(found.searchRecords.some((r) => (r as { attributes: { type: string } }).attributes.type === "Account"));
  await c.searchString("a-b (c) {d}");
  assert.equal(new URL(`${emu().url}${emu().requests.at(-1)!.path}${emu().requests.at(-1)!.query}`).searchParams.get("q"), "FIND {a\\-b \\(c\\) \\{d\\}}");
  await assert.rejects(c.search("SELECT Id FROM Account"), TypeError);
});

test("downloadImage saves the rich-text image with the right extension; fetchRichTextImage gives the same bytes in memory", async () => {
  const c = await crm();
  const article = (await c.soqlQuery<{ Id: string; Answer__c: string }>("SELECT Id, Answer__c FROM Knowledge__kav WHERE Answer__c LIKE '%rtaImage%' LIMIT 1")).records[0]!;
  const url = /src="([^"]+)"/.exec(article.Answer__c)![1]!;
  const dir = mkdtempSync(path.join(tmpdir(), "crm-img-"));
  const saved = await c.downloadImage(url, article.Id, "Answer__c", { filePath: dir });
  const refid = /refid=(\w+)/.exec(url)![1];
  assert.match(saved, new RegExp(`${refid}\\.(png|gif)$`));
  const bytes = readFileSync(saved);
  assert.ok(bytes.subarray(0, 4).toString("latin1") === "\x89PNG" || bytes.subarray(0, 3).toString() === "GIF");
  const fetched = await c.fetchRichTextImage(url, article.Id, "Answer__c");
  assert.ok(fetched.bytes.equals(bytes));
  assert.equal(fetched.contentType, saved.endsWith(".png") ? "image/png" : "image/gif");
  assert.equal(fetched.refid, refid);
  await assert.rejects(c.downloadImage("https://x/servlet/rtaImage?eid=1", article.Id, "Answer__c"), MissingRequiredDataError);
  await assert.rejects(c.downloadImage(url.replace(refid!, "0EM5g0000000000"), article.Id, "Answer__c", { filePath: dir }), (e: unknown) => e instanceof CrmError && /Failed to download the image with refid 0EM5g0000000000/.test((e as Error).message));
});
