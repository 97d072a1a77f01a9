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
  const lenses = page.locator(".part.editor .codelens-decoration");
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
});
