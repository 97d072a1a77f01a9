import { test } from "node:test";
import assert from "node:assert/strict";
import { APIRequestError, CrmError, MissingRequiredDataError, type Crm } from "../../../src/client";
import { isTranslationStale } from "../../../src/client";
import { useEmulator, demoClient, advanceClock } from "../../helpers/emulator";
import { DEMO_SITE_DOMAIN } from "../../../src/demo-org/seed";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));
let n = 0;
/** A new article published once: its article ID and its online version ID. */
async function publishedArticle(c: Crm, extra: Record<string, unknown> = {}) {
  n++;
  const id = await c.knowledge.createArticle({ Title: `Multilingual ${n}`, UrlName: `multilingual-${n}`, Summary: "In English", Answer__c: "<p>English body</p>", ...extra });
  await c.knowledge.publishArticle(id);
  return { versionId: id, articleId: String((await c.knowledge.getArticleDetails(id)).KnowledgeArticleId) };
}

test("knowledge settings name the master language and which languages are active", async () => {
  const settings = await (await crm()).knowledge.getKnowledgeSettings();
  assert.equal(settings.defaultLanguage, "en_US");
  assert.equal(settings.knowledgeEnabled, true);
  assert.deepEqual(settings.languages.filter((l) => l.active).map((l) => l.name), ["en_US", "fr", "de"]);
  assert.equal(settings.languages.find((l) => l.name === "es")?.active, false);
});

test("submit for translation: a French draft copied from the published master; the org's rules refuse the rest", async () => {
  const c = await crm();
  const { versionId, articleId } = await publishedArticle(c);
  const [fr] = await c.knowledge.submitForTranslation(articleId, "fr");
  assert.ok(fr);
  assert.deepEqual([fr.Language, fr.PublishStatus, fr.MasterVersionId?.slice(0, 15), fr.Title], ["fr", "Draft", versionId.slice(0, 15), "Multilingual 1"]);
  // The master's own lists do not change: the translation is a row of its own language.
  assert.equal((await c.knowledge.getVersionsOfArticle(articleId)).length, 1, "the article's own versions are its master language's");
  assert.deepEqual((await c.knowledge.getTranslations(articleId)).map((t) => t.Language), ["fr"]);
  const refusal = (code: string, pattern: RegExp) => (e: unknown) => e instanceof APIRequestError && e.errorCode === code && pattern.test(e.message);
  await assert.rejects(c.knowledge.submitForTranslation(articleId, "fr"), refusal("INVALID_OPERATION", /already exists/));
  await assert.rejects(c.knowledge.submitForTranslation(articleId, "es"), refusal("INVALID_LANGUAGE", /language settings/));
  await assert.rejects(c.knowledge.submitForTranslation(articleId, "en_US"), refusal("INVALID_LANGUAGE", /master language/));
  await assert.rejects(c.knowledge.submitForTranslation(articleId, "xx"), refusal("INVALID_LANGUAGE", /not valid/));
  // Bad input is named before anything is sent.
  await assert.rejects(c.knowledge.submitForTranslation(articleId, []), (e: unknown) => e instanceof MissingRequiredDataError && e.parameter === "languages");
  await assert.rejects(c.knowledge.submitForTranslation(articleId, ["French"]), /languages\[0\] must be a language code/);
  // Several languages at once, with an assignee (the v43+ assignments).
  const drafts = await c.knowledge.submitForTranslation(articleId, [{ language: "de", assigneeId: c.userId! }]);
  assert.deepEqual(drafts.map((d) => [d.Language, d.AssignedToId?.slice(0, 15)]), [["de", c.userId!.slice(0, 15)]]);
});

test("a translation draft is edited like any draft, published with the action, and becomes stale when the master is published again", async () => {
  const c = await crm();
  const { versionId, articleId } = await publishedArticle(c);
  const [fr] = await c.knowledge.submitForTranslation(articleId, "fr");
  await c.knowledge.updateArticle(fr!.Id, { Title: "Multilingue", Answer__c: "<p>Corps français</p>" });
  await c.knowledge.publishTranslation(fr!.Id);
  let [online] = await c.knowledge.getTranslations(articleId);
  assert.deepEqual([online!.PublishStatus, online!.Title], ["Online", "Multilingue"]);
  const master = async () => (await c.knowledge.getVersionsOfArticle(articleId)).find((v) => v.PublishStatus === "Online");
  assert.equal(isTranslationStale(online!, await master()), false);
  // Publishing the master again, a minute later: the translation is now older than the master's last publication.
  advanceClock(emu(), 60_000);
  await c.knowledge.createDraftFromOnlineArticle(articleId);
  const masterDraft = (await c.knowledge.getVersionsOfArticle(articleId)).find((v) => v.PublishStatus === "Draft")!;
  await c.knowledge.updateArticle(masterDraft.Id, { Answer__c: "<p>English body, revised</p>" });
  await c.knowledge.publishArticle(masterDraft.Id);
  [online] = await c.knowledge.getTranslations(articleId);
  assert.equal(isTranslationStale(online!, await master()), true);
  // The master version it was translated from is kept (archived) for the compare of what changed since.
  const since = await c.knowledge.compareVersions(versionId, masterDraft.Id);
  assert.deepEqual(since.fields.filter((f) => !f.same).map((f) => f.name), ["Answer__c"]);
  assert.equal(since.fields.find((f) => f.name === "Answer__c")?.richText, true);
  // Editing the published translation: a draft copy, kept online; publishing it replaces (archives) the old one.
  const draftId = await c.knowledge.createDraftFromOnlineTranslation(online!.Id);
  assert.notEqual(draftId.slice(0, 15), online!.Id.slice(0, 15));
  await c.knowledge.updateArticle(draftId, { Answer__c: "<p>Corps français, révisé</p>" });
  await c.knowledge.publishTranslation(draftId);
  const after = await c.knowledge.getTranslations(articleId);
  assert.deepEqual(after.map((t) => t.PublishStatus).sort(), ["Archived", "Online"]);
  assert.equal(isTranslationStale(after.find((t) => t.PublishStatus === "Online")!, await master()), false);
});

test("what the org refuses: publishing a translation before its master, a master through the translation action, deleting a published translation", async () => {
  const c = await crm();
  n++;
  const draft = await c.knowledge.createArticle({ Title: `Unpublished master ${n}`, UrlName: `unpublished-master-${n}` });
  const articleId = String((await c.knowledge.getArticleDetails(draft)).KnowledgeArticleId);
  const [de] = await c.knowledge.submitForTranslation(articleId, "de");
  await assert.rejects(c.knowledge.publishTranslation(de!.Id), (e: unknown) => e instanceof CrmError && /Publish the master article before its translations/.test(e.message));
  const [result] = await c.knowledge.publishTranslations([draft]);
  assert.equal(result!.isSuccess, false, "a master version is not published as a translation");
  await c.knowledge.publishArticle(draft);
  await c.knowledge.publishTranslation(de!.Id);
  await assert.rejects(c.knowledge.deleteTranslation(de!.Id), (e: unknown) => e instanceof APIRequestError && /Unpublish it first/.test(e.message));
  // Unpublish, then delete: the translation is gone, the master stays.
  await c.knowledge.unpublishTranslation(de!.Id);
  assert.equal((await c.knowledge.getTranslations(articleId))[0]?.PublishStatus, "Draft");
  await c.knowledge.setTranslationComplete(de!.Id, true);
  await c.knowledge.deleteTranslation(de!.Id);
  assert.deepEqual(await c.knowledge.getTranslations(articleId), []);
  assert.equal((await c.knowledge.getArticleDetails(draft)).PublishStatus, "Online");
});

test("archiving an article archives its published translations with it", async () => {
  const c = await crm();
  const { versionId, articleId } = await publishedArticle(c);
  const [fr] = await c.knowledge.submitForTranslation(articleId, "fr");
  await c.knowledge.publishTranslation(fr!.Id);
  await c.knowledge.archiveArticle(versionId);
  assert.equal((await c.knowledge.getTranslations(articleId))[0]?.PublishStatus, "Archived");
});

test("pre-flight: one report per version — required and rich-text fields, links to unpublished articles, broken images, URL name clashes", async () => {
  const c = await crm();
  const target = await publishedArticle(c);
  n++;
  const unpublished = await c.knowledge.createArticle({ Title: `Not yet ${n}`, UrlName: `not-yet-${n}` });
  n++;
  const good = await c.knowledge.createArticle({ Title: `Ready ${n}`, UrlName: `ready-${n}`, Summary: "s", ValidationStatus: "Validated", Answer__c: `<p>See <a href="/lightning/articles/Knowledge/multilingual-${n - 2}">this</a>.</p>` });
  n++;
  const bad = await c.knowledge.createArticle({
    Title: `Not ready ${n}`, UrlName: `not-ready-${n}`,
    Answer__c: `<p><a href="/s/article/not-yet-${n - 2}">link</a> <a href="/lightning/r/Knowledge__kav/${unpublished}/view">by ID</a></p><p><img src="https://${new URL(emu().url).host}/servlet/rtaImage?eid=${unpublished.slice(0, 15)}&amp;feoid=00N000000000001&amp;refid=0EM000000000001"></p>`,
  });
  n++;
  const empty = await c.knowledge.createArticle({ Title: `Empty ${n}`, UrlName: `empty-${n}`, Summary: "s" });
  // An archived article of another master that still holds a URL name (as orgs allow across articles' old versions).
  emu().seeded.store.insert("Knowledge__kav", { KnowledgeArticleId: target.articleId.replace(/.$/, "Z"), Title: "Old", UrlName: `empty-${n}`, Language: "en_US", PublishStatus: "Archived", IsMasterLanguage: true }, c.userId!);

  const reports = await c.knowledge.preflightPublish([good, bad, empty], { requiredFields: ["Summary"] });
  assert.deepEqual(reports.map((r) => [r.id.slice(0, 15), r.passed]), [[good.slice(0, 15), true], [bad.slice(0, 15), false], [empty.slice(0, 15), false]]);
  assert.deepEqual(reports[0]!.problems, []);
  const checks = (i: number) => reports[i]!.problems.map((p) => `${p.severity}:${p.check}`).sort();
  assert.deepEqual(checks(1), ["error:image", "error:link", "error:link", "error:required", "warning:validation"]);
  assert.match(reports[1]!.problems.find((p) => p.check === "required")!.message, /Summary is required and empty/);
  assert.deepEqual(checks(2), ["error:urlName", "warning:richText", "warning:validation"]);
  // Without the team's required Summary, the second version's only errors are its links and image.
  const relaxed = await c.knowledge.preflightPublish([bad]);
  assert.equal(relaxed[0]!.problems.some((p) => p.check === "required"), false);
  await assert.rejects(c.knowledge.preflightPublish([]), MissingRequiredDataError);
});

test("pre-flight: only links to this org are article links — its instance, its My Domain, its sites; another site's /articles/ path is not", async () => {
  const c = await crm();
  n++;
  const missing = `nowhere-${n}`;
  const instance = new URL(emu().url).host;
  const hrefs = [
    `https://help.example.com/articles/2771`,
    `https://docs.other.example/s/article/${missing}`,
    `https://${instance}/articles/Knowledge/${missing}`,
    `https://${DEMO_SITE_DOMAIN}/s/article/${missing}-site`,
  ];
  const draft = await c.knowledge.createArticle({ Title: `Links ${n}`, UrlName: `links-${n}`, Summary: "s", ValidationStatus: "Validated", Answer__c: hrefs.map((h) => `<p><a href="${h}">x</a></p>`).join("") });
  const [report] = await c.knowledge.preflightPublish([draft]);
  assert.deepEqual(report!.problems.map((p) => p.message), [
    `The body links to '${missing}', which is not a published article.`,
    `The body links to '${missing}-site', which is not a published article.`,
  ], "links to other sites are left alone; links to the org's instance and its site's custom domain are checked");
});
