/**
 * Journeys: a production org says so, asks before every write (cancel sends nothing, and a cancelled save
 * keeps the edit), and Refresh All Orgs checks every org, its kind too. Run with auto save off and after a delay.
 */
import assert from "node:assert/strict";
import { otherSaveFailures } from "./editingKit";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({
  setup: async ({ ui, emulator }) => {
    emulator.setOrgKind("production");
    await ui.addDemoOrg(emulator.url);
  },
});

journey("Production: the org is marked production; a write asks first naming the org and the change; Cancel sends nothing, the button sends it", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  assert.match(await ui.statusBarText(/\(production\)/), /Demo org \(production\)/);
  assert.match((await ui.waitForRow("Orgs", "Demo org")).description, /^production · /);
  const posts = () => emulator.requests.filter((r) => r.method === "POST" && r.path.endsWith("/sobjects/Contact")).length;

  await ui.runCommand("CRM: Create Record…");
  await ui.pick("Create a record of which object", "Contact");
  await ui.answer("New Contact (1/1): Last Name", "Not On Prod");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), /Demo org is a production org\. Create a Contact record \(LastName\)\?/);
  await ui.screenshot("18-production-guard");
  await dialog.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
  await page.waitForTimeout(500);
  assert.equal(posts(), 0, "cancelled: nothing was sent");
  assert.ok(!emulator.seeded.store.liveRecords("Contact").some((c) => c.LastName === "Not On Prod"));

  await ui.runCommand("CRM: Create Record…");
  await ui.pick("Create a record of which object", "Contact");
  await ui.answer("New Contact (1/1): Last Name", "Confirmed On Prod");
  await dialog.waitFor();
  await dialog.locator(".monaco-button", { hasText: /^Send to Production$/ }).click();
  await ui.notification(/Created Contact 003\w{15}\./);
  assert.equal(posts(), 1);
  assert.ok(emulator.seeded.store.liveRecords("Contact").some((c) => c.LastName === "Confirmed On Prod"));
});

journey("Refresh All Orgs signs in to every org afresh and says how many answered", async ({ ui, emulator }) => {
  const tokens = () => emulator.requests.filter((r) => r.path === "/services/oauth2/token").length;
  const before = tokens();
  await ui.viewAction("Orgs", "Refresh All Orgs");
  await ui.notification(/1 of 1 org\(s\) answered\./);
  assert.equal(tokens() - before, 1, "a fresh sign-in, not a cached token");
});

journey("Production: a save cancelled in the guard keeps the edit, still unsaved, without 'Failed to save' and with nothing sent", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const contact = emulator.seeded.store.liveRecords("Contact")[7]!;
  const lastName = String(contact.LastName);
  // A document's save is one Composite request (the update and the read of the new version together).
  const patches = () => emulator.requests.filter((r) => (r.method === "PATCH" && r.path.includes(String(contact.Id))) || (r.method === "POST" && r.path.endsWith("/composite"))).length;
  await ui.runCommand("CRM: Open Record in Editor…");
  await ui.answer("Open a record in an editor", String(contact.Id));
  await ui.editorShows(`"LastName": "${lastName}"`);
  await ui.replaceInEditor(`"LastName": "${lastName}"`, `"LastName": "${lastName} (prod)"`);
  const dirtyTab = page.locator(".part.editor .tab.dirty", { hasText: String(contact.Name) });
  await dirtyTab.waitFor();

  await page.keyboard.press("Control+S");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), /Demo org is a production org\./);
  await dialog.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
  await ui.statusBarText(/Your edit is kept/);
  assert.equal(await otherSaveFailures(page).count(), 0, "no 'Failed to save' (whose Revert would drop the edit) but auto save's word on what sends");
  assert.equal(await dirtyTab.count(), 1, "still unsaved");
  await ui.editorShows(`"LastName": "${lastName} (prod)"`);
  assert.equal(patches(), 0, "nothing was sent");
  assert.equal(contact.LastName, lastName);

  // Confirmed, the same edit is sent once and the document is saved.
  await page.keyboard.press("Control+S");
  await dialog.waitFor();
  await dialog.locator(".monaco-button", { hasText: /^Send to Production$/ }).click();
  await ui.eventually("the edit to reach the org", () => contact.LastName === `${lastName} (prod)`);
  await dirtyTab.waitFor({ state: "detached" });
  assert.equal(patches(), 1);
});

journey("Refresh All Orgs reads each org's kind again: the guard follows at once", async ({ ui, emulator }) => {
  const kindShown = async (kind: RegExp) => ui.eventually(`the Orgs view to show ${kind}`, async () => kind.test((await ui.waitForRow("Orgs", "Demo org")).description));
  // The org stops being production (a sandbox refreshed over it, say): no more questions.
  emulator.setOrgKind("sandbox");
  await ui.viewAction("Orgs", "Refresh All Orgs");
  await kindShown(/^sandbox · /);
  // …and becomes production again: the next write asks at once.
  emulator.setOrgKind("production");
  await ui.viewAction("Orgs", "Refresh All Orgs");
  await kindShown(/^production · /);
  await ui.statusBarText(/Demo org \(production\)/);
  await ui.runCommand("CRM: Create Record…");
  await ui.pick("Create a record of which object", "Contact");
  await ui.answer("New Contact (1/1): Last Name", "Asked Again");
  const dialog = ui.page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  await dialog.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
  assert.ok(!emulator.seeded.store.liveRecords("Contact").some((c) => c.LastName === "Asked Again"), "cancelled: nothing was created");
});
