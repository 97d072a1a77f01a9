/**
 * Journey: a workspace not trusted (Restricted Mode). Nothing in it — a SOQL file, a knowledge folder, its
 * settings — makes the extension contact an org by itself; what the user starts still works.
 */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({
  untrusted: true,
  workspaceFiles: {
    "queries/contacts.soql": "SELECT Id, LastName, Nmae FROM Contact\n",
    // A cloned repository's settings may not move the sign-in or the feed elsewhere.
    ".vscode/settings.json": JSON.stringify({ "crm.login.productionUrl": "https://login.attacker.example", "crm.feed.siteId": "0DB000000000001" }),
  },
});

journey("Restricted Mode: a workspace's SOQL file is checked from the syntax only, sends nothing by itself, and says why; Run still runs it", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await page.locator(".statusbar-item", { hasText: /Restricted Mode/ }).first().waitFor({ timeout: 30_000 });
  await ui.addDemoOrg(emulator.url);
  // The CRM views read the org they show: once each shows what it read, the file is opened.
  await ui.waitForRow("Objects", "Standard");
  await ui.waitForRow("Knowledge", "Drafts");
  await ui.waitForRow("Feeds", "My News Feed");
  await ui.openContainer("Explorer");
  const before = emulator.requests.length;
  await ui.runCommand("Go to File...");
  await ui.page.locator(".quick-input-widget .quick-input-box input").fill("contacts.soql");
  await ui.page.locator(".quick-input-widget .monaco-list-row", { hasText: "contacts.soql" }).first().click();
  await page.locator(".part.editor .tab.active", { hasText: "contacts.soql" }).waitFor();
  // The CodeLens and the document's org item come when the extension has read the file: the item carries a
  // shield once its checks decided on the syntax only, and says why (to a screen reader too).
  await page.locator(".part.editor .codelens-decoration", { hasText: "Demo org" }).first().waitFor({ timeout: 20_000 });
  const status = page.locator('.statusbar-item[id$="crm.soqlOrg"]').first();
  await status.locator(".codicon-shield").waitFor({ timeout: 10_000 });
  assert.deepEqual(emulator.requests.slice(before).map((r) => r.path), [], "opening the workspace's file contacted no org");
  assert.equal(await page.locator(".part.editor .squiggly-warning").count(), 0, "no field is judged without the org's describe");
  assert.match((await status.locator("a").first().getAttribute("aria-label")) ?? (await status.getAttribute("aria-label")) ?? "", /Restricted Mode: checked from the syntax only/);
  await ui.screenshot("31-restricted-mode");

  // The user's own action still goes to the org: Run sends the statement (and the org refuses the misspelt field).
  await page.locator(".part.editor .codelens-decoration a", { hasText: /^\s*Run$/ }).first().click();
  await ui.webview(/No such column 'Nmae'|INVALID_FIELD/);
  assert.ok(emulator.requests.slice(before).some((r) => r.path.endsWith("/query")), "the run was sent");

  // The workspace's settings are not applied: a post goes to the org's own feed, not the workspace's community.
  const postedBefore = emulator.requests.length;
  await ui.openContainer("CRM");
  await ui.expandPane("Feeds");
  await ui.waitForRow("Feeds", "My News Feed");
  assert.ok(emulator.requests.slice(postedBefore).every((r) => !r.path.includes("/connect/communities/")), "no community named by the workspace");
});
