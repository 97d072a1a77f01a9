/** Journey: knowledge for multilingual teams — translations under their master, edited side by side, marked stale; the pre-flight before publishing. */
import assert from "node:assert/strict";
import type { Rec } from "../../../src/demo-org/store";
import { workbenchSession, type Session } from "./session";

const { journey } = workbenchSession({ setup: async ({ ui, emulator }) => ui.addDemoOrg(emulator.url) });

/** The articles whose only version is published (no draft, no archive): a clean start for a translation. */
const onlyPublished = (versions: Rec[]) => versions.filter((v) => v.PublishStatus === "Online" && versions.filter((o) => o.KnowledgeArticleId === v.KnowledgeArticleId).length === 1);

journey("Translations: submit for French, edit the draft side by side with the master, publish it under its master; a new master publication marks it out of date", async ({ ui, emulator, workbench }) => {
  const store = emulator.seeded.store;
  const master = onlyPublished(store.liveRecords("Knowledge__kav"))[0]!;
  const title = String(master.Title);
  await ui.withKnowledgeFilter(title, () => translateAndPublish(ui, emulator, workbench, master, title));
}, 300_000);

async function translateAndPublish(ui: Session["ui"], emulator: Session["emulator"], workbench: Session["workbench"], master: Rec, title: string): Promise<void> {
  const page = workbench.page;
  const store = emulator.seeded.store;
  // Submit for translation: the languages the org has active besides its master language.
  await ui.contextMenu("Knowledge", title, "Submit for Translation…");
  const picker = await ui.quickInput(`Submit '${title}' for translation into`);
  assert.deepEqual((await picker.locator(".monaco-list-row .label-name:visible").allInnerTexts()).map((l) => l.trim()).sort(), ["French (fr)", "German (de)"], "Spanish is set up but not active");
  await picker.locator(".monaco-list-row", { hasText: "French (fr)" }).first().click();
  await picker.locator(".quick-input-count", { hasText: "1 Selected" }).waitFor();
  await picker.locator(".monaco-button", { hasText: "OK" }).first().click();
  const toast = page.locator(".notifications-toasts .notification-list-item", { hasText: /Submitted .* into French \(fr\)/ });
  await toast.waitFor({ timeout: 20_000 });
  const french = () => store.liveRecords("Knowledge__kav").find((v) => v.KnowledgeArticleId === master.KnowledgeArticleId && v.Language === "fr" && v.PublishStatus !== "Archived");
  assert.equal(french()?.PublishStatus, "Draft");
  await toast.locator(".monaco-button", { hasText: "Edit Side by Side" }).click();

  // Master on the left, the French draft on the right: its title is changed in the tab and saved to the org.
  await page.locator(".part.editor .tab", { hasText: "master ↔ French (fr)" }).waitFor({ timeout: 20_000 });
  const modified = page.locator(".part.editor .editor.modified").first();
  const titleLine = modified.locator(".view-line", { hasText: `"Title": "${title}"` }).first();
  await titleLine.waitFor({ timeout: 20_000 });
  await page.locator(".part.editor .editor.original .view-line", { hasText: `"Title": "${title}"` }).first().waitFor();
  await titleLine.click();
  await page.keyboard.press("End");
  await page.keyboard.press("Shift+Home");
  await page.keyboard.insertText(`  "Title": "${title} (FR)",`);
  await ui.screenshot("30-translation-side-by-side");
  await page.keyboard.press("Control+S");
  await ui.eventually("the translation's title to be saved to the org", () => french()?.Title === `${title} (FR)`, 20_000);
  assert.equal(String(store.liveRecords("Knowledge__kav").find((v) => v.Id === master.Id)!.Title), title, "the master is unchanged");

  // Publish the translation from its row under the master.
  await ui.expandRow("Knowledge", title);
  // The row as the save left it (its new title): a right-click on the row the save's refresh is about to replace
  // reaches the command without its article, which then asks which one (seen once under load).
  await ui.waitForRow("Knowledge", "French (fr)", /Draft · v1 · .*\(FR\)/);
  await ui.contextMenu("Knowledge", "French (fr)", "Publish Translation");
  await ui.waitForRow("Knowledge", "French (fr)", /Published · v1 · .*\(FR\)/);
  assert.equal(french()?.PublishStatus, "Online");

  // The master is edited and published again (a minute later, by someone else): the translation is out of date.
  const base = store.clock;
  store.clock = () => base() + 60_000;
  await ui.contextMenu("Knowledge", title, "Create Draft from Published Article…");
  await ui.pick(`Draft of '${title}'`, "Keep it published");
  await ui.expandRow("Knowledge", "Drafts");
  await ui.waitForRow("Knowledge", title);
  const draft = () => store.liveRecords("Knowledge__kav").find((v) => v.KnowledgeArticleId === master.KnowledgeArticleId && v.Language === "en_US" && v.PublishStatus === "Draft")!;
  draft().Answer__c = `${String(draft().Answer__c)}<p>A new step.</p>`;
  // A picker the palette's Enter can close while its items load (under load): opened, then answered.
  await ui.runCommandInto("CRM: Publish Article…", "Publish which draft?");
  await ui.pick("Publish which draft?", title);
  await ui.pick(`Publish '${title}' as`, "Major version");
  await ui.viewAction("Knowledge", "Refresh Knowledge");
  await ui.waitForRow("Knowledge", title, /v2/);
  await ui.expandRow("Knowledge", title);
  await ui.waitForRow("Knowledge", "French (fr)", /out of date/);
  await ui.screenshot("31-translation-out-of-date");

  // What changed in the master since the translation: the new step, in the diff editor.
  await ui.contextMenu("Knowledge", "French (fr)", "Show Master Changes Since Translation");
  await page.locator(".part.editor .tab", { hasText: "the master since the French (fr) translation" }).waitFor({ timeout: 20_000 });
  await page.locator(".part.editor .editor.modified .view-line", { hasText: "A new step." }).first().waitFor({ timeout: 20_000 });
}

journey("Pre-flight: publishing three drafts stops the one with an empty required field and publishes the others, one linking to another site", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const store = emulator.seeded.store;
  const drafts = store.liveRecords("Knowledge__kav").filter((v) => v.PublishStatus === "Draft" && v.Summary && !/<script|onerror/i.test(String(v.Answer__c))).slice(0, 3);
  const [first, second, third] = drafts as [Rec, Rec, Rec];
  third.Summary = null;
  // A link to an article page of another site is not a link to this org's articles: it does not hold the draft back.
  first.Answer__c = `${String(first.Answer__c)}<p>See <a href="https://help.example.com/articles/2771">the vendor's help</a>.</p>`;
  await ui.expandPane("Knowledge");
  await ui.expandRow("Knowledge", "Drafts");
  for (const d of drafts) await ui.waitForRow("Knowledge", String(d.Title));
  await ui.rowIn("Knowledge", String(first.Title)).click();
  await ui.rowIn("Knowledge", String(second.Title)).click({ modifiers: ["Control"] });
  await ui.rowIn("Knowledge", String(third.Title)).click({ modifiers: ["Control"] });
  await ui.contextMenu("Knowledge", String(third.Title), "Publish Selected Articles");
  const dialog = page.locator(".monaco-dialog-box", { hasText: "1 of 3 drafts are not ready to publish" });
  await dialog.waitFor({ timeout: 20_000 });
  assert.match(await dialog.innerText(), new RegExp(`✗ ${String(third.Title).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n(?:! .*\\n)*✗ Summary is required and empty`));
  assert.doesNotMatch(await dialog.innerText(), /2771/, "the other site's link is not checked as an article");
  await ui.screenshot("32-preflight");
  await dialog.locator(".monaco-button", { hasText: "Publish 2 Passing" }).click();
  await ui.notification(/Published 2 of 3 drafts\. Not published: .*pre-flight: Summary is required and empty/);
  assert.deepEqual(drafts.map((d) => d.PublishStatus), ["Online", "Online", "Draft"]);
}, 180_000);
