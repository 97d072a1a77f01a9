/** Journey: a knowledge base in a folder — pull three articles, edit one, see its status change, push it, find its draft; push and publish two, one held back by the check. */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { workbenchSession } from "./session";

const { journey } = workbenchSession();

journey("Knowledge folder: pull three articles, edit one, its status changes in the Explorer, push it, its draft is in the Knowledge view; push and publish two, the one VS Code cannot judge held back", async ({ ui, emulator, workbench, server }) => {
  const page = workbench.page;
  await ui.addDemoOrg(emulator.url);
  // Three published articles without a draft, whose titles no other title contains (so the picker's filter finds one row).
  const masters = emulator.seeded.store.liveRecords("Knowledge__kav").filter((v) => v.IsMasterLanguage !== false);
  const titles = masters.map((v) => String(v.Title));
  const chosen = masters.filter((v) => v.PublishStatus === "Online" && !masters.some((d) => d.KnowledgeArticleId === v.KnowledgeArticleId && d.PublishStatus === "Draft"))
    .filter((v) => titles.filter((t) => t.includes(String(v.Title))).length === 1).slice(0, 3);
  assert.equal(chosen.length, 3);

  await ui.runCommandInto("CRM: Pull Articles to Folder…", "Pull which articles?");
  await ui.pick("Pull which articles?", "Chosen articles…");
  const picker = await ui.quickInput("Pull which articles? (the draft where there is one)", 30_000);
  const filter = picker.locator(".quick-input-box input");
  for (const v of chosen) {
    await filter.fill(String(v.Title));
    await picker.locator(".monaco-list-row", { hasText: String(v.Title) }).first().click();
  }
  await filter.fill("");
  await page.keyboard.press("Enter");
  await ui.pick("Pull the articles into which folder?", "New folder in the workspace…");
  await ui.answer("Folder name (in the workspace)", "kb");
  await ui.notification(/Pulled 3 articles from Demo org into kb/);

  // The pulled folder in the Explorer, its article folders without a status letter.
  const edited = chosen[0]!;
  const name = String(edited.UrlName);
  const explorerRow = (label: string) => page.locator(".explorer-folders-view .monaco-list-row", { has: page.locator(".label-name", { hasText: new RegExp(`^${label}$`) }) }).first();
  await explorerRow(name).waitFor({ timeout: 20_000 });
  /** The letter the Explorer shows beside a row (a decoration's badge is drawn by CSS after the label). */
  const badge = (label: string) => explorerRow(label).locator(".monaco-icon-label").evaluate((e) => getComputedStyle(e, "::after").content.replace(/^"|"$/g, "").replace(/^none$/, ""));
  assert.equal(await badge(name), "");

  // Edit its body in the editor and save.
  const file = path.join(server.workspace, "kb", name, "Answer__c.html");
  const body = readFileSync(file, "utf8");
  await page.keyboard.press("Control+P");
  await page.keyboard.insertText(`kb/${name}/Answer__c.html`);
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: "Answer__c.html" }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press("Enter");
  await page.locator(".part.editor .tab.active", { hasText: "Answer__c.html" }).waitFor({ timeout: 20_000 });
  const changed = body.replace(/<p>/, "<p>Updated from the folder. ");
  assert.notEqual(changed, body);
  await ui.typeInEditor(changed);
  await page.keyboard.press("Control+S");
  await page.locator(".part.editor .tab.active.dirty").waitFor({ state: "detached", timeout: 10_000 });
  await ui.eventually("the edited article to show as modified (M)", async () => (await badge(name)) === "M", 20_000);
  assert.equal(await badge(String(chosen[1]!.UrlName)), "", "the others stay as pulled");
  await ui.screenshot("30-folder-modified");

  // Push: the dry run lists the one article, as a draft of the published one.
  await ui.runCommandInto("CRM: Push Folder to Org…", "Push to Demo org: what will happen (dry run)");
  const plan = await ui.quickInput("Push to Demo org: what will happen (dry run)");
  assert.equal(await plan.locator(".monaco-list-row").count(), 1, "only the edited article");
  const row = await plan.locator(".monaco-list-row").first().innerText();
  assert.ok(row.includes(String(edited.Title)), row);
  assert.match(row, /a draft of the published article[\s\S]*modified locally/);
  await page.keyboard.press("Enter");
  await ui.pick(`Push 1 article to Demo org`, "Push as drafts");
  await ui.notification(/Pushed 1 article to Demo org as a draft\./);

  const draft = emulator.seeded.store.liveRecords("Knowledge__kav").find((v) => v.KnowledgeArticleId === edited.KnowledgeArticleId && v.PublishStatus === "Draft");
  assert.ok(draft, "a draft of the article");
  assert.match(String(draft.Answer__c), /^<[^>]+><p>Updated from the folder\. |<p>Updated from the folder\. /);
  assert.doesNotMatch(String(draft.Answer__c), /\n/, "stored as the org keeps rich text");
  assert.equal(edited.PublishStatus, "Online", "the published version stays published");
  await ui.eventually("the pushed article to lose its letter", async () => (await badge(name)) === "", 20_000);

  // The draft in the Knowledge view.
  await ui.openContainer("CRM");
  await ui.expandPane("Knowledge");
  await ui.expandRow("Knowledge", "Drafts");
  await ui.waitForRow("Knowledge", String(draft.Title));
  assert.equal(await ui.groupOf("Knowledge", String(draft.Title), ["Drafts", "Published", "Archived"]), "Drafts");
  await ui.screenshot("31-folder-pushed");

  // Push and publish the other two: the plain one is published, the one whose markup VS Code cannot judge (a style
  // attribute, which the panels' sanitizer takes out) is pushed as a draft and held back — the gate crm-knowledge uses.
  const [plain, styled] = [chosen[1]!, chosen[2]!];
  writeFileSync(path.join(server.workspace, "kb", String(plain.UrlName), "Answer__c.html"), "<p>Published from the folder.</p>\n");
  writeFileSync(path.join(server.workspace, "kb", String(styled.UrlName), "Answer__c.html"), `<p style="color:red">Styled in the folder.</p>\n`);
  await ui.runCommandInto("CRM: Push Folder to Org…", "Push to Demo org: what will happen (dry run)");
  const both = await ui.quickInput("Push to Demo org: what will happen (dry run)");
  assert.equal(await both.locator(".monaco-list-row").count(), 2, "the two edited articles");
  await page.keyboard.press("Enter");
  await ui.pick("Push 2 articles to Demo org", "Push and publish");
  await ui.notification(new RegExp(`Pushed 2 articles to Demo org \\(1 published\\)\\. ${String(styled.Title).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not published: the check found ${String(styled.UrlName)}/Answer__c\\.html Holds markup beyond plain elements`));
  const versions = (id: unknown) => emulator.seeded.store.liveRecords("Knowledge__kav").filter((v) => v.KnowledgeArticleId === id && v.IsMasterLanguage !== false);
  assert.equal(versions(plain.KnowledgeArticleId).find((v) => v.PublishStatus === "Online")?.Answer__c, "<p>Published from the folder.</p>");
  assert.equal(versions(styled.KnowledgeArticleId).find((v) => v.PublishStatus === "Draft")?.Answer__c, `<p style="color:red">Styled in the folder.</p>`, "held back as a draft");
  assert.notEqual(versions(styled.KnowledgeArticleId).find((v) => v.PublishStatus === "Online")?.Answer__c, `<p style="color:red">Styled in the folder.</p>`, "not published");
});
