import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm, knowledge, CrmError, DataMismatchError, MissingRequiredDataError, APIRequestError } from "../../../src/client";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));
let n = 0;
const newArticle = async (c: Crm, extra: Record<string, unknown> = {}) => {
  n++;
  return (await c.knowledge.createArticle({ Title: `Client article ${n}`, UrlName: `client-article-${n}`, Summary: "A summary", ...extra })) as string;
};
const status = async (c: Crm, id: string) => (await c.knowledge.getArticleDetails(id)).PublishStatus;

test("createArticle returns the draft ID (or the response); required fields and types are checked first", async () => {
  const c = await crm();
  const id = await newArticle(c);
  assert.match(id, /^ka0\w{15}$/);
  assert.equal(await status(c, id), "Draft");
  const full = (await c.knowledge.createArticle({ Title: "Full", UrlName: "full-response" }, { fullResponse: true })) as { success: boolean };
  assert.equal(full.success, true);
  await assert.rejects(c.knowledge.createArticle({ Title: "No URL" }), (e: unknown) => e instanceof MissingRequiredDataError && e.parameter === "UrlName");
  await assert.rejects(c.knowledge.createArticle("text" as never), TypeError);
  await assert.rejects(c.knowledge.createArticle({ Title: "Bad", UrlName: "-bad-" }), (e: unknown) => e instanceof APIRequestError && e.errorCode === "FIELD_INTEGRITY_EXCEPTION");
});

test("updateArticle takes any subset of fields; includeStatusCode gives [ok, status]", async () => {
  const c = await crm();
  const id = await newArticle(c);
  assert.equal(await c.knowledge.updateArticle(id, { Summary: "Only the summary" }), true);
  assert.deepEqual(await c.knowledge.updateArticle(id, { ValidationStatus: "Validated" }, { includeStatusCode: true }), [true, 204]);
  assert.equal(await c.knowledge.getValidationStatus({ articleId: id }), "Validated");
  await assert.rejects(c.knowledge.updateArticle(id, {}), MissingRequiredDataError);
});

test("publishArticle (major and minor), archiveArticle, and the illegal transitions surface the org's error", async () => {
  const c = await crm();
  const id = await newArticle(c);
  assert.equal(await c.knowledge.publishArticle(id), true);
  assert.equal(await status(c, id), "Online");
  await assert.rejects(c.knowledge.publishArticle(id), (e: unknown) => e instanceof APIRequestError && /can't perform this action/.test(e.message));
  const draft = (await c.knowledge.createDraftFromMasterVersion({ articleId: id })) as string;
  const minor = await c.knowledge.publishArticle(draft, { majorVersion: false, fullResponse: true });
  assert.equal((minor as { status: number }).status, 204);
  const sent = JSON.parse(emu().requests.filter((r) => r.method === "PATCH").at(-1)!.body);
  assert.deepEqual(sent, { publishStatus: "Online" }, "a minor version sends no versionNumber");
  assert.equal((await c.knowledge.archiveArticle(draft)).status, 204);
  assert.equal(await status(c, draft), "Archived");
});

test("createDraftFromMasterVersion finds the KnowledgeArticleId from a version ID, details, or takes it as given", async () => {
  const c = await crm();
  const id = await newArticle(c);
  await c.knowledge.publishArticle(id);
  const details = await c.knowledge.getArticleDetails(id);
  const draft = (await c.knowledge.createDraftFromMasterVersion({ articleData: details })) as string;
  assert.equal(await status(c, draft), "Draft");
  await c.knowledge.deleteArticleDraft(draft);
  const again = (await c.knowledge.createDraftFromMasterVersion({ knowledgeArticleId: details.KnowledgeArticleId as string, fullResponse: true })) as { id: string; publishStatus: string };
  assert.equal(again.publishStatus, "Draft");
  await assert.rejects(c.knowledge.createDraftFromMasterVersion({}), MissingRequiredDataError);
});

test("createDraftFromOnlineArticle keeps the online version, or unpublishes it; failures raise with the org's reason", async () => {
  const c = await crm();
  const id = await newArticle(c);
  await c.knowledge.publishArticle(id);
  const master = (await c.knowledge.getArticleDetails(id)).KnowledgeArticleId as string;
  const [result] = await c.knowledge.createDraftFromOnlineArticle(master);
  assert.equal(result!.isSuccess, true);
  assert.equal(await status(c, id), "Online");
  await assert.rejects(c.knowledge.createDraftFromOnlineArticle(master), (e: unknown) => e instanceof CrmError && /draft version of this article already exists/.test((e as Error).message));
  await c.knowledge.deleteArticleDraft(String(result!.outputValues.DraftId));
  await c.knowledge.createDraftFromOnlineArticle(id, { unpublish: true });
  assert.equal(await status(c, id), "Draft");
});

test("publishMultipleArticles reports per article and does not raise for a partial failure", async () => {
  const c = await crm();
  const a = await newArticle(c);
  const b = await newArticle(c);
  const online = (await c.soqlQuery<{ Id: string }>("SELECT Id FROM Knowledge__kav WHERE PublishStatus = 'Online' LIMIT 1")).records[0]!.Id;
  const [result] = await c.knowledge.publishMultipleArticles([a, b, online]);
  assert.equal(result!.outputValues[a.slice(0, 15)], "Success");
  assert.equal(result!.outputValues[b.slice(0, 15)], "Success");
  assert.match(String(result!.outputValues[online.slice(0, 15)]), /can't perform this action/);
  assert.equal(result!.isSuccess, false);
  assert.equal(await status(c, b), "Online");
  await assert.rejects(c.knowledge.publishMultipleArticles([]), MissingRequiredDataError);
  await assert.rejects(c.knowledge.publishMultipleArticles("x" as never), MissingRequiredDataError);
  await assert.rejects(c.knowledge.publishMultipleArticles([a, "bad"]), { name: "RangeError", message: /articleIdList\[1\]/ });
});

test("deleteArticleDraft through knowledgeManagement or the sObject API", async () => {
  const c = await crm();
  const a = await newArticle(c);
  assert.equal((await c.knowledge.deleteArticleDraft(a)).status, 204);
  const b = await newArticle(c);
  assert.equal((await c.knowledge.deleteArticleDraft(b, { useKnowledgeManagementEndpoint: false })).status, 204);
  assert.equal(emu().requests.at(-1)!.path, `/services/data/v62.0/sobjects/Knowledge__kav/${b}`);
  await assert.rejects(c.knowledge.deleteArticleDraft("123"), RangeError);
});

test("checkForExistingArticle: number, ID, both, nothing; titles with quotes are safe", async () => {
  const c = await crm();
  const id = await newArticle(c, { Title: "It's \"quoted\" O'Brien" });
  const number = (await c.knowledge.getArticleDetails(id)).ArticleNumber;
  assert.equal(await c.knowledge.checkForExistingArticle("It's \"quoted\" O'Brien"), number);
  assert.equal(await c.knowledge.checkForExistingArticle("It's \"quoted\" O'Brien", { returnId: true }), id);
  assert.deepEqual(await c.knowledge.checkForExistingArticle("It's \"quoted\" O'Brien", { returnIdAndNumber: true }), [id, number]);
  assert.equal(await c.knowledge.checkForExistingArticle("No such title"), "");
  assert.deepEqual(await c.knowledge.checkForExistingArticle("No such title", { returnIdAndNumber: true }), ["", ""]);
  const archivedTitle = (await c.soqlQuery<{ Title: string }>("SELECT Title FROM Knowledge__kav WHERE PublishStatus = 'Archived' AND IsLatestVersion = true LIMIT 1")).records[0]!.Title;
  assert.equal(await c.knowledge.checkForExistingArticle(archivedTitle), "");
  assert.notEqual(await c.knowledge.checkForExistingArticle(archivedTitle, { includeArchived: true }), "");
});

test("getArticleIdFromNumber matches the exact number (padded), not any number ending in it", async () => {
  const c = await crm();
  const rows = (await c.soqlQuery<{ Id: string; ArticleNumber: string; PublishStatus: string }>("SELECT Id, ArticleNumber, PublishStatus FROM Knowledge__kav WHERE ArticleNumber = '000001001'")).records;
  const id = await c.knowledge.getArticleIdFromNumber(1001);
  assert.ok(rows.some((r) => r.Id === id));
  assert.equal(await c.knowledge.getArticleIdFromNumber("000001001"), id);
  assert.equal(await c.knowledge.getArticleIdFromNumber(1), "", "1 is 000000001, not any number ending in 1");
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on("warning", onWarning);
  const uri = await c.knowledge.getArticleIdFromNumber(1001, { returnUri: true });
  await new Promise((r) => setImmediate(r));
  process.off("warning", onWarning);
  assert.equal(uri, `/services/data/v62.0/sobjects/Knowledge__kav/${id}`);
  assert.ok(warnings.some((w) => /returnUri: true \}\) is deprecated since 0\.1\.0\. Use knowledge\.getArticleUriFromNumber instead/.test(w)));
});

test("getArticlesList: published articles by search text, sort, order and page; bad values refused before any call", async () => {
  const c = await crm();
  const page = await c.knowledge.getArticlesList({ sort: "Title", order: "ASC", pageSize: 4, pageNum: 2 });
  assert.equal(page.articles.length, 4);
  assert.equal(page.pageNumber, 2);
  assert.equal(emu().requests.at(-1)!.headers["accept-language"], "en-US");
  const found = await c.knowledge.getArticlesList({ query: "router" });
  assert.ok(found.articles.length > 0);
  await assert.rejects(c.knowledge.getArticlesList({ sort: "Views" as never }), { name: "RangeError", message: /LastPublishedDate, CreatedDate, Title, ViewScore/ });
  await assert.rejects(c.knowledge.getArticlesList({ order: "UP" as never }), RangeError);
  await assert.rejects(c.knowledge.getArticlesList({ pageSize: 0 }), RangeError);
  await assert.rejects(c.knowledge.getArticlesList({ pageNum: 0 }), RangeError);
});

test("listArticleVersions pages drafts, published and archived versions with sort and title filter", async () => {
  const c = await crm();
  const drafts = await c.knowledge.listArticleVersions({ publishStatus: "Draft", pageSize: 3, sort: "Title", order: "ASC" });
  assert.equal(drafts.records.length, 3);
  assert.equal(drafts.hasMore, true);
  assert.ok(drafts.records.every((r) => r.PublishStatus === "Draft"));
  const filtered = await c.knowledge.listArticleVersions({ publishStatus: "Online", titleContains: "password" });
  assert.ok(filtered.records.length > 0 && filtered.records.every((r) => /password/i.test(String(r.Title))));
});

test("details, validation status, metadata, version and the knowledgeArticles endpoint rules", async () => {
  const c = await crm();
  const online = (await c.soqlQuery<{ Id: string; KnowledgeArticleId: string }>("SELECT Id, KnowledgeArticleId FROM Knowledge__kav WHERE PublishStatus = 'Online' LIMIT 1")).records[0]!;
  const viaEndpoint = await c.knowledge.getArticleDetails(online.KnowledgeArticleId, { useKnowledgeArticlesEndpoint: true });
  assert.ok(Array.isArray(viaEndpoint.layoutItems));
  assert.equal(await c.knowledge.getValidationStatus({ articleDetails: viaEndpoint }), "", "absent field: empty string");
  await assert.rejects(c.knowledge.getArticleDetails(online.Id, { sobject: "FAQ__kav", useKnowledgeArticlesEndpoint: true }), DataMismatchError);
  await assert.rejects(c.knowledge.getValidationStatus({}), MissingRequiredDataError);
  const metadata = await c.knowledge.getArticleMetadata(online.KnowledgeArticleId);
  assert.equal(metadata.onlineArticleMasterVersionId, online.Id);
  assert.equal((await c.knowledge.getArticleVersion(online.Id)).publishStatus, "Online");
});

test("getArticleUrl: Lightning or Classic, by ID or number, one slash", async () => {
  const c = await crm();
  const id = await c.knowledge.getArticleIdFromNumber(1001);
  assert.equal(await c.knowledge.getArticleUrl({ articleId: id }), `${emu().url}/lightning/r/Knowledge__kav/${id}/view`);
  assert.equal(await c.knowledge.getArticleUrl({ articleNumber: "1001", style: "classic" }), `${emu().url}/knowledge/publishing/articleDraftDetail.apexp?id=${id}`);
  const custom = await c.knowledge.getArticleUrl({ articleId: id, sobject: "FAQ__kav" });
  assert.equal(custom, `${emu().url}/knowledge/publishing/articleDraftDetail.apexp?id=${id}`, "a custom article type on a non-Lightning host: Classic, as the original chooses");
  assert.equal(await c.knowledge.getArticleUrl({ articleId: id, sobject: "FAQ__kav", style: "lightning" }), `${emu().url}/lightning/r/FAQ__kav/${id}/view`, "style still decides");
  await assert.rejects(c.knowledge.getArticleUrl({}), MissingRequiredDataError);
  await assert.rejects(c.knowledge.getArticleUrl({ articleNumber: 999999 }), /No article has the number 999999/);
});

test("assignDataCategory and getDataCategoryGroups", async () => {
  const c = await crm();
  const groups = await c.knowledge.getDataCategoryGroups();
  assert.deepEqual(groups.map((g) => g.name), ["Products", "Regions"]);
  const id = await newArticle(c);
  const result = await c.knowledge.assignDataCategory(id, "Products", "Routers");
  assert.equal(result.success, true);
  await assert.rejects(c.knowledge.assignDataCategory(id, "Products", "Toasters"), APIRequestError);
});

test("module functions and the bound group are one implementation", async () => {
  const c = await crm();
  assert.equal(await knowledge.getValidationStatus(c, { articleDetails: { ValidationStatus: "Validated" } }), "Validated");
  assert.deepEqual(Object.keys(c.knowledge).sort(), Object.keys(knowledge).filter((k) => typeof (knowledge as Record<string, unknown>)[k] === "function").sort());
});
