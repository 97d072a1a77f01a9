/**
 * Journey with auto save on focus change: leaving a record's editor sends nothing; on a production org the
 * guard's own dialog (which takes the focus) is asked once, and the person's answer alone sends.
 */
import assert from "node:assert/strict";
import { autoSaveModes, autoSaveRefused, dirtyTab, openRecord, recordSends, untilAutoSaveWouldHaveRun } from "./editingKit";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({
  settings: autoSaveModes.onFocusChange,
  setup: async ({ ui, emulator }) => {
    emulator.setOrgKind("production");
    await ui.addDemoOrg(emulator.url);
  },
});

journey("Auto save on focus change: leaving the editor sends nothing; Ctrl+S asks the guard once and its answer sends once", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const contact = emulator.seeded.store.liveRecords("Contact")[6]!;
  const title = String(contact.Title ?? "");
  await openRecord(ui, contact);
  await ui.replaceInEditor(`"Title": ${JSON.stringify(contact.Title ?? null)}`, `"Title": "Half-ty`);
  // Focus leaves the editor for the Orgs view: VS Code saves on its own, and that save sends nothing.
  await ui.rowIn("Orgs", "Demo org").click();
  await autoSaveRefused(ui);
  assert.equal(recordSends(emulator, contact), 0);
  assert.equal(String(contact.Title ?? ""), title);
  assert.equal(await dirtyTab(page, contact).count(), 1);

  await dirtyTab(page, contact).click();
  await ui.replaceInEditor(`"Title": "Half-ty`, `"Title": "Typed in full"`);
  await page.keyboard.press("Control+S");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), /Demo org is a production org\./);
  // The dialog took the focus (an automatic save of the editor ran meanwhile); nothing is sent before the answer.
  await untilAutoSaveWouldHaveRun(page);
  assert.equal(recordSends(emulator, contact), 0);
  await dialog.locator(".monaco-button", { hasText: /^Send to Production$/ }).click();
  await ui.eventually("the edit to reach the org", () => contact.Title === "Typed in full");
  await dirtyTab(page, contact).waitFor({ state: "detached" });
  assert.equal(recordSends(emulator, contact), 1, "sent once");
  assert.equal(await dialog.count(), 0, "asked once");
});
