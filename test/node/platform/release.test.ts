/**
 * `npm run release`: the VSIX and the tarball side by side with checksums `sha256sum --check` accepts; and the
 * knowledge pipeline example's install step, run as GitHub would run it in a repository holding that release,
 * installs the tarball — and refuses one whose bytes are not those the checksums name.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import yaml from "js-yaml";

const root = path.resolve(__dirname, "../../..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const workflow = yaml.load(readFileSync(path.join(root, "examples/knowledge-ci/knowledge.yml"), "utf8")) as { env: Record<string, string>; jobs: Record<string, { steps: { run?: string }[] }> };
let dir = "";
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), "crm-release-"));
  if (!existsSync(path.join(root, "dist/types/client/index.d.ts"))) execFileSync("npm", ["run", "build:types"], { cwd: root, stdio: "pipe" });
  // npm test has built dist/ for production; --prebuilt packs it as it is rather than rebuilding under other tests.
  execFileSync(process.execPath, ["scripts/release.mjs", "--prebuilt", "--out", path.join(dir, "release")], { cwd: root, stdio: "pipe" });
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("the release holds the VSIX and the tarball of this version, and SHA256SUMS checks both", () => {
  const release = path.join(dir, "release");
  const sums = readFileSync(path.join(release, "SHA256SUMS"), "utf8").trim().split("\n");
  assert.deepEqual(sums.map((l) => l.split("  ")[1]).sort(), [`crm-explorer-${version}.tgz`, `crm-explorer-${version}.vsix`]);
  const check = spawnSync("sha256sum", ["--check", "--strict", "SHA256SUMS"], { cwd: release, encoding: "utf8" });
  assert.equal(check.status, 0, check.stdout + check.stderr);
});

/** A repository as the example expects it: the release under tools/, and the install step of the check job. */
function installInRepository(tamper: boolean) {
  const repo = mkdtempSync(path.join(dir, "repo-"));
  const tarball = workflow.env.CRM_EXPLORER!;
  mkdirSync(path.join(repo, path.dirname(tarball)), { recursive: true });
  cpSync(path.join(dir, "release"), path.join(repo, path.dirname(tarball)), { recursive: true });
  if (tamper) appendFileSync(path.join(repo, tarball), "\n");
  writeFileSync(path.join(repo, "package.json"), JSON.stringify({ name: "knowledge-repo", private: true }));
  const step = workflow.jobs.check!.steps.map((s) => s.run ?? "").find((r) => /npm install/.test(r))!;
  const run = spawnSync("bash", ["-eo", "pipefail", "-c", step], { cwd: repo, env: { ...process.env, ...workflow.env }, encoding: "utf8" });
  return { run, installed: existsSync(path.join(repo, "node_modules/.bin/crm-knowledge")) };
}

test("the pipeline example installs the committed tarball of this version after checking it", () => {
  assert.equal(workflow.env.CRM_EXPLORER, `tools/crm-explorer-${version}.tgz`, "the example names this version's tarball");
  for (const [job, { steps }] of Object.entries(workflow.jobs)) {
    const installs = steps.map((s) => s.run ?? "").filter((r) => /npm install/.test(r));
    assert.equal(installs.length, 1, `${job} installs once`);
    assert.match(installs[0]!, /sha256sum --check .*&& npm install .*"\.\/\$CRM_EXPLORER"/, `${job} checks, then installs the file`);
  }
  const { run, installed } = installInRepository(false);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.ok(installed, "crm-knowledge is installed");
});

test("a tarball whose bytes differ from the checksum's is refused, and nothing is installed", () => {
  const { run, installed } = installInRepository(true);
  assert.notEqual(run.status, 0);
  assert.match(run.stdout + run.stderr, /FAILED/);
  assert.ok(!installed);
});
