/**
 * `crm-knowledge` against the emulator: every command and exit code, each kind of finding with its file and
 * line, the github format, a preview that runs no script whatever the body holds, credentials (helper, a session,
 * JWT; bad ones), a refused article, the production guard.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { appendFile, cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Crm } from "../../../src/client";
import { runKnowledgeCli } from "../../../src/cli/knowledgeCli";
import { githubAnnotation } from "../../../src/cli/output";
import { checkThreads } from "../../../src/cli/checkThreads";
import { richTextRemovals } from "../../../src/cli/richText";
import { checkFolder } from "../../../src/workflows/knowledgeCheck";
import { nodeFolder } from "../../../src/workflows/folderFiles";
import { advanceClock, demoClient, useEmulator, writesSeen } from "../../helpers/emulator";
import type { Emulator } from "../../../src/demo-org";

const demo = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(demo()));

/**
 * A command run without blocking this process: the emulator answers from it, and a minute of spawnSync would hold its
 * keep-alive timers until the client's next request, which then meets a connection closed under it (ECONNRESET).
 */
function runAsync(command: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** A working directory with a helper file for the demo admin. */
async function workspace(emu: Emulator = demo()) {
  const dir = await mkdtemp(path.join(tmpdir(), "crm-knowledge-"));
  dirs.push(dir);
  const c = emu.credentials;
  await writeFile(path.join(dir, "helper.json"), JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  return dir;
}

async function cli(cwd: string, argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKnowledgeCli({ argv, env, cwd, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIAQMAAAD+wSzIAAAABlBMVEX/AAD///9BHTQRAAAAEklEQVQI12P4z8DwH4hBNAMAeAkHf6m1R4kAAAAASUVORK5CYII=", "base64");
let n = 0;

/** Articles made for one test: a published one with an image and a French translation, a draft, and a clean published one. */
async function articles(c: Crm) {
  n++;
  const make = (slug: string, body: string) => c.knowledge.createArticle({ Title: `${slug} ${n}`, UrlName: `${slug}-${n}`, Summary: `About ${slug}`, Answer__c: body });
  const guideId = await make("cli-guide", `<h2>Reset</h2><p>Hold the button.</p><p><img src="data:image/png;base64,${PNG.toString("base64")}" alt="button.png"></p><p>Step three.</p>`);
  await c.knowledge.assignDataCategory(guideId, "Products", "Home_Routers");
  await c.knowledge.publishArticle(guideId);
  const guide = String((await c.knowledge.getArticleDetails(guideId)).KnowledgeArticleId);
  const [fr] = await c.knowledge.submitForTranslation(guide, "fr");
  await c.knowledge.updateArticle(fr!.Id, { Title: `Guide ${n}`, Answer__c: "<p>Maintenez le bouton.</p>" });
  await c.knowledge.publishTranslation(fr!.Id);
  const draftId = await make("cli-draft", "<p>Work in progress.</p>");
  const cleanId = await make("cli-clean", "<p>All good.</p>");
  await c.knowledge.publishArticle(cleanId);
  const id = async (versionId: string) => String((await c.knowledge.getArticleDetails(versionId)).KnowledgeArticleId);
  return { n, guide, draft: await id(draftId), clean: await id(cleanId), guideName: `cli-guide-${n}`, draftName: `cli-draft-${n}`, cleanName: `cli-clean-${n}` };
}

const lineOfText = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

/** The three articles of `articles`, pulled into `kb` of a new workspace, and a way to edit a file there. */
async function pulledArticles() {
  const a = await articles(await crm());
  const dir = await workspace();
  assert.equal((await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", "--article", a.guide, "--article", a.draft, "--article", a.clean])).code, 0);
  const kb = path.join(dir, "kb");
  const edit = async (file: string, change: (text: string) => string) => writeFile(path.join(kb, file), change(await readFile(path.join(kb, file), "utf8")));
  return { a, dir, kb, edit };
}

test("pull, then a clean folder checks clean (exit 0) and an unchanged push sends nothing", async () => {
  const c = await crm();
  const a = await articles(c);
  const dir = await workspace();
  const pulled = await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", "--article", a.clean, "--article", a.guideName]);
  assert.equal(pulled.code, 0, pulled.err);
  assert.match(pulled.out, new RegExp(`pulled ${a.guideName} \\(Online, 1 image, fr\\)`));
  assert.match(pulled.out, /Pulled 2 articles into kb\./);
  const record = await readFile(path.join(dir, "kb", "crm-knowledge.yaml"), "utf8");
  assert.match(record, /fields:\n(?:.*\n)*?\s+Title:\n(?:\s+.*\n)*?\s+length: 255/, "the pull records the describe the check holds the files to");

  const checked = await cli(dir, ["check", "kb"]);
  assert.equal(checked.code, 0, checked.out);
  assert.match(checked.out, /2 articles checked: 0 errors, 0 warnings\./);

  const emu = demo();
  const writes = () => writesSeen(emu);
  const before = writes();
  const pushed = await cli(dir, ["push", "kb", "--apply", "--helper", "helper.json"]);
  assert.equal(pushed.code, 0, pushed.err);
  assert.match(pushed.out, /Pushed 0 of 2 articles/);
  assert.equal(writes(), before, "an unchanged folder's push sends no write");
});

test("check finds each kind of finding, on its file and line, and exits 1; json and github formats say the same", async () => {
  const { a, dir, kb, edit } = await pulledArticles();

  // The draft: an empty required title, an unknown field, a bad URL name; its body links to an article the folder lacks and holds a script.
  await edit(`${a.draftName}/article.yaml`, (t) => t.replace(/ {2}Title: .*/, "  Title: ''").replace(/ {2}UrlName: .*/, "  UrlName: -bad name-\n  Colour__c: red"));
  await edit(`${a.draftName}/Answer__c.html`, () => `<p>See <a href="/articles/en_US/Knowledge/not-in-this-folder">the other one</a>.</p>\n<p onclick="steal()">Click</p>\n`);
  // The clean article: a summary over its length, the guide's URL name, a link to the draft (never published), a missing and an oversized image, a text file named .png.
  await edit(`${a.cleanName}/article.yaml`, (t) => t.replace(/ {2}Title: .*/, `  Title: ${"x".repeat(300)}`).replace(/ {2}UrlName: .*/, `  UrlName: ${a.guideName}`));
  await mkdir(path.join(kb, a.cleanName, "images"), { recursive: true });
  await writeFile(path.join(kb, a.cleanName, "images", "huge.png"), Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 1)]));
  await writeFile(path.join(kb, a.cleanName, "images", "fake.png"), "not an image at all");
  await edit(`${a.cleanName}/Answer__c.html`, () => [
    `<p>All good.</p>`,
    `<p>Read <a href="/lightning/r/Knowledge__kav/${a.draft}/view">the draft</a>.</p>`,
    `<p><img src="images/missing.png" alt=""></p>`,
    `<p><img src="images/huge.png" alt=""></p>`,
    `<p><img src="images/fake.png" alt=""></p>`,
    "",
  ].join("\n"));
  // The guide's master changed in its second block; its French translation did not follow.
  await edit(`${a.guideName}/Answer__c.html`, (t) => t.replace("<p>Hold the button.</p>", "<p>Hold the button for ten seconds.</p>"));

  const { code, out } = await cli(dir, ["check", "kb", "--languages", "fr"]);
  assert.equal(code, 1, out);
  const draftYaml = await readFile(path.join(kb, a.draftName, "article.yaml"), "utf8");
  const cleanYaml = await readFile(path.join(kb, a.cleanName, "article.yaml"), "utf8");
  const expect = (file: string, line: number | undefined, pattern: RegExp) => {
    const at = `kb/${file}${line ? `:${line}` : ""}: `;
    assert.ok(out.split("\n").some((l) => l.startsWith(at) && pattern.test(l)), `expected ${at}… ${pattern} in:\n${out}`);
  };
  expect(`${a.draftName}/article.yaml`, lineOfText(draftYaml, "  Title:"), /error Title is required and empty\. \[required\]/);
  expect(`${a.draftName}/article.yaml`, lineOfText(draftYaml, "Colour__c"), /error The article type has no field 'Colour__c'.*\[field\]/);
  expect(`${a.draftName}/article.yaml`, lineOfText(draftYaml, "UrlName:"), /error The URL name "-bad name-" may hold only letters, digits and hyphens.*\[urlName\]/);
  expect(`${a.draftName}/Answer__c.html`, 1, /warning Links to 'not-in-this-folder', which is not in this folder.*\[link\]/);
  expect(`${a.draftName}/Answer__c.html`, 2, /error Sanitizing removes the onclick attribute on <p>.*\[richText\]/);
  expect(`${a.draftName}/article.yaml`, undefined, /warning No translation into fr \(every article is to be translated into fr\)\. \[translation\]/);
  expect(`${a.cleanName}/article.yaml`, lineOfText(cleanYaml, "  Title:"), /error Title is 300 characters long; the org takes at most 255\. \[length\]/);
  expect(`${a.cleanName}/article.yaml`, lineOfText(cleanYaml, "UrlName:"), new RegExp(`error The URL name is also used by '${a.guideName}'.*\\[urlName\\]`));
  expect(`${a.guideName}/article.yaml`, lineOfText(await readFile(path.join(kb, a.guideName, "article.yaml"), "utf8"), "UrlName:"), new RegExp(`also used by '${a.cleanName}'`));
  expect(`${a.cleanName}/Answer__c.html`, 2, new RegExp(`warning Links to ${a.draft} \\('${a.draftName}' in this folder\\), which has never been published.*\\[link\\]`));
  expect(`${a.cleanName}/Answer__c.html`, 3, /error .*images\/missing\.png is missing: the rich text shows it\. \[image\]/);
  expect(`${a.cleanName}/Answer__c.html`, 4, /error .*images\/huge\.png is 1\.0 MB: the org takes images of at most 1 MB\. \[image\]/);
  expect(`${a.cleanName}/Answer__c.html`, 5, /error .*images\/fake\.png is not a PNG image, whatever its name says.*\[image\]/);
  expect(`${a.guideName}/article.fr.yaml`, 1, /warning The fr translation is out of date: its master changed in this folder \(the blocks at Answer__c\.html line 2\) and the translation did not\. \[translation\]/);

  const json = await cli(dir, ["check", "kb", "--languages", "fr", "--format", "json"]);
  assert.equal(json.code, 1);
  const report = JSON.parse(json.out) as { articles: number; errors: number; findings: { rule: string; file: string; line?: number; severity: string }[] };
  assert.equal(report.articles, 3);
  assert.equal(report.findings.length, out.split("\n").filter((l) => /^kb\//.test(l)).length, "the same findings in both formats");
  assert.ok(report.findings.some((f) => f.rule === "image" && f.file === `${a.cleanName}/Answer__c.html` && f.line === 3));

  const github = await cli(dir, ["check", "kb", "--languages", "fr", "--format", "github"]);
  assert.equal(github.code, 1);
  assert.ok(github.out.includes(`::error file=kb/${a.draftName}/Answer__c.html,line=2,title=crm-knowledge::Sanitizing removes the onclick attribute`), github.out);
  assert.ok(github.out.includes(`::warning file=kb/${a.guideName}/article.fr.yaml,line=1,title=crm-knowledge::The fr translation is out of date`), github.out);

  // With the org: the draft link the folder lacks is asked of the org (not published there: an error), and an org-side change shows.
  advanceClock(demo(), 5000);
  const c = await crm();
  const draftVersion = (await c.queryAll<{ Id: string }>(`SELECT Id FROM Knowledge__kav WHERE KnowledgeArticleId = '${a.draft}' AND PublishStatus = 'Draft'`)).records[0]!.Id;
  await c.knowledge.updateArticle(draftVersion, { Summary: "Changed in the org" });
  await edit(`${a.cleanName}/article.yaml`, (t) => t.replace("Home_Routers", "Home_Routers").replace(/dataCategories: \[\]/, "dataCategories:\n  - Products/Toasters"));
  const withOrg = await cli(dir, ["check", "kb", "--org", "--helper", "helper.json"]);
  assert.equal(withOrg.code, 1);
  assert.match(withOrg.out, new RegExp(`kb/${a.draftName}/Answer__c.html:1: error Links to 'not-in-this-folder', which is neither in this folder nor published in the org`));
  assert.match(withOrg.out, new RegExp(`kb/${a.draftName}/article.yaml: error Changed both in this folder and in the org since the pull.*\\[org\\]`));
  assert.match(withOrg.out, new RegExp(`kb/${a.cleanName}/article.yaml:\\d+: error The data category 'Products/Toasters' does not exist in the org.*\\[category\\]`));
});

test("the github format escapes what would end an annotation early", () => {
  assert.equal(
    githubAnnotation({ severity: "error", file: "kb/a,b:c/article.yaml", line: 3, message: "100% wrong\nsecond line" }),
    "::error file=kb/a%2Cb%3Ac/article.yaml,line=3,title=crm-knowledge::100%25 wrong%0Asecond line",
  );
});

test("preview: sanitized, self-contained pages that carry no script, even for a hostile body; --changed-since picks what git says changed", async () => {
  const c = await crm();
  const a = await articles(c);
  const dir = await workspace();
  assert.equal((await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", "--article", a.guide, "--article", a.clean])).code, 0);
  const hostile = [
    `<p>Before</p><script>alert('xss')</script><img src="x" onerror="alert(1)"><a href="javascript:alert(2)">link</a>`,
    `<iframe src="https://evil.example/"></iframe><svg onload="alert(3)"></svg><style>body{display:none}</style><form action="https://evil.example"><input name="q"></form>`,
    `<p><img src="images/${(await readdir(path.join(dir, "kb", a.guideName, "images")))[0]}" alt="shown"></p>`,
    `<p>&lt;/style&gt;&lt;script&gt;alert(4)&lt;/script&gt;</p><noscript><p title="</noscript><img src=x onerror=alert(5)>"></p></noscript>`,
  ].join("\n");
  await writeFile(path.join(dir, "kb", a.guideName, "Answer__c.html"), hostile);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: dir });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "pulled");
  await appendFile(path.join(dir, "kb", a.cleanName, "Answer__c.html"), "<p>One more line.</p>\n");

  const all = await cli(dir, ["preview", "kb", "--out", "site"]);
  assert.equal(all.code, 0, all.err);
  assert.match(all.out, /Wrote 2 article pages and index\.html to site\./);
  const page = await readFile(path.join(dir, "site", `${a.guideName}.html`), "utf8");
  assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'nonce-[^']+'; base-uri 'none'; form-action 'none'">/);
  assert.doesNotMatch(page, /<script|<iframe|<svg|<form|<input|\son\w+=|javascript:/i, "nothing that runs or submits survives");
  assert.equal([...page.matchAll(/<style\b/g)].length, 1, "only the page's own stylesheet");
  assert.match(page, /<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="shown">/, "the folder's image inlined");
  assert.match(page, /<img alt="" data-blocked="">|<img data-blocked="" alt="">|<img data-blocked="">/, "an image from elsewhere is not loaded");
  assert.match(page, /&lt;\/style&gt;&lt;script&gt;alert\(4\)/, "escaped text stays text");
  assert.match(page, /<h1>cli-guide \d+<\/h1>/);
  assert.match(page, /<h2 class="language">Guide \d+ \(fr\)<\/h2>/, "the translation is on the article's page");
  const index = await readFile(path.join(dir, "site", "index.html"), "utf8");
  assert.match(index, new RegExp(`<a href="${a.guideName}.html">cli-guide \\d+</a>`));
  assert.match(index, /Sanitizing removes a &#60;script&#62; element/, "the index lists the check's findings");
  assert.doesNotMatch(index, /<script/i);

  const changed = await cli(dir, ["preview", "kb", "--out", "changed", "--changed-since", "HEAD"]);
  assert.equal(changed.code, 0, changed.err);
  assert.deepEqual((await readdir(path.join(dir, "changed"))).sort(), [`${a.cleanName}.html`, "index.html"]);
  assert.match(await readFile(path.join(dir, "changed", "index.html"), "utf8"), /1 article changed \(of 2 in the folder\)/);
  const badRef = await cli(dir, ["preview", "kb", "--out", "x", "--changed-since", "--upload-pack=evil"]);
  assert.equal(badRef.code, 2);
  const unknownRef = await cli(dir, ["preview", "kb", "--out", "x", "--changed-since", "no-such-branch"]);
  assert.equal(unknownRef.code, 2);
  assert.match(unknownRef.err, /'no-such-branch' is not a commit git knows/);

  // A folder that brings its own repository (a .git whose config names a command git would run) is refused
  // before git reads anything in it: the command never runs.
  const marker = path.join(dir, "fsmonitor-ran");
  execFileSync("git", ["init", "-q", path.join(dir, "kb")]);
  execFileSync("git", ["-C", path.join(dir, "kb"), "config", "core.fsmonitor", `touch ${marker}`]);
  execFileSync("git", ["-C", path.join(dir, "kb"), "-c", "user.email=pr@example.com", "-c", "user.name=PR", "-c", "core.fsmonitor=false", "commit", "-q", "--allow-empty", "-m", "planted"]);
  for (const argv of [["preview", "kb", "--out", "y", "--changed-since", "HEAD"], ["check", "kb", "--changed-since", "HEAD"]]) {
    const planted = await cli(dir, argv);
    assert.equal(planted.code, 2, planted.out);
    assert.match(planted.err, /kb is a git repository of its own \(it holds a \.git\)/);
  }
  assert.equal(await readFile(marker).then(() => "ran", () => "never ran"), "never ran");
});

test("preview reads nothing through a link in the folder, writes nothing through one in its output, and gives each folder a page of its own", async () => {
  const c = await crm();
  const a = await articles(c);
  const dir = await workspace();
  assert.equal((await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", "--article", a.clean])).code, 0);
  // A pull request turns the article's images folder into a link to a folder of the runner holding a private file.
  const outside = path.join(dir, "runner-files");
  await mkdir(outside);
  const secret = Buffer.concat([PNG, Buffer.from("RUNNER-SECRET")]);
  await writeFile(path.join(outside, "secret.png"), secret);
  await rm(path.join(dir, "kb", a.cleanName, "images"), { recursive: true, force: true });
  await symlink(outside, path.join(dir, "kb", a.cleanName, "images"));
  await writeFile(path.join(dir, "kb", a.cleanName, "Answer__c.html"), `<p>See <img src="images/secret.png" alt="secret"></p>`);
  // Two more folders whose names differ only where a page's file name cannot keep them apart.
  for (const twin of ["twin a", "twin_a"]) await cp(path.join(dir, "kb", a.cleanName), path.join(dir, "kb", twin), { recursive: true, verbatimSymlinks: true });

  const run = await cli(dir, ["preview", "kb", "--out", "site"]);
  assert.equal(run.code, 0, run.err);
  const pages = (await readdir(path.join(dir, "site"))).filter((f) => f !== "index.html");
  assert.equal(pages.length, 3, `a page per folder: ${pages.join(", ")}`);
  for (const file of pages) assert.ok(!(await readFile(path.join(dir, "site", file))).includes(secret.toString("base64").slice(0, 40)), `${file} holds no byte of the linked file`);
  const index = await readFile(path.join(dir, "site", "index.html"), "utf8");
  for (const file of pages) assert.ok(index.includes(`href="${file}"`), `the index links ${file}`);

  // A link planted in the output folder (index.html pointing at a file of the runner) is refused, not written through.
  const target = path.join(outside, "keep.txt");
  await writeFile(target, "the runner's file");
  await mkdir(path.join(dir, "planted"));
  await symlink(target, path.join(dir, "planted", "index.html"));
  const planted = await cli(dir, ["preview", "kb", "--out", "planted"]);
  assert.equal(planted.code, 2, planted.out);
  assert.match(planted.err, /index\.html is a symbolic link: the preview writes its pages only as files of its own/);
  assert.equal(await readFile(target, "utf8"), "the runner's file");
  await symlink(outside, path.join(dir, "linked-out"));
  const linkedOut = await cli(dir, ["preview", "kb", "--out", "linked-out"]);
  assert.equal(linkedOut.code, 2);
  assert.match(linkedOut.err, /--out .*linked-out is a symbolic link/);
});

test("push: a dry run by default; --apply writes drafts; --publish publishes what passes the check; an article changed in the org is refused (exit 1)", async () => {
  const c = await crm();
  const a = await articles(c);
  const dir = await workspace();
  assert.equal((await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", "--article", a.guide, "--article", a.clean, "--article", a.draft])).code, 0);
  const kb = path.join(dir, "kb");
  await writeFile(path.join(kb, a.cleanName, "Answer__c.html"), "<p>All good, and better.</p>\n");
  await writeFile(path.join(kb, a.guideName, "Answer__c.html"), "<p>Better.</p><script>alert(1)</script>");
  const emu = demo();
  const writes = () => writesSeen(emu);

  let before = writes();
  const dry = await cli(dir, ["push", "kb", "--helper", "helper.json"]);
  assert.equal(dry.code, 0, dry.err);
  assert.match(dry.out, new RegExp(`${a.cleanName}: draftFromOnline \\(modified locally\\)`));
  assert.match(dry.out, /Dry run: 2 of 3 articles would be written.*nothing was sent/);
  assert.equal(writes(), before, "a dry run sends nothing");

  // The org changes the draft after the pull, and the folder changes it too: refused.
  advanceClock(emu, 5000);
  const draftVersion = (await c.queryAll<{ Id: string }>(`SELECT Id FROM Knowledge__kav WHERE KnowledgeArticleId = '${a.draft}' AND PublishStatus = 'Draft'`)).records[0]!.Id;
  await c.knowledge.updateArticle(draftVersion, { Summary: "Changed in the org" });
  await writeFile(path.join(kb, a.draftName, "Answer__c.html"), "<p>Changed here too.</p>\n");

  const journal = path.join(dir, "journal.jsonl");
  const published = await cli(dir, ["push", "kb", "--publish", "--helper", "helper.json", "--format", "github", "--journal", "journal.jsonl"]);
  assert.equal(published.code, 1, "a refused article fails the push");
  assert.match(published.out, new RegExp(`::error file=kb/${a.draftName}/article.yaml,title=crm-knowledge::conflict ${a.draftName}: changed in the org since the pull`));
  assert.match(published.out, new RegExp(`pushed ${a.cleanName} \\(published\\)`));
  assert.match(published.out, new RegExp(`pushed ${a.guideName}; not published: the check found kb/${a.guideName}/Answer__c.html:1 Sanitizing removes a <script> element`.replace("kb/", "")));
  const online = async (id: string) => (await c.queryAll<{ Answer__c: string }>(`SELECT Answer__c FROM Knowledge__kav WHERE KnowledgeArticleId = '${id}' AND PublishStatus = 'Online' AND IsMasterLanguage = true`)).records[0]?.Answer__c;
  assert.equal(await online(a.clean), "<p>All good, and better.</p>");
  assert.notEqual(await online(a.guide), "<p>Better.</p><script>alert(1)</script>", "an article with an error is not published");
  const drafts = (await c.queryAll<{ Answer__c: string }>(`SELECT Answer__c FROM Knowledge__kav WHERE KnowledgeArticleId = '${a.guide}' AND PublishStatus = 'Draft' AND IsMasterLanguage = true`)).records;
  assert.equal(drafts[0]?.Answer__c, "<p>Better.</p><script>alert(1)</script>", "it is pushed as a draft for a person to mend");
  const journaled = (await readFile(journal, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { tool: string; summary: string; org: string });
  assert.ok(journaled.length >= 3 && journaled.every((j) => j.tool === "crm-knowledge push" && j.org === c.orgId), "every write the org accepted is in the journal");
  assert.ok(journaled.some((j) => /publish/i.test(j.summary)), JSON.stringify(journaled));

  before = writes();
  assert.equal((await cli(dir, ["push", "kb", "--apply", "--helper", "helper.json"])).code, 1, "the conflict still stands");
  assert.equal(writes(), before, "what was pushed is recorded: nothing is sent again");
});

test("a production org refuses a push unless --allow-production; nothing is sent", async () => {
  const emu = demo();
  const c = await crm();
  const a = await articles(c);
  const dir = await workspace();
  assert.equal((await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", "--article", a.clean])).code, 0);
  await writeFile(path.join(dir, "kb", a.cleanName, "Answer__c.html"), "<p>For production.</p>\n");
  const organization = emu.seeded.store.liveRecords("Organization")[0]!;
  const kind = organization.OrganizationType;
  organization.OrganizationType = "Enterprise Edition";
  try {
    const writes = () => writesSeen(emu);
    const before = writes();
    const refused = await cli(dir, ["push", "kb", "--apply", "--helper", "helper.json"]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /is a production org: crm-knowledge push writes to it only with --allow-production \(refused, nothing sent: push 1 knowledge article from a folder/);
    assert.equal(writes(), before);
    const allowed = await cli(dir, ["push", "kb", "--apply", "--allow-production", "--helper", "helper.json"]);
    assert.equal(allowed.code, 0, allowed.out);
    assert.match(allowed.out, new RegExp(`pushed ${a.cleanName}`));
  } finally {
    organization.OrganizationType = kind;
  }
});

test("credentials: a session or the JWT bearer flow from the environment; bad or missing ones exit 2 without printing a secret; bad usage exits 2", async () => {
  const emu = demo();
  const c = await crm();
  const a = await articles(c);
  const dir = await workspace();
  const keyFile = path.join(dir, "server.key");
  await writeFile(keyFile, emu.credentials.jwtPrivateKeyPem);
  const jwt = { CRM_CLIENT_ID: emu.credentials.clientId, CRM_USERNAME: emu.credentials.username, CRM_JWT_KEY_FILE: "server.key", CRM_LOGIN_URL: emu.url };
  const viaJwt = await cli(dir, ["pull", "--out", "kb", "--article", a.clean], jwt);
  assert.equal(viaJwt.code, 0, viaJwt.err);
  assert.match(viaJwt.out, /Pulled 1 article into kb\./);

  const session = { CRM_INSTANCE_URL: c.instanceUrl!, CRM_ACCESS_TOKEN: c.getSession()!.accessToken };
  const viaSession = await cli(dir, ["status", "kb"], session);
  assert.equal(viaSession.code, 0, viaSession.err);
  assert.match(viaSession.out, /1 articles: 0 modified, 0 new, 0 changed in the org, 0 in conflict\./);

  const secret = "00Dfake!THIS-TOKEN-MUST-NOT-BE-PRINTED";
  const bad = await cli(dir, ["status", "kb"], { CRM_INSTANCE_URL: emu.url, CRM_ACCESS_TOKEN: secret });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /Signing in to the org failed/);
  assert.ok(!`${bad.out}${bad.err}`.includes(secret), "the token is never printed");
  const badKey = await cli(dir, ["pull", "--out", "kb2", "--all-published"], { ...jwt, CRM_USERNAME: "nobody@example.com" });
  assert.equal(badKey.code, 2);
  assert.ok(!badKey.err.includes("PRIVATE KEY"));
  const none = await cli(dir, ["pull", "--out", "kb2"]);
  assert.equal(none.code, 2);
  assert.match(none.err, /This command needs an org\.\nCredentials/);
  const half = await cli(dir, ["pull", "--out", "kb2"], { CRM_INSTANCE_URL: emu.url });
  assert.match(half.err, /CRM_INSTANCE_URL and CRM_ACCESS_TOKEN go together: CRM_ACCESS_TOKEN is not set/);

  for (const [argv, said] of [
    [["publish", "kb"], /no command 'publish'/],
    [["check", "kb", "--orgs"], /'check' has no option --orgs \(it takes --org, --strict, --helper, --format, --languages, --changed-since\)/],
    [["check"], /name the knowledge folder/],
    [["check", "kb", "--format", "xml"], /--format must be one of text, json, github, got 'xml'/],
    [["check", "no-such-folder"], /is not a folder/],
    [["pull", "--out", "kb", "--where", "x", "--category", "A/B"], /choose the articles one way: --category and --where were both given/],
    [["pull", "--out", "kb", "--category", "Products"], /--category takes Group\/Category/],
    [["preview", "kb"], /preview needs --out <dir>/],
    [["check", "kb", "--languages", "fr;rm -rf"], /--languages takes language codes/],
  ] as const) {
    const result = await cli(dir, [...argv]);
    assert.equal(result.code, 2, `${argv.join(" ")}: ${result.err}`);
    assert.match(result.err, said);
  }
  const help = await cli(dir, ["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /Exit codes: 0 clean, 1 findings or a refused article, 2 bad usage or no access\./);
});

test("a hostile article folder name forges no line, colour or workflow command in any command's output, in any format", async () => {
  const c = await crm();
  const a = await articles(c);
  const dir = await workspace();
  assert.equal((await cli(dir, ["pull", "--out", "kb", "--helper", "helper.json", "--article", a.clean])).code, 0);
  const hostile = `evil-${a.n}\n::add-mask::s3cr3t\r::error::forged\u001b[31mred\u0007\u202egnp.exe\u2028::warning::x`;
  execFileSync("cp", ["-r", path.join(dir, "kb", a.cleanName), path.join(dir, "kb", hostile)]);
  const runs = [
    ["status", "kb"], ["status", "kb", "--helper", "helper.json"], ["check", "kb"], ["check", "kb", "--format", "github"], ["check", "kb", "--format", "json"],
    ["push", "kb", "--helper", "helper.json"], ["push", "kb", "--helper", "helper.json", "--format", "github"], ["push", "kb", "--helper", "helper.json", "--format", "json"],
  ];
  let named = 0;
  for (const argv of runs) {
    const { out, err } = await cli(dir, argv);
    for (const line of `${out}\n${err}`.split("\n")) {
      // A runner takes any line whose trimmed start is `::` as a command: only our annotations may be one.
      if (/^\s*::/.test(line)) assert.match(line, /^::(error|warning) file=[^:]*,title=crm-knowledge::/, `${argv.join(" ")}: a forged command: ${line}`);
      // eslint-disable-next-line no-control-regex -- the acting characters the name carries
      assert.doesNotMatch(line, /[\r\u001b\u0007\u202e\u2028]/, `${argv.join(" ")}: an acting character reached the output: ${JSON.stringify(line)}`);
      assert.doesNotMatch(line, /^::add-mask::/, argv.join(" "));
    }
    if (out.includes(`evil-${a.n}`)) named++;
    if (argv.includes("json")) assert.doesNotThrow(() => JSON.parse(out), `${argv.join(" ")}: the JSON stays JSON`);
  }
  assert.ok(named >= 4, `the folder is still named where it is reported (${named} outputs)`);
});

test("a large folder is checked in worker threads and finds exactly what one thread finds: every rule, across articles, in order — the built tool too", async () => {
  const { a, dir, kb, edit } = await pulledArticles();
  await edit(`${a.draftName}/Answer__c.html`, () => `<p>See <a href="/articles/en_US/Knowledge/${a.cleanName}">the clean one</a>.</p>\n<p onclick="steal()">Click</p>\n<p><img src="images/missing.png" alt=""></p>\n`);
  await edit(`${a.guideName}/Answer__c.html`, (t) => t.replace("<p>Hold the button.</p>", "<p>Hold the button for ten seconds.</p>"));
  await edit(`${a.cleanName}/article.yaml`, (t) => t.replace(/ {2}Title: .*/, `  Title: ${"é".repeat(256)}`));
  // 600 more articles: copies of the three under new names and URL names, a few that share one, one that is not YAML.
  const originals = [a.guideName, a.draftName, a.cleanName];
  for (let i = 0; i < 200; i++) {
    for (const name of originals) {
      const copy = `${name}-copy-${i}`;
      await cp(path.join(kb, name), path.join(kb, copy), { recursive: true });
      await cp(path.join(kb, ".crm-knowledge", `${name}.json`), path.join(kb, ".crm-knowledge", `${copy}.json`));
      for (const file of await readdir(path.join(kb, copy))) {
        if (file.endsWith(".yaml")) await edit(`${copy}/${file}`, (t) => t.replace(/( {2}UrlName: )(.*)/, (_, key: string, urlName: string) => `${key}${i % 97 === 0 ? "shared-name" : `${urlName}-copy-${i}`}`));
      }
    }
  }
  await writeFile(path.join(kb, `${a.draftName}-copy-7`, "article.yaml"), "fields: [unclosed\n");

  const inOneThread = await checkFolder(nodeFolder(kb), { richTextRemovals, languages: ["fr", "de"] });
  const threads = checkThreads(kb, 2, 1);
  let spread = 0;
  const inThreads = await checkFolder(nodeFolder(kb), {
    richTextRemovals, languages: ["fr", "de"], spread: (count, facts) => {
      const given = threads.spread(count, facts);
      spread += given ? 1 : 0;
      return given;
    },
  }).finally(() => threads.close());
  assert.equal(spread, 1, "the articles went to the worker threads");
  assert.equal(inThreads.articles.length, 603);
  const rules = new Set(inOneThread.findings.map((f) => f.rule));
  for (const rule of ["richText", "image", "translation", "length", "urlName", "folder"]) assert.ok(rules.has(rule as never), `the folder has a ${rule} finding`);
  assert.deepEqual(inThreads, inOneThread);

  // The built tool, whose worker is a bundle of its own beside it (dist/crm-knowledge-check.js).
  const built = await runAsync(process.execPath, [path.resolve("dist/crm-knowledge.js"), "check", "kb", "--format", "json", "--languages", "fr,de"], dir);
  assert.equal(built.status, 1, built.stderr);
  assert.deepEqual((JSON.parse(built.stdout) as { findings: unknown }).findings, inOneThread.findings);

  // Piped to a reader that stops after 100 bytes (more than a pipe holds is left unread): no stack on stderr, the check's exit code.
  assert.ok(built.stdout.length > 1 << 17, `an output larger than a pipe's buffer (${built.stdout.length})`);
  const piped = await runAsync("bash", ["-c", `set -o pipefail; "${process.execPath}" "${path.resolve("dist/crm-knowledge.js")}" check kb --format json --languages fr,de | head -c 100`], dir);
  assert.deepEqual([piped.status, piped.stdout.length, piped.stderr], [1, 100, ""]);
});

test("the built tools run each command in a thread of their own: its output, its errors and its exit code reach the shell as before", async () => {
  const { clean, cleanName } = await articles(await crm());
  const dir = await workspace();
  const run = (bundle: string, argv: string[]) => runAsync(process.execPath, [path.resolve("dist", bundle), ...argv], dir);
  const pulled = await run("crm-knowledge.js", ["pull", "--out", "kb", "--helper", "helper.json", "--article", clean]);
  assert.equal(pulled.status, 0, pulled.stderr);
  assert.match(pulled.stdout, /Pulled 1 article into kb\./);
  assert.match(await readFile(path.join(dir, "kb", cleanName, "Answer__c.html"), "utf8"), /All good\./, "the file thread wrote the article");
  const usage = await run("crm-knowledge.js", ["pull"]);
  assert.deepEqual([usage.status, usage.stdout], [2, ""]);
  assert.match(usage.stderr, /crm-knowledge pull: pull needs --out <folder>/);
  const help = await run("crm-data.js", ["--help"]);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: crm-data <command>/);
});
