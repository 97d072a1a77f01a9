/** Journey: Article Details — hostile bodies render inert, org images show, Publish from the panel and from the tree. */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { HOSTILE_BODIES } from "../../../src/demo-org";
import type { Driver } from "../workbench";
import { workbenchSession } from "./session";

const { journey } = workbenchSession();

async function openDetails(ui: Driver, title: string): Promise<Frame> {
  const widget = await ui.runCommandInto("CRM: Show Article Details", "Show the details of which article");
  await widget.locator(".quick-input-box input").fill(title);
  await ui.pick("Show the details of which article", title);
  // The panel's own frame: the one showing this article once read (another panel's frame goes away).
  return ui.webview(new RegExp(`${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[\\s\\S]*Version ID`));
}

/** Everything in the rendered bodies that could run or load something. */
const liveParts = (frame: Frame) =>
  frame.locator(".rich-text .body").evaluateAll((bodies) =>
    bodies.flatMap((body) => [...body.querySelectorAll("*")].flatMap((node) => [
      ...(/^(SCRIPT|IFRAME|SVG|STYLE|OBJECT|EMBED|FORM)$/i.test(node.tagName) ? [`<${node.tagName}>`] : []),
      ...[...node.attributes].filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value) || a.name === "style").map((a) => `${node.tagName}[${a.name}]`),
      ...(node.tagName === "IMG" && node.getAttribute("src") && !node.getAttribute("src")!.startsWith("data:") ? ["IMG[src]"] : []),
    ])),
  );

journey("Article Details: every hostile body renders inert, with its text kept", async ({ ui, emulator, workbench }) => {
  const dialogs: string[] = [];
  workbench.page.on("dialog", (d) => void (dialogs.push(d.message()), d.dismiss()));
  await ui.addDemoOrg(emulator.url);
  const versions = emulator.seeded.store.liveRecords("Knowledge__kav");
  for (const [i, body] of HOSTILE_BODIES.entries()) {
    const article = versions.find((v) => v.Answer__c === body)!;
    const frame = await openDetails(ui, String(article.Title));
    await frame.locator("h1", { hasText: String(article.Title) }).waitFor();
    assert.deepEqual(await liveParts(frame), [], `hostile body ${i} is inert`);
    const text = await frame.locator(".rich-text .body").innerText();
    const firstWords = /<p[^>]*>([^<]+)/.exec(body)![1]!.trim();
    assert.ok(text.includes(firstWords), `the readable text stays: ${text}`);
    // Click everything that could have carried a handler or a javascript: link.
    for (const target of await frame.locator(".rich-text .body p, .rich-text .body a").all()) await target.click({ timeout: 2_000 }).catch(() => undefined);
    if (i === 2) await ui.screenshot("11-article-hostile");
  }
  await workbench.page.waitForTimeout(500);
  assert.deepEqual(dialogs, [], "no script ran");
}, 180_000);

journey("Article Details follows a publish from the Knowledge tree; two quick refreshes leave one consistent tree", async ({ ui, emulator }) => {
  const versions = emulator.seeded.store.liveRecords("Knowledge__kav");
  const draft = versions.filter((v) => v.PublishStatus === "Draft" && !versions.some((o) => o !== v && o.KnowledgeArticleId === v.KnowledgeArticleId)).at(-1)!;
  const title = String(draft.Title);
  const frame = await openDetails(ui, title);
  await frame.locator("dl.facts", { hasText: /Version\s*1 · Draft/ }).waitFor();

  // Every group expanded and filtered to the article (so every group fits the pane), the panel open: publish from the draft's row.
  const groups = ["Drafts", "Published", "Archived"];
  await ui.withKnowledgeFilter(title, async () => {
    await ui.contextMenu("Knowledge", title, "Publish Article");
    await ui.pick(`Publish '${title}' as`, "Major version");
    await frame.locator("dl.facts", { hasText: /Version\s*1 · Online/ }).waitFor({ timeout: 20_000 });
    assert.equal(String(draft.PublishStatus), "Online");

    // Two refreshes in quick succession: the later supersedes the earlier; each version shows once, in its group.
    await ui.viewAction("Knowledge", "Refresh Knowledge");
    await ui.viewAction("Knowledge", "Refresh Knowledge");
    await ui.eventually(`'${title}' once, under Published`, async () => {
      assert.deepEqual((await ui.errorsShown()).filter((e) => /already registered|failed/i.test(e)), [], "no error while the tree refreshes");
      const shown = (await ui.rows("Knowledge")).map((r) => r.label).filter((l) => l === title);
      return shown.length === 1 && (await ui.groupOf("Knowledge", title, groups)) === "Published";
    }, 20_000);
    const byGroup = new Map<string, string[]>();
    let group = "";
    for (const { label } of await ui.rows("Knowledge")) {
      if (groups.includes(label)) byGroup.set((group = label), []);
      else if (group && label !== "Load more…") byGroup.get(group)!.push(label);
    }
    for (const [name, labels] of byGroup) assert.equal(new Set(labels).size, labels.length, `no version twice under ${name}: ${labels.join(", ")}`);
    assert.deepEqual(byGroup.get("Published"), [title], "the published version, once");
  });
}, 180_000);

journey("Article Details: the org's body images show; a draft is published from the panel and the panel follows", async ({ ui, emulator }) => {
  const versions = emulator.seeded.store.liveRecords("Knowledge__kav");
  const withImage = versions.find((v) => /rtaImage/.test(String(v.Answer__c)) && v.PublishStatus === "Online")!;
  let frame = await openDetails(ui, String(withImage.Title));
  const image = frame.locator(".rich-text img").first();
  await image.waitFor();
  assert.match((await image.getAttribute("src"))!, /^data:image\/(png|gif);base64,/);
  assert.equal(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth), 1, "the image decoded");

  const draft = versions.find((v) => v.PublishStatus === "Draft" && !versions.some((o) => o !== v && o.KnowledgeArticleId === v.KnowledgeArticleId))!;
  frame = await openDetails(ui, String(draft.Title));
  assert.match(await frame.locator("dl.facts").innerText(), /Version\s+1 · Draft/);
  await frame.locator("vscode-button", { hasText: "Publish" }).click();
  await ui.pick(`Publish '${String(draft.Title)}' as`, "Major version");
  await frame.locator("dl.facts", { hasText: /Version\s*1 · Online/ }).waitFor({ timeout: 20_000 });
  assert.equal(String(draft.PublishStatus), "Online");
  assert.ok(await frame.locator("vscode-button", { hasText: "Archive" }).isVisible(), "a published article offers Archive");
  assert.deepEqual(await frame.locator("nav.versions .version").allInnerTexts(), ["v1 Online"]);
  await ui.screenshot("12-article-details");

  // The versions strip moves the panel along the article's versions; a reload reopens the one shown.
  const revised = versions.find((v) => v.PublishStatus === "Draft" && versions.some((o) => o.KnowledgeArticleId === v.KnowledgeArticleId && o.PublishStatus === "Online"))!;
  const online = versions.find((o) => o.KnowledgeArticleId === revised.KnowledgeArticleId && o.PublishStatus === "Online")!;
  frame = await openDetails(ui, String(revised.Title));
  assert.deepEqual(await frame.locator("nav.versions .version").allInnerTexts(), [`v${String(revised.VersionNumber)} Draft`, `v${String(online.VersionNumber)} Online`]);
  await frame.locator("nav.versions .version", { hasText: "Online" }).click();
  await ui.webview(new RegExp(`Version ID ${String(online.Id)}`));
  await ui.reloadWindow();
  await ui.webview(new RegExp(`Version ID ${String(online.Id)}`), 60_000);
}, 180_000);
