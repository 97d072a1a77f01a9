/** The examples/ script runs from plain Node on the built bundle (dist/client.js via `crm-explorer/client`). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Crm } from "../../../src/client";
import { useEmulator, demoOptions } from "../../helpers/emulator";

const emu = useEmulator();
const empty = useEmulator({ seed: "empty" });
const helperFor = (dir: string, e: ReturnType<typeof emu>) => {
  const c = e.credentials;
  const file = path.join(dir, `helper-${e.url.replace(/\W/g, "")}.json`);
  writeFileSync(file, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  return file;
};

test("examples/publish-valid-drafts.mjs publishes the validated drafts and posts a summary", async () => {
  execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "pipe" });
  const c = emu().credentials;
  const helper = path.join(mkdtempSync(path.join(tmpdir(), "crm-example-")), "helper.json");
  writeFileSync(helper, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  const crm = await Crm.create(demoOptions(emu()));
  const validDrafts = (await crm.soqlQuery<{ Id: string }>("SELECT Id FROM Knowledge__kav WHERE PublishStatus = 'Draft' AND ValidationStatus = 'Validated'")).records;
  assert.ok(validDrafts.length > 0, "the demo seed has validated drafts");
  // Asynchronous: the emulator lives in this process and must keep answering while the script runs.
  const run = await promisify(execFile)(process.execPath, ["examples/publish-valid-drafts.mjs", helper, "Knowledge council"], { encoding: "utf8" });
  assert.match(run.stdout, /Published \d+ validated draft/);
  for (const draft of validDrafts) assert.notEqual((await crm.getSobjectRecord("Knowledge__kav", draft.Id)).PublishStatus, "Draft");
  const group = (await crm.soqlQuery<{ Id: string }>("SELECT Id FROM CollaborationGroup WHERE Name = 'Knowledge council'")).records[0]!.Id;
  const latest = (await crm.feed.getGroupFeed(group, { pageSize: 1 })).elements[0]!;
  assert.match(latest.body.text ?? "", /^Published \d+ validated draft/);
  crm.close();
});

test("examples/bulk-export.mjs exports a query's rows to CSV through a Bulk job", async () => {
  execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "pipe" });
  const c = emu().credentials;
  const dir = mkdtempSync(path.join(tmpdir(), "crm-example-"));
  const helper = path.join(dir, "helper.json");
  writeFileSync(helper, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  const file = path.join(dir, "events.csv");
  const run = await promisify(execFile)(process.execPath, ["examples/bulk-export.mjs", helper, "SELECT Id, Note__c FROM Usage_Event__c", file], { encoding: "utf8" });
  assert.match(run.stdout, /Exported 60000 rows/);
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  assert.equal(lines.length, 60_001);
  assert.equal(lines[0], '"Id","Note__c"');
  assert.ok(emu().requests.some((r) => r.method === "POST" && /\/jobs\/query$/.test(r.path)));
});

test("examples/knowledge-folder.mjs pulls recent articles into a folder and pushes them into another org", async () => {
  execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "pipe" });
  const dir = mkdtempSync(path.join(tmpdir(), "crm-example-"));
  const kb = path.join(dir, "kb");
  const run = (...args: string[]) => promisify(execFile)(process.execPath, ["examples/knowledge-folder.mjs", ...args], { encoding: "utf8" });
  const pulled = await run("pull", helperFor(dir, emu()), kb, "PublishStatus = 'Online' AND IsVisibleInPkb = true");
  const count = Number(/Pulled (\d+) articles/.exec(pulled.stdout)?.[1]);
  assert.ok(count > 3, pulled.stdout);
  const status = (await run("status", helperFor(dir, emu()), kb)).stdout;
  assert.deepEqual(status.trimEnd().split("\n").filter((l) => !l.startsWith(" ")), [], status);
  const pushed = await run("push", helperFor(dir, empty()), kb);
  assert.match(pushed.stdout, new RegExp(`Pushed ${count} of ${count} articles`));
  assert.equal(empty().seeded.store.liveRecords("Knowledge__kav").filter((v) => v.PublishStatus === "Draft").length, count, "each a draft in the new org");
});

test("the ESM build imports too", () => {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", "const c = await import('crm-explorer/client'); console.log(typeof c.Crm, typeof c.knowledge.publishArticle)"], { encoding: "utf8" });
  assert.equal(out.trim(), "function function");
});
