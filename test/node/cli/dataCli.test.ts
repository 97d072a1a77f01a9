// `crm-data migrate` and `crm-data revert` between two emulators: a dry run by default, --apply with the run's
// record and one journal line, exit code 1 when a row fails, the production guard, usage errors.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runDataCli } from "../../../src/cli/dataCli";
import type { Emulator } from "../../../src/demo-org";
import { demoClient, useEmulator } from "../../helpers/emulator";

const source = useEmulator({ seed: "demo", bulkLatencyMs: 5 });
const target = useEmulator({ seed: "empty", bulkLatencyMs: 5 });
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const PLAN = `objects:
  - object: Account
    where: Industry = 'Energy'
    match: [Name]
  - object: Contact
    where: Account.Industry = 'Energy'
    match: [Email]
`;

async function workspace() {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-data-"));
  dirs.push(dir);
  const helper = (emu: Emulator) => JSON.stringify({ connection: { endpoint_url: emu.credentials.loginUrl, client_id: emu.credentials.clientId, client_secret: emu.credentials.clientSecret, username: emu.credentials.username, password: emu.credentials.password, security_token: emu.credentials.securityToken } });
  await writeFile(path.join(dir, "prod.json"), helper(source()));
  await writeFile(path.join(dir, "sandbox.json"), helper(target()));
  await writeFile(path.join(dir, "energy.migration.yaml"), PLAN);
  return dir;
}

/** This user's config folder (where crm-data keeps the key it signs run records with), a temporary one. */
const config = mkdtempSync(path.join(tmpdir(), "crm-data-config-"));
after(() => rmSync(config, { recursive: true, force: true }));

async function cli(cwd: string, argv: string[], env: Record<string, string> = { XDG_CONFIG_HOME: config }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDataCli({ argv, env, cwd, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const writes = () => target().requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/services/oauth2/")).length;

test("migrate is a dry run unless --apply: the report, nothing written", async () => {
  const dir = await workspace();
  const before = writes();
  const { code, out, err } = await cli(dir, ["migrate", "--plan", "energy.migration.yaml", "--from", "prod.json", "--to", "sandbox.json"]);
  assert.equal(code, 0, err || out);
  assert.match(out, /\| Account \| \d+ \| \d+ \|/);
  assert.match(out, /Order: Account → Contact\./);
  assert.equal(writes(), before);
});

test("--apply runs the plan, keeps the run's record and one journal line; revert takes it back", async () => {
  const dir = await workspace();
  const tgt = await demoClient(target());
  const applied = await cli(dir, ["migrate", "--plan", "energy.migration.yaml", "--from", "prod.json", "--to", "sandbox.json", "--apply", "--run", "energy.run.json", "--journal", "journal.jsonl"]);
  assert.equal(applied.code, 0, applied.err);
  assert.match(applied.out, /Account: \d+ inserted, 0 updated, 0 unchanged, 0 failed \(collections\)/);
  assert.match(applied.out, /Run complete; \d+ requests to the target\. Its record: .*energy\.run\.json/);
  const run = JSON.parse(await readFile(path.join(dir, "energy.run.json"), "utf8"));
  assert.equal(run.state, "complete");
  const journal = (await readFile(path.join(dir, "journal.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(journal.length, 1, "one line for the whole run");
  assert.deepEqual([journal[0].group, journal[0].migration.runId, journal[0].kind], [run.id, run.id, "written"]);
  assert.equal(journal[0].records.length, run.objects.reduce((n: number, o: { inserted: number }) => n + o.inserted, 0), "the entry names the records it inserted");
  const accounts = (await tgt.soqlQuery("SELECT COUNT() FROM Account")).totalSize;
  assert.equal(accounts, run.objects[0].inserted);
  const ids = await readFile(path.join(dir, "energy.run.ids"), "utf8");
  assert.equal(ids.trim().split("\n").length, journal[0].records.length, "the IDs it inserted are in the file beside the record");

  const reverted = await cli(dir, ["revert", "--run", "energy.run.json", "--to", "sandbox.json", "--journal", "journal.jsonl"]);
  assert.equal(reverted.code, 0, reverted.err);
  assert.match(reverted.out, new RegExp(`Reverted run ${run.id}: \\d+ deleted, 0 restored\\.`));
  assert.equal((await tgt.soqlQuery("SELECT COUNT() FROM Account")).totalSize, 0);

  // The run's record is signed, and vouches for its file of IDs: edited, without its signature, signed with another
  // user's key, its file of IDs edited (an ID of a record someone wants gone slipped in) or gone, it is refused
  // before anything is sent.
  const signed = await readFile(path.join(dir, "energy.run.json"), "utf8");
  const record = JSON.parse(signed) as { signature: string; objects: { inserted: number }[] };
  const keep = await tgt.createSobjectRecord("Account", { Name: "Not the run's" });
  const sent = writes();
  const forged = { ...record, objects: [{ ...record.objects[0]!, inserted: record.objects[0]!.inserted + 1 }, ...record.objects.slice(1)] };
  const { signature: _signature, ...unsigned } = record;
  for (const [file, text, idsText, env, why] of [
    ["edited.run.json", JSON.stringify(forged), ids, undefined, /changed since crm-data wrote it \(its signature does not match\)/],
    ["unsigned.run.json", JSON.stringify(unsigned), ids, undefined, /a record without a signature/],
    ["elsewhere.run.json", signed, ids, { XDG_CONFIG_HOME: path.join(dir, "another-user") }, /signed with a key this user does not have/],
    ["slipped.run.json", signed, `Account,${keep.id}\n${ids}`, undefined, /slipped\.run\.ids is not the file of inserted IDs the run's record describes/],
    ["swapped.run.json", signed, ids.replace(/^Account,\w+/, `Account,${keep.id}`), undefined, /swapped\.run\.ids is not the file of inserted IDs the run's record describes/],
    ["lost.run.json", signed, undefined, undefined, /lost\.run\.ids, the file of the IDs the run inserted, is missing/],
  ] as const) {
    await writeFile(path.join(dir, file), text);
    if (idsText !== undefined) await writeFile(path.join(dir, file.replace(/json$/, "ids")), idsText);
    const refused = await cli(dir, ["revert", "--run", file, "--to", "sandbox.json"], env);
    assert.equal(refused.code, 2, `${file}: ${refused.out}`);
    assert.match(refused.err, why);
    assert.match(refused.err, /refused, nothing was sent/);
  }
  assert.equal(writes(), sent, "no refused record sent anything");
  assert.ok(await tgt.getSobjectRecord("Account", keep.id), "the record slipped into the file is still there");
  await tgt.deleteSobjectRecord("Account", keep.id);

  // A second revert (a person who is not sure the first one ran) finds nothing left, says so, and is no failure.
  const again = await cli(dir, ["revert", "--run", "energy.run.json", "--to", "sandbox.json"]);
  assert.equal(again.code, 0, again.out + again.err);
  assert.equal(again.out.trim(), `Run ${run.id} is already reverted: its ${run.objects.reduce((n: number, o: { inserted: number }) => n + o.inserted, 0)} records are as they were before it.`);
});

test("a row that fails makes the exit code 1 and is named; a production target is refused without --allow-production", async () => {
  const dir = await workspace();
  const store = source().seeded.store;
  const contact = store.liveRecords("Contact").find((c) => c.AccountId && store.find(String(c.AccountId))?.rec.Industry === "Energy")!;
  const saved = contact.LeadSource;
  contact.LeadSource = "Trade Show";
  const org = target().seeded.store.liveRecords("Organization")[0]!;
  try {
    const dry = await cli(dir, ["migrate", "--plan", "energy.migration.yaml", "--from", "prod.json", "--to", "sandbox.json"]);
    assert.equal(dry.code, 1);
    assert.match(dry.out, new RegExp(`${contact.Id}: Lead ?Source must be one of`, "i"));
    org.OrganizationType = "Enterprise Edition";
    const before = writes();
    const refused = await cli(dir, ["migrate", "--plan", "energy.migration.yaml", "--from", "prod.json", "--to", "sandbox.json", "--apply"]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /a production org: crm-data migrate writes to it only with --allow-production \(refused, nothing sent/);
    assert.equal(writes(), before);
    const allowed = await cli(dir, ["migrate", "--plan", "energy.migration.yaml", "--from", "prod.json", "--to", "sandbox.json", "--apply", "--allow-production", "--run", "r.json"]);
    assert.equal(allowed.code, 1, "a row failed");
    assert.match(allowed.out, /Contact: \d+ inserted, 0 updated, 0 unchanged, 1 failed/);
    assert.equal((await cli(dir, ["revert", "--run", "r.json", "--to", "sandbox.json", "--allow-production"])).code, 0);
  } finally {
    contact.LeadSource = saved;
    org.OrganizationType = "Developer Edition";
  }
});

test("usage errors say which argument and what was expected (exit code 2), before any sign-in", async () => {
  const dir = await workspace();
  await writeFile(path.join(dir, "bad.migration.yaml"), "objects:\n  - object: Account\n");
  const cases: [string[], RegExp][] = [
    [["migrate", "--from", "prod.json"], /needs --plan <file\.migration\.yaml>/],
    [["migrate", "--plan", "missing.yaml", "--from", "prod.json"], /--plan names .*missing\.yaml, which cannot be read/],
    [["migrate", "--plan", "bad.migration.yaml", "--from", "prod.json"], /objects\[0\]\.match is missing/],
    [["migrate", "--plan", "energy.migration.yaml", "--from", "prod.json", "--resume", "r.json"], /--resume goes on with a run: give --apply too/],
    [["migrate", "--plan", "energy.migration.yaml", "--from", "prod.json", "--colour", "red"], /'migrate' has no option --colour/],
    [["revert", "--run", "energy.migration.yaml", "--to", "sandbox.json"], /not a run's record that can be read/],
    [["move"], /no command 'move'/],
  ];
  for (const [argv, expected] of cases) {
    const { code, err } = await cli(dir, argv);
    assert.equal(code, 2, argv.join(" "));
    assert.match(err, expected);
  }
});

test("a plan that names a field the orgs lack is a mistake of the plan (exit code 2, its place named), and nothing is written", async () => {
  const dir = await workspace();
  await writeFile(path.join(dir, "typo.migration.yaml"), "objects:\n  - object: Contact\n    match: [Email]\n    transform: { Email_Opt_Out__c: { constant: true } }\n");
  const tgt = await demoClient(target());
  const before = (await tgt.soqlQuery("SELECT COUNT() FROM Contact")).totalSize;
  const { code, err } = await cli(dir, ["migrate", "--plan", "typo.migration.yaml", "--from", "prod.json", "--to", "sandbox.json", "--apply"]);
  assert.equal(code, 2, err);
  assert.match(err, /objects\[0\]: Contact has no field Email_Opt_Out__c in the source org/);
  assert.equal((await tgt.soqlQuery("SELECT COUNT() FROM Contact")).totalSize, before);
});
