/**
 * Journeys: editing an article draft and a record in editor tabs — saves, conflicts, refusals that keep the
 * edit, diff, preview. Run with auto save off (desktop VS Code's default) and after a delay (VS Code for the
 * Web's): the same saves, conflicts and refusals hold in both.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Driver } from "../workbench";
import { backedUp, otherSaveFailures, saveIntoConflictAndCompare } from "./editingKit";
import { workbenchSession } from "./session";

const activeEditor = (page: Page) => page.locator(".part.editor .editor-group-container.active .monaco-editor").first();
const activeTab = (page: Page) => page.locator(".part.editor .editor-group-container.active .tab.active");

/** Puts the cursor at the start of the document and types (no auto-closing in the way: one insert). */
async function typeAtStart(page: Page, text: string): Promise<void> {
  await activeEditor(page).click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.insertText(text);
}

async function openArticle(ui: Driver, title: string): Promise<void> {
  await ui.runCommand("CRM: Edit Article in Editor");
  const widget = await ui.quickInput("Edit which article");
  await widget.locator(".quick-input-box input").fill(title);
  await ui.pick("Edit which article", title);
}

const { journey } = workbenchSession();

journey("Editing: an article body saved from an HTML tab updates the draft; a concurrent change asks first; Compare, then save again", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.addDemoOrg(emulator.url);
  const versions = emulator.seeded.store.liveRecords("Knowledge__kav");
  const draft = versions.find((v) => v.PublishStatus === "Draft" && versions.some((o) => o.KnowledgeArticleId === v.KnowledgeArticleId && o.PublishStatus === "Online") && !/<script|onerror|javascript:/i.test(String(v.Answer__c)))!;
  const title = String(draft.Title);
  await openArticle(ui, title);
  // The tab is titled by the article, not by its ID.
  await activeTab(page).filter({ hasText: `${title} — Answer__c` }).waitFor({ timeout: 20_000 });
  await typeAtStart(page, "<p>Edited in a tab.</p>");
  await page.keyboard.press("Control+S");
  await ui.eventually("the draft's body to be saved", () => String(draft.Answer__c).startsWith("<p>Edited in a tab.</p>"));

  // The fields document: a new title shows in the Knowledge tree's Drafts.
  await ui.runCommand("CRM: Edit Article Fields");
  await activeTab(page).filter({ hasText: `${title} — fields` }).waitFor({ timeout: 20_000 });
  await ui.editorShows(`"Title": "${title}"`);
  await ui.replaceInEditor(`"Title": "${title}"`, `"Title": "${title} (edited)"`);
  await page.keyboard.press("Control+S");
  await ui.eventually("the title to be saved", () => draft.Title === `${title} (edited)`);
  await ui.expandPane("Knowledge");
  await ui.waitForRow("Knowledge", `${title} (edited)`);
  // A change made elsewhere (the palette's Update Article) shows in the open fields document, which has no unsaved edits.
  await ui.runCommand("CRM: Update Article…");
  await ui.pick("Update which draft", `${title} (edited)`);
  await ui.pick(`Update '${title} (edited)': which field`, "Summary");
  await ui.answer(`Summary of '${title} (edited)'`, "Changed from the palette");
  await ui.editorShows(`"Summary": "Changed from the palette"`);

  // Someone changes the body in the org; my next save is stopped and offers Compare.
  await page.locator(".part.editor .tab", { hasText: `${title} — Answer__c` }).click();
  draft.Answer__c = "<p>Their change.</p>";
  emulator.seeded.store.touch(draft, String(draft.CreatedById));
  await typeAtStart(page, "<p>Mine.</p>");
  await saveIntoConflictAndCompare(page);
  assert.equal(draft.Answer__c, "<p>Their change.</p>", "nothing was overwritten");
  // Said as a warning of its own, not VS Code's "Failed to save": nothing offered there discards the edit.
  await ui.notification(/Not saved: the record changed in the org/);
  const said = page.locator(".notifications-toasts .notification-list-item", { hasText: /Not saved: the record changed in the org/ }).first();
  assert.equal(await said.locator(".monaco-button", { hasText: /^(Revert|Discard)$/ }).count(), 0, "no Revert or Discard");
  assert.equal(await otherSaveFailures(page).count(), 0, "no 'Failed to save' but auto save's word on what sends");
  await ui.screenshot("14-edit-conflict");
  // Back in my document (still dirty, my edit in it), saving again replaces theirs now that I have seen it.
  await page.locator(".part.editor .tab.dirty", { hasText: `${title} — Answer__c` }).click();
  await ui.editorShows("<p>Mine.</p><p>Edited in a tab.</p>");
  await page.keyboard.press("Control+S");
  await ui.eventually("my version to be saved after comparing", () => String(draft.Answer__c).startsWith("<p>Mine.</p><p>Edited in a tab.</p>"));
  await page.locator(".part.editor .tab.dirty", { hasText: `${title} — Answer__c` }).waitFor({ state: "detached", timeout: 15_000 });

  // Compare Draft with Online: one tab with the changes of each file.
  await ui.runCommand("CRM: Compare Draft with Online");
  await page.locator(".part.editor .tab", { hasText: "online ↔ draft" }).waitFor({ timeout: 20_000 });
  await ui.screenshot("15-compare-online");

  // Open Preview renders the body beside it, sanitized, and follows the typing.
  await page.locator(".part.editor .tab", { hasText: `${title} — Answer__c` }).click();
  await ui.runCommand("CRM: Open Preview");
  const frame = await ui.webview(/Mine\./);
  await typeAtStart(page, "<p>Typed after opening the preview.</p>");
  await frame.locator(".rich-text .body", { hasText: "Typed after opening the preview." }).waitFor({ timeout: 15_000 });
  await ui.screenshot("16-article-preview");
  await page.keyboard.press("Control+Z");
}, 240_000);

journey("Editing: a record the org refuses stays dirty with the field marked, and survives a window reload", async ({ ui, emulator, workbench, server }) => {
  const page = workbench.page;
  const contact = emulator.seeded.store.liveRecords("Contact")[5]!;
  await ui.runCommand("CRM: Open Record in Editor…");
  await ui.answer("Open a record in an editor", String(contact.Id));
  await activeTab(page).filter({ hasText: String(contact.Name) }).waitFor({ timeout: 20_000 });
  await ui.editorShows(`"LastName": "${String(contact.LastName)}"`);
  // Blank the last name (required): the org refuses, the line is marked, the edit stays.
  await ui.replaceInEditor(`"LastName": "${String(contact.LastName)}"`, `"LastName": ""`);
  await page.keyboard.press("Control+S");
  await ui.notification(/Required fields are missing: \[LastName\]/);
  await activeEditor(page).locator(".squiggly-error").first().waitFor({ timeout: 15_000 });
  // The document stays dirty (with a short auto save delay VS Code shows the mark once its own save is refused).
  await page.locator(".part.editor .tab.dirty", { hasText: String(contact.Name) }).waitFor({ timeout: 15_000 });
  assert.equal(contact.LastName !== "", true, "the org kept its value");
  await ui.screenshot("17-record-refused");
  // The reload restores the edit from VS Code's backup of it: once the backup holds it.
  await ui.eventually("VS Code's backup of the unsaved edit", () => backedUp(server.root, '"LastName": ""'));
  await ui.reloadWindow();
  // The edit is still there after the reload, still unsaved.
  await page.locator(".part.editor .tab.dirty", { hasText: String(contact.Name) }).waitFor({ timeout: 30_000 });
  await page.locator(".part.editor .tab.dirty", { hasText: String(contact.Name) }).click();
  await ui.editorShows('"LastName": ""');
}, 180_000);

journey("Editing: a new record from its template (required fields first) is created on save and reopens under its name", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.runCommand("CRM: New Record in Editor…");
  await ui.pick("New record of which object", "Contact");
  await activeTab(page).filter({ hasText: "New Contact" }).waitFor({ timeout: 20_000 });
  const template = await ui.editorShows('"LastName": null');
  assert.ok(template.indexOf('"LastName"') < template.indexOf('"FirstName"'), "the required field comes first");
  await ui.replaceInEditor('"LastName": null', '"LastName": "Templated"');
  await page.keyboard.press("Control+S");
  // The template's tab makes way for the new record's own document.
  await activeTab(page).filter({ hasText: "Templated" }).waitFor({ timeout: 20_000 });
  const created = emulator.seeded.store.liveRecords("Contact").find((c) => c.LastName === "Templated");
  assert.ok(created, "the contact was created");
  assert.equal(await page.locator(".part.editor .tab", { hasText: "New Contact" }).count(), 0);
  await ui.editorShows('"LastName": "Templated"');
});
