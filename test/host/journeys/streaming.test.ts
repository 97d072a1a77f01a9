/**
 * Journeys: the results grid while 10,000 rows stream in, and the same query run twice quickly. Every click,
 * selection and edit lands the first time (the grid is patched as rows arrive, never built again under the
 * pointer); no step is tried twice.
 */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { workbenchSession } from "./session";

const STREAMED = 10_000;

const { journey } = workbenchSession({
  settings: { "crm.query.pageSize": 200 },
  setup: async ({ ui, emulator }) => {
    const store = emulator.seeded.store;
    const owner = String(store.liveRecords("User")[0]!.Id);
    for (let i = 0; i < STREAMED; i++) store.insert("Contact", { LastName: `Stream ${String(i).padStart(5, "0")}`, Title: "Streamed" }, owner);
    await ui.addDemoOrg(emulator.url);
  },
});

const QUERY = "SELECT Id, LastName, Title FROM Contact WHERE Title = 'Streamed' ORDER BY LastName";
const cell = (frame: Frame, row: number, pos: number) => frame.locator(`.grid .body .row[data-row="${row}"] [role=gridcell][aria-colindex="${pos + 2}"]`);

journey("Grid: a click, a selection and an edit while 10,000 rows stream in each land once and stay; the edit commits", async ({ ui, emulator }) => {
  await ui.runNewQuery(QUERY);
  const frame = await ui.webview(/200 of 10,000 rows/);
  const fetched = async () => Number((/Fetching… ([\d,]+) of/.exec(await frame.locator(".status").innerText())?.[1] ?? "0").replace(/,/g, ""));
  /** Waits until at least one more page has arrived (the grid is patched under what the person does). */
  const aPageArrives = async () => {
    const now = await fetched();
    await ui.eventually("another page of rows", async () => (await fetched()) > now);
  };
  // Every page takes a quarter of a second: the 10,000 rows arrive over about twelve seconds.
  emulator.setFault("latencyMs", 250);
  try {
    await frame.locator("vscode-button", { hasText: "Fetch All" }).click();
    await frame.locator(".status", { hasText: "Fetching…" }).waitFor();

    // A click and a Shift+click select rows 2–4 of LastName and Title; pages keep coming.
    await cell(frame, 1, 1).click();
    await cell(frame, 3, 2).click({ modifiers: ["Shift"] });
    await aPageArrives();
    assert.equal(await frame.locator(".grid .body [role=gridcell].selected").count(), 6, "the selection survives new rows");
    assert.equal(await cell(frame, 3, 2).getAttribute("aria-selected"), "true", "the active cell too");

    // An editor opened on a Title stays open, with what is typed, while another page arrives.
    await cell(frame, 5, 2).dblclick();
    const editor = cell(frame, 5, 2).locator(".editor");
    await editor.fill("Edited while streaming");
    await aPageArrives();
    assert.equal(await editor.inputValue(), "Edited while streaming");
    assert.ok(await editor.evaluate((node) => node === document.activeElement), "the editor keeps the focus");
    await editor.press("Enter");
    await frame.locator(".staged-count", { hasText: "1 staged edit in 1 record" }).waitFor();
    assert.match(await frame.locator(".status").innerText(), /Fetching…/, "all of it happened while rows were still arriving");
  } finally {
    emulator.setFault("latencyMs", 0);
  }
  await frame.locator(".status", { hasText: "10,000 of 10,000 rows" }).waitFor({ timeout: 60_000 });
  assert.equal((await cell(frame, 5, 2).innerText()).trim(), "Edited while streaming");
  assert.equal(await cell(frame, 6, 2).getAttribute("aria-selected"), "true", "Enter moved to the next row, and it is still there");

  const target = emulator.seeded.store.liveRecords("Contact").find((c) => c.LastName === "Stream 00005")!;
  assert.equal(target.Title, "Streamed", "staged, not sent");
  await frame.locator("vscode-button", { hasText: "Commit" }).click();
  await frame.locator(".notice", { hasText: "1 record saved." }).waitFor({ timeout: 20_000 });
  assert.equal(target.Title, "Edited while streaming");
}, 180_000);

journey("Results: the same query run twice quickly shows the second run in one panel, whose first click lands", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const runs = () => emulator.requests.filter((r) => r.method === "GET" && r.path.endsWith("/query")).length;
  const before = runs();
  const panels = async () => (await ui.tabs()).filter((t) => /Contact results/.test(t)).length;
  const panelsBefore = await panels();
  // Each answer takes a moment, so the second run starts while the first is still on its way.
  emulator.setFault("latencyMs", 150);
  try {
    // Run (its CodeLens), and Run again at once (the results took the focus: the lens of the document's own group).
    await ui.runNewQuery("SELECT LastName, Id FROM Contact WHERE Title = 'Streamed' ORDER BY LastName LIMIT 300");
    // The first run opens its panel in a new group beside the document at once: the lens is clicked where the
    // layout leaves it (a click aimed before the group splits lands wherever the lens moved from).
    await ui.eventually("the first run's panel to open", async () => (await panels()) > panelsBefore);
    const documentGroup = page.locator(".part.editor .editor-group-container", { has: page.locator(".tab.active", { hasText: /^SELECT LastName, Id/ }) });
    await documentGroup.locator(".codelens-decoration a", { hasText: /^\s*Run$/ }).first().click();
    const frame = await ui.webview(/200 of 300 rows/);
    await ui.eventually("both runs to reach the org", () => runs() - before >= 2);
    assert.equal((await panels()) - panelsBefore, 1, "one results panel for the document");
    await cell(frame, 2, 0).click();
    assert.equal(await cell(frame, 2, 0).getAttribute("aria-selected"), "true", "the first click selects");
    assert.equal((await cell(frame, 2, 0).innerText()).trim(), "Stream 00002");
  } finally {
    emulator.setFault("latencyMs", 0);
  }
});

journey("Results: two documents run at once (one panel opening while another is revealed): both panels paint their rows", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  emulator.setFault("latencyMs", 150);
  try {
    // A new document's run opens a new panel; the first document's Run reveals its panel while that one starts.
    await ui.runNewQuery("SELECT Title, LastName FROM Contact WHERE Title = 'Streamed' ORDER BY LastName LIMIT 250");
    const firstDocument = page.locator(".part.editor .editor-group-container", { has: page.locator(".tab.active", { hasText: /^SELECT Id, LastName, Title/ }) });
    await firstDocument.locator(".codelens-decoration a", { hasText: /^\s*Run$/ }).first().click();
    await ui.webview(/200 of 250 rows/);
    await ui.webview(/200 of 9,999 rows/);
  } finally {
    emulator.setFault("latencyMs", 0);
  }
});
