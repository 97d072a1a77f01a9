/**
 * examples/knowledge-ci: the workflow names only commands and options crm-knowledge has, and its steps, run in
 * order against two emulators (a sandbox and the production org the folder was pulled from), do what its README
 * says: check and preview a pull request, push what a merge changed to the sandbox as drafts, publish to production.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import yaml from "js-yaml";
import { COMMANDS, runKnowledgeCli } from "../../../src/cli/knowledgeCli";
import { parseArgs } from "../../../src/cli/usage";
import { demoClient, useEmulator, writesSeen } from "../../helpers/emulator";
import type { Emulator } from "../../../src/demo-org";

const production = useEmulator();
const sandbox = useEmulator({ seed: "empty" });
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const WORKFLOW = path.join(__dirname, "..", "..", "..", "examples", "knowledge-ci", "knowledge.yml");
type Step = { run?: string; env?: Record<string, string> };
type Workflow = { env: Record<string, string>; jobs: Record<string, { steps: Step[] }> };

/** The workflow's crm-knowledge invocations by job, as argument lists ($KB and GitHub expressions replaced by the test's values). */
async function invocations(values: Record<string, string>): Promise<Record<string, string[][]>> {
  return commandLines(values, "npx --no-install crm-knowledge");
}

/** Each job's lines that start with `command`, as the arguments after it ($KB and GitHub expressions replaced by the test's values). */
async function commandLines(values: Record<string, string>, command: string): Promise<Record<string, string[][]>> {
  const workflow = yaml.load(await readFile(WORKFLOW, "utf8")) as Workflow;
  const expand = (line: string) => line
    .replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
      if (!(expression in values)) throw new Error(`the test has no value for \${{ ${expression} }}`);
      return values[expression]!;
    })
    .replace(/\$KB\b/g, workflow.env.KB!);
  const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  return Object.fromEntries(Object.entries(workflow.jobs).map(([job, { steps }]) => [job, steps.flatMap((s) => (s.run ?? "").split("\n"))
    .filter((line) => line.trim().startsWith(`${command} `)).map((line) => words(expand(line.trim())).slice(command.split(" ").length))]));
}

async function cli(cwd: string, argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const code = await runKnowledgeCli({ argv, env, cwd, out: (t) => out.push(t), err: (t) => out.push(t) });
  return { code, out: out.join("\n") };
}

test("the workflow names only crm-knowledge commands and options that exist", async () => {
  const byJob = await invocations({ "github.base_ref": "main", "github.event.before": "HEAD~1" });
  assert.deepEqual(Object.keys(byJob), ["check", "sandbox", "production"]);
  const all = Object.values(byJob).flat();
  assert.ok(all.length >= 6, "the workflow runs the tool in every job");
  for (const argv of all) {
    const [command, ...rest] = argv;
    assert.ok(command! in COMMANDS, `${argv.join(" ")}: crm-knowledge has no command '${command}'`);
    const spec = COMMANDS[command as keyof typeof COMMANDS];
    assert.doesNotThrow(() => parseArgs(rest, { flags: [...spec.flags], values: ["helper", "format", ...spec.values] }, command!), `${argv.join(" ")}`);
  }
  const uses = (job: string, command: string) => byJob[job]!.some((a) => a[0] === command);
  assert.ok(uses("check", "check") && uses("check", "preview"), "a pull request is checked and previewed");
  assert.ok(byJob.sandbox!.some((a) => a[0] === "push" && a.includes("--apply") && !a.includes("--publish")), "a merge pushes drafts to the sandbox");
  assert.ok(byJob.production!.some((a) => a[0] === "push" && a.includes("--publish") && a.includes("--allow-production")), "production publishes, allowed explicitly");
  const workflow = yaml.load(await readFile(WORKFLOW, "utf8")) as { jobs: Record<string, { environment?: string }> };
  assert.equal(workflow.jobs.production!.environment, "knowledge-production", "publishing waits for the environment's reviewers");
});

test("the workflow's steps, in order, against a sandbox and the production org", async () => {
  const prod = production();
  const sand = sandbox();
  const c = await demoClient(prod);
  const make = async (slug: string, body: string) => {
    const id = await c.knowledge.createArticle({ Title: `Workflow ${slug}`, UrlName: `workflow-${slug}`, Summary: `About ${slug}`, Answer__c: body });
    await c.knowledge.publishArticle(id);
    return String((await c.knowledge.getArticleDetails(id)).KnowledgeArticleId);
  };
  const ids = [await make("one", "<p>First.</p>"), await make("two", "<p>Second.</p>")];

  const dir = await mkdtemp(path.join(tmpdir(), "knowledge-ci-"));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=ci@example.com", "-c", "user.name=ci", ...args], { cwd: dir, encoding: "utf8" }).trim();
  const jwt = async (emu: Emulator, name: string) => {
    await writeFile(path.join(dir, name), emu.credentials.jwtPrivateKeyPem);
    return { CRM_CLIENT_ID: emu.credentials.clientId, CRM_USERNAME: emu.credentials.username, CRM_JWT_KEY_FILE: name, CRM_LOGIN_URL: emu.url };
  };
  const prodEnv = await jwt(prod, "production.key");
  const sandEnv = await jwt(sand, "sandbox.key");

  // The knowledge manager's pull, committed on main.
  git("init", "-q", "-b", "main");
  const pulled = await cli(dir, ["pull", "--out", "knowledge", ...ids.flatMap((id) => ["--article", id])], prodEnv);
  assert.equal(pulled.code, 0, pulled.out);
  git("add", "knowledge");
  git("commit", "-qm", "pull");
  git("update-ref", "refs/remotes/origin/main", "HEAD");
  const base = git("rev-parse", "HEAD");
  // A pull request edits one article.
  await writeFile(path.join(dir, "knowledge", "workflow-two", "Answer__c.html"), "<p>Second, clearer.</p>\n");
  git("commit", "-qam", "edit");

  const steps = await invocations({ "github.base_ref": "main", "github.event.before": base });
  for (const argv of steps.check!) {
    const result = await cli(dir, argv, {});
    assert.equal(result.code, 0, `${argv.join(" ")}: ${result.out}`);
  }
  assert.deepEqual((await readdir(path.join(dir, "preview"))).sort(), ["index.html", "workflow-two.html"], "the preview shows what the pull request changed");

  for (const argv of steps.sandbox!) {
    const result = await cli(dir, argv, sandEnv);
    assert.equal(result.code, 0, `${argv.join(" ")}: ${result.out}`);
  }
  assert.ok(writesSeen(sand) > 0);
  const sandClient = await demoClient(sand);
  const inSandbox = (await sandClient.queryAll<{ UrlName: string; PublishStatus: string }>("SELECT UrlName, PublishStatus FROM Knowledge__kav WHERE UrlName LIKE 'workflow-%'")).records;
  assert.deepEqual(inSandbox.map((r) => [r.UrlName, r.PublishStatus]), [["workflow-two", "Draft"]], "only what the merge changed, as a draft");
  const journal = (await readFile(path.join(dir, "journal.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { org: string });
  assert.ok(journal.length > 0 && journal.every((j) => j.org === sandClient.orgId));

  const organization = prod.seeded.store.liveRecords("Organization")[0]!;
  const kind = organization.OrganizationType;
  organization.OrganizationType = "Enterprise Edition";
  try {
    for (const argv of steps.production!) {
      const result = await cli(dir, argv, prodEnv);
      assert.equal(result.code, 0, `${argv.join(" ")}: ${result.out}`);
    }
  } finally {
    organization.OrganizationType = kind;
  }
  // What the production job commits back is every file of the folder the push changed: its records included.
  for (const paths of (await commandLines({}, "git add")).production!) git("add", ...paths);
  git("commit", "-qm", "Record the knowledge published to production");
  assert.equal(git("status", "--porcelain", "--", "knowledge"), "", "the production job's commit holds all the push changed in the folder");
  const online = (await c.queryAll<{ UrlName: string; Answer__c: string }>("SELECT UrlName, Answer__c FROM Knowledge__kav WHERE UrlName LIKE 'workflow-%' AND PublishStatus = 'Online'")).records;
  assert.deepEqual(online.map((r) => [r.UrlName, r.Answer__c]).sort(), [["workflow-one", "<p>First.</p>"], ["workflow-two", "<p>Second, clearer.</p>"]]);
  // The record the production job commits back: the next push of the same folder sends nothing.
  const before = writesSeen(prod);
  organization.OrganizationType = "Enterprise Edition";
  try {
    const again = await cli(dir, steps.production!.find((a) => a[0] === "push")!, prodEnv);
    assert.equal(again.code, 0, again.out);
  } finally {
    organization.OrganizationType = kind;
  }
  assert.equal(writesSeen(prod), before);
});
