/** Journey: the query workbench — Explain shows a statement's plan beside the results and warns in the editor. */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession();

journey("Workbench: Explain on an unfiltered Task query shows its table-scan plan and warns on the statement", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.addDemoOrg(emulator.url);
  await ui.runCommand("CRM: New SOQL Query");
  await ui.statusBarText(/^SOQL$/);
  await ui.typeInEditor("SELECT Id, Subject, Status FROM Task");
  const lenses = page.locator(".part.editor .editor-group-container.active .codelens-decoration");
  await lenses.filter({ hasText: "Demo org" }).first().waitFor({ timeout: 20_000 });
  const before = emulator.requests.length;
  await lenses.locator("a", { hasText: /Explain/ }).first().click();
  const frame = await ui.webview(/Query plan/, 30_000);
  await frame.locator("table.plans tr.used", { hasText: "TableScan" }).waitFor();
  assert.match(await frame.locator(".plan-advice").innerText(), /Full table scan of Task \(150,000 rows\)/);
  assert.match(await frame.locator(".message").innerText(), /Explained, not run/);
  assert.ok(!emulator.requests.slice(before).some((r) => r.path.endsWith("/query") && /(^|[?&])q=/.test(r.query)), "no rows were read");
  // The editor marks the statement with the plan's warnings.
  await page.locator(".part.editor .tab", { hasText: "Untitled" }).first().click();
  await page.locator(".part.editor .monaco-editor .squiggly-warning").first().waitFor({ timeout: 15_000 });
  await page.keyboard.press("Control+Shift+M");
  await page.locator(".markers-panel .monaco-list-row", { hasText: /Full table scan of Task/ }).first().waitFor({ timeout: 15_000 });
  await ui.screenshot("24-explain-plan");
  await page.keyboard.press("Control+J"); // the panel closes again
});

journey("Workbench: a query saved to the library (name, org, tags) runs with a bind value, asked for and remembered", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.runCommand("CRM: New SOQL Query");
  await ui.statusBarText(/^SOQL$/);
  await ui.typeInEditor("SELECT Id, LastName, Title FROM Contact WHERE LastName = :lastName ORDER BY Id");
  await ui.runCommand("CRM: Save Query to Library…");
  await ui.answer("Save Query to Library (1/3)", "Contacts by last name");
  await ui.answer("Save Query to Library (2/3)", "support, people");
  await ui.answer("Save Query to Library (3/3)", "Everyone with one last name.");
  await page.locator(".part.editor .tab.active", { hasText: "contacts-by-last-name.soql" }).waitFor({ timeout: 15_000 });
  await page.locator(".part.editor .monaco-editor .view-lines", { hasText: "// name: Contacts by last name" }).waitFor();
  // (The editor draws spaces as non-breaking ones.)
  assert.match((await page.locator(".part.editor .monaco-editor .view-lines").first().innerText()).replace(/\u00a0/g, " "), /\/\/ org: Demo org[\s\S]*\/\/ tags: support, people/);
  const lenses = page.locator(".part.editor .editor-group-container.active .codelens-decoration");
  await lenses.filter({ hasText: "Demo org" }).first().waitFor({ timeout: 20_000 });
  await lenses.locator("a", { hasText: /^\s*Run$/ }).first().click();
  await ui.answer("Value for :lastName", "Allen");
  const allens = emulator.seeded.store.liveRecords("Contact").filter((c) => c.LastName === "Allen").length;
  const frame = await ui.webview(new RegExp(`${allens} of ${allens} rows?`), 30_000);
  assert.ok(await frame.locator(".grid").isVisible());
  // Run again: the last value is offered.
  await page.locator(".part.editor .tab", { hasText: "contacts-by-last-name.soql" }).click();
  await lenses.locator("a", { hasText: /^\s*Run$/ }).first().click();
  const box = await ui.quickInput("Value for :lastName");
  assert.equal(await box.locator(".quick-input-box input").inputValue(), "Allen");
  await page.keyboard.press("Escape");
  await ui.screenshot("25-saved-query");
});

journey("Workbench: the Queries view lists the library and the org's history, filters both, and saves a history entry into the library", async ({ ui }) => {
  await ui.openContainer("CRM");
  await ui.expandPane("Queries");
  await ui.waitForRow("Queries", "Contacts by last name", /Demo org · support, people/);
  await ui.expandRow("Queries", "History — Demo org");
  await ui.waitForRow("Queries", "SELECT Id, LastName, Title FROM Contact WHERE LastName = 'Allen' ORDER BY Id");
  await ui.viewAction("Queries", "Filter Queries");
  await ui.answer("Filter Queries", "allen");
  await ui.waitForRow("Queries", "Library", /0 saved queries matching “allen”/);
  const rows = (await ui.rows("Queries")).map((r) => r.label);
  assert.ok(rows.includes("SELECT Id, LastName, Title FROM Contact WHERE LastName = 'Allen' ORDER BY Id"), rows.join(" | "));
  assert.ok(!rows.includes("Contacts by last name"), "the saved query (bound by :lastName) does not mention allen");
  await ui.contextMenu("Queries", "SELECT Id, LastName, Title FROM Contact WHERE LastName = 'Allen' ORDER BY Id", "Save to Library…");
  await ui.answer("Save Query to Library (1/3)", "The Allens");
  await ui.answer("Save Query to Library (2/3)", "");
  await ui.answer("Save Query to Library (3/3)", "");
  await ui.page.locator(".part.editor .tab.active", { hasText: "the-allens.soql" }).waitFor({ timeout: 15_000 });
  await ui.waitForRow("Queries", "The Allens");
  await ui.screenshot("26-queries-view");
});

journey("Workbench: two Accounts compared side by side, one field copied across with the diff editor's arrow and saved to the org", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const accounts = emulator.seeded.store.liveRecords("Account").filter((a) => a.Phone && a.BillingCity).slice(0, 2);
  const [left, right] = accounts;
  assert.notEqual(left!.BillingCity, right!.BillingCity);
  // The two differ in one field only (a sandbox copy of a record, say): the diff shows that one block.
  for (const field of ["OwnerId", "Name", "Type", "Industry", "BillingCountry", "Phone", "Website", "AnnualRevenue", "NumberOfEmployees", "ParentId", "Description"]) right![field] = left![field];
  left!.AccountNumber = null;
  right!.AccountNumber = null;
  // The diff needs the width for its side-by-side view: the earlier runs' results sit in a group beside.
  await ui.runCommand("View: Single Column Editor Layout");
  await ui.runCommand("CRM: Compare Records…");
  await ui.answer("Compare Records (1/2)", String(left!.Id));
  await ui.answer("Compare Records (2/2)", String(right!.Id));
  const diff = page.locator(".part.editor .monaco-diff-editor").first();
  await diff.waitFor({ timeout: 20_000 });
  await page.locator(".part.editor .tab.active", { hasText: /\(1 differing field first\)/ }).waitFor({ timeout: 15_000 });
  const modified = diff.locator(".editor.modified");
  const line = modified.locator(".view-line", { hasText: String(right!.BillingCity) }).first();
  await line.waitFor({ timeout: 20_000 });
  await diff.locator(".editor.original .view-line", { hasText: String(left!.BillingCity) }).first().waitFor();
  await ui.screenshot("27-compare-records");
  // The differing block's arrow (between the two sides) copies the left value into the editable right side.
  await line.hover();
  const arrow = diff.locator('.codicon-arrow-right[aria-label="Revert Block"]').first();
  await arrow.waitFor({ timeout: 10_000 });
  await arrow.click();
  await modified.locator(".view-line", { hasText: String(left!.BillingCity) }).first().waitFor({ timeout: 10_000 });
  await modified.locator(".view-line", { hasText: String(left!.BillingCity) }).first().click();
  await page.keyboard.press("Control+S");
  const store = emulator.seeded.store;
  const savedCity = () => store.liveRecords("Account").find((a) => a.Id === right!.Id)!.BillingCity;
  await ui.eventually("the copied value to be saved to the org", () => savedCity() === left!.BillingCity, 20_000);
  const saved = store.liveRecords("Account").find((a) => a.Id === right!.Id)!;
  assert.equal(saved.BillingCity, left!.BillingCity, "the copied value was saved to the org");
});
