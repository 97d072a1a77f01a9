/**
 * Journeys with VS Code for the Web's default, auto save after 1,000 ms: only a person's save reaches the
 * org. A conflict is decided by a person, a Cancel in the production guard stands, nothing half-typed is sent,
 * and Save All sends what the person saved.
 */
import assert from "node:assert/strict";
import { autoSaveModes, autoSaveRefused, dirtyTab, openRecord, recordSends, saveIntoConflictAndCompare, untilAutoSaveWouldHaveRun } from "./editingKit";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({
  settings: autoSaveModes.afterDelay,
  setup: async ({ ui, emulator }) => ui.addDemoOrg(emulator.url),
});

journey("Auto save: a pause in typing sends nothing; the tab stays dirty and says Ctrl+S sends; Ctrl+S sends the edit once", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const contact = emulator.seeded.store.liveRecords("Contact")[3]!;
  const phone = String(contact.Phone ?? "");
  await openRecord(ui, contact);
  await ui.replaceInEditor(`"Phone": ${JSON.stringify(contact.Phone ?? null)}`, `"Phone": "+1 555 01"`);
  // VS Code's auto save ran (and was refused): the person is told once what sends.
  await autoSaveRefused(ui);
  await untilAutoSaveWouldHaveRun(page);
  assert.equal(recordSends(emulator, contact), 0, "a pause in typing sent nothing");
  assert.equal(String(contact.Phone ?? ""), phone);
  assert.equal(await dirtyTab(page, contact).count(), 1, "the tab stays dirty");
  await ui.screenshot("47-auto-save-refused");

  await ui.replaceInEditor(`"Phone": "+1 555 01"`, `"Phone": "+1 555 0100"`);
  await page.keyboard.press("Control+S");
  await ui.eventually("the edit to reach the org", () => contact.Phone === "+1 555 0100");
  await dirtyTab(page, contact).waitFor({ state: "detached" });
  assert.equal(recordSends(emulator, contact), 1, "sent once, by Ctrl+S");
  // The refusal's message goes with the successful save.
  await page.locator(".notifications-toasts .notification-list-item", { hasText: /Auto save does not send/ }).waitFor({ state: "detached" });
});

journey("Auto save: after a conflict's Compare nothing is sent until the person saves; theirs stays; a second change asks again", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const contact = emulator.seeded.store.liveRecords("Contact")[4]!;
  await openRecord(ui, contact);
  await ui.replaceInEditor(`"Phone": ${JSON.stringify(contact.Phone ?? null)}`, `"Phone": "mine"`);
  await page.keyboard.press("Control+S");
  await ui.eventually("my first edit to be saved", () => contact.Phone === "mine");
  await dirtyTab(page, contact).waitFor({ state: "detached" });

  // Someone else changes Phone; I edit again and press Ctrl+S: Compare.
  contact.Phone = "theirs";
  emulator.seeded.store.touch(contact, String(contact.CreatedById));
  await ui.replaceInEditor(`"Phone": "mine"`, `"Phone": "mine again"`);
  await saveIntoConflictAndCompare(page);
  await ui.notification(/Not saved: the record changed in the org/);
  const before = recordSends(emulator, contact);
  // Back in my document, as a person would be; an auto save would have run by now, and sent nothing.
  await dirtyTab(page, contact).click();
  await ui.replaceInEditor(`"Phone": "mine again"`, `"Phone": "mine, after comparing"`);
  await untilAutoSaveWouldHaveRun(page);
  assert.equal(contact.Phone, "theirs", "their change is intact: no timer decided the conflict");
  assert.equal(recordSends(emulator, contact), before, "nothing was sent after Compare");
  assert.equal(await dirtyTab(page, contact).count(), 1);

  // The org changes again before I save: my save asks again instead of replacing it.
  contact.Phone = "theirs, later";
  emulator.seeded.store.touch(contact, String(contact.CreatedById));
  await page.keyboard.press("Control+S");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /was changed in the org since you opened it/);
  await dialog.locator(".monaco-button", { hasText: /^Overwrite$/ }).click();
  await ui.eventually("my version to be saved once I chose Overwrite", () => contact.Phone === "mine, after comparing");
  await dirtyTab(page, contact).waitFor({ state: "detached" });
});

journey("Auto save: Save All sends each edited record once, as the person asked; nothing was sent before", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const contacts = emulator.seeded.store.liveRecords("Contact");
  const [first, second] = [contacts[8]!, contacts[9]!];
  await openRecord(ui, first);
  await ui.replaceInEditor(`"Title": ${JSON.stringify(first.Title ?? null)}`, `"Title": "Saved with Save All"`);
  await openRecord(ui, second);
  await ui.replaceInEditor(`"Title": ${JSON.stringify(second.Title ?? null)}`, `"Title": "Also saved with Save All"`);
  await autoSaveRefused(ui);
  await untilAutoSaveWouldHaveRun(page);
  assert.equal(recordSends(emulator, first) + recordSends(emulator, second), 0, "nothing sent while typing");
  await ui.runCommand("File: Save All Files");
  await ui.eventually("both records to be saved", () => first.Title === "Saved with Save All" && second.Title === "Also saved with Save All");
  await dirtyTab(page, first).waitFor({ state: "detached" });
  await dirtyTab(page, second).waitFor({ state: "detached" });
  assert.deepEqual([recordSends(emulator, first), recordSends(emulator, second)], [1, 1]);
});

journey("Auto save on production: a typed pause asks nothing and sends nothing; a Cancel is asked once and stands; the confirmed save sends once", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  emulator.setOrgKind("production");
  await ui.viewAction("Orgs", "Refresh All Orgs");
  await ui.statusBarText(/Demo org \(production\)/);
  const contact = emulator.seeded.store.liveRecords("Contact")[11]!;
  const lastName = String(contact.LastName);
  await openRecord(ui, contact);
  const dialog = page.locator(".monaco-dialog-box");
  const asked: string[] = [];
  // Every question the guard puts, counted as it appears.
  await page.exposeFunction("crmGuardAsked", (text: string) => void asked.push(text)).catch(() => undefined);
  await page.evaluate(() => {
    new MutationObserver(() => {
      for (const box of document.querySelectorAll<HTMLElement>(".monaco-dialog-box:not([data-counted])")) {
        box.dataset.counted = "yes";
        (window as unknown as { crmGuardAsked(t: string): void }).crmGuardAsked(box.innerText);
      }
    }).observe(document.body, { childList: true, subtree: true });
  });

  // Half-typed: a pause sends nothing and asks nothing.
  await ui.replaceInEditor(`"LastName": "${lastName}"`, `"LastName": "${lastName} (half`);
  await autoSaveRefused(ui);
  await untilAutoSaveWouldHaveRun(page);
  assert.equal(asked.length, 0, "no guard question from a pause in typing");
  assert.equal(recordSends(emulator, contact), 0);

  await ui.replaceInEditor(`"LastName": "${lastName} (half`, `"LastName": "${lastName} (prod)"`);
  await page.keyboard.press("Control+S");
  await dialog.waitFor();
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), /Demo org is a production org\./);
  await dialog.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
  await ui.statusBarText(/Your edit is kept/);
  // Typing on, pausing: the Cancel stands.
  await ui.replaceInEditor(`(prod)"`, `(prod!)"`);
  await untilAutoSaveWouldHaveRun(page);
  assert.equal(asked.length, 1, `asked once: ${JSON.stringify(asked)}`);
  assert.equal(recordSends(emulator, contact), 0, "nothing sent");
  assert.equal(contact.LastName, lastName);
  assert.equal(await dirtyTab(page, contact).count(), 1, "the document is dirty: its mark is true");

  await page.keyboard.press("Control+S");
  await dialog.waitFor();
  await dialog.locator(".monaco-button", { hasText: /^Send to Production$/ }).click();
  await ui.eventually("the edit to reach the org", () => contact.LastName === `${lastName} (prod!)`);
  await dirtyTab(page, contact).waitFor({ state: "detached" });
  assert.equal(recordSends(emulator, contact), 1);
  assert.equal(asked.length, 2);

  // Ctrl+S straight after typing: while the guard waits for an answer, the tab says the edit is unsaved.
  await ui.replaceInEditor(`(prod!)"`, `(prod?)"`);
  await page.keyboard.press("Control+S");
  await dialog.waitFor();
  await dirtyTab(page, contact).waitFor({ timeout: 15_000 });
  await dialog.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
  await untilAutoSaveWouldHaveRun(page);
  assert.equal(recordSends(emulator, contact), 1, "the Cancel sent nothing");
  assert.equal(asked.length, 3);
});
