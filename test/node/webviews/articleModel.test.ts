import { test } from "node:test";
import assert from "node:assert/strict";
import { parseArticleRequest, parseArticleUpdate } from "../../../src/webviews/protocol/article";
import { richTextImageUrls } from "../../../src/client/urls";
import { readArticleDetails } from "../../../src/webviews/articleModel";
import { HOSTILE_BODIES } from "../../../src/demo-org";
import { sentDuring, sequentialRounds, useEmulator } from "../../helpers/emulator";
import { managerWithDemoOrg } from "../fakes";

const emu = useEmulator();
const versions = () => emu().seeded.store.liveRecords("Knowledge__kav");

test("article details: facts, every version of the article, data categories, the body as stored", async () => {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const session = await manager.session(org.key);
  // An article with a published version and a newer draft.
  const draft = versions().find((v) => v.PublishStatus === "Draft" && versions().some((o) => o.KnowledgeArticleId === v.KnowledgeArticleId && o.PublishStatus === "Online"))!;
  const seeded = await session.crm.knowledge.getDataCategorySelections(String(draft.Id));
  await session.crm.knowledge.assignDataCategory(String(draft.Id), "Products", "Routers");
  const view = await readArticleDetails(session, String(draft.Id), "Knowledge__kav");
  assert.deepEqual([view.id, view.title, view.articleNumber, view.publishStatus, view.versionNumber], [draft.Id, draft.Title, draft.ArticleNumber, "Draft", draft.VersionNumber]);
  assert.deepEqual(view.versions.map((v) => v.publishStatus), ["Draft", "Online"], "newest version first");
  assert.deepEqual(view.dataCategories, [...seeded, { group: "Products", category: "Routers" }]);
  assert.ok(view.dates.some((d) => d.label === "Created"));
  assert.deepEqual(view.richText.map((r) => [r.field, r.html]), [["Answer__c", draft.Answer__c]]);
  assert.ok(parseArticleUpdate({ type: "article", article: view }), "what the host sends passes the webview's own check");
  manager.dispose();
});

test("body images are fetched through the client and inlined as data: URIs; hostile bodies reach the webview unchanged for it to sanitize", async () => {
  const { manager, org, secrets } = await managerWithDemoOrg(emu().credentials);
  const session = await manager.session(org.key);
  const withImage = versions().find((v) => /rtaImage/.test(String(v.Answer__c)))!;
  const urls = richTextImageUrls(String(withImage.Answer__c));
  assert.equal(urls.length, 1);
  const view = await readArticleDetails(session, String(withImage.Id), "Knowledge__kav");
  const html = view.richText[0]!.html;
  assert.ok(!html.includes("rtaImage"), "no image URL left for the webview to request");
  assert.match(html, /<img src="data:image\/(png|gif);base64,[A-Za-z0-9+/=]+"/);
  assert.equal(emu().requests.filter((r) => r.path.includes("/richTextImageFields/Answer__c/")).length, 1, "one API call per image");
  for (const secret of secrets) assert.ok(!JSON.stringify(view).includes(secret));

  const hostile = versions().find((v) => v.Answer__c === HOSTILE_BODIES[1])!;
  const hostileView = await readArticleDetails(session, String(hostile.Id), "Knowledge__kav");
  assert.equal(hostileView.richText[0]!.html, HOSTILE_BODIES[1], "an image that is not the org's is left for the sanitizer and the CSP");
  manager.dispose();
});

test("article panel requests are validated: known actions only, record IDs only", () => {
  assert.deepEqual(parseArticleRequest({ type: "action", action: "publish" }), { type: "action", action: "publish" });
  assert.equal(parseArticleRequest({ type: "action", action: "delete" }), undefined);
  assert.deepEqual(parseArticleRequest({ type: "openVersion", id: "ka0000000000001AAA" }), { type: "openVersion", id: "ka0000000000001AAA" });
  for (const id of ["../../sobjects/User", "ka0 OR 1=1", 42]) assert.equal(parseArticleRequest({ type: "openVersion", id }), undefined);
  assert.equal(parseArticleUpdate({ type: "article", article: { id: "x" } }), undefined);
});


test("Article Details with two images reads in three round trips one after another: the images with the versions, not after them", async () => {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const session = await manager.session(org.key);
  await session.schema.describe("Knowledge__kav"); // a describe already held, as once the Knowledge view has been open
  const withImage = versions().find((v) => /rtaImage/.test(String(v.Answer__c)))!;
  const twoImages = await session.crm.knowledge.createArticle({ Title: "Two images", UrlName: "two-images-rounds", Answer__c: `${String(withImage.Answer__c)}<p><img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=" alt="b"></p>` });
  const sent = await sentDuring(emu(), async () => {
    const view = await readArticleDetails(session, twoImages, "Knowledge__kav");
    assert.equal((view.richText[0]!.html.match(/data:image\//g) ?? []).length, 2);
  }, 40);
  assert.equal(sent.filter((r) => r.path.includes("/richTextImageFields/")).length, 2);
  // Record, categories, knowledge languages | versions, both images, translations (the demo org is multilingual).
  assert.equal(sequentialRounds(sent), 2, sent.map((r) => r.path).join("\n"));
  manager.dispose();
});
