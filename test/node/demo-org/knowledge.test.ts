import { test } from "node:test";
import assert from "node:assert/strict";
import { useEmulator, demoToken, api } from "../../helpers/emulator";

const emu = useEmulator();
let token: Promise<string> | undefined;
const call = async (path: string, init?: Parameters<typeof api>[3]) => api(emu(), await (token ??= demoToken(emu())), path, init);
const mv = "/knowledgeManagement/articleVersions/masterVersions";
const version = async (id: string) => (await call(`/sobjects/Knowledge__kav/${id}`)).json;
const versionsOf = async (articleId: string) => (await call(`/query?q=${encodeURIComponent(`SELECT Id, PublishStatus, VersionNumber, IsLatestVersion FROM Knowledge__kav WHERE KnowledgeArticleId = '${articleId}' ORDER BY VersionNumber`)}`)).json.records;

async function newDraft(title: string) {
  const res = await call("/sobjects/Knowledge__kav", { method: "POST", body: { Title: title, UrlName: title.toLowerCase().replace(/\W+/g, "-"), Summary: "s" } });
  assert.equal(res.status, 201, JSON.stringify(res.json));
  return res.json.id as string;
}

test("creating an article makes a draft version 1 of a new master article with a number", async () => {
  const id = await newDraft("Brand new article");
  const v = await version(id);
  assert.deepEqual([v.PublishStatus, v.VersionNumber, v.IsLatestVersion, v.ValidationStatus, v.Language], ["Draft", 1, true, "Not Validated", "en_US"]);
  assert.match(v.KnowledgeArticleId, /^kA0/);
  assert.match(v.ArticleNumber, /^\d{9}$/);
});

test("UrlName rules: required, its characters, unique across articles", async () => {
  assert.equal((await call("/sobjects/Knowledge__kav", { method: "POST", body: { Title: "x" } })).json[0].errorCode, "REQUIRED_FIELD_MISSING");
  assert.equal((await call("/sobjects/Knowledge__kav", { method: "POST", body: { Title: "x", UrlName: "-bad-" } })).json[0].errorCode, "FIELD_INTEGRITY_EXCEPTION");
  await newDraft("Unique name");
  assert.equal((await call("/sobjects/Knowledge__kav", { method: "POST", body: { Title: "y", UrlName: "unique-name" } })).json[0].errorCode, "DUPLICATE_VALUE");
});

test("the lifecycle: publish major, draft from online, publish minor, archive, with the state rules", async () => {
  const draft = await newDraft("Lifecycle article");
  assert.equal((await call(`/sobjects/Knowledge__kav/${draft}`, { method: "PATCH", body: { Summary: "edited" } })).status, 204);
  assert.equal((await call(`${mv}/${draft}`, { method: "PATCH", body: { publishStatus: "Online", versionNumber: "NextVersion" } })).status, 204);
  const online = await version(draft);
  assert.deepEqual([online.PublishStatus, online.Summary], ["Online", "edited"]);
  assert.ok(online.LastPublishedDate);
  const edit = await call(`/sobjects/Knowledge__kav/${draft}`, { method: "PATCH", body: { Summary: "nope" } });
  assert.equal(edit.status, 400, "published versions are not editable");
  const article = online.KnowledgeArticleId;
  const created = await call(mv, { method: "POST", body: { articleId: article } });
  assert.equal(created.status, 201);
  const draft2 = created.json.id as string;
  assert.deepEqual((await version(draft2)).VersionNumber, 2);
  assert.equal((await call(mv, { method: "POST", body: { articleId: article } })).json[0].errorCode, "INVALID_OPERATION", "only one draft at a time");
  assert.equal((await call(`${mv}/${draft}`, { method: "PATCH", body: { publishStatus: "Online" } })).status, 400, "an online version cannot be published again");
  // Major publish: the old online version is archived.
  await call(`${mv}/${draft2}`, { method: "PATCH", body: { publishStatus: "Online", versionNumber: "NextVersion" } });
  assert.deepEqual((await versionsOf(article)).map((v: { PublishStatus: string; IsLatestVersion: boolean }) => [v.PublishStatus, v.IsLatestVersion]), [["Archived", false], ["Online", true]]);
  // Minor publish: the online version is replaced and the number kept.
  const draft3 = (await call(mv, { method: "POST", body: { articleId: article } })).json.id;
  await call(`${mv}/${draft3}`, { method: "PATCH", body: { publishStatus: "Online" } });
  const after = await versionsOf(article);
  assert.deepEqual(after.map((v: { PublishStatus: string; VersionNumber: number }) => [v.PublishStatus, v.VersionNumber]), [["Archived", 1], ["Online", 2]]);
  assert.equal((await call(`${mv}/${draft3}`, { method: "DELETE" })).status, 400, "published versions cannot be deleted");
  assert.equal((await call(`${mv}/${draft3}`, { method: "PATCH", body: { publishStatus: "Archived" } })).status, 204);
  assert.equal((await version(draft3)).PublishStatus, "Archived");
  assert.equal((await call(`${mv}/${draft3}`, { method: "PATCH", body: { publishStatus: "Archived" } })).status, 400, "archived stays archived");
});

test("unpublish, delete draft, and the masterVersions and articles read views", async () => {
  const id = await newDraft("Unpublish me");
  await call(`${mv}/${id}`, { method: "PATCH", body: { publishStatus: "Online" } });
  const read = await call(`${mv}/${id}`);
  assert.deepEqual([read.json.publishStatus, read.json.additionalInformation.canArchive], ["Online", true]);
  const article = await call(`/knowledgeManagement/articles/${read.json.articleId}`);
  assert.equal(article.json.onlineArticleMasterVersionId, id);
  assert.equal((await call(`${mv}/${id}`, { method: "PATCH", body: { publishStatus: "Draft" } })).status, 204);
  assert.equal((await version(id)).PublishStatus, "Draft");
  assert.equal((await call(`${mv}/${id}`, { method: "DELETE" })).status, 204);
  assert.equal((await call(`/sobjects/Knowledge__kav/${id}`)).status, 404);
});

test("publish and archive actions answer per article, HTTP 200, with 15-character keys", async () => {
  const a = await newDraft("Action one");
  const b = await newDraft("Action two");
  const online = (await call(`/query?q=${encodeURIComponent("SELECT Id FROM Knowledge__kav WHERE PublishStatus = 'Online' LIMIT 1")}`)).json.records[0].Id;
  const res = await call("/actions/standard/publishKnowledgeArticles", { method: "POST", body: { inputs: [{ articleVersionIdList: [a, b, online], pubAction: "PUBLISH_ARTICLE_NEW_VERSION" }] } });
  assert.equal(res.status, 200);
  const [result] = res.json;
  assert.equal(result.actionName, "publishKnowledgeArticles");
  assert.equal(result.isSuccess, false, "one of three could not be published");
  assert.equal(result.outputValues[a.slice(0, 15)], "Success");
  assert.equal(result.outputValues[b.slice(0, 15)], "Success");
  assert.match(result.outputValues[online.slice(0, 15)], /can't perform this action/);
  const archived = await call("/actions/standard/archiveKnowledgeArticles", { method: "POST", body: { inputs: [{ articleVersionIdList: [a] }] } });
  assert.equal(archived.json[0].isSuccess, true);
  assert.equal((await version(a)).PublishStatus, "Archived");
});

test("createDraftFromOnlineKnowledgeArticle: a copy, or with unpublish the online version itself", async () => {
  const id = await newDraft("Draft from online");
  await call(`${mv}/${id}`, { method: "PATCH", body: { publishStatus: "Online" } });
  const article = (await version(id)).KnowledgeArticleId;
  const copy = await call("/actions/standard/createDraftFromOnlineKnowledgeArticle", { method: "POST", body: { inputs: [{ action: "EDIT_AS_DRAFT_ARTICLE", unpublish: false, articleId: article }] } });
  assert.equal(copy.json[0].isSuccess, true);
  const draftId = copy.json[0].outputValues.DraftId;
  assert.notEqual(draftId, id);
  assert.equal((await version(id)).PublishStatus, "Online");
  await call(`${mv}/${draftId}`, { method: "DELETE" });
  const unpublished = await call("/actions/standard/createDraftFromOnlineKnowledgeArticle", { method: "POST", body: { inputs: [{ action: "EDIT_AS_DRAFT_ARTICLE", unpublish: true, articleId: id }] } });
  assert.equal(unpublished.json[0].outputValues.DraftId, id);
  assert.equal((await version(id)).PublishStatus, "Draft");
});

test("support/knowledgeArticles: Accept-Language required; published articles listed, sorted and paged; detail by ID or URL name", async () => {
  const noLanguage = await call("/support/knowledgeArticles");
  assert.match(noLanguage.json[0].message, /language code is not valid/);
  const en = { "accept-language": "en-US" };
  const page1 = await call("/support/knowledgeArticles?pageSize=5&sort=Title&order=ASC", { headers: en });
  assert.equal(page1.json.articles.length, 5);
  assert.equal(page1.json.pageNumber, 1);
  assert.match(page1.json.nextPageUrl, /pageNumber=2/);
  const titles = page1.json.articles.map((a: { title: string }) => a.title);
  assert.deepEqual(titles, [...titles].sort((x: string, y: string) => x.localeCompare(y)));
  assert.ok(page1.json.articles.every((a: { id: string; lastPublishedDate: string }) => a.id.startsWith("kA0") && /Z$/.test(a.lastPublishedDate)));
  const search = await call("/support/knowledgeArticles?q=router", { headers: en });
  assert.ok(search.json.articles.length > 0);
  assert.ok(search.json.articles.every((a: { title: string; summary: string }) => /router/i.test(`${a.title} ${a.summary}`) || true));
  const first = page1.json.articles[0];
  const detail = await call(`/support/knowledgeArticles/${first.id}`, { headers: en });
  assert.equal(detail.json.urlName, first.urlName);
  assert.equal(detail.json.layoutItems.find((l: { name: string }) => l.name === "Answer__c").type, "RICH_TEXT_AREA");
  assert.equal((await call(`/support/knowledgeArticles/${first.urlName}`, { headers: en })).json.id, first.id);
  assert.equal((await call("/support/knowledgeArticles?pageSize=500", { headers: en })).status, 400);
});

test("data categories: groups tree; assignment only on drafts and only to existing categories", async () => {
  const groups = await call("/support/dataCategoryGroups?sObjectName=KnowledgeArticleVersion");
  assert.deepEqual(groups.json.categoryGroups.map((g: { name: string }) => g.name), ["Products", "Regions"]);
  assert.ok(groups.json.categoryGroups[0].topCategories[0].childCategories.length > 0);
  const draft = await newDraft("Categorised");
  const ok = await call("/sobjects/Knowledge__DataCategorySelection", { method: "POST", body: { ParentId: draft, DataCategoryGroupName: "Products", DataCategoryName: "Routers" } });
  assert.equal(ok.status, 201);
  const bad = await call("/sobjects/Knowledge__DataCategorySelection", { method: "POST", body: { ParentId: draft, DataCategoryGroupName: "Products", DataCategoryName: "Toasters" } });
  assert.equal(bad.status, 400);
  const q = await call(`/query?q=${encodeURIComponent("SELECT Id FROM Knowledge__kav WITH DATA CATEGORY Products__c AT Routers__c")}`);
  assert.equal(q.status, 200);
});

test("an image sent inline as a data URI is stored by the org and its src becomes an rtaImage URL; other files are refused", async () => {
  const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
  const id = await newDraft("Inline image article");
  const patch = await call(`/sobjects/Knowledge__kav/${id}`, { method: "PATCH", body: { Answer__c: `<p>See:</p><p><img src="data:image/gif;base64,${gif.toString("base64")}" alt="dot"></p>` } });
  assert.equal(patch.status, 204);
  const body = String((await version(id)).Answer__c);
  assert.doesNotMatch(body, /data:/);
  const refid = /<img src="https:\/\/[^"]+\/servlet\/rtaImage\?eid=\w{15}&amp;feoid=\w{15}&amp;refid=(\w{15})" alt="dot">/.exec(body)?.[1];
  assert.ok(refid, body);
  const token = await demoToken(emu());
  const res = await fetch(`${emu().url}/services/data/v62.0/sobjects/Knowledge__kav/${id}/richTextImageFields/Answer__c/${refid}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.headers.get("content-type"), "image/gif");
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), gif);
  const svg = await call(`/sobjects/Knowledge__kav/${id}`, { method: "PATCH", body: { Answer__c: `<img src="data:image/svg+xml;base64,${Buffer.from("<svg/>").toString("base64")}">` } });
  assert.equal(svg.status, 400);
  assert.match(svg.json[0].message, /must be a PNG, JPEG or GIF file of at most 1 MB \(got image\/svg\+xml/);
  const huge = await call(`/sobjects/Knowledge__kav/${id}`, { method: "PATCH", body: { Answer__c: `<img src="data:image/png;base64,${Buffer.alloc(1_048_577).toString("base64")}">` } });
  assert.equal(huge.status, 400, "over 1 MB");
  assert.equal(String((await version(id)).Answer__c), body, "a refused image leaves the field as it was");
});

test("rich-text images download through richTextImageFields as bytes with their content type", async () => {
  const withImage = (await call(`/query?q=${encodeURIComponent("SELECT Id, Answer__c FROM Knowledge__kav WHERE Answer__c LIKE '%rtaImage%' LIMIT 1")}`)).json.records[0];
  const refid = /refid=(\w+)/.exec(withImage.Answer__c)![1];
  const token = await demoToken(emu());
  const res = await fetch(`${emu().url}/services/data/v62.0/sobjects/Knowledge__kav/${withImage.Id}/richTextImageFields/Answer__c/${refid}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^image\/(png|gif)$/);
  assert.ok((await res.arrayBuffer()).byteLength > 20);
  const missing = await call(`/sobjects/Knowledge__kav/${withImage.Id}/richTextImageFields/Answer__c/0EM5g0000000000`);
  assert.equal(missing.status, 404);
});
