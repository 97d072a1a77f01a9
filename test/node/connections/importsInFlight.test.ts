/**
 * CRM: Import Data's write-ahead record: an import killed (SIGKILL, as a closed or crashed window ends it) with its
 * Bulk job at the org is found again by the next process, and the job's results are read from the org — every row
 * it wrote reported, none guessed. The records folder is read as hostile.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import "../../../src/client/bulk";
import { ImportsInFlight } from "../../../src/connections/importsInFlight";
import { demoClient, demoOptions, killedAtWrite, useEmulator } from "../../helpers/emulator";

const emu = useEmulator();
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const IMPORTER = path.resolve(__dirname, "../../fixtures/imports/importer.ts");

function workspace(rows: number, tag: string): { dir: string; folder: string; csv: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "crm-import-kill-"));
  dirs.push(dir);
  const csv = path.join(dir, "contacts.csv");
  writeFileSync(csv, ["LastName,Email", ...Array.from({ length: rows }, (_, i) => `${tag} ${i},${tag.toLowerCase()}${i}@example.com`)].join("\n") + "\n");
  return { dir, folder: path.join(dir, "imports"), csv };
}

/** The importer killed once the org has carried out its `at`-th write of a Bulk job (create, upload, close). */
const killedAt = (at: number, w: ReturnType<typeof workspace>) =>
  killedAtWrite(emu(), { tool: "importer", script: IMPORTER, argv: [JSON.stringify(demoOptions(emu())), w.folder, w.csv, "Contact"], cwd: w.dir, at, counts: (p) => /\/jobs\/ingest/.test(p) });

const contactsTagged = (tag: string) => emu().seeded.store.liveRecords("Contact").filter((c) => String(c.LastName).startsWith(`${tag} `));

test("killed with its job closed and running at the org: the next process finds the import, and the job's results name every row the org wrote", async () => {
  const w = workspace(300, "Flight");
  await killedAt(3, w);
  const [interrupted, ...more] = await new ImportsInFlight(w.folder).interrupted();
  assert.equal(more.length, 0);
  assert.equal(interrupted!.jobs.length, 1, "the job was recorded before its rows were uploaded");
  const crm = await demoClient(emu());
  const base = path.join(w.dir, "contacts");
  const result = await crm.bulk.resultsOf(interrupted!.jobs, { resultFiles: base });
  assert.deepEqual(result.states, ["JobComplete"], "the job went on after its importer died, and was waited for");
  assert.equal(result.successful, 300);
  const success = parseCsv(readFileSync(`${base}.success.csv`, "utf8"), { columns: true }) as Record<string, string>[];
  assert.deepEqual(success.map((r) => r.sf__Id).sort(), contactsTagged("Flight").map((c) => String(c.Id)).sort(), "the success file names exactly the records the org holds");
  await new ImportsInFlight(w.folder).forget(interrupted!.id);
  assert.deepEqual(await new ImportsInFlight(w.folder).interrupted(), []);
});

test("killed before its upload was closed: the open job is aborted, nothing of it is written, and the results say so", async () => {
  const w = workspace(250, "Unclosed");
  await killedAt(2, w);
  const [interrupted] = await new ImportsInFlight(w.folder).interrupted();
  const crm = await demoClient(emu());
  const result = await crm.bulk.resultsOf(interrupted!.jobs);
  assert.deepEqual(result.states, ["Aborted"]);
  assert.equal(result.successful + result.failed, 0);
  assert.equal(contactsTagged("Unclosed").length, 0);
});

test("an import whose process lives is not interrupted until it gives up; a malformed record, or one whose name is not its own, is skipped", async () => {
  const w = workspace(1, "Folder");
  const flights = new ImportsInFlight(w.folder);
  const live = await flights.begin({ orgKey: "o", file: "file:///a.csv", object: "Contact", operation: "insert", rows: 1 });
  const gone = spawnSync(process.execPath, ["-e", ""]).pid!;
  const record = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, orgKey: "o", file: "file:///b.csv", object: "Contact", operation: "insert", rows: 1, startedAt: "2026-11-27T10:00:00.000Z", pid: gone, jobs: [], ...extra });
  writeFileSync(path.join(w.folder, "dead.json"), record("dead"));
  writeFileSync(path.join(w.folder, "hostile-job.json"), record("hostile-job", { jobs: ["../../sobjects/Account"] }));
  writeFileSync(path.join(w.folder, "elsewhere.json"), record("not-elsewhere"));
  writeFileSync(path.join(w.folder, "broken.json"), "{ not json");
  const anotherWindow = new ImportsInFlight(w.folder, gone);
  assert.deepEqual((await anotherWindow.interrupted()).map((r) => r.id), ["dead"], "only the dead process's well-formed record: the live import is someone's work in progress");
  assert.deepEqual((await flights.interrupted()).map((r) => r.id), ["dead"], "nor is it to its own process while it waits for its answer");
  live.abandon();
  assert.deepEqual((await flights.interrupted()).map((r) => r.id).sort(), ["dead", live.record.id].sort(), "once it lost its answer, its own process offers it too");
});
