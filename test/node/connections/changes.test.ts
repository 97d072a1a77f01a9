import { test } from "node:test";
import assert from "node:assert/strict";
import { changeOf, touchesArticle, type OrgChange } from "../../../src/connections/changes";
import { useEmulator } from "../../helpers/emulator";
import { managerWithDemoOrg } from "../fakes";

const emu = useEmulator();
const short = (id: string) => id.slice(0, 15);
const hasId = (change: OrgChange, id: string) => change.ids.some((i) => short(i) === short(id));

/** The changes a piece of work caused, through a real session on the emulator. */
async function changesOf(work: (session: Awaited<ReturnType<Awaited<ReturnType<typeof managerWithDemoOrg>>["manager"]["session"]>>) => Promise<unknown>) {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const session = await manager.session(org.key);
  const seen: (OrgChange & { orgKey: string })[] = [];
  manager.onDidChange((c) => seen.push(c));
  const result = await work(session);
  manager.dispose();
  assert.ok(seen.every((c) => c.orgKey === org.key));
  return { seen, result };
}

test("record writes: created, updated and deleted, with the object and the record's ID; reads, refusals and sign-ins say nothing", async () => {
  let id = "";
  const { seen } = await changesOf(async (s) => {
    await s.crm.getOrgLimits();
    id = (await s.crm.createSobjectRecord("Account", { Name: "Changed" })).id;
    await s.crm.updateSobjectRecord("Account", id, { Name: "Changed again" });
    await assert.rejects(s.crm.createSobjectRecord("Contact", {}));
    await s.crm.deleteSobjectRecord("Account", id);
  });
  assert.deepEqual(seen.map((c) => [c.kind, c.area, c.object, c.ids]), [
    ["created", "records", "Account", [id]],
    ["updated", "records", "Account", [id]],
    ["deleted", "records", "Account", [id]],
  ]);
});

test("the knowledge lifecycle: each step names its kind and the versions or article it touched", async () => {
  const ids: Record<string, string> = {};
  const { seen } = await changesOf(async (s) => {
    const k = s.crm.knowledge;
    ids.draft = await k.createArticle({ Title: "Change events", UrlName: "change-events" });
    await k.updateArticle(ids.draft, { Summary: "Edited" });
    await k.assignDataCategory(ids.draft, "Products", "Routers");
    await k.publishArticle(ids.draft);
    const master = String((await k.getArticleDetails(ids.draft)).KnowledgeArticleId);
    ids.master = master;
    const [draft] = await k.createDraftFromOnlineArticle(master, { unpublish: false });
    ids.second = String(draft?.outputValues.DraftId ?? "");
    await k.publishMultipleArticles([ids.second]);
    ids.third = await k.createDraftFromMasterVersion({ knowledgeArticleId: master });
    await k.deleteArticleDraft(ids.third);
    await k.archiveArticle(ids.second);
  });
  const kinds = seen.map((c) => c.kind);
  assert.deepEqual(kinds, ["created", "updated", "created", "published", "created", "published", "created", "deleted", "archived"]);
  assert.ok(seen.every((c) => c.area === "knowledge"), "every step is a knowledge change");
  assert.ok(hasId(seen[0]!, ids.draft!) && hasId(seen[1]!, ids.draft!), "create and update name the draft");
  assert.ok(hasId(seen[2]!, ids.draft!), "a data category selection names its article version");
  assert.ok(hasId(seen[3]!, ids.draft!), "publish names the version");
  assert.ok(hasId(seen[4]!, ids.master!) && seen[4]!.unpublished === false, "a draft from the published article names the article");
  assert.ok(hasId(seen[5]!, ids.second!), "publishing several names each");
  assert.ok(hasId(seen[6]!, ids.master!), "a draft from the master version names the article");
  assert.ok(hasId(seen[7]!, ids.third!), "delete names the draft");
  assert.ok(hasId(seen[8]!, ids.second!), "archive names the version");
});

test("translations: submitted (naming the article), published and deleted (naming the translation), each a knowledge change", async () => {
  const ids: Record<string, string> = {};
  const { seen } = await changesOf(async (s) => {
    const k = s.crm.knowledge;
    const draft = await k.createArticle({ Title: "Translated change events", UrlName: "translated-change-events" });
    await k.publishArticle(draft);
    ids.master = String((await k.getArticleDetails(draft)).KnowledgeArticleId);
    const [fr] = await k.submitForTranslation(ids.master, "fr");
    ids.fr = fr!.Id;
    await k.publishTranslation(ids.fr);
    ids.frDraft = await k.createDraftFromOnlineTranslation(ids.fr);
    await k.deleteTranslation(ids.frDraft);
  });
  assert.deepEqual(seen.map((c) => c.kind), ["created", "published", "created", "published", "created", "deleted"]);
  assert.ok(seen.every((c) => c.area === "knowledge"));
  assert.ok(hasId(seen[2]!, ids.master!), "a submission names the article");
  assert.ok(hasId(seen[3]!, ids.fr!), "publishing a translation names it");
  assert.ok(hasId(seen[4]!, ids.fr!) && hasId(seen[4]!, ids.frDraft!), "a draft of a published translation names both");
  assert.ok(hasId(seen[5]!, ids.frDraft!), "delete names the translation");
});

test("feeds: a post names the new item and the feed it went to; a comment names the item it is on", async () => {
  const { seen, result } = await changesOf(async (s) => {
    const post = await s.crm.feed.postFeedItem("me", { messageText: "A change event" });
    const comment = await s.crm.feed.postComment(String(post.id), { messageText: "And a comment" });
    return { post: String(post.id), comment: String(comment.id) };
  });
  const { post, comment } = result as { post: string; comment: string };
  assert.deepEqual(seen.map((c) => [c.kind, c.area, c.object]), [["posted", "feeds", "FeedItem"], ["commented", "feeds", "FeedComment"]]);
  assert.ok(hasId(seen[0]!, post) && seen[0]!.ids.includes("me"));
  assert.deepEqual(seen[1]!.ids, [post, comment]);
});

test("resources the classifier does not know are 'unknown' (they may touch anything); OAuth calls are no change", () => {
  const write = (path: string, extra: Partial<Parameters<typeof changeOf>[0]> = {}) => changeOf({ method: "POST", path, status: 200, ...extra });
  assert.equal(write("/services/oauth2/revoke"), undefined);
  assert.deepEqual(write("/services/data/v62.0/composite", { body: { compositeRequest: [] } })?.area, "unknown");
  assert.equal(write("/services/data/v62.0/sobjects/Knowledge__kavish")?.area, "records", "only article types are knowledge");
  const collection = write("/services/data/v62.0/composite/sobjects", { body: { records: [{ attributes: { type: "Contact" }, LastName: "A" }] }, data: [{ id: "003000000000001AAA", success: true }] });
  assert.deepEqual([collection?.kind, collection?.area, collection?.object, collection?.ids], ["created", "records", "Contact", ["003000000000001AAA"]]);
  const upsert = changeOf({ method: "PATCH", path: "/services/data/v62.0/sobjects/Account/AccountNumber/A-1", status: 201, body: { Name: "A" }, data: { id: "001000000000009AAA" } });
  assert.deepEqual([upsert?.kind, upsert?.ids], ["created", ["001000000000009AAA"]], "an upsert names the record, not the external ID");
});

test("an article panel follows a change that names its version, its article or another of its versions", () => {
  const shown = { id: "ka0000000000002AAA", knowledgeArticleId: "kA0000000000001AAA", versions: [{ id: "ka0000000000002AAA" }, { id: "ka0000000000003AAA" }] };
  const change = (ids: string[], area: OrgChange["area"] = "knowledge"): OrgChange => ({ kind: "published", area, ids, method: "POST", path: "/" });
  assert.ok(touchesArticle(change(["ka0000000000002"]), shown), "its version, 15 characters");
  assert.ok(touchesArticle(change(["kA0000000000001AAA"]), shown), "its article");
  assert.ok(touchesArticle(change(["ka0000000000003AAA"]), shown), "a newer version being published archives the one shown");
  assert.ok(!touchesArticle(change(["ka0000000000009AAA"]), shown), "another article");
  assert.ok(!touchesArticle(change(["ka0000000000002AAA"], "records"), shown), "a record write");
  assert.ok(touchesArticle(change([], "unknown"), shown), "a composite request may touch it");
});
