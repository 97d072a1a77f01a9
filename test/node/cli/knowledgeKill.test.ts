/**
 * `crm-knowledge push --apply` killed with SIGKILL at a chosen write — the org has carried it out, the answer
 * never reaches the push — then run again: it finishes without --overwrite-conflicts, and each article's draft
 * holds the folder's text once.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runKnowledgeCli } from "../../../src/cli/knowledgeCli";
import { startEmulator, type Emulator } from "../../../src/demo-org";
import { advanceClock, killedAtWrite } from "../../helpers/emulator";

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const ARTICLES = ["reset-your-password", "configure-two-factor-sign-in", "pair-a-home-router"];

async function cli(cwd: string, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKnowledgeCli({ argv, env: {}, cwd, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** Three published articles pulled into kb/, each with a new summary to push. */
async function edited(emu: Emulator): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-knowledge-kill-"));
  dirs.push(dir);
  const c = emu.credentials;
  await writeFile(path.join(dir, "helper.json"), JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  const pulled = await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", ...ARTICLES.flatMap((a) => ["--article", a])]);
  assert.equal(pulled.code, 0, pulled.out + pulled.err);
  for (const name of ARTICLES) {
    const file = path.join(dir, "kb", name, "article.yaml");
    await writeFile(file, (await readFile(file, "utf8")).replace(/Summary: .*/, `Summary: Reviewed ${name}`));
  }
  advanceClock(emu, 2000);
  return dir;
}

/** The push killed once the org has carried out its `at`-th write. */
const killedAt = (emu: Emulator, dir: string, at: number) => killedAtWrite(emu, { tool: "crm-knowledge", argv: ["push", "kb", "--apply", "--helper", "helper.json"], cwd: dir, at });

// The push's writes for the three: their drafts made together (one action with three inputs), then their fields written together.
for (const at of [1, 2]) {
  test(`a push killed at write ${at}, run again, finishes without overwriting: each article's draft holds the folder's summary once`, async (t) => {
    const emu = await startEmulator({ port: 0, seed: "demo" });
    t.after(() => emu.close());
    const dir = await edited(emu);
    await killedAt(emu, dir, at);
    const again = await cli(dir, ["push", "kb", "--apply", "--helper", "helper.json"]);
    assert.equal(again.code, 0, again.out + again.err);
    const versions = emu.seeded.store.liveRecords("Knowledge__kav").filter((v) => ARTICLES.includes(String(v.UrlName)) && v.Language === "en_US");
    for (const name of ARTICLES) {
      const drafts = versions.filter((v) => v.UrlName === name && v.PublishStatus === "Draft");
      assert.equal(drafts.length, 1, `${name}: one draft`);
      assert.equal(drafts[0]!.Summary, `Reviewed ${name}`, `${name}: the folder's summary`);
      assert.equal(versions.filter((v) => v.UrlName === name && v.PublishStatus === "Online").length, 1, `${name}: still published`);
    }
    const status = await cli(dir, ["status", "kb", "--helper", "helper.json"]);
    assert.match(status.out, /3 articles: 0 modified, 0 new, 0 changed in the org, 0 in conflict\./, "the folder's record knows every draft as its own");
    assert.ok(!(await readdir(path.join(dir, "kb"))).some((f) => f.startsWith(".crm-knowledge-")), "no pending or kept records are left");
  });
}
