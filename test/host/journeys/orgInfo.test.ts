/** Journey: Org Info shows the org's limits as bars (most used first) and its user; keyboard refresh; restored after a reload. */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession();

journey("Org Info: limits as labelled bars, the current user, keyboard refresh, one tab per org, back after a reload", async ({ ui, emulator, workbench }) => {
  const cspViolations: string[] = [];
  workbench.page.on("console", (m) => /Content Security Policy|Refused to/.test(m.text()) && cspViolations.push(m.text()));
  await ui.addDemoOrg(emulator.url);
  assert.ok((await ui.contextMenuEntries("Demo org")).includes("Show Org Info (Limits and User)"), "offered on the org's context menu");

  await ui.runCommand("CRM: Show Org Info (Limits and User)");
  const frame = await ui.webview("Daily Workflow Emails");
  const rows = frame.locator("ul.limits li");
  const first = await rows.first().innerText();
  assert.match(first, /^Daily Workflow Emails\s+378 \/ 390 · 97%/, "the most used limit comes first, with used / max and percentage");
  assert.equal(await rows.first().getAttribute("class"), "critical", "a limit nearly used up stands out");
  const api = frame.locator('[role="meter"][aria-label="Daily API Requests"]');
  assert.equal(await api.getAttribute("aria-valuemax"), "15000");
  const facts = await frame.locator("dl.facts").innerText();
  assert.match(facts, new RegExp(`Username\\s+${emulator.credentials.username.replace(/\./g, "\\.")}`));
  assert.match(facts, /API version\s+62\.0/);
  await ui.screenshot("10-org-info");

  // Keyboard only: filter, then Refresh reads the limits again.
  const limitCalls = () => emulator.requests.filter((r) => r.path.endsWith("/limits")).length;
  const before = limitCalls();
  await frame.locator("vscode-textfield.filter").click();
  await workbench.page.keyboard.type("email");
  assert.deepEqual((await rows.evaluateAll((lis) => lis.filter((li) => !(li as HTMLElement).hidden).map((li) => li.querySelector("span")!.textContent))).sort(), ["Daily Workflow Emails", "Mass Email", "Single Email"]);
  await frame.locator("vscode-button", { hasText: "Refresh" }).focus();
  await workbench.page.keyboard.press("Enter");
  await ui.eventually("Refresh to read the limits", () => limitCalls() > before, 10_000);
  assert.equal(limitCalls(), before + 1, "Refresh reads the limits once more");

  // Reopening reveals the same panel rather than a second one.
  await ui.runCommand("CRM: Show Org Info (Limits and User)");
  await workbench.page.waitForTimeout(500);
  assert.equal((await ui.tabs()).filter((t) => t === "Demo org: Org Info").length, 1);

  await ui.reloadWindow();
  await ui.webview("Daily Workflow Emails", 60_000);
  assert.ok((await ui.tabs()).includes("Demo org: Org Info"), "the panel is restored for the same org");
  assert.deepEqual(cspViolations, [], "nothing the panel loads breaks its CSP");
}, 180_000);
