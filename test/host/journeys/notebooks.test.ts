/**
 * Journeys: CRM notebooks in code-server — a notebook made from the palette, a GROUP BY written with completion,
 * run, charted from the output's toolbar, saved, closed and reopened with its chart; Run All asking a bind once
 * and keeping it; a report exported with its chart as SVG; hostile values from the org shown as text.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { parseNotebook } from "../../../src/notebooks/notebookFile";
import type { Driver } from "../workbench";
import { workbenchSession } from "./session";

const HOSTILE = `<img src=x onerror=alert(1)> ${"very long origin ".repeat(12)}`;

const { journey } = workbenchSession({
  setup: async ({ ui, emulator }) => {
    // A web form wrote this origin: markup and a label far longer than a chart's axis.
    for (const subject of ["Hostile one", "Hostile two"]) emulator.seeded.store.insert("Case", { Subject: subject, Origin: HOSTILE, Status: "New" }, emulator.seeded.adminId);
    await ui.addDemoOrg(emulator.url);
  },
  workspaceFiles: {
    "by-status.crmnb": [
      "crmnb: 1", "cells:",
      "  - kind: markdown", "    source: '# Cases of one status'",
      "  - kind: soql", "    source: SELECT COUNT() FROM Case WHERE Status = :status",
      "  - kind: soql", "    source: SELECT Priority, COUNT(Id) n FROM Case WHERE Status = :status GROUP BY Priority ORDER BY Priority",
      "    chart: { type: donut, x: Priority, values: [n] }", "",
    ].join("\n"),
  },
});

/** The code cell's editor at `index` among the notebook's code cells. */
const codeCell = (page: Page, index: number): Locator => page.locator(".notebook-editor .cell.code .monaco-editor").nth(index);

/** Waits for a Run All's `cells` queries to reach the org (counted from `before`) and for VS Code to show no cell still running. */
async function runEnded(page: Page, ui: { eventually: <T>(what: string, check: () => T | Promise<T>, timeout?: number) => Promise<unknown> }, requests: () => { path: string }[], before: number, cells: number): Promise<void> {
  await ui.eventually("the run's queries", () => requests().slice(before).filter((r) => r.path.includes("/query")).length >= cells, 30_000);
  await ui.eventually("no cell running", async () => (await page.locator(".notebook-editor .codicon-modifier-spin").count()) === 0, 30_000);
}

/**
 * A notebook's first run may ask for its kernel: the CRM controller (the one for .crmnb files) is picked when VS Code's
 * kernel picker shows before `shown` (what the run shows) resolves, and never after: a waiter left behind would click a
 * row starting with "CRM" in whatever the next quick input is (the palette's list of commands).
 */
async function pickingKernel<T>(page: Page, ui: Driver, shown: Promise<T>): Promise<T> {
  const picker = page.locator(".quick-input-widget:visible", { has: page.locator(".quick-input-title", { hasText: /Select Kernel/ }) });
  let decided = false;
  const picking = ui.eventually("the run's output or VS Code's kernel picker", async () => {
    if (decided) return true;
    const kernel = picker.locator(".monaco-list-row", { hasText: /^CRM/ }).first();
    if (!(await kernel.isVisible())) return false;
    await kernel.click();
    return true;
  }, 40_000);
  try {
    return await shown;
  } finally {
    decided = true;
    await picking.catch(() => undefined);
  }
}

/** Saves through the save dialog (code-server's own, in the quick input) at `file`, and waits until `written` says the file is whole. */
async function saveAs(page: Page, ui: { eventually: <T>(what: string, check: () => T | Promise<T>) => Promise<unknown> }, file: string, written: () => boolean | Promise<boolean>): Promise<void> {
  const dialog = page.locator(".quick-input-widget:visible .quick-input-box input");
  await dialog.waitFor();
  // The dialog fills its input in steps, ending with a proposed name; what is typed before then is overwritten.
  await ui.eventually("the save dialog to propose a file", async () => /\/[^/]+$/.test(await dialog.inputValue()));
  await dialog.fill(file);
  await page.keyboard.press("Enter");
  await ui.eventually(`${file} to be written`, async () => existsSync(file) && (await written()));
}

journey("Notebooks: made from the palette, a GROUP BY written with completion, run, charted as bars, saved, closed and reopened with its chart", async ({ ui, emulator, workbench, server }) => {
  const page = workbench.page;
  await ui.runCommand("CRM: New Notebook");
  await codeCell(page, 0).waitFor({ timeout: 30_000 });
  await codeCell(page, 0).click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText("SELECT Origin, COUNT(Id) n FROM Case GROUP BY Ori");
  // Completion knows Case's fields on the notebook's org (the active org).
  await page.keyboard.press("Control+Space");
  const suggestion = page.locator(".suggest-widget .monaco-list-row", { hasText: /^Origin/ }).first();
  await suggestion.waitFor({ timeout: 20_000 });
  await suggestion.click();
  // The editor draws spaces as no-break spaces.
  await ui.eventually("the completed statement", async () => (await codeCell(page, 0).innerText()).replace(/\u00a0/g, " ").includes("GROUP BY Origin"));

  await page.locator(".notebook-editor .code-cell-row").first().locator(".run-button-container .action-label").first().click();
  const cases = emulator.seeded.store.liveRecords("Case");
  const origins = new Set(cases.map((c) => c.Origin ?? null));
  const rowsSaid = new RegExp(`Demo org · ${origins.size} rows`);
  const output = await pickingKernel(page, ui, ui.notebookOutput(rowsSaid, 40_000));

  // The compact table first: the hostile origin is text in its cell, no element made of it.
  const hostileCell = output.locator("td", { hasText: "<img src=x onerror=alert(1)>" });
  assert.equal((await hostileCell.innerText()).trim(), HOSTILE.trim());
  assert.equal(await output.locator("img").count(), 0, "no image from the org's text");

  // A bar chart from the toolbar: drawn at once, by keyboard too (the toolbar is one tab stop; arrows move in it).
  await output.locator("[role=toolbar] button", { hasText: /^Bar$/ }).click();
  await output.locator(".chart svg").waitFor({ timeout: 15_000 });
  assert.equal(await output.locator("[role=toolbar] button[aria-pressed=true]").innerText(), "Bar");
  assert.match(await output.locator(".chart").getAttribute("aria-label") ?? "", /Bar chart of n by Origin/);
  const labels = await output.locator(".chart svg text").allTextContents();
  assert.ok(labels.some((t) => t.startsWith("<img src=x on")), `the hostile origin is an axis label, as text: ${labels.join(" | ")}`);
  assert.ok(labels.every((t) => t.length <= 81), "a long label is cut on the axis (the table has it whole)");
  assert.equal(await output.locator("svg image, svg foreignObject").count(), 0);
  // By keyboard: the pressed button holds the toolbar's tab stop; arrows move along it, Enter chooses.
  const pressed = output.locator("[role=toolbar] button[aria-pressed=true]");
  assert.equal(await pressed.getAttribute("tabindex"), "0");
  await pressed.focus();
  await pressed.press("ArrowRight");
  await output.locator("[role=toolbar] button", { hasText: /^Stacked bar$/ }).press("ArrowRight");
  await output.locator("[role=toolbar] button", { hasText: /^Line$/ }).press("Enter");
  await output.locator("[role=toolbar] button[aria-pressed=true]", { hasText: /^Line$/ }).waitFor({ timeout: 15_000 });
  const focus = await output.locator("[role=toolbar] button[aria-pressed=true]").evaluate((e) => (e === document.activeElement ? "" : `${document.activeElement?.outerHTML.slice(0, 120)} (has focus: ${document.hasFocus()})`));
  assert.equal(focus, "", "the keyboard stays on the chosen button");
  await output.locator("[role=toolbar] button", { hasText: /^Bar$/ }).click();
  await output.locator("[role=toolbar] button[aria-pressed=true]", { hasText: /^Bar$/ }).waitFor({ timeout: 15_000 });
  await output.locator("details summary", { hasText: "Data table" }).click();
  assert.equal(await output.locator("details table tbody tr").count(), origins.size);
  // Back to the cell, as a mouse user does, before the palette (F1 typed while Playwright holds the focus inside the output's webview does not reach the workbench).
  // The output's webview tells the notebook it has the focus by a message: once the notebook marks the output focused,
  // no late message of it can take the focus back from the cell clicked next.
  await ui.eventually("the notebook to know its output has the focus", async () => (await page.locator(".notebook-editor .cell-output-focus").count()) > 0);
  await codeCell(page, 0).click();
  await ui.eventually("the notebook to move its focus to the cell's editor", async () =>
    (await page.locator(".notebook-editor .cell-output-focus").count()) === 0 && (await page.locator(".notebook-editor .cell-editor-focus").count()) > 0);
  await ui.runCommand("Notifications: Clear All Notifications");
  await ui.screenshot("49-notebook-chart");

  const file = path.join(server.workspace, "origins.crmnb");
  await ui.runCommand("File: Save");
  // Written once VS Code shows the file in the tab: it may exist, empty, a moment before that.
  await saveAs(page, ui, file, async () => (await page.locator(".tab.active", { hasText: "origins.crmnb" }).count()) > 0);
  const saved = parseNotebook(readFileSync(file, "utf8"));
  assert.deepEqual(saved.cells[1]!.chart, { type: "bar", x: "Origin", values: ["n"] }, "the chart chosen is kept with its question");
  assert.equal(saved.cells[1]!.output?.rows, origins.size);

  // Closed and opened again: the chart comes back from the file, before anything runs.
  const requests = emulator.requests.length;
  await ui.runCommand("View: Close Editor");
  await page.locator(".notebook-editor").waitFor({ state: "detached", timeout: 15_000 });
  await ui.openFile("origins.crmnb");
  const reopened = await ui.notebookOutput(rowsSaid);
  await reopened.locator(".chart svg").waitFor({ timeout: 15_000 });
  assert.equal(await reopened.locator("[role=toolbar] button[aria-pressed=true]").innerText(), "Bar");
  assert.equal(emulator.requests.filter((r, i) => i >= requests && r.path.includes("/query")).length, 0, "reopening sends no query");

  // The theme's colours: switched to the dark theme, the chart is drawn again in its chart colours.
  const fills = () => reopened.locator(".chart svg path[fill]").evaluateAll((paths) => paths.map((p) => p.getAttribute("fill")).join(" "));
  const light = await fills();
  await ui.runCommand("Preferences: Toggle between Light/Dark Themes");
  await ui.eventually("the chart in the dark theme's colours", async () => (await fills()) !== light, 15_000);
  await ui.runCommand("Preferences: Toggle between Light/Dark Themes");
  await ui.eventually("the chart in the light theme's colours again", async () => {
    const now = await fills();
    if (now !== light) throw new Error(`drawn in ${now}, first drawn in ${light}; body ${await reopened.evaluate(() => document.body.className)}`);
    return true;
  }, 15_000);
}, 240_000);

journey("Notebooks: Run All asks a bind once and keeps it in the notebook; a changed value runs again; the report has the chart as SVG", async ({ ui, emulator, workbench, server }) => {
  const page = workbench.page;
  await ui.openFile("by-status.crmnb");
  await codeCell(page, 1).waitFor({ timeout: 30_000 });
  await ui.runCommand("Notebook: Run All");
  await pickingKernel(page, ui, ui.quickInput("Value for :status (1 of 1)", 40_000));
  await ui.answer("Value for :status (1 of 1)", "New");

  const cases = emulator.seeded.store.liveRecords("Case");
  const isNew = cases.filter((c) => c.Status === "New");
  const priorities = new Set(isNew.map((c) => c.Priority ?? null));
  await ui.notebookOutput(new RegExp(`Demo org · ${isNew.length} rows`));
  const chart = await ui.notebookOutput(new RegExp(`Demo org · ${priorities.size} rows?`));
  await chart.locator(".chart svg").waitFor({ timeout: 15_000 });

  // Saved, the bind is the notebook's; a second Run All asks nothing.
  await ui.runCommand("File: Save");
  await ui.eventually("the bind saved in the file", () => parseNotebook(readFileSync(path.join(server.workspace, "by-status.crmnb"), "utf8")).binds.status === "New");
  const before = emulator.requests.length;
  await ui.runCommand("Notebook: Run All");
  await runEnded(page, ui, () => emulator.requests, before, 2);
  assert.equal(await page.locator(".quick-input-widget:visible .quick-input-title", { hasText: "Value for :status" }).count(), 0, "the kept value is not asked again");

  // Another value, through the notebook's toolbar command: the next run uses it.
  // From the notebook's own toolbar (a click: the palette's Enter can land on the picker it opens).
  const toolbarAction = (title: string) => page.locator(`.notebook-toolbar-container [aria-label^="${title}"]:visible`).first();
  await toolbarAction("Set Notebook Bind Values").click();
  await ui.answer("Value for :status (1 of 1)", "Closed");
  const third = emulator.requests.length;
  await ui.runCommand("Notebook: Run All");
  const closed = cases.filter((c) => c.Status === "Closed");
  await ui.notebookOutput(new RegExp(`Demo org · ${closed.length} rows`));
  await runEnded(page, ui, () => emulator.requests, third, 2);

  // The report: the notebook as it stands, its chart as SVG, no script.
  await toolbarAction("Export Notebook Report").click();
  await ui.pick("Export the notebook's report as", "HTML page");
  const report = path.join(server.workspace, "by-status.html");
  await saveAs(page, ui, report, () => readFileSync(report, "utf8").trimEnd().endsWith("</html>"));
  const html = readFileSync(report, "utf8");
  assert.equal(html.match(/<svg /g)?.length, 1, "the donut, drawn");
  assert.match(html, /<figure role="img" aria-label="donut chart of n by Priority">/);
  assert.doesNotMatch(html, /<script/);
}, 240_000);
