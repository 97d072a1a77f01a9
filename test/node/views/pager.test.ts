import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm } from "../../../src/client";
import { KnowledgeModel, type PublishStatus } from "../../../src/views/knowledgeModel";
import { TreeChangeQueue } from "../../../src/views/treeChanges";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));
const queries = () => emu().requests.filter((r) => r.path.endsWith("/query")).length;

function knowledgeModel(c: Crm) {
  return new KnowledgeModel({ listArticleVersions: (o) => c.knowledge.listArticleVersions(o) }, () => ({ pageSize: 4, sobject: "Knowledge__kav" }));
}

test("two quick refreshes leave one consistent group: the later load wins, the earlier lands nowhere and redraws nothing", async () => {
  const model = knowledgeModel(await crm());
  const redrawn: (PublishStatus | undefined)[] = [];
  const fired: (PublishStatus | undefined)[] = [];
  const tree = new TreeChangeQueue<PublishStatus>((s) => redrawn.push(s));
  model.onDidChange((s) => (fired.push(s), tree.fire(s)));

  // The group is shown (a load starts), then Refresh is pressed twice before any answer arrives; each refresh
  // makes the tree ask again.
  const before = queries();
  const first = model.ensureLoaded("Online");
  model.reset("Online");
  const second = model.ensureLoaded("Online");
  model.reset("Online");
  const third = tree.track(() => model.loadForTree("Online"));
  const asked = await Promise.all([model.ensureLoaded("Online"), model.ensureLoaded("Online")]);
  const [a, b, c] = await Promise.all([first, second, third]);

  const shown = model.state("Online")!;
  assert.equal(c, shown, "the last load is what the group shows");
  assert.ok(asked.every((s) => s === shown), "asking again while it loads shares that load");
  assert.notEqual(a, shown);
  assert.notEqual(b, shown);
  assert.equal(shown.pages, 1);
  assert.equal(shown.rows.length, 4);
  assert.equal(new Set(shown.rows.map((r) => r.id)).size, 4, "each version once");
  assert.ok(shown.rows.every((r) => r.publishStatus === "Online"));
  assert.equal(queries() - before, 1, "the loads ask the same page at once: the client sends it once");

  assert.deepEqual(fired, ["Online", "Online"], "two start-overs: the superseded loads fire nothing, and the load that won is shown by the tree's own answer");
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(redrawn, ["Online"], "the redraws gathered while the tree was asking go out once");
  tree.dispose();
});

test("a load the tree asked for redraws nothing when it ends (VS Code would ask again and focus the tree); Load more and a load started elsewhere redraw their group", async () => {
  const model = knowledgeModel(await crm());
  const fired: (PublishStatus | undefined)[] = [];
  model.onDidChange((s) => fired.push(s));
  const shown = await model.loadForTree("Online");
  assert.equal(shown.rows.length, 4, "the tree's answer has the rows");
  assert.deepEqual(fired, [], "nothing to redraw: the answer showed them");
  await model.loadMore("Online");
  assert.deepEqual(fired, ["Online"], "a page the tree did not ask for is drawn by a redraw");
  model.reset("Draft");
  fired.length = 0;
  // Started before the tree asks (a group shown collapsed reads ahead), then asked for by the tree: its answer shows it.
  const ahead = model.ensureLoaded("Draft");
  const asked = model.loadForTree("Draft");
  assert.equal(await ahead, await asked, "one load");
  assert.deepEqual(fired, [], "the tree's answer shows the load it joined");
  model.reset("Archived");
  fired.length = 0;
  await model.ensureLoaded("Archived");
  assert.deepEqual(fired, ["Archived"], "a load no tree request waits for is drawn by a redraw");
});

test("Load more while a refresh is on its way: one page, not a page added to a list that was started over", async () => {
  const model = knowledgeModel(await crm());
  await model.ensureLoaded("Draft");
  await model.loadMore("Draft");
  assert.equal(model.state("Draft")!.pages, 2);
  model.reset("Draft");
  const [fresh, more] = await Promise.all([model.ensureLoaded("Draft"), model.loadMore("Draft")]);
  assert.equal(fresh, more, "Load more joins the load already running");
  assert.equal(model.state("Draft")!.pages, 1);
  assert.equal(model.state("Draft")!.rows.length, 4);
});

test("a change names the groups already showing a version or its article", async () => {
  const model = knowledgeModel(await crm());
  const online = await model.ensureLoaded("Online");
  await model.ensureLoaded("Draft");
  const row = online.rows[0]!;
  assert.deepEqual(model.groupsShowing([row.id]), ["Online"]);
  assert.ok(model.groupsShowing([row.knowledgeArticleId.slice(0, 15)]).includes("Online"), "by its article, 15 characters");
  assert.deepEqual(model.groupsShowing(["ka0000000000000AAA"]), []);
});
