// Moving records between two orgs (two emulators): a three-object plan with lookups, a circular reference, owners
// and record types, refused rows, a cancelled and resumed run, and a revert that leaves the target as it was.
import { after, test } from "node:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import assert from "node:assert/strict";
import type { Crm } from "../../../src/client";
import { MigrationPlanError } from "../../../src/workflows/migrationPlan";
import * as migration from "../../../src/workflows/migration";
import { formatReport, mask, parsePlan, type MigrationRun } from "../../../src/workflows/migration";
import type { Emulator } from "../../../src/demo-org";
import type { ObjectSpec } from "../../../src/demo-org/schema";
import { DEMO } from "../../../src/demo-org";
import { insertedIdsOf } from "../../../src/workflows/insertedIds";
import { demoClient, useEmulator } from "../../helpers/emulator";

// A run keeps its file of inserted IDs in the system's temporary folder unless told otherwise: this file's own, removed after.
process.env.TMPDIR = mkdtempSync(path.join(tmpdir(), "migration-test-"));
after(() => rmSync(tmpdir(), { recursive: true, force: true }));

const source = useEmulator({ seed: "demo", bulkLatencyMs: 5 });
const target = useEmulator({ seed: "empty", bulkLatencyMs: 5 });
const poll = { intervalMs: 10, maxIntervalMs: 40 };

const PLAN = `
from: Production
to: Dev sandbox
owner: { default: ${DEMO.integrationUsername} }
objects:
  - object: Account
    where: Industry = 'Technology'
    match: [Name]
    transform: { Phone: mask }
  - object: Contact
    where: Account.Industry = 'Technology'
    match: [Email]
  - object: Case
    where: Account.Industry = 'Technology'
    match: [Subject, Contact.Email]
    fields: { exclude: [Description] }
`;

type Rows = Record<string, unknown>[];

/** The IDs a run inserted, as its file holds them. */
async function insertedIds(run: MigrationRun, object?: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of insertedIdsOf(run.insertedIds, object)) ids.push(...batch);
  return ids;
}

/** The run's record and a copy of its file of IDs naming these too, vouched for as the run would (a record from elsewhere, or a mistake). */
function naming(run: MigrationRun, object: string, ids: string[]): MigrationRun {
  const file = `${run.insertedIds.file}.${ids.length}-more`;
  const text = Buffer.concat([readFileSync(run.insertedIds.file), Buffer.from(ids.map((id) => `${object},${id}\n`).join(""))]);
  writeFileSync(file, text);
  return { ...run, objects: run.objects.map((o) => (o.object === object ? { ...o, inserted: o.inserted + ids.length } : o)), insertedIds: { file, bytes: text.length, sha256: createHash("sha256").update(text).digest("hex") } };
}
async function all(crm: Crm, soql: string): Promise<Rows> {
  const rows: Rows = [];
  for await (const r of crm.queryIterator(soql)) rows.push(r);
  return rows;
}

/** Everything of the objects a revert must give back, as comparable text. */
async function snapshot(crm: Crm): Promise<string> {
  const parts = await Promise.all([
    all(crm, "SELECT Id, Name, Phone, Industry, ParentId FROM Account ORDER BY Id"),
    all(crm, "SELECT Id, Email, AccountId FROM Contact ORDER BY Id"),
    all(crm, "SELECT Id, Subject, ContactId FROM Case ORDER BY Id"),
  ]);
  return JSON.stringify(parts.map((rows) => rows.map(({ attributes: _attributes, ...r }) => r)));
}

function teamObjects(recordTypes: string[]): ObjectSpec[] {
  return [
    { name: "Team__c", keyPrefix: "a1T", recordTypes, fields: [{ name: "Name", type: "string", nillable: false, nameField: true }, { name: "Captain__c", type: "reference", referenceTo: ["Player__c"], relationshipName: "Captain__r", label: "Captain" }] },
    { name: "Player__c", keyPrefix: "a1P", fields: [{ name: "Name", type: "string", nillable: false, nameField: true }, { name: "Team__c", type: "reference", referenceTo: ["Team__c"], relationshipName: "Team__r", label: "Team", nillable: false }, { name: "Mentor__c", type: "reference", referenceTo: ["Player__c"], relationshipName: "Mentor__r", label: "Mentor" }] },
  ];
}

function addTeams(emu: Emulator, recordTypes: string[], skipIds = 0): void {
  const store = emu.seeded.store;
  store.addObjects(teamObjects(recordTypes));
  for (let i = 0; i < skipIds; i++) store.newId("012"); // the orgs' record type IDs differ, as real orgs' do
  for (const developerName of recordTypes) {
    const rt = store.insert("RecordType", { Name: developerName, DeveloperName: developerName, SobjectType: "Team__c" }, emu.seeded.adminId);
    store.recordTypeIds.set(`Team__c.${developerName}`, rt.Id);
  }
}

test("a dry run reads both orgs, writes nothing, and says per object what a run would do", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const writesBefore = target().requests.filter((r) => r.method !== "GET").length;
  const report = await migration.dryRun(src, PLAN, tgt, { poll });
  assert.equal(target().requests.filter((r) => r.method !== "GET").length, writesBefore, "the dry run sends no write");
  assert.deepEqual(report.objects.map((o) => o.object), ["Account", "Contact", "Case"]);
  const technology = await all(src, "SELECT Id FROM Account WHERE Industry = 'Technology'");
  const [accounts, contacts, cases] = report.objects;
  assert.equal(accounts!.rows, technology.length);
  assert.equal(accounts!.insert, technology.length);
  assert.deepEqual(report.deferred, [{ object: "Account", field: "ParentId" }]);
  assert.ok(contacts!.fields.includes("AccountId") && cases!.fields.includes("ContactId"));
  assert.deepEqual(cases!.leftOut, [{ field: "Description", reason: "excluded by the plan" }]);
  assert.ok(accounts!.unmatchedOwners > 0, "owners other than the admin have no namesake in the target");
  assert.equal(accounts!.write, "collections");
  const text = formatReport(report, { from: "Production", to: "Dev sandbox" });
  assert.match(text, /# Migration dry run: Production → Dev sandbox/);
  assert.match(text, /\| Account \| \d+ \| \d+ \| 0 \| 0 \| 0 \|/);
});

test("a run moves three objects with their lookups re-pointed, owners by username, masked values; a second run writes nothing; a revert restores the target", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  // A record the target already has (matched by Name): updated by the run, restored by the revert.
  const [first] = await all(src, "SELECT Name, Phone FROM Account WHERE Industry = 'Technology' ORDER BY Name LIMIT 1");
  const existing = await tgt.createSobjectRecord("Account", { Name: first!.Name, Phone: "+1 000", Industry: "Retail" });
  const before = await snapshot(tgt);

  const run = await migration.run(src, PLAN, tgt, { poll });
  assert.equal(run.state, "complete", run.error);
  const [accounts, contacts, cases] = run.objects;
  assert.equal(accounts!.updated.length, 1);
  assert.deepEqual(accounts!.updated[0]!.before.Industry, "Retail");
  assert.equal(contacts!.failed + cases!.failed + accounts!.failed, 0);

  // Every lookup points at the target's record of the same name.
  const srcCases = await all(src, "SELECT Subject, Contact.Email, Account.Name FROM Case WHERE Account.Industry = 'Technology'");
  const tgtCases = await all(tgt, "SELECT Subject, Contact.Email, Account.Name FROM Case");
  const keyOf = (r: Record<string, any>) => `${r.Subject}|${r.Contact?.Email}|${r.Account?.Name}`; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.deepEqual(tgtCases.map(keyOf).sort(), srcCases.map(keyOf).sort());
  const tgtContacts = await all(tgt, "SELECT Email, Account.Name, Owner.Username FROM Contact");
  const srcContacts = await all(src, "SELECT Email, Account.Name, Owner.Username FROM Contact WHERE Account.Industry = 'Technology'");
  assert.deepEqual(tgtContacts.map((r: any) => `${r.Email}|${r.Account?.Name}`).sort(), srcContacts.map((r: any) => `${r.Email}|${r.Account?.Name}`).sort()); // eslint-disable-line @typescript-eslint/no-explicit-any
  // Owners: the admin has a namesake in the target; everyone else goes to the plan's default owner.
  for (const r of tgtContacts as any[]) { // eslint-disable-line @typescript-eslint/no-explicit-any
    const was = (srcContacts as any[]).find((s) => s.Email === r.Email).Owner.Username; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(r.Owner.Username, was === DEMO.username ? DEMO.username : DEMO.integrationUsername);
  }
  // The masked phone keeps its shape, not its digits.
  const [moved] = await all(tgt, `SELECT Phone FROM Account WHERE Name = '${String(first!.Name).replace(/'/g, "\\'")}'`);
  assert.equal(moved!.Phone, mask(String(first!.Phone)));
  assert.notEqual(moved!.Phone, first!.Phone);
  assert.equal(String(moved!.Phone).length, String(first!.Phone).length);

  const again = await migration.dryRun(src, PLAN, tgt, { poll });
  assert.deepEqual(again.objects.map((o) => [o.insert, o.update]), [[0, 0], [0, 0], [0, 0]], "what the run wrote is found again");

  const result = await migration.revert(tgt, run, { poll });
  assert.deepEqual(result.conflicts, []);
  assert.equal(result.restored, 1);
  assert.equal(result.deleted, run.objects.reduce((n, o) => n + o.inserted, 0));
  assert.equal(await snapshot(tgt), before, "the target is as it was");
  const twice = await migration.revert(tgt, run, { poll });
  assert.deepEqual(twice, { deleted: 0, restored: 0, alreadyReverted: result.deleted + result.restored, conflicts: [], failures: [], reconciled: { inserted: 0, updated: 0 }, unknown: [] }, "a second revert finds every record as it was before: nothing sent, nothing failed");
  await tgt.deleteSobjectRecord("Account", existing.id);
});

test("values the target refuses are named by the dry run and skipped by the run, a unique value the target holds included", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const store = source().seeded.store;
  const contact = store.liveRecords("Contact").find((c) => c.AccountId && store.find(String(c.AccountId))?.rec.Industry === "Technology")!;
  const saved = contact.LeadSource;
  contact.LeadSource = "Trade Show"; // not a value of the restricted picklist
  const account = store.liveRecords("Account").find((a) => a.Industry === "Technology")!;
  // The target holds the account's unique number on another account: the org would refuse the insert, and the
  // dry run says so, naming the record that holds it; the account's contacts are held back with it.
  const clash = await tgt.createSobjectRecord("Account", { Name: "Someone else", AccountNumber: account.AccountNumber });
  try {
    const plan = PLAN.replace("transform: { Phone: mask }", "");
    const report = await migration.dryRun(src, plan, tgt, { poll });
    const [accountsReport, contacts] = report.objects;
    assert.equal(accountsReport!.refused, 1);
    assert.equal(accountsReport!.problems[0]!.sourceId, account.Id);
    assert.equal(accountsReport!.problems[0]!.message, `Account Number: the target's Account ${clash.id} already holds '${account.AccountNumber}' (its values are unique)`);
    const heldBack = store.liveRecords("Contact").filter((c) => c.AccountId === account.Id && c.Id !== contact.Id).length;
    assert.equal(contacts!.refused, 1 + heldBack);
    const picklist = contacts!.problems.find((p) => p.sourceId === contact.Id)!;
    assert.match(picklist.message, /Lead ?Source must be one of .*not 'Trade Show'/i);
    assert.match(formatReport(report), /Rows refused \(\d+\):[\s\S]*Trade Show/);

    const run = await migration.run(src, plan, tgt, { poll });
    assert.equal(run.state, "complete");
    const [accounts, contactsDone] = run.objects;
    assert.equal(accounts!.failed, 1);
    assert.equal(accounts!.failures[0]!.sourceId, account.Id);
    assert.match(accounts!.failures[0]!.message, /already holds .* \(its values are unique\)/);
    // The refused row, and the contacts of the refused account, held back rather than written without it.
    assert.equal(contactsDone!.failed, 1 + heldBack);
    assert.equal((await all(tgt, `SELECT Id FROM Contact WHERE Email = '${contact.Email}'`)).length, 0, "the refused row is not written");
    await migration.revert(tgt, run, { poll });
  } finally {
    contact.LeadSource = saved;
    await tgt.deleteSobjectRecord("Account", clash.id);
  }
});

test("a circular reference and a self-reference are written in a second pass; record types go by developer name with a default", async () => {
  addTeams(source(), ["Pro", "Youth"]);
  addTeams(target(), ["Pro"], 3);
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const admin = source().seeded.adminId;
  const store = source().seeded.store;
  const pro = store.recordTypeIds.get("Team__c.Pro")!;
  const youth = store.recordTypeIds.get("Team__c.Youth")!;
  const red = store.insert("Team__c", { Name: "Red", RecordTypeId: pro }, admin);
  const blue = store.insert("Team__c", { Name: "Blue", RecordTypeId: youth }, admin);
  const ann = store.insert("Player__c", { Name: "Ann", Team__c: red.Id }, admin);
  const bob = store.insert("Player__c", { Name: "Bob", Team__c: blue.Id, Mentor__c: ann.Id }, admin);
  red.Captain__c = ann.Id;
  blue.Captain__c = bob.Id;
  const plan = { objects: [{ object: "Player__c", match: ["Name"] }, { object: "Team__c", match: ["Name"], recordType: { default: "Pro" } }] };

  const report = await migration.dryRun(src, plan, tgt, { poll });
  assert.deepEqual(report.objects.map((o) => o.object), ["Team__c", "Player__c"], "the required lookup decides the order");
  assert.deepEqual(report.deferred, [{ object: "Team__c", field: "Captain__c" }, { object: "Player__c", field: "Mentor__c" }]);
  assert.equal(report.objects[0]!.unmatchedRecordTypes, 1);

  const run = await migration.run(src, plan, tgt, { poll });
  assert.equal(run.state, "complete", run.error);
  const teams = await all(tgt, "SELECT Name, Captain__r.Name, RecordTypeId FROM Team__c ORDER BY Name");
  assert.deepEqual(teams.map((t: any) => [t.Name, t.Captain__r?.Name]), [["Blue", "Bob"], ["Red", "Ann"]]); // eslint-disable-line @typescript-eslint/no-explicit-any
  const targetPro = target().seeded.store.recordTypeIds.get("Team__c.Pro");
  assert.ok(teams.every((t) => t.RecordTypeId === targetPro), "Youth has no namesake: the plan's default, Pro");
  const players = await all(tgt, "SELECT Name, Team__r.Name, Mentor__r.Name FROM Player__c ORDER BY Name");
  assert.deepEqual(players.map((p: any) => [p.Name, p.Team__r?.Name, p.Mentor__r?.Name ?? null]), [["Ann", "Red", null], ["Bob", "Blue", "Ann"]]); // eslint-disable-line @typescript-eslint/no-explicit-any

  await migration.revert(tgt, run, { poll });
  assert.equal((await all(tgt, "SELECT Id FROM Team__c")).length + (await all(tgt, "SELECT Id FROM Player__c")).length, 0);
});

test("a cancelled run stops between chunks knowing what it wrote; resumed, it writes the rest once; one revert undoes both", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const before = await snapshot(tgt);
  const controller = new AbortController();
  const kept: MigrationRun[] = [];
  const plan = PLAN.replace("transform: { Phone: mask }", "");
  const cancelled = await migration.run(src, plan, tgt, {
    poll, chunkRows: 10, signal: controller.signal,
    onRecord: (r) => {
      kept.push(structuredClone(r));
      if (r.objects[1]?.inserted) controller.abort(); // during the Contacts
    },
  });
  assert.equal(cancelled.state, "cancelled");
  assert.equal(cancelled.objects.length, 2, "stopped in the second object");
  const written = await all(tgt, "SELECT Id FROM Contact");
  assert.equal(written.length, cancelled.objects[1]!.inserted, "the record counts every row written, no more");
  assert.deepEqual((await insertedIds(cancelled, "Contact")).sort(), written.map((c) => String(c.Id)).sort(), "and its file names each");
  assert.ok(kept.length >= 3, "the record was handed over after every chunk");

  await assert.rejects(migration.run(src, PLAN, tgt, { poll, resume: cancelled }), (err: unknown) => err instanceof MigrationPlanError && /another plan/.test(err.message));
  const resumed = await migration.run(src, plan, tgt, { poll, chunkRows: 10, resume: cancelled });
  assert.equal(resumed.state, "complete", resumed.error);
  assert.equal(resumed.id, cancelled.id, "the same run goes on");
  const srcContacts = await all(src, "SELECT Email FROM Contact WHERE Account.Industry = 'Technology'");
  const tgtContacts = await all(tgt, "SELECT Email FROM Contact");
  assert.deepEqual(tgtContacts.map((c) => c.Email).sort(), srcContacts.map((c) => c.Email).sort(), "every contact once");
  assert.equal(resumed.objects[1]!.inserted, srcContacts.length);
  assert.equal(resumed.insertedIds.file, cancelled.insertedIds.file, "the resumed run goes on in the same file of IDs");
  assert.equal((await insertedIds(resumed, "Contact")).length, srcContacts.length);

  await migration.revert(tgt, resumed, { poll });
  assert.equal(await snapshot(tgt), before);
});

test("a Bulk job the org stops part way: the run fails knowing every record that job wrote, and one revert leaves the target as it was", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const before = await snapshot(tgt);
  const plan = PLAN.replace("transform: { Phone: mask }", "");
  target().setFault("failIngestAfterRows", 4);
  const failed = await migration.run(src, plan, tgt, { poll, bulkThreshold: 0 });
  target().setFault("failIngestAfterRows", 0);
  assert.equal(failed.state, "failed");
  const accounts = await all(tgt, "SELECT Id FROM Account");
  assert.equal(accounts.length, 4, "the job wrote four accounts before it stopped");
  assert.deepEqual((await insertedIds(failed, "Account")).map((id) => id.slice(0, 15)).sort(), accounts.map((a) => String(a.Id).slice(0, 15)).sort(), "the run's record names each of them");
  const reverted = await migration.revert(tgt, failed, { poll });
  assert.deepEqual(reverted.failures, []);
  assert.equal(await snapshot(tgt), before, "the target is as it was");
});

test("accounts the target refuses (a unique value it already holds) hold back their contacts, named, instead of writing them without an account", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const plan = { objects: [
    { object: "Account", where: "Industry = 'Technology'", match: ["Name"], fields: { include: ["Name", "AccountNumber"] } },
    { object: "Contact", where: "Account.Industry = 'Technology'", match: ["Email"], fields: { include: ["LastName", "Email", "AccountId"] } },
  ] };
  const accounts = await all(src, "SELECT Id, AccountNumber FROM Account WHERE Industry = 'Technology' ORDER BY Name LIMIT 2");
  // The target already holds these account numbers, on accounts of other names: the run's inserts collide.
  const planted = await Promise.all(accounts.map((a, i) => tgt.createSobjectRecord("Account", { Name: `Elsewhere ${i}`, AccountNumber: a.AccountNumber })));
  const refusedIds = new Set(accounts.map((a) => String(a.Id)));
  const theirContacts = (await all(src, "SELECT Id, AccountId FROM Contact WHERE Account.Industry = 'Technology'")).filter((c) => refusedIds.has(String(c.AccountId)));
  assert.ok(theirContacts.length > 0, "the refused accounts have contacts");

  const report = await migration.dryRun(src, plan, tgt, { poll });
  assert.equal(report.objects[0]!.refused, 2, "the dry run foresees both refusals");
  assert.equal(report.objects[1]!.refused, theirContacts.length, "and holds their contacts back");
  const run = await migration.run(src, plan, tgt, { poll });
  const [accountOutcome, contactOutcome] = run.objects;
  assert.deepEqual(accountOutcome!.failures.map((f) => f.sourceId).sort(), [...refusedIds].sort());
  assert.ok(accountOutcome!.failures.every((f) => /already holds '.*' \(its values are unique\)/.test(f.message)));
  const held = contactOutcome!.failures.filter((f) => /held back: its Account .* \(AccountId\) was refused/.test(f.message));
  assert.deepEqual(held.map((f) => f.sourceId).sort(), theirContacts.map((c) => String(c.Id)).sort(), "each of their contacts is held back and named");
  assert.equal((await all(tgt, "SELECT Id FROM Contact WHERE AccountId = null")).length, 0, "no contact was written without its account");
  await migration.revert(tgt, run, { poll });
  await Promise.all(planted.map((p) => tgt.deleteSobjectRecord("Account", p.id)));
});

test("a revert deletes only records the org says the run's user created during the run: another's record, or one made before it, is named and left", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const plan = { objects: [{ object: "Account", where: "Industry = 'Technology'", match: ["Name"], fields: { include: ["Name"] } }] };
  const run = await migration.run(src, plan, tgt, { poll });
  assert.equal(run.target.userId, tgt.userId, "the run names the user it wrote as");
  // Someone else's account, its ID in the list (a record from elsewhere, or a mistake).
  const theirs = target().seeded.store.insert("Account", { Name: "Someone else's" }, "005000000000099AAA");
  // The run's user's own account, made a day before the run: not the run's either.
  const older = target().seeded.store.insert("Account", { Name: "Made the day before" }, String(tgt.userId));
  older.CreatedDate = new Date(Date.parse(run.startedAt) - 86_400_000).toISOString().replace("Z", "+0000");
  const listed = naming(run, "Account", [String(theirs.Id), String(older.Id)]);
  const result = await migration.revert(tgt, listed, { poll });
  assert.deepEqual(result.conflicts, [
    { object: "Account", id: String(theirs.Id), fields: [], why: "not created by the run's user" },
    { object: "Account", id: String(older.Id), fields: [], why: "created outside the run's time" },
  ]);
  assert.equal(result.deleted, run.objects[0]!.inserted, "the run's own records are deleted");
  assert.ok(target().seeded.store.liveRecords("Account").some((a) => a.Id === theirs.Id), "the other record stays");
  assert.ok(target().seeded.store.liveRecords("Account").some((a) => a.Id === older.Id), "the older record stays");
  await tgt.deleteSobjectRecord("Account", String(theirs.Id));
  await tgt.deleteSobjectRecord("Account", String(older.Id));
});

test("a run's record kept by an older version (its inserted IDs listed in it) is still reverted: the IDs move to a file of their own first", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const before = await snapshot(tgt);
  const plan = { objects: [{ object: "Account", where: "Industry = 'Technology'", match: ["Name"], fields: { include: ["Name"] } }] };
  const run = await migration.run(src, plan, tgt, { poll });
  const { insertedIds: _file, ...rest } = run;
  const older = { ...rest, objects: await Promise.all(run.objects.map(async (o) => ({ ...o, inserted: await insertedIds(run, o.object) }))) } as unknown as MigrationRun;
  const moved = `${run.insertedIds.file}.upgraded`;
  const result = await migration.revert(tgt, older, { poll, insertedIdsFile: moved });
  assert.equal(result.deleted, run.objects[0]!.inserted);
  assert.equal(await snapshot(tgt), before, "the target is as it was");
  assert.equal(readFileSync(moved, "utf8"), readFileSync(run.insertedIds.file, "utf8"), "the IDs were written where the caller keeps them");
});

test("a revert leaves an account a contact it did not create points to — the org would delete that contact with it — and names it", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const before = await snapshot(tgt);
  const plan = { objects: [{ object: "Account", where: "Industry = 'Technology'", match: ["Name"], fields: { include: ["Name"] } }] };
  const run = await migration.run(src, plan, tgt, { poll });
  const [held, ...rest] = await insertedIds(run, "Account");
  // Someone else adds a contact under one of the run's accounts after the run.
  const theirs = target().seeded.store.insert("Contact", { LastName: "Added later", AccountId: held }, "005000000000099AAA");
  const result = await migration.revert(tgt, run, { poll });
  assert.equal(result.conflicts.length, 1);
  assert.deepEqual(result.conflicts[0], { object: "Account", id: held, fields: [], why: `records the run did not create point to it (Contact ${String(theirs.Id)}, which the org would delete with it)` });
  assert.equal(result.deleted, rest.length, "the run's other accounts are deleted");
  assert.ok(target().seeded.store.find(String(theirs.Id)), "their contact is still there");
  await tgt.deleteSobjectRecord("Account", held!);
  assert.equal(target().seeded.store.find(String(theirs.Id)), undefined, "as in an org, deleting the account deletes its contacts");
  assert.equal(await snapshot(tgt), before);
});

test("a revert leaves a record changed since the run as it is, and names it", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const plan = { objects: [{ object: "Account", where: "Industry = 'Technology'", match: ["Name"], fields: { include: ["Name", "Phone"] } }] };
  const [first] = await all(src, "SELECT Name FROM Account WHERE Industry = 'Technology' ORDER BY Name LIMIT 1");
  const existing = await tgt.createSobjectRecord("Account", { Name: first!.Name, Phone: "+1 000" });
  const run = await migration.run(src, plan, tgt, { poll });
  await tgt.updateSobjectRecord("Account", existing.id, { Phone: "+1 999" }); // someone else, after the run
  const result = await migration.revert(tgt, run, { poll });
  assert.deepEqual(result.conflicts, [{ object: "Account", id: run.objects[0]!.updated[0]!.id, fields: ["Phone"] }]);
  assert.equal((await tgt.getSobjectRecord("Account", existing.id)).Phone, "+1 999");
  await tgt.deleteSobjectRecord("Account", existing.id);
});

test("a plan is checked before anything is read: each mistake names its place and what was expected", async () => {
  const cases: [string, RegExp][] = [
    ["objects: []", /objects must be a list/],
    ["objects:\n  - object: Account", /objects\[0\]\.match is missing/],
    ["objects:\n  - object: Account\n    match: [Name]\n    colour: red", /objects\[0\] has no key 'colour'/],
    ["objects:\n  - object: Account\n    match: [Name]\n    transform: { Name: mask }", /changes Name, which is in match/],
    ["objects:\n  - object: Account\n    match: [Name]\n    transform: { Phone: scramble }", /transform\.Phone must be blank, mask or \{ constant/],
    ["a: &x [1]\nb: *x", /YAML|alias/i],
    ["objects:\n  - object: 'Account; DROP'\n    match: [Name]", /objects\[0\]\.object must be an object's API name/],
  ];
  for (const [text, expected] of cases) assert.throws(() => parsePlan(text), (err: unknown) => err instanceof MigrationPlanError && expected.test(err.message), text);
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  await assert.rejects(migration.dryRun(src, { objects: [{ object: "Account", match: ["Nickname"] }] }, tgt), /objects\[0\]\.match: Account has no field Nickname/);
  await assert.rejects(migration.dryRun(src, { objects: [{ object: "Account", match: ["Name"] }], owner: { default: "nobody@nowhere.example" } }, tgt), /owner\.default: no active user nobody@nowhere\.example/);
  await assert.rejects(migration.dryRun(src, PLAN, undefined as never), /target must be a Crm client/);
});

test("the next object's rows are exported while the last chunk of the one before loads: the org works on both at once", async () => {
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  const before = await snapshot(tgt);
  const [sourceFrom, targetFrom] = [source().requests.length, target().requests.length];
  const run = await migration.run(src, PLAN.replace("transform: { Phone: mask }", ""), tgt, { poll, bulkThreshold: 0 });
  assert.equal(run.state, "complete");
  const sourceSent = source().requests.slice(sourceFrom);
  const targetSent = target().requests.slice(targetFrom);
  // The Account ingest job: created first; its ID is in the path of the requests that follow.
  const created = targetSent.findIndex((r) => r.method === "POST" && /\/jobs\/ingest$/.test(r.path) && /"object":"Account"/.test(r.body));
  const jobId = targetSent.slice(created).map((r) => /\/jobs\/ingest\/(\w+)/.exec(r.path)?.[1]).find(Boolean)!;
  const accountsDone = targetSent.filter((r) => r.method === "GET" && r.path.endsWith(`/jobs/ingest/${jobId}`)).at(-1)!.receivedAt;
  const contactExport = sourceSent.find((r) => r.method === "POST" && /\/jobs\/query$/.test(r.path) && /FROM Contact/.test(r.body))!.receivedAt;
  const contactIndex = targetSent.find((r) => r.method === "POST" && /\/jobs\/query$/.test(r.path) && /FROM Contact/.test(r.body))!.receivedAt;
  const accountExport = sourceSent.findIndex((r) => r.method === "POST" && /\/jobs\/query$/.test(r.path) && /FROM Account/.test(r.body));
  const exportId = sourceSent.slice(accountExport).map((r) => /\/jobs\/query\/(\w+)$/.exec(r.path)?.[1]).find(Boolean)!;
  const accountsExported = sourceSent.filter((r) => r.method === "GET" && r.path.endsWith(`/jobs/query/${exportId}`)).at(-1)!.receivedAt;
  assert.ok(accountsExported < contactExport, "one export at a time: the contacts' began once the accounts' was done");
  assert.ok(contactExport < accountsDone, "the contacts' export job was started before the accounts' last job was heard done");
  assert.ok(contactIndex < accountsDone, "and so was the read of the target's contacts");
  await migration.revert(tgt, run, { poll });
  assert.equal(await snapshot(tgt), before);
});

test("the row loop gives the event loop turns while it takes a page of rows: the chunk in flight moves, the process answers", async () => {
  const visits: ObjectSpec[] = [{ name: "Visit__c", keyPrefix: "a1V", fields: [{ name: "Name", type: "string", nillable: false, nameField: true }] }];
  source().seeded.store.addObjects(visits);
  target().seeded.store.addObjects(visits);
  for (let i = 0; i < 5_000; i++) source().seeded.store.insert("Visit__c", { Name: `Visit ${i}` }, source().seeded.adminId);
  const [src, tgt] = await Promise.all([demoClient(source()), demoClient(target())]);
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const turnsAt = new Map<number, number>();
  const run = await migration.run(src, { objects: [{ object: "Visit__c", match: ["Name"] }] }, tgt, {
    poll, onProgress: (p) => void (p.phase === "read" && p.object === "Visit__c" && turnsAt.set(p.done, turns)),
  });
  ticking = false;
  assert.equal(run.state, "complete", run.error);
  assert.deepEqual([run.objects[0]!.inserted, run.objects[0]!.via], [5_000, ["bulk"]]);
  // One result set of 5,000 rows, taken from memory: the event loop turned every 200 rows between the 1,000th and the 5,000th.
  assert.ok(turnsAt.get(5_000)! - turnsAt.get(1_000)! >= 20, `turns between the 1,000th and the 5,000th row: ${turnsAt.get(5_000)! - turnsAt.get(1_000)!}`);
  await migration.revert(tgt, run, { poll });
  assert.equal((await all(tgt, "SELECT Id FROM Visit__c")).length, 0);
});
