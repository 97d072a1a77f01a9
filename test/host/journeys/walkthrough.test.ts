/** Journey: the getting-started walkthrough — its steps with pictures, and a step completed by doing it. */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession();

journey("Get Started: four steps with pictures; trying the demo org from the first step completes it", async ({ ui, workbench }) => {
  const page = workbench.page;
  await ui.runCommand("Welcome: Open Walkthrough...");
  const picker = page.locator(".quick-input-widget:visible");
  await picker.locator(".quick-input-box input").fill("CRM Explorer");
  await picker.locator(".monaco-list-row", { hasText: "Get Started with CRM Explorer" }).first().click();
  const walkthrough = page.locator(".part.editor .gettingStartedContainer");
  await walkthrough.locator(".getting-started-category .category-title, .gettingStartedSlide .category-title", { hasText: "Get Started with CRM Explorer" }).first().waitFor({ timeout: 30_000 });
  const titles = (await walkthrough.locator(".getting-started-step .step-title").allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(titles, ["Try the demo org, or connect your own", "Browse knowledge and open an article", "Write and run a query", "Edit a record"]);
  const picture = walkthrough.locator(".getting-started-media img").first();
  await picture.waitFor({ timeout: 15_000 });
  assert.ok(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), "the step's picture loads");
  assert.match((await picture.getAttribute("alt")) ?? "", /Orgs view/);
  await ui.screenshot("32-walkthrough");

  // The first step's button starts the built-in demo org; the step is then done.
  await walkthrough.locator(".getting-started-step.expanded .monaco-button", { hasText: "Try the Demo Org" }).first().click();
  await ui.pick("Try the Demo Org", "The built-in demo org");
  await ui.openContainer("CRM");
  await ui.waitForRow("Orgs", "Demo org");
  // A done step is marked complete and its circle becomes a check.
  await page.waitForFunction(() => {
    const step = [...document.querySelectorAll(".gettingStartedContainer .getting-started-step")].find((s) => s.textContent?.includes("Try the demo org, or connect your own"));
    return !!step && (step.classList.contains("complete") || !!step.querySelector('[class*="step-checked"], .codicon-pass-filled'));
  }, undefined, { timeout: 20_000 });
  assert.ok(await walkthrough.locator(".getting-started-step", { hasText: "Browse knowledge and open an article" }).count(), "the next steps stay to do");
});
