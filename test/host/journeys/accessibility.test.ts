/**
 * Journey: the panels in both high-contrast themes, by keyboard — the grid's roles and counts, the current cell
 * announced, focus drawn in the theme's focus colour (which differs between the two themes).
 */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({ settings: { "workbench.colorTheme": "Default High Contrast" } });

/** A theme variable as the browser resolves it (rgb(…)), to compare with computed styles. */
const themeColor = (frame: Frame, variable: string) =>
  frame.evaluate((name) => {
    const probe = document.createElement("span");
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const value = getComputedStyle(probe).color;
    probe.remove();
    return value;
  }, variable);

/** Tabs from the panel's first control until the element matching `selector` has the focus; resolves the number of presses. */
async function tabTo(frame: Frame, selector: string): Promise<number> {
  for (let presses = 1; presses <= 40; presses++) {
    await frame.locator("body").press("Tab");
    if (await frame.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return presses;
  }
  throw new Error(`Tab never reaches ${selector}`);
}

async function checkResultsByKeyboard(frame: Frame): Promise<void> {
  const grid = frame.locator(".grid[role=grid]");
  assert.equal(await grid.getAttribute("aria-rowcount"), "321", "320 rows and the header");
  assert.equal(await grid.getAttribute("aria-colcount"), "3", "the row number and two columns");
  await frame.locator("input").first().focus();
  await tabTo(frame, ".grid");
  const focusBorder = await themeColor(frame, "--vscode-focusBorder");
  assert.equal(await grid.evaluate((g) => getComputedStyle(g).outlineColor), focusBorder, "the grid's focus is drawn in the theme's focus colour");
  await grid.press("ArrowDown");
  await grid.press("ArrowRight");
  const active = await grid.getAttribute("aria-activedescendant");
  assert.ok(active, "the current cell is announced");
  const cell = frame.locator(`[id="${active}"]`);
  assert.equal(await cell.getAttribute("role"), "gridcell");
  assert.equal(await cell.evaluate((c) => getComputedStyle(c).outlineColor), focusBorder, "the current cell is outlined in the focus colour");
  assert.equal(await frame.evaluate(() => getComputedStyle(document.body).color), await themeColor(frame, "--vscode-foreground"), "text in the theme's foreground");
}

journey("High contrast, dark and light: the results grid by keyboard — roles, counts, the current cell, focus in the theme's colour", async ({ ui, emulator, workbench }) => {
  await ui.addDemoOrg(emulator.url);
  await ui.runNewQuery("SELECT Id, Name FROM Contact ORDER BY Name");
  let frame = await ui.webview(/320 of 320 rows/);
  await checkResultsByKeyboard(frame);
  const darkFocus = await themeColor(frame, "--vscode-focusBorder");
  await ui.screenshot("33-high-contrast-dark");

  // From a high-contrast theme the toggle goes to the other high-contrast theme.
  await ui.runCommand("Preferences: Toggle between Light/Dark Themes");
  frame = await ui.webview(/320 of 320 rows/);
  await workbench.page.waitForFunction(() => document.body.classList.contains("hc-light") || document.querySelector(".monaco-workbench.hc-light") !== null, undefined, { timeout: 10_000 });
  const lightFocus = await themeColor(frame, "--vscode-focusBorder");
  assert.notEqual(lightFocus, darkFocus, "the panel follows the theme change");
  await checkResultsByKeyboard(frame);
  await ui.screenshot("34-high-contrast-light");
});
