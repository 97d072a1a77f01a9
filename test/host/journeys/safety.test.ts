/** Journeys: a production org says so, asks before every write (cancel sends nothing), and Refresh All Orgs checks every org. */
import assert from "node:assert/strict";
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
