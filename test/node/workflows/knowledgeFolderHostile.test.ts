// A knowledge folder from someone's pull request, and an org whose names become paths: nothing is read from
// outside the folder, nothing is written or deleted outside it, and one bad article does not stop the others.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { Crm } from "../../../src/client";
import * as knowledgeFolder from "../../../src/workflows/knowledgeFolder";
import { folderThread } from "../../../src/cli/folderThread";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));
const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
/** A folder for the sync, and beside it (outside) a private file and an empty folder. */
async function folderAndOutside() {
  const dir = await tempDir("kb-hostile-");
  const outside = await tempDir("kb-outside-");
  await writeFile(path.join(outside, "secret.txt"), "PRIVATE-KEY-42");
  await mkdir(path.join(outside, "images"));
  return { dir, io: knowledgeFolder.nodeFolder(dir), outside, secret: path.join(outside, "secret.txt") };
}
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIAQMAAAD+wSzIAAAABlBMVEX/AAD///9BHTQRAAAAEklEQVQI12P4z8DwH4hBNAMAeAkHf6m1R4kAAAAASUVORK5CYII=", "base64");
let n = 0;
async function article(c: Crm, title: string, body = "<p>Body.</p>") {
  n++;
  const id = await c.knowledge.createArticle({ Title: `${title} ${n}`, UrlName: `${title.toLowerCase().replace(/\W+/g, "-")}-${n}`, Summary: "S", Answer__c: body });
  return { id, urlName: `${title.toLowerCase().replace(/\W+/g, "-")}-${n}`, knowledgeArticleId: String((await c.knowledge.getArticleDetails(id)).KnowledgeArticleId) };
}
const sent = (since: number) => emu().requests.slice(since).map((r) => r.body).join("\n");
const b64 = (text: string) => Buffer.from(text).toString("base64");

test("push: an image, a body or an article.yaml that is a link is refused by name, and nothing of its target is sent", async () => {
  const c = await crm();
  const { dir, io, secret } = await folderAndOutside();
  // A new article whose image is a link to a private file.
  await mkdir(path.join(dir, "linked-image", "images"), { recursive: true });
  await writeFile(path.join(dir, "linked-image", "article.yaml"), "fields:\n  Title: Linked image\n  UrlName: linked-image-x\n");
  await writeFile(path.join(dir, "linked-image", "Answer__c.html"), '<p><img src="images/logo.png"></p>');
  await symlink(secret, path.join(dir, "linked-image", "images", "logo.png"));
  const since = emu().requests.length;
  const [result] = await knowledgeFolder.pushFolder(c, io);
  assert.equal(result!.outcome, "failed");
  assert.match(result!.message!, /linked-image\/images\/logo\.png is a symbolic link/);
  assert.doesNotMatch(sent(since), new RegExp(`PRIVATE-KEY|${b64("PRIVATE-KEY-42").slice(0, 12)}`));
  assert.equal(emu().requests.slice(since).filter((r) => r.method !== "GET").length, 0, "nothing was written");

  // A body that is a link: the plan itself is refused, naming the file.
  await rm(path.join(dir, "linked-image"), { recursive: true });
  await mkdir(path.join(dir, "linked-body"));
  await writeFile(path.join(dir, "linked-body", "article.yaml"), "fields:\n  Title: Linked body\n  UrlName: linked-body-x\n");
  await symlink(secret, path.join(dir, "linked-body", "Answer__c.html"));
  await assert.rejects(knowledgeFolder.pushFolder(c, io), /linked-body\/Answer__c\.html is a symbolic link/);

  await rm(path.join(dir, "linked-body"), { recursive: true });
  await mkdir(path.join(dir, "linked-yaml"));
  await symlink(secret, path.join(dir, "linked-yaml", "article.yaml"));
  await assert.rejects(knowledgeFolder.pushFolder(c, io), /linked-yaml\/article\.yaml is a symbolic link/);
  assert.doesNotMatch(sent(since), /PRIVATE-KEY/);
});

for (const [way, open] of [["on disk", knowledgeFolder.nodeFolder], ["through the file thread of crm-knowledge pull", folderThread]] as const) test(`pull ${way}: through a linked images folder or article.yaml nothing is written or deleted outside; the other articles are pulled`, async (t) => {
  const c = await crm();
  const { dir, outside, secret } = await folderAndOutside();
  const io: knowledgeFolder.FolderIO & { close?(): Promise<void> } = open(dir);
  t.after(() => io.close?.());
  const withImage = await article(c, "Linked pull", `<p><img src="data:image/png;base64,${PNG.toString("base64")}"></p>`);
  const plain = await article(c, "Plain pull");
  await knowledgeFolder.pullArticles(c, io, { articleIds: [withImage.knowledgeArticleId, plain.knowledgeArticleId] });
  const [image] = await readdir(path.join(dir, withImage.urlName, "images"));
  // The pull request: images becomes a link to a folder outside, article.yaml a link to a private file.
  await rm(path.join(dir, withImage.urlName, "images"), { recursive: true });
  await symlink(path.join(outside, "images"), path.join(dir, withImage.urlName, "images"));
  await writeFile(path.join(outside, "images", image!), "OUTSIDE IMAGE");
  await rm(path.join(dir, withImage.urlName, "article.yaml"));
  await symlink(secret, path.join(dir, withImage.urlName, "article.yaml"));

  const pulled = await knowledgeFolder.pullArticles(c, io, { articleIds: [withImage.knowledgeArticleId, plain.knowledgeArticleId] });
  const refused = pulled.find((p) => p.refused);
  assert.match(refused!.refused!, /is a symbolic link/);
  assert.deepEqual(pulled.filter((p) => !p.refused).map((p) => p.name), [plain.urlName], "the other article is pulled");
  assert.equal(await readFile(secret, "utf8"), "PRIVATE-KEY-42", "the private file is not overwritten");
  assert.deepEqual(await readdir(path.join(outside, "images")), [image], "nothing written or deleted outside");
  assert.equal(await readFile(path.join(outside, "images", image!), "utf8"), "OUTSIDE IMAGE");
});

test("a tampered crm-knowledge.yaml cannot delete another article's file, nor steer a query", async () => {
  const c = await crm();
  const { dir, io } = await folderAndOutside();
  const a = await article(c, "Manifest one");
  const b = await article(c, "Manifest two");
  await knowledgeFolder.pullArticles(c, io, { articleIds: [a.knowledgeArticleId, b.knowledgeArticleId] });
  // Files beside the records that no article folder could own are no records: a pull goes on past them.
  await writeFile(path.join(dir, ".crm-knowledge", ".hidden.json"), "{\"knowledgeArticleId\": [unclosed\n");
  await writeFile(path.join(dir, ".crm-knowledge", "..json"), "{\"files\": {}}\n");
  await writeFile(path.join(dir, ".crm-knowledge", ".hidden.yaml"), "knowledgeArticleId: [unclosed\n");
  await knowledgeFolder.pullArticles(c, io, { articleIds: [a.knowledgeArticleId] });
  const recordPath = path.join(dir, ".crm-knowledge", `${a.urlName}.json`);
  const record = await readFile(recordPath, "utf8");
  await writeFile(recordPath, record.replace(/\n(\s+)"article\.yaml": /, (_, indent: string) => `\n${indent}"../${b.urlName}/article.yaml": "0000",\n${indent}"article.yaml": `));
  await assert.rejects(knowledgeFolder.pullArticles(c, io, { articleIds: [a.knowledgeArticleId] }), /\.crm-knowledge\/.*\.json lists "\.\.\/.*article\.yaml" under/);
  await writeFile(recordPath, record.slice(0, 40));
  await assert.rejects(knowledgeFolder.pullArticles(c, io, { articleIds: [a.knowledgeArticleId] }), /\.crm-knowledge\/.*\.json is not JSON \(.*\): it is not a knowledge folder's record of a pull as CRM Explorer writes it\. Pull the articles again\./);
  await writeFile(recordPath, record);
  await readFile(path.join(dir, b.urlName, "article.yaml")); // still there

  const manifestPath = path.join(dir, "crm-knowledge.yaml");
  const original = await readFile(manifestPath, "utf8");

  await writeFile(manifestPath, original.replace(/sobject: Knowledge__kav/, "sobject: Knowledge__kav WHERE Id != null"));
  const since = emu().requests.length;
  await assert.rejects(knowledgeFolder.folderStatus(io, { crm: c }), /names "Knowledge__kav WHERE Id != null" as the article type/);
  assert.equal(emu().requests.length, since, "nothing sent");
  await writeFile(manifestPath, "org: [unclosed\n");
  await assert.rejects(knowledgeFolder.folderStatus(io), /crm-knowledge\.yaml, line \d+ is not valid/);
});

test("names from the org that would become paths refuse that article alone; the folder's root gets nothing", async () => {
  const c = await crm();
  const { dir, io } = await folderAndOutside();
  const hostileLanguage = await article(c, "Hostile language");
  await c.knowledge.publishArticle(hostileLanguage.id);
  const [fr] = await c.knowledge.submitForTranslation(hostileLanguage.knowledgeArticleId, "fr");
  const longName = await article(c, "Long name");
  const nul = await article(c, "Nul language");
  await c.knowledge.publishArticle(nul.id);
  const [de] = await c.knowledge.submitForTranslation(nul.knowledgeArticleId, "de");
  const fine = await article(c, "Fine one");
  const table = emu().seeded.store.table("Knowledge__kav");
  table.get(fr!.Id.length === 18 ? fr!.Id : [...table.keys()].find((k) => k.startsWith(fr!.Id))!)!.Language = "x/../../Other-Article/article";
  [...table.values()].find((r) => r.Id.startsWith(de!.Id.slice(0, 15)))!.Language = "de\0";
  [...table.values()].find((r) => r.Id.startsWith(longName.id.slice(0, 15)))!.UrlName = "a".repeat(400);

  const pulled = await knowledgeFolder.pullArticles(c, io, { articleIds: [hostileLanguage.knowledgeArticleId, longName.knowledgeArticleId, nul.knowledgeArticleId, fine.knowledgeArticleId] });
  const byTitle = new Map(pulled.map((p) => [p.title.replace(/ \d+$/, ""), p]));
  assert.match(byTitle.get("Hostile language")!.refused!, /the language code "x\/\.\.\/\.\.\/Other-Article\/article" is not a language code/);
  assert.match(byTitle.get("Nul language")!.refused!, /the language code "de\\u0000" is not a language code/);
  assert.match(byTitle.get("Long name")!.refused!, /URL name is 400 characters long/);
  assert.equal(byTitle.get("Fine one")!.refused, undefined);
  assert.deepEqual((await readdir(dir)).sort(), [fine.urlName, "crm-knowledge.yaml", ".crm-knowledge"].sort(), "only the fine article's folder and the records");
});

test("a describe whose rich-text field name is not an API name is refused before anything is written", async () => {
  const other = await tempDir("kb-field-");
  const def = emu().seeded.store.object("Knowledge__kav")!;
  const field = { name: "../pwned-field", type: "textarea" as const, richText: true, label: "Pwned" };
  def.fields.push(field);
  def.fieldMap.set(field.name.toLowerCase(), field);
  const fresh = await demoClient(emu());
  try {
    await assert.rejects(knowledgeFolder.pullArticles(fresh, knowledgeFolder.nodeFolder(other)), /the field name "\.\.\/pwned-field" is not a field API name\. Nothing was pulled/);
    assert.deepEqual(await readdir(other), []);
    assert.deepEqual((await readdir(path.dirname(other))).filter((f) => f.startsWith("pwned-field")), []);
  } finally {
    def.fields.pop();
    def.fieldMap.delete(field.name.toLowerCase());
  }
});

test("article.yaml is plain data: an alias bomb, a tag or an oversized file is refused by name and line, fast", async () => {
  const c = await crm();
  const { dir, io } = await folderAndOutside();
  await mkdir(path.join(dir, "bomb"));
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`), "fields:\n  Title: *j"].join("\n");
  await writeFile(path.join(dir, "bomb", "article.yaml"), bomb);
  await assert.rejects(knowledgeFolder.planPush(c, io), /bomb\/article\.yaml, line 2 is not valid for a knowledge folder: .*alias/i);
  await writeFile(path.join(dir, "bomb", "article.yaml"), "fields:\n  Title: !!js/function 'function () {}'\n");
  await assert.rejects(knowledgeFolder.planPush(c, io), /bomb\/article\.yaml, line 2 is not valid for a knowledge folder/);
  await writeFile(path.join(dir, "bomb", "article.yaml"), `fields:\n  Title: ${"x".repeat(knowledgeFolder.FILE_LIMITS.yaml)}\n`);
  await assert.rejects(knowledgeFolder.planPush(c, io), /bomb\/article\.yaml is 1\.0 MB: a knowledge folder's file of this kind may be at most 1\.0 MB/);
});

test("a title with line breaks stays one value in article.yaml; bad folder arguments are named", async () => {
  const c = await crm();
  const { dir, io } = await folderAndOutside();
  const a = await article(c, "Breaks");
  const title = "Breaks\nfields:\n  Title: injected\r\ndataCategories: [X/Y]\u2028evil: 1";
  await c.knowledge.updateArticle(a.id, { Title: title });
  await knowledgeFolder.pullArticles(c, io, { articleIds: [a.knowledgeArticleId] });
  assert.deepEqual((await knowledgeFolder.planPush(c, io)).entries.map((e) => e.action), ["nothing"], "as pulled");
  const yaml = await readFile(path.join(dir, a.urlName, "article.yaml"), "utf8");
  assert.equal(yaml.split("\n")[0]!.startsWith("# "), true);
  assert.doesNotMatch(yaml, /^evil:|^dataCategories: \[X\/Y\]/m);
  await writeFile(path.join(dir, a.urlName, "Answer__c.html"), "<p>Edited.</p>");
  const [entry] = (await knowledgeFolder.planPush(c, io)).entries.filter((e) => e.action !== "nothing");
  assert.equal(entry!.title, title, "the title read back is the org's, whole");

  await assert.rejects(knowledgeFolder.pushFolder(c, dir as never), /io must be a FolderIO, such as knowledgeFolder\.nodeFolder\('.*'\) for a folder on disk, got a string/);
  await assert.rejects(knowledgeFolder.pullArticles(c, { read() {} } as never), /io must be a FolderIO with read, write, remove, list and stat functions/);
  await assert.rejects(knowledgeFolder.pushFolder(c, knowledgeFolder.nodeFolder(path.join(dir, "no-such-folder"))), /The knowledge folder does not exist/);
});

test("a folder the guard looked at once and that is then removed and replaced by a link is looked at again: nothing goes through the link", async () => {
  const { dir, outside } = await folderAndOutside();
  const io = knowledgeFolder.guardFolder(knowledgeFolder.nodeFolder(dir));
  await io.write("article-a/Answer__c.html", new TextEncoder().encode("<p>One.</p>"));
  await io.write("article-a/article.yaml", new TextEncoder().encode("Title: One\n")); // article-a seen as a folder
  await io.remove("article-a/Answer__c.html");
  await io.remove("article-a/article.yaml");
  await io.remove("article-a");
  await symlink(path.join(outside, "images"), path.join(dir, "article-a"));
  await assert.rejects(io.write("article-a/article.yaml", new TextEncoder().encode("Title: Two\n")), /article-a is a symbolic link/);
  await assert.rejects(io.read("article-a/article.yaml"), /article-a is a symbolic link/);
  assert.deepEqual(await readdir(path.join(outside, "images")), [], "nothing written through the link");
});

test("the file itself: a link, a folder, a pipe or an oversized file is refused by name — by the open on disk (in this thread or the pull's file thread), and by the guard's look for a FolderIO that cannot refuse links", async (t) => {
  const { dir, secret } = await folderAndOutside();
  await mkdir(path.join(dir, "a", "Answer__c.html"), { recursive: true });
  await symlink(secret, path.join(dir, "a", "article.yaml"));
  await writeFile(path.join(dir, "a", "article.fr.yaml"), `fields:\n  Title: ${"x".repeat(knowledgeFolder.FILE_LIMITS.yaml)}\n`);
  execFileSync("mkfifo", [path.join(dir, "a", "article.de.yaml")]);
  const onDisk = knowledgeFolder.nodeFolder(dir);
  assert.equal(onDisk.refusesLinks, true, "O_NOFOLLOW exists on this system");
  const { refusesLinks: _, ...looked } = onDisk; // the same disk, read as a FolderIO that does not refuse links itself
  const threaded = folderThread(dir); // the same disk, its calls in crm-knowledge pull's file thread
  t.after(() => threaded.close());
  for (const io of [knowledgeFolder.guardFolder(onDisk), knowledgeFolder.guardFolder(looked), knowledgeFolder.guardFolder(threaded)]) {
    await assert.rejects(io.read("a/article.yaml"), /^FolderContentError: a\/article\.yaml is a symbolic link/);
    await assert.rejects(io.write("a/article.yaml", new TextEncoder().encode("fields: {}\n")), /a\/article\.yaml is a symbolic link/);
    await assert.rejects(io.read("a/Answer__c.html"), /a\/Answer__c\.html is not a file/);
    await assert.rejects(io.read("a/article.de.yaml"), /a\/article\.de\.yaml is not a file/, "a pipe is not waited on");
    await assert.rejects(io.read("a/article.fr.yaml"), /a\/article\.fr\.yaml is 1\.0 MB: a knowledge folder's file of this kind may be at most 1\.0 MB/);
    assert.equal(await io.read("a/missing.yaml"), undefined);
    assert.equal(await io.read("missing/article.yaml"), undefined);
  }
  assert.equal(await readFile(secret, "utf8"), "PRIVATE-KEY-42", "nothing written through the link");
});
