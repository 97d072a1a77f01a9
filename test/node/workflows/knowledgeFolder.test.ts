import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";
import yaml from "js-yaml";
import { Crm, type PendingWrite } from "../../../src/client";
import * as knowledgeFolder from "../../../src/workflows/knowledgeFolder";
import { checkFolder } from "../../../src/workflows/knowledgeCheck";
import { hashArticleFiles } from "../../../src/workflows/folderFiles";
import { richTextRemovals } from "../../../src/cli/richText";
import { plainOrUnjudged } from "../../../src/shared/plainRichText";
import { useEmulator, demoClient, demoOptions, advanceClock } from "../../helpers/emulator";
import type { Emulator } from "../../../src/demo-org";

const demo = useEmulator();
const empty = useEmulator({ seed: "empty" });
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(demo()));
const folders: string[] = [];
after(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));
async function newFolder() {
  const dir = await mkdtemp(path.join(tmpdir(), "kb-"));
  folders.push(dir);
  return { dir, io: knowledgeFolder.nodeFolder(dir) };
}

// An 8x8 red PNG, small but real.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIAQMAAAD+wSzIAAAABlBMVEX/AAD///9BHTQRAAAAEklEQVQI12P4z8DwH4hBNAMAeAkHf6m1R4kAAAAASUVORK5CYII=", "base64");
let n = 0;

/** Three articles of the demo org made for this file: one published with an image, categories and a French translation; a draft; a published one. */
async function threeArticles(c: Crm) {
  n++;
  const make = (title: string, body: string) => c.knowledge.createArticle({ Title: `${title} ${n}`, UrlName: `${title.toLowerCase().replace(/ /g, "-")}-${n}`, Summary: `About ${title}`, Answer__c: body });
  const routerId = await make("Router reset", `<h2>Reset</h2><p>Hold the button.</p><p><img src="data:image/png;base64,${PNG.toString("base64")}" alt="button.png"></p>`);
  await c.knowledge.assignDataCategory(routerId, "Products", "Home_Routers");
  await c.knowledge.assignDataCategory(routerId, "Regions", "France");
  await c.knowledge.publishArticle(routerId);
  const router = String((await c.knowledge.getArticleDetails(routerId)).KnowledgeArticleId);
  const [fr] = await c.knowledge.submitForTranslation(router, "fr");
  await c.knowledge.updateArticle(fr!.Id, { Title: `Réinitialiser le routeur ${n}`, Answer__c: "<p>Maintenez le bouton.</p>" });
  await c.knowledge.publishTranslation(fr!.Id);
  const draftId = await make("Draft notes", "<p>Work in progress.</p><ul><li>One</li><li>Two</li></ul>");
  const draft = String((await c.knowledge.getArticleDetails(draftId)).KnowledgeArticleId);
  const onlineId = await make("Billing cycle", "<p>Invoices go out monthly.</p>");
  await c.knowledge.publishArticle(onlineId);
  const online = String((await c.knowledge.getArticleDetails(onlineId)).KnowledgeArticleId);
  return { router, draft, draftId, online, n };
}

/** The three articles, pulled into a new folder. */
async function pulledThree() {
  const c = await crm();
  const a = await threeArticles(c);
  const { dir, io } = await newFolder();
  await knowledgeFolder.pullArticles(c, io, { articleIds: [a.router, a.draft, a.online] });
  return { c, emu: demo(), a, dir, io };
}

const writesOf = (emu: Emulator, since: number) => emu.requests.slice(since).filter((r) => r.method !== "GET" && r.path.includes("/services/data/"));

test("rich text laid out one block per line goes back to the org byte for byte", () => {
  const html = `<h2>Title</h2><p>One<br>two</p>\n<ul><li>a</li><li>b</li></ul><table><tbody><tr><td>x</td></tr></tbody></table>tail`;
  const laidOut = knowledgeFolder.layOutRichText(html);
  assert.ok(laidOut.split("\n").length > 8, laidOut);
  assert.equal(knowledgeFolder.storeRichText(laidOut), html);
  assert.equal(knowledgeFolder.storeRichText(knowledgeFolder.layOutRichText("")), "");
});

test("pull writes each article as files: fields, rich text, images, categories and translations, and the folder's record", async () => {
  const c = await crm();
  const a = await threeArticles(c);
  const { dir, io } = await newFolder();
  const pulled = await knowledgeFolder.pullArticles(c, io, { articleIds: [a.router, a.draftId, a.online] });
  assert.deepEqual(pulled.map((p) => [p.name, p.publishStatus, p.images, p.translations]).sort(), [
    [`billing-cycle-${a.n}`, "Online", 0, []], [`draft-notes-${a.n}`, "Draft", 0, []], [`router-reset-${a.n}`, "Online", 1, ["fr"]],
  ]);
  const router = path.join(dir, `router-reset-${a.n}`);
  assert.deepEqual((await readdir(router)).sort(), ["Answer__c.fr.html", "Answer__c.html", "article.fr.yaml", "article.yaml", "images"]);
  const yaml = await readFile(path.join(router, "article.yaml"), "utf8");
  assert.match(yaml, new RegExp(`Title: Router reset ${a.n}`));
  assert.match(yaml, /dataCategories:\n {2}- Products\/Home_Routers\n {2}- Regions\/France/);
  assert.match(yaml, /org:\n[\s\S]*PublishStatus: Online/);
  assert.doesNotMatch(yaml, /OwnerId|RecordTypeId/, "people and IDs of one org are not carried");
  const body = await readFile(path.join(router, "Answer__c.html"), "utf8");
  const [image] = await readdir(path.join(router, "images"));
  assert.match(body, new RegExp(`<img src="images/${image!.replace(".", "\\.")}" alt="button.png">`));
  assert.deepEqual(await readFile(path.join(router, "images", image!)), PNG, "the image's own bytes");
  assert.match(await readFile(path.join(router, "article.fr.yaml"), "utf8"), new RegExp(`Title: Réinitialiser le routeur ${a.n}`));
  assert.equal(body.split("\n").length, 4, "one block per line");
  const manifest = await readFile(path.join(dir, "crm-knowledge.yaml"), "utf8");
  assert.match(manifest, /sobject: Knowledge__kav/);
  assert.doesNotMatch(manifest, /router-reset/, "the folder's record says what it holds, not each article");
  const record = await readFile(path.join(dir, ".crm-knowledge", `router-reset-${a.n}.json`), "utf8");
  assert.match(record, /\n {2}"knowledgeArticleId": "kA/, "each article's record is a small file of its own, one value to a line");
  assert.match(record, /"fr": \{\n\s+"lastModifiedDate":/);
  // The folder was made by this pull, so its files were hashed as written, not listed and read back: the same hashes.
  const files = (JSON.parse(record) as { files: Record<string, string> }).files;
  assert.deepEqual(files, await hashArticleFiles(io, `router-reset-${a.n}`), "every file the folder holds, its image included");
  assert.equal(Object.keys(files).length, 5);
});

test("a round trip sends nothing; one edited body updates one draft; the status follows both sides", async () => {
  const { c, emu, a, dir, io } = await pulledThree();
  let since = emu.requests.length;
  const unchanged = await knowledgeFolder.pushFolder(c, io);
  assert.deepEqual(unchanged.map((r) => r.outcome), ["unchanged", "unchanged", "unchanged"]);
  assert.deepEqual(emu.requests.slice(since).map((r) => `${r.method} ${r.path}?${r.query}`), [], "nothing was sent, not even a read");

  const file = path.join(dir, `draft-notes-${a.n}`, "Answer__c.html");
  await writeFile(file, (await readFile(file, "utf8")).replace("Work in progress.", "Finished."));
  const status = await knowledgeFolder.folderStatus(io, { crm: c });
  assert.deepEqual(status.articles.map((s) => [s.name, s.local, s.org]), [
    [`billing-cycle-${a.n}`, "unchanged", "unchanged"], [`draft-notes-${a.n}`, "modified", "unchanged"], [`router-reset-${a.n}`, "unchanged", "unchanged"],
  ]);
  const plan = await knowledgeFolder.planPush(c, io);
  assert.deepEqual(plan.entries.map((e) => e.action), ["nothing", "updateDraft", "nothing"]);
  since = emu.requests.length;
  const results = await knowledgeFolder.pushFolder(c, io, { plan });
  assert.deepEqual(results.map((r) => r.outcome), ["unchanged", "pushed", "unchanged"]);
  const writes = writesOf(emu, since);
  assert.deepEqual(writes.map((w) => `${w.method} ${w.path.replace(/.*\/services\/data\/v[\d.]+/, "")}`), ["PATCH /composite/sobjects"], "the drafts' fields are written together");
  assert.deepEqual((JSON.parse(writes[0]!.body) as { records: { Id: string }[] }).records.map((r) => r.Id), [a.draftId], "only the edited draft");
  const draft = emu.seeded.store.table("Knowledge__kav").get(a.draftId)!;
  assert.equal(draft.Answer__c, "<p>Finished.</p><ul><li>One</li><li>Two</li></ul>", "stored as the org keeps it, without the layout's line breaks");
  assert.equal(draft.Summary, "About Draft notes", "the other fields as they were");
  since = emu.requests.length;
  assert.deepEqual((await knowledgeFolder.pushFolder(c, io)).map((r) => r.outcome), ["unchanged", "unchanged", "unchanged"], "the folder's record follows the push");
  assert.equal(emu.requests.length - since, 0);

  // A published article edited: a draft of it is made and updated; it stays published.
  const billing = path.join(dir, `billing-cycle-${a.n}`, "article.yaml");
  await writeFile(billing, (await readFile(billing, "utf8")).replace(`Summary: About Billing cycle`, "Summary: Invoices, monthly"));
  const [, , ] = await knowledgeFolder.pushFolder(c, io);
  const versions = await c.knowledge.getVersionsOfArticle(a.online);
  assert.deepEqual(versions.map((v) => v.PublishStatus).sort(), ["Draft", "Online"]);
});

test("a push that dies half way, run again, finishes without overwrite: what it pushed is the folder's own, not a change made in the org", async () => {
  const { c, emu, a, dir, io } = await pulledThree();
  const names = [`billing-cycle-${a.n}`, `draft-notes-${a.n}`, `router-reset-${a.n}`];
  for (const name of names) {
    const file = path.join(dir, name, "article.yaml");
    await writeFile(file, (await readFile(file, "utf8")).replace(/Summary: .*/, `Summary: Reviewed ${name}`));
  }
  advanceClock(emu, 2000);
  // The process dies once two articles are recorded (a kill, as far as the folder can tell: the push's end never runs).
  // The three were written together, so the third reached the org and its record was never written.
  await assert.rejects(knowledgeFolder.pushFolder(c, io, { onProgress: (done) => { if (done === 2) throw new Error("killed"); } }), /killed/);
  const written = (name: string) => emu.seeded.store.liveRecords("Knowledge__kav").some((v) => v.PublishStatus === "Draft" && v.Summary === `Reviewed ${name}`);
  assert.deepEqual(names.map(written), [true, true, true], "the batch reached the org");

  const status = await knowledgeFolder.folderStatus(io, { crm: c });
  assert.deepEqual(status.articles.map((s) => [s.name, s.local, s.org, s.conflict]), [
    [names[0], "unchanged", "unchanged", false], [names[1], "unchanged", "unchanged", false], [names[2], "modified", "unchanged", false],
  ], "the two recorded are the folder's own; the third is still to push, and its draft is the push's own (no conflict)");
  const again = await knowledgeFolder.pushFolder(c, io);
  assert.deepEqual(again.map((r) => r.outcome), ["unchanged", "unchanged", "pushed"]);
  assert.ok(names.every(written));
  assert.ok(!(await readdir(dir)).includes(".crm-knowledge-pushed"), "each pushed article's record went straight into its own file");
});

test("a folder in the layout of earlier versions (every record in crm-knowledge.yaml, a dead push's records apart) is read as it is and moved by the next push", async () => {
  const { c, emu, a, dir, io } = await pulledThree();
  const names = [`billing-cycle-${a.n}`, `draft-notes-${a.n}`, `router-reset-${a.n}`];
  // The earlier layout: the records under `articles:` in the folder's record, the draft's in .crm-knowledge-pushed/ as a killed push left it.
  const records = Object.fromEntries(await Promise.all(names.map(async (name) => [name, JSON.parse(await readFile(path.join(dir, ".crm-knowledge", `${name}.json`), "utf8")) as unknown])));
  const older = yaml.load(await readFile(path.join(dir, "crm-knowledge.yaml"), "utf8")) as Record<string, unknown>;
  const { [names[1]!]: pushedRecord, ...inRecord } = records;
  await writeFile(path.join(dir, "crm-knowledge.yaml"), yaml.dump({ ...older, articles: inRecord }));
  await mkdir(path.join(dir, ".crm-knowledge-pushed"));
  await writeFile(path.join(dir, ".crm-knowledge-pushed", `${names[1]}.json`), JSON.stringify(pushedRecord));
  await rm(path.join(dir, ".crm-knowledge"), { recursive: true });

  const status = await knowledgeFolder.folderStatus(io, { crm: c });
  assert.deepEqual(status.articles.map((s) => [s.local, s.org]), [["unchanged", "unchanged"], ["unchanged", "unchanged"], ["unchanged", "unchanged"]], "read as it is");
  assert.deepEqual((await checkFolder(io)).findings, []);
  assert.ok(!(await readdir(dir)).includes(".crm-knowledge"), "reading writes nothing");

  const file = path.join(dir, names[2]!, "article.yaml");
  await writeFile(file, (await readFile(file, "utf8")).replace(/Summary: .*/, "Summary: Moved"));
  const since = emu.requests.length;
  assert.deepEqual((await knowledgeFolder.pushFolder(c, io)).map((r) => r.outcome), ["unchanged", "unchanged", "pushed"]);
  assert.deepEqual(writesOf(emu, since).map((w) => w.method), ["POST", "PATCH"], "one draft made from the published article and updated: the others are known as pulled");
  assert.deepEqual((await readdir(path.join(dir, ".crm-knowledge"))).sort(), names.map((n) => `${n}.json`), "every record in its own file");
  assert.doesNotMatch(await readFile(path.join(dir, "crm-knowledge.yaml"), "utf8"), /articles:/);
  assert.ok(!(await readdir(dir)).includes(".crm-knowledge-pushed"));
  assert.deepEqual((await knowledgeFolder.pushFolder(c, io)).map((r) => r.outcome), ["unchanged", "unchanged", "unchanged"]);
});

test("a folder whose records are YAML files (the layout before JSON) is read as it is; the next push writes every record as JSON and removes the YAML", async () => {
  const { c, a, dir, io } = await pulledThree();
  const names = [`billing-cycle-${a.n}`, `draft-notes-${a.n}`, `router-reset-${a.n}`];
  const records = path.join(dir, ".crm-knowledge");
  for (const name of names) {
    await writeFile(path.join(records, `${name}.yaml`), yaml.dump(JSON.parse(await readFile(path.join(records, `${name}.json`), "utf8")), { sortKeys: true }));
    await rm(path.join(records, `${name}.json`));
  }
  const status = await knowledgeFolder.folderStatus(io, { crm: c });
  assert.deepEqual(status.articles.map((s) => [s.local, s.org]), [["unchanged", "unchanged"], ["unchanged", "unchanged"], ["unchanged", "unchanged"]], "read as it is");
  assert.deepEqual((await checkFolder(io)).findings, []);
  assert.deepEqual((await readdir(records)).sort(), names.map((n) => `${n}.yaml`), "reading writes nothing");

  const file = path.join(dir, names[0]!, "article.yaml");
  await writeFile(file, (await readFile(file, "utf8")).replace(/Summary: .*/, "Summary: Moved on"));
  assert.deepEqual((await knowledgeFolder.pushFolder(c, io)).map((r) => r.outcome), ["pushed", "unchanged", "unchanged"], "the others are known as pulled");
  assert.deepEqual((await readdir(records)).sort(), names.map((n) => `${n}.json`), "every record moved, the pushed one's new");
  assert.deepEqual((await knowledgeFolder.pushFolder(c, io)).map((r) => r.outcome), ["unchanged", "unchanged", "unchanged"]);
});

test("conflicts: an article changed in the org since the pull is refused unless overwritten", async () => {
  const c = await crm();
  const emu = demo();
  const a = await threeArticles(c);
  const { dir, io } = await newFolder();
  await knowledgeFolder.pullArticles(c, io, { articleIds: [a.draft] });
  advanceClock(emu, 2000);
  await c.knowledge.updateArticle(a.draftId, { Summary: "Changed in the org" });
  assert.deepEqual((await knowledgeFolder.folderStatus(io, { crm: c })).articles.map((s) => [s.local, s.org, s.conflict]), [["unchanged", "changed", false]]);
  const file = path.join(dir, `draft-notes-${a.n}`, "article.yaml");
  await writeFile(file, (await readFile(file, "utf8")).replace("About Draft notes", "Changed locally"));
  assert.deepEqual((await knowledgeFolder.folderStatus(io, { crm: c })).articles.map((s) => [s.local, s.org, s.conflict]), [["modified", "changed", true]]);
  const plan = await knowledgeFolder.planPush(c, io);
  assert.equal(plan.entries[0]!.conflict, "changed in the org since the pull");
  const since = emu.requests.length;
  const [refused] = await knowledgeFolder.pushFolder(c, io, { plan });
  assert.equal(refused!.outcome, "conflict");
  assert.match(refused!.message!, /pull it again, or push with overwrite/);
  assert.equal(writesOf(emu, since).length, 0, "nothing written");
  assert.equal(emu.seeded.store.table("Knowledge__kav").get(a.draftId)!.Summary, "Changed in the org");
  const [overwritten] = await knowledgeFolder.pushFolder(c, io, { overwrite: [`draft-notes-${a.n}`] });
  assert.equal(overwritten!.outcome, "pushed");
  assert.equal(emu.seeded.store.table("Knowledge__kav").get(a.draftId)!.Summary, "Changed locally");
});

test("a push into an empty org recreates the articles with their images, categories and translations, confirmed once", async () => {
  const c = await crm();
  const a = await threeArticles(c);
  const { dir, io } = await newFolder();
  await knowledgeFolder.pullArticles(c, io, { articleIds: [a.router, a.draft, a.online] });
  // An unknown category is reported, not fatal.
  const yamlFile = path.join(dir, `billing-cycle-${a.n}`, "article.yaml");
  await writeFile(yamlFile, (await readFile(yamlFile, "utf8")).replace("dataCategories: []", "dataCategories:\n  - Products/Toasters"));
  const confirmations: PendingWrite[] = [];
  const target = await Crm.create(demoOptions(empty(), { beforeWrite: (w) => void confirmations.push(w) }));
  after(() => target.close());
  const plan = await knowledgeFolder.planPush(target, io);
  assert.equal(plan.sameOrg, false);
  assert.deepEqual(plan.entries.map((e) => [e.action, e.translations.map((t) => `${t.language}:${t.action}`)]), [["create", []], ["create", []], ["create", ["fr:submit"]]]);
  const results = await knowledgeFolder.pushFolder(target, io, { plan, publish: true });
  assert.deepEqual(results.map((r) => [r.outcome, r.published]), [["pushed", true], ["pushed", true], ["pushed", true]]);
  assert.deepEqual(results[0]!.warnings, ["data category 'Products/Toasters' is not in this org: not assigned"]);
  assert.equal(confirmations.length, 1, "the production guard is asked once for the whole push");
  assert.match(confirmations[0]!.summary!, /^push 3 knowledge articles from a folder \(3 new, 0 as drafts\), publishing/);

  const store = empty().seeded.store;
  const versions = store.liveRecords("Knowledge__kav");
  const router = versions.find((v) => v.Title === `Router reset ${a.n}`)!;
  assert.equal(router.PublishStatus, "Online");
  const refid = /refid=(\w+)/.exec(String(router.Answer__c))?.[1];
  assert.ok(refid, String(router.Answer__c));
  assert.deepEqual(store.images.get(refid)!.bytes, PNG, "the image uploaded again");
  assert.deepEqual(store.liveRecords("Knowledge__DataCategorySelection").filter((s) => s.ParentId === router.Id).map((s) => `${String(s.DataCategoryGroupName)}/${String(s.DataCategoryName)}`).sort(), ["Products/Home_Routers", "Regions/France"]);
  const fr = versions.find((v) => v.KnowledgeArticleId === router.KnowledgeArticleId && v.Language === "fr")!;
  assert.deepEqual([fr.Title, fr.Answer__c, fr.PublishStatus], [`Réinitialiser le routeur ${a.n}`, "<p>Maintenez le bouton.</p>", "Online"]);
  // The folder's record stays the pulled org's: the demo org still sees the folder unchanged.
  assert.deepEqual((await knowledgeFolder.folderStatus(io, { crm: c })).articles.map((s) => s.local), ["modified", "unchanged", "unchanged"]);
});

test("bad input: a folder of another org, a missing image, an image the org cannot take", async () => {
  const c = await crm();
  const a = await threeArticles(c);
  const { dir, io } = await newFolder();
  await knowledgeFolder.pullArticles(c, io, { articleIds: [a.router] });
  const other = await Crm.create(demoOptions(empty()));
  after(() => other.close());
  await assert.rejects(knowledgeFolder.pullArticles(other, io), /This folder holds articles pulled from .*: pull into another folder/);
  const folder = path.join(dir, `router-reset-${a.n}`);
  const [image] = await readdir(path.join(folder, "images"));
  await writeFile(path.join(folder, "images", image!), Buffer.alloc(1_100_000, 1));
  const [tooBig] = await knowledgeFolder.pushFolder(c, io);
  assert.equal(tooBig!.outcome, "failed");
  assert.match(tooBig!.message!, /images\/\w+\.png is 1\.0 MB: the org takes images of at most 1 MB|is 1\.\d MB/);
  await rm(path.join(folder, "images", image!));
  const [missing] = await knowledgeFolder.pushFolder(c, io);
  assert.match(missing!.message!, new RegExp(`router-reset-${a.n}/images/${image!.replace(".", "\\.")} is missing: the rich text shows it`));
  await assert.rejects(knowledgeFolder.planPush(c, io, { only: ["no-such-article"] }), /No article folder named 'no-such-article'/);
  assert.deepEqual((await c.knowledge.getVersionsOfArticle(a.router)).map((v) => v.PublishStatus), ["Online"], "the failed pushes made no draft");
  // A refusal part way (the draft made, its update refused): the draft this push made is deleted again.
  await writeFile(path.join(folder, "images", image!), PNG);
  const yaml = path.join(folder, "article.yaml");
  await writeFile(yaml, (await readFile(yaml, "utf8")).replace(/UrlName: .*/, "UrlName: not a url name!"));
  const [refused] = await knowledgeFolder.pushFolder(c, io);
  assert.equal(refused!.outcome, "failed");
  assert.match(refused!.message!, /URL Name: use only letters, numbers and hyphens/);
  assert.deepEqual((await c.knowledge.getVersionsOfArticle(a.router)).map((v) => v.PublishStatus), ["Online"], "the org as it was");
});

test("articles are written together; the one the org refuses fails alone and its draft is taken back, the others are pushed", async () => {
  const { c, emu, a, dir, io } = await pulledThree();
  const names = [`billing-cycle-${a.n}`, `draft-notes-${a.n}`, `router-reset-${a.n}`];
  for (const name of names) {
    const file = path.join(dir, name, "article.yaml");
    const edited = (await readFile(file, "utf8")).replace(/Summary: .*/, `Summary: Batch ${name}`);
    await writeFile(file, name === names[0] ? edited.replace(/UrlName: .*/, "UrlName: not a url name!") : edited);
  }
  const since = emu.requests.length;
  const results = await knowledgeFolder.pushFolder(c, io);
  assert.deepEqual(results.map((r) => r.outcome), ["failed", "pushed", "pushed"]);
  assert.match(results[0]!.message!, /URL Name: use only letters, numbers and hyphens/);
  assert.deepEqual(writesOf(emu, since).map((w) => `${w.method} ${w.path.replace(/.*\/services\/data\/v[\d.]+/, "").replace(/\/ka\w+$/, "/{id}")}`), [
    "POST /actions/standard/createDraftFromOnlineKnowledgeArticle", "PATCH /composite/sobjects", "DELETE /knowledgeManagement/articleVersions/masterVersions/{id}",
  ], "the two published articles' drafts made in one request, the three drafts written in one, the refused one's draft deleted");
  assert.deepEqual((await c.knowledge.getVersionsOfArticle(a.online)).map((v) => v.PublishStatus), ["Online"], "the refused article as it was");
  const drafts = emu.seeded.store.liveRecords("Knowledge__kav").filter((v) => v.PublishStatus === "Draft" && String(v.Summary).startsWith("Batch "));
  assert.deepEqual(drafts.map((v) => v.Summary).sort(), [`Batch ${names[1]}`, `Batch ${names[2]}`]);
  const status = await knowledgeFolder.folderStatus(io, { crm: c });
  assert.deepEqual(status.articles.map((s) => s.local), ["modified", "unchanged", "unchanged"], "the pushed two are recorded; the refused one is still to push");
});

test("a cancelled pull starts no new article, ends those under way, and leaves each folder whole and recorded", async () => {
  const c = await crm();
  const batch = ++n;
  for (let i = 0; i < 40; i++) await c.knowledge.createArticle({ Title: `Cancelled ${batch} ${i}`, UrlName: `cancelled-${batch}-${i}`, Summary: "To pull" });
  const { dir, io } = await newFolder();
  const controller = new AbortController();
  await assert.rejects(knowledgeFolder.pullArticles(c, io, { where: `UrlName LIKE 'cancelled-${batch}-%'` }, { signal: controller.signal, onProgress: (done) => done === 1 && controller.abort() }), { name: "AbortError" });
  const status = await knowledgeFolder.folderStatus(io);
  assert.ok(status.articles.length >= 1 && status.articles.length < 40, `some articles, not all: ${status.articles.length}`);
  assert.deepEqual(new Set(status.articles.map((s) => s.local)), new Set(["unchanged"]), "every folder it left is whole and recorded as pulled");
  assert.deepEqual((await readdir(path.join(dir, ".crm-knowledge"))).sort(), status.articles.map((s) => `${s.name}.json`).sort());
});

test("pull by data category takes the articles of the category and of those under it; an unknown one is named", async () => {
  const c = await crm();
  const a = await threeArticles(c);
  const { io } = await newFolder();
  const pulled = await knowledgeFolder.pullArticles(c, io, { dataCategory: { group: "Products", category: "Routers" } });
  assert.ok(pulled.some((p) => p.name === `router-reset-${a.n}`), "assigned Home_Routers, under Routers");
  assert.ok(!pulled.some((p) => p.name === `billing-cycle-${a.n}`));
  await assert.rejects(knowledgeFolder.pullArticles(c, io, { dataCategory: { group: "Products", category: "Toasters" } }), /The data category group 'Products' has no category named 'Toasters'/);
});

test("one publish gate: an article the folder check finds an error in is pushed as a draft and not published, whichever judge of rich text the surface has", async () => {
  for (const [surface, judge, said] of [
    ["crm-knowledge (DOMPurify over jsdom)", richTextRemovals, /not published: the check found draft-notes-\d+\/Answer__c\.html:1 Sanitizing removes the style attribute on <p>/],
    ["VS Code (no DOM)", plainOrUnjudged, /not published: the check found draft-notes-\d+\/Answer__c\.html Holds markup beyond plain elements and attributes, which only the full check can judge/],
  ] as const) {
    const { c, a, dir, io } = await pulledThree();
    await writeFile(path.join(dir, `billing-cycle-${a.n}`, "Answer__c.html"), "<p>Invoices go out <b>weekly</b>.</p>\n");
    await writeFile(path.join(dir, `draft-notes-${a.n}`, "Answer__c.html"), `<p style="color:red">Work done.</p>\n`);
    const results = await knowledgeFolder.pushFolder(c, io, { publish: true, check: { richTextRemovals: judge } });
    const byName = new Map(results.map((r) => [r.name.replace(/-\d+$/, ""), r]));
    assert.equal(byName.get("billing-cycle")?.published, true, `${surface}: the clean article is published`);
    const held = byName.get("draft-notes")!;
    assert.equal(held.outcome, "pushed", surface);
    assert.notEqual(held.published, true, `${surface}: the article with an error is not published`);
    assert.match(held.warnings.join("\n"), said, surface);
    const versions = (await c.queryAll<{ PublishStatus: string; Answer__c: string }>(`SELECT PublishStatus, Answer__c FROM Knowledge__kav WHERE KnowledgeArticleId = '${a.draft}'`)).records;
    assert.deepEqual(versions.map((v) => [v.PublishStatus, v.Answer__c]), [["Draft", `<p style="color:red">Work done.</p>`]], `${surface}: it waits as a draft for a person`);
  }
});

test("the check names a translation the pull recorded whose files are gone, and each language an article lacks, on the article's own file", async () => {
  const { a, dir, io } = await pulledThree();
  const router = `router-reset-${a.n}`;
  await rm(path.join(dir, router, "article.fr.yaml"));
  await rm(path.join(dir, router, "Answer__c.fr.html"));
  const translation = (await checkFolder(io, { languages: ["de"] })).findings.filter((f) => f.rule === "translation").map((f) => [f.article, f.file, f.message]);
  assert.deepEqual(translation, [
    [`billing-cycle-${a.n}`, `billing-cycle-${a.n}/article.yaml`, "No translation into de (every article is to be translated into de)."],
    [`draft-notes-${a.n}`, `draft-notes-${a.n}/article.yaml`, "No translation into de (every article is to be translated into de)."],
    [router, `${router}/article.yaml`, "No translation into de (every article is to be translated into de)."],
    [router, `${router}/article.yaml`, "The fr translation was pulled, and its files are gone from the folder: a push leaves it in the org as it is."],
  ]);
  assert.deepEqual((await checkFolder(io, { only: [router] })).findings.map((f) => f.article), [router], "only the articles asked about are reported");
});
