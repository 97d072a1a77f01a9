/** Journey: the demo org that ships inside the extension — no emulator of the test's, no account; back after a reload. */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({ settings: { "crm.knowledge.pageSize": 5 } });

journey("Try the Demo Org, built in: it starts inside VS Code, its articles show, and a new window starts it again", async ({ ui, emulator }) => {
  await ui.openContainer("CRM");
  const welcome = await ui.pane("Orgs").locator(".welcome-view-content").innerText();
  assert.match(welcome, /runs inside VS Code/);
  assert.doesNotMatch(welcome, /npm/, "nothing to run from a repository");
  await ui.runCommandInto("CRM: Try the Demo Org", "Try the Demo Org");
  await ui.pick("Try the Demo Org", "The built-in demo org");
  const row = await ui.waitForRow("Orgs", "Demo org");
  const host = /127\.0\.0\.1:\d+/.exec(row.description)?.[0];
  assert.ok(host, row.description);
  assert.notEqual(host, new URL(emulator.url).host, "not the test's emulator");
  const sentToTestEmulator = emulator.requests.length;
  await ui.expandPane("Knowledge");
  await ui.waitForRow("Knowledge", "Drafts", /^\d+\+?$/);
  await ui.reloadWindow();
  // The CRM view comes back as it was left.
  await ui.pane("Knowledge").locator(".pane-header").waitFor({ timeout: 60_000 });
  await ui.expandPane("Knowledge");
  await ui.waitForRow("Knowledge", "Drafts", /^\d+\+?$/);
  assert.equal(emulator.requests.length, sentToTestEmulator, "everything went to the built-in demo org");
});
