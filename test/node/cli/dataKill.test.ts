/**
 * `crm-data migrate --apply` (and `crm-data revert`) killed with SIGKILL at a chosen write — the org has carried it
 * out, the answer never reaches the run — then reverted or resumed, and the target compared with its state before,
 * row by row. The run's
 * record says before each chunk what it is about to write (write-ahead), so revert and resume find what the org
 * did with a chunk nobody heard back about.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runDataCli } from "../../../src/cli/dataCli";
import { startEmulator, type Emulator } from "../../../src/demo-org";
import { jobs } from "../../../src/client/bulk";
import { demoClient, killedAtWrite, useEmulator } from "../../helpers/emulator";

const source = useEmulator({ seed: "demo" });
const dirs: string[] = [];
const config = mkdtempSync(path.join(tmpdir(), "crm-data-config-"));
after(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  rmSync(config, { recursive: true, force: true });
});

// Every account and contact (Collections below 100,000 rows: each write request carries 200 rows).
const PLAN = `objects:
  - object: Account
    match: [Name]
  - object: Contact
    match: [Email]
`;

/** An empty target holding 20 of the source's accounts by name with other phones: the run inserts 280 accounts and updates those 20. */
async function targetOrg(): Promise<Emulator> {
  const emu = await startEmulator({ port: 0, seed: "empty" });
  const admin = emu.seeded.adminId;
  for (const account of source().seeded.store.liveRecords("Account").slice(0, 20)) emu.seeded.store.insert("Account", { Name: account.Name, Phone: "+1 000 0000" }, admin);
  return emu;
}

async function workspace(target: Emulator): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-data-kill-"));
  dirs.push(dir);
  const helper = (emu: Emulator) => JSON.stringify({ connection: { endpoint_url: emu.credentials.loginUrl, client_id: emu.credentials.clientId, client_secret: emu.credentials.clientSecret, username: emu.credentials.username, password: emu.credentials.password, security_token: emu.credentials.securityToken } });
  await writeFile(path.join(dir, "prod.json"), helper(source()));
  await writeFile(path.join(dir, "sandbox.json"), helper(target));
  await writeFile(path.join(dir, "all.migration.yaml"), PLAN);
  return dir;
}

/** The target's accounts and contacts as rows to compare: everything a run could have inserted, changed or deleted. */
function state(emu: Emulator): string[] {
  const store = emu.seeded.store;
  return [
    ...store.liveRecords("Account").map((a) => `Account ${a.Id} ${String(a.Name)} ${String(a.Phone)} ${String(a.ParentId)}`),
    ...store.liveRecords("Contact").map((c) => `Contact ${c.Id} ${String(c.Email)} ${String(c.AccountId)}`),
  ].sort();
}

/** The target after a resumed run: the source's 300 accounts (280 inserted, 20 updated) and 320 contacts, none twice. */
function everyRecordOnce(target: Emulator): void {
  const names = target.seeded.store.liveRecords("Account").map((a) => String(a.Name));
  assert.deepEqual([names.length, new Set(names).size], [300, 300], "300 accounts, none twice");
  const emails = target.seeded.store.liveRecords("Contact").map((c) => String(c.Email));
  assert.deepEqual([emails.length, new Set(emails).size], [320, 320], "320 contacts, none twice");
}

const MIGRATE = ["migrate", "--plan", "all.migration.yaml", "--from", "prod.json", "--to", "sandbox.json", "--apply", "--bulk-threshold", "100000"];

/** crm-data killed once the org has carried out its `at`-th record write (sObject Collections: 200 rows each). */
const killedAt = (target: Emulator, dir: string, at: number, argv: string[]) =>
  killedAtWrite(target, { tool: "crm-data", argv, cwd: dir, env: { XDG_CONFIG_HOME: config }, at, counts: (written) => /\/composite\/sobjects/.test(written) });

async function cli(dir: string, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDataCli({ argv, env: { XDG_CONFIG_HOME: config }, cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

for (const [at, what] of [
  [1, "the first 200 accounts inserted and unanswered"],
  [3, "every account inserted, the 20 updates applied and unanswered"],
  [4, "the accounts done, the first 200 contacts inserted and unanswered"],
  [6, "every record written, the second pass's parent lookups applied and unanswered"],
] as const) {
  test(`killed at write ${at} (${what}): revert leaves the target exactly as it was`, async (t) => {
    const target = await targetOrg();
    t.after(() => target.close());
    const dir = await workspace(target);
    const before = state(target);
    await killedAt(target, dir, at, [...MIGRATE, "--run", "all.run.json"]);
    assert.notDeepEqual(state(target), before, "the killed run wrote something");
    const record = JSON.parse(await readFile(path.join(dir, "all.run.json"), "utf8")) as { state: string; objects: { pending?: unknown }[] };
    assert.equal(record.state, "running", "the record was last saved by the run itself, before the kill");
    assert.ok(record.objects.some((o) => o.pending), "it holds the chunk that was being written");
    const reverted = await cli(dir, ["revert", "--run", "all.run.json", "--to", "sandbox.json"]);
    assert.equal(reverted.code, 0, reverted.out + reverted.err);
    assert.match(reverted.out, /were found in the org from a chunk the run never heard back about/);
    assert.deepEqual(state(target), before, "every row as it was before the run");
  });
}

// Resumed into the same record file, and into another (the run's file of inserted IDs goes along).
for (const [write, runFile] of [[2, "all.run.json"], [4, "resumed.run.json"]] as const) {
  test(`killed at write ${write}, then resumed into ${runFile}: every record once, lookups right; one revert leaves the target as it was`, async (t) => {
    const target = await targetOrg();
    t.after(() => target.close());
    const dir = await workspace(target);
    const before = state(target);
    await killedAt(target, dir, write, [...MIGRATE, "--run", "all.run.json"]);
    const resumed = await cli(dir, [...MIGRATE, "--resume", "all.run.json", "--run", runFile]);
    assert.equal(resumed.code, 0, resumed.out + resumed.err);
    const store = target.seeded.store;
    everyRecordOnce(target);
    const byName = new Map(store.liveRecords("Account").map((a) => [a.Id, String(a.Name)]));
    const sourceAccount = new Map(source().seeded.store.liveRecords("Account").map((a) => [a.Id, String(a.Name)]));
    for (const c of source().seeded.store.liveRecords("Contact")) {
      const moved = store.liveRecords("Contact").find((x) => x.Email === c.Email)!;
      assert.equal(moved.AccountId ? byName.get(String(moved.AccountId)) : null, c.AccountId ? sourceAccount.get(String(c.AccountId)) : null, `${String(c.Email)}'s account`);
    }
    const record = JSON.parse(await readFile(path.join(dir, runFile), "utf8")) as { state: string; objects: { object: string; inserted: number; updated: unknown[] }[] };
    assert.equal(record.state, "complete");
    assert.deepEqual(record.objects.map((o) => [o.object, o.inserted]), [["Account", 280], ["Contact", 320]], "the run owns every record it inserted, the killed chunk's included");
    const ids = (await readFile(path.join(dir, runFile.replace(/json$/, "ids")), "utf8")).trim().split("\n");
    assert.deepEqual([ids.length, new Set(ids).size], [600, 600], "its file of inserted IDs, beside its record, names each of them once");
    const reverted = await cli(dir, ["revert", "--run", runFile, "--to", "sandbox.json"]);
    assert.equal(reverted.code, 0, reverted.out + reverted.err);
    assert.deepEqual(state(target), before);
  });
}

test("a revert killed half way, run again: the target exactly as it was, the records the first one deleted counted as reverted", async (t) => {
  const target = await targetOrg();
  t.after(() => target.close());
  const dir = await workspace(target);
  const before = state(target);
  const applied = await cli(dir, [...MIGRATE, "--run", "all.run.json"]);
  assert.equal(applied.code, 0, applied.out + applied.err);
  // Contacts go first (reverse order): killed once the org has deleted the first 200 of them.
  await killedAt(target, dir, 1, ["revert", "--run", "all.run.json", "--to", "sandbox.json"]);
  assert.equal(target.seeded.store.liveRecords("Contact").length, 120, "the killed revert deleted 200 contacts");
  const again = await cli(dir, ["revert", "--run", "all.run.json", "--to", "sandbox.json"]);
  assert.equal(again.code, 0, again.out + again.err);
  assert.match(again.out, /\(200 were already as before\)/);
  assert.deepEqual(state(target), before);
});

/** The same run through Bulk API jobs (every chunk of 100 rows or more): the accounts' insert job, the contacts'. */
const MIGRATE_BULK = [...MIGRATE.slice(0, -1), "100"];
/** crm-data killed once the org has accepted the `at`-th job's UploadComplete: the job goes on at the org without it. */
const killedWithJobInFlight = (target: Emulator, dir: string, at: number, argv: string[]) =>
  killedAtWrite(target, { tool: "crm-data", argv, cwd: dir, env: { XDG_CONFIG_HOME: config }, at, counts: (written) => /\/jobs\/ingest\/750\w+$/.test(written) });

/** Waits until no ingest job is still uploading-complete or in progress at the org (the org's own pace, no guess at a time). */
async function jobsEnded(target: Emulator): Promise<void> {
  const crm = await demoClient(target);
  try {
    while ((await jobs(crm, "ingest")).some((j) => j.state === "UploadComplete" || j.state === "InProgress")) await new Promise((r) => setTimeout(r, 50));
  } finally {
    crm.close();
  }
}

for (const at of [1, 2]) {
  test(`killed with Bulk job ${at} in flight at the org: revert stops it, and once every job has ended the target is exactly as it was`, async (t) => {
    const target = await targetOrg();
    t.after(() => target.close());
    const dir = await workspace(target);
    const before = state(target);
    await killedWithJobInFlight(target, dir, at, [...MIGRATE_BULK, "--run", "all.run.json"]);
    const record = JSON.parse(await readFile(path.join(dir, "all.run.json"), "utf8")) as { objects: { pending?: { jobs?: string[] } }[] };
    assert.equal(record.objects.flatMap((o) => o.pending?.jobs ?? []).length, 1, "the record names the job in flight, saved before its rows were uploaded");
    const reverted = await cli(dir, ["revert", "--run", "all.run.json", "--to", "sandbox.json"]);
    assert.equal(reverted.code, 0, reverted.out + reverted.err);
    await jobsEnded(target);
    assert.deepEqual(state(target), before, "every row as it was before the run, nothing written by the job after the revert");
  });
}

test("killed with a Bulk job in flight, then resumed: every record once; one revert leaves the target as it was", async (t) => {
  const target = await targetOrg();
  t.after(() => target.close());
  const dir = await workspace(target);
  const before = state(target);
  await killedWithJobInFlight(target, dir, 1, [...MIGRATE_BULK, "--run", "all.run.json"]);
  const resumed = await cli(dir, [...MIGRATE_BULK, "--resume", "all.run.json", "--run", "all.run.json"]);
  assert.equal(resumed.code, 0, resumed.out + resumed.err);
  await jobsEnded(target);
  everyRecordOnce(target);
  const reverted = await cli(dir, ["revert", "--run", "all.run.json", "--to", "sandbox.json"]);
  assert.equal(reverted.code, 0, reverted.out + reverted.err);
  assert.deepEqual(state(target), before);
});
