/** Journey: write a query, run it from the CodeLens, read and work the results grid, export, history. */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import type { Frame } from "playwright-core";
import { workbenchSession } from "./session";

// Small pages, so the demo org's 320 contacts come in two and "Fetch All" has work to do.
const { journey } = workbenchSession({ settings: { "crm.query.pageSize": 200 } });

const QUERY = "SELECT Id, Name, Account.Name, (SELECT CaseNumber FROM Cases) FROM Contact ORDER BY Name";

const resultsFrame = (ui: { webview(text: RegExp, timeout?: number): Promise<Frame> }, rows: RegExp) => ui.webview(rows, 30_000);
const headerLabels = (frame: Frame) => frame.locator(".grid .header [role=columnheader]").allInnerTexts();
/** A row's cell texts, once the row has arrived (rows come in windows after the status line). */
async function cellsOfRow(frame: Frame, row: number): Promise<string[]> {
  const cells = frame.locator(`.grid .body .row[data-row="${row}"] [role=gridcell]`);
  await cells.first().waitFor({ timeout: 15_000 });
  // A row is drawn at once with pending cells; its values follow in the window the panel asked for.
  await frame.locator(`.grid .body .row[data-row="${row}"] [role=gridcell].pending`).first().waitFor({ state: "detached", timeout: 15_000 });
  return cells.allInnerTexts();
}

journey("Results: a query runs from the CodeLens into a grid with SELECT-order columns, flattened parents and child rows", async ({ ui, emulator }) => {
  await ui.addDemoOrg(emulator.url);
  // The CodeLens names the org the document runs on; "Run" runs the statement.
  await ui.runNewQuery(QUERY);

  const contacts = emulator.seeded.store.liveRecords("Contact");
  const frame = await resultsFrame(ui, /200 of 320 rows/);
  assert.deepEqual((await headerLabels(frame)).map((t) => t.trim()), ["#", "Id", "Name", "Account.Name", "Cases"]);
  const sorted = [...contacts].sort((a, b) => String(a.Name).localeCompare(String(b.Name)));
  const first = sorted[0]!;
  const account = emulator.seeded.store.liveRecords("Account").find((a) => a.Id === first.AccountId);
  const cells = await cellsOfRow(frame, 0);
  assert.deepEqual(cells.slice(0, 3), [first.Id, first.Name, account?.Name ?? ""].map(String));
  const cases = emulator.seeded.store.liveRecords("Case").filter((c) => c.ContactId === first.Id);
  assert.match(cells[3]!, new RegExp(`${cases.length} rows?`));
  assert.ok(await frame.locator(".grid .cell a[data-id]").first().isVisible(), "IDs are links");
  await ui.screenshot("13-results-grid");

  // Fetch All brings the second page; the status says so.
  await frame.locator("vscode-button", { hasText: "Fetch All" }).click();
  await frame.locator(".status", { hasText: "320 of 320 rows" }).waitFor({ timeout: 20_000 });
  assert.ok(!(await frame.locator("vscode-button", { hasText: "Fetch All" }).count()), "nothing more to fetch");

  // A child cell opens its nested table: the contact with the most cases.
  const withCases = sorted.findIndex((c) => emulator.seeded.store.liveRecords("Case").some((k) => k.ContactId === c.Id));
  await frame.locator(".grid").focus();
  for (let i = 0; i < withCases; i++) await frame.locator(".grid").press("ArrowDown");
  for (let i = 0; i < 3; i++) await frame.locator(".grid").press("ArrowRight");
  await frame.locator(".grid").press("Enter");
  const child = frame.locator(".grid .child table");
  await child.waitFor();
  const expected = emulator.seeded.store.liveRecords("Case").filter((k) => k.ContactId === sorted[withCases]!.Id).map((k) => String(k.CaseNumber));
  assert.deepEqual((await child.locator("tbody td").allInnerTexts()).sort(), expected.sort());
  assert.match(await child.locator("caption").innerText(), new RegExp(`Cases · ${expected.length} of ${expected.length}`));
}, 180_000);

journey("Results: sort, filter, select and copy as TSV, open an ID, export CSV exactly, history after a reload", async ({ ui, emulator, workbench, server }) => {
  const page = workbench.page;
  let frame = await resultsFrame(ui, /320 of 320 rows/);
  // Sort by Name descending (two clicks on its header), then filter.
  const nameHeader = frame.locator(".grid .header [role=columnheader]", { hasText: /^Name$/ });
  await nameHeader.locator("button.sort").click();
  await frame.locator('.grid .header [role=columnheader][aria-sort="ascending"]').waitFor();
  await nameHeader.locator("button.sort").click();
  await frame.locator('.grid .header [role=columnheader][aria-sort="descending"]').waitFor();
  const contacts = emulator.seeded.store.liveRecords("Contact");
  const last = [...contacts].sort((a, b) => String(b.Name).localeCompare(String(a.Name), undefined, { numeric: true, sensitivity: "base" }))[0]!;
  await frame.locator(".grid .body .row[data-row='0'] [role=gridcell]", { hasText: String(last.Name) }).first().waitFor();

  const lastName = String(last.LastName);
  await frame.locator("vscode-textfield.filter").locator("input").fill(lastName);
  const matching = contacts.filter((c) => String(c.Name).toLowerCase().includes(lastName.toLowerCase()) || String(c.Id).toLowerCase().includes(lastName.toLowerCase()));
  await frame.locator(".status", { hasText: `match “${lastName}”` }).waitFor();

  // Select the first two rows' Id and Name by keyboard, copy: the clipboard holds TSV with a header.
  // (The Name cell: a click on the Id cell's link would open the record.)
  await frame.locator(".grid .body .row[data-row='0'] [role=gridcell]").nth(1).click();
  await frame.locator(".grid").press("Shift+ArrowLeft");
  if (matching.length > 1) await frame.locator(".grid").press("Shift+ArrowDown");
  await frame.locator("vscode-button", { hasText: "Copy" }).click();
  await frame.locator(".notice", { hasText: /Copied \d+ rows?/ }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const lines = copied.split("\n");
  assert.equal(lines[0], "Id\tName");
  assert.equal(lines.length, Math.min(matching.length, 2) + 1);
  assert.ok(lines.slice(1).every((l) => matching.some((c) => l === `${String(c.Id)}\t${String(c.Name)}`)), copied);

  // An ID opens the record in an editor tab titled with its name.
  const [id, name] = lines[1]!.split("\t") as [string, string];
  await frame.locator(`.grid a[data-id="${id}"]`).click();
  await page.locator(".part.editor .tab.active", { hasText: name }).waitFor({ timeout: 20_000 });
  await page.locator(".part.editor .editor-group-container.active .monaco-editor .view-lines", { hasText: '"LastName"' }).waitFor({ timeout: 20_000 });

  // Export CSV from the panel: every row, streamed to the file named in the save dialog.
  // Back to the results: the panel shows what it had (no new run; the filter still applies).
  const runsBefore = emulator.requests.filter((r) => r.path.includes("/query")).length;
  await page.locator(".part.editor .tab", { hasText: "Demo org: Contact results" }).click();
  frame = await resultsFrame(ui, /320 of 320 rows · \d+ match/);
  assert.equal(emulator.requests.filter((r) => r.path.includes("/query")).length, runsBefore, "showing the panel again does not query again");
  await frame.locator("vscode-button", { hasText: "Export CSV" }).click();
  // The save dialog proposes <Object>-<time>.csv in the workspace folder; accept it.
  const dialog = page.locator(".quick-input-widget:visible .quick-input-box input");
  await dialog.waitFor();
  // (The dialog fills its input in steps: wait for the whole proposal.)
  await page.waitForFunction(() => /\.csv$/.test((document.querySelector(".quick-input-widget .quick-input-box input") as HTMLInputElement | null)?.value ?? ""), undefined, { timeout: 10_000 });
  const file = await dialog.inputValue();
  assert.match(file, new RegExp(`^${server.workspace.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/Contact-[\\d-]+\\.csv$`));
  await page.keyboard.press("Enter");
  await ui.notification(new RegExp(`Exported 320 rows to ${path.basename(file)}`));
  assert.ok(existsSync(file) && !existsSync(`${file}.part`));
  const rows = parseCsv(readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
  assert.deepEqual(Object.keys(rows[0]!), ["Id", "Name", "Account.Name", "Cases"]);
  assert.equal(rows.length, contacts.length);
  const accounts = new Map(emulator.seeded.store.liveRecords("Account").map((a) => [String(a.Id), a.Name]));
  for (const row of rows) {
    const source = contacts.find((c) => c.Id === row.Id)!;
    assert.deepEqual([row.Name, row["Account.Name"]], [String(source.Name), String(accounts.get(String(source.AccountId)) ?? "")]);
  }

  // Ctrl+Enter runs the statement under the cursor; both runs are in the history, also after a reload.
  const editorTab = page.locator(".part.editor .tab", { hasText: "Untitled" }).first();
  await editorTab.click();
  const editor = page.locator(".part.editor .editor-group-container.active .monaco-editor").first();
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText("\n\nSELECT Name FROM Account WHERE Name LIKE 'A%'");
  await page.keyboard.press("Control+Enter");
  const accountsA = emulator.seeded.store.liveRecords("Account").filter((a) => /^a/i.test(String(a.Name)));
  await resultsFrame(ui, new RegExp(`${accountsA.length} of ${accountsA.length} rows?`));
  await ui.reloadWindow();
  // The results panel comes back and runs what it showed again.
  await resultsFrame(ui, new RegExp(`${accountsA.length} of ${accountsA.length} rows?`));
  await ui.runCommand("CRM: Show Query History…");
  const history = await ui.quickInput("Query history of Demo org");
  const entries = await history.locator(".monaco-list-row").allInnerTexts();
  assert.ok(entries[0]!.startsWith("SELECT Name FROM Account WHERE Name LIKE 'A%'") && entries[0]!.includes(`${accountsA.length} row`), entries[0]);
  assert.ok(entries[1]!.startsWith(QUERY) && entries[1]!.includes("320 rows"), entries[1]);
  await page.keyboard.press("Escape");
}, 240_000);

journey("Results: the Tooling API toggle runs the document on the Tooling API; a search opens the grid with each row's object", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.runCommand("CRM: New SOQL Query");
  await ui.typeInEditor("SELECT Id, Name FROM ApexClass ORDER BY Name");
  const lenses = page.locator(".part.editor .editor-group-container.active .codelens-decoration");
  await lenses.locator("a", { hasText: /^\s*Data API$/ }).first().click();
  // The document's status item says so while the document is the active editor (the results panel takes focus).
  await ui.statusBarText(/Tooling API/);
  await lenses.locator("a", { hasText: /Run on Tooling API/ }).first().click();
  const classes = emulator.seeded.tooling.liveRecords("ApexClass").map((c) => String(c.Name)).sort();
  const frame = await ui.webview(new RegExp(`Tooling API query[\\s\\S]*${classes.length} of ${classes.length} rows`));
  await frame.locator(".grid .body .row[data-row='0'] [role=gridcell]", { hasText: classes[0]! }).waitFor();

  // A statement the org refuses: the panel says why and shows the statement it ran.
  await page.locator(".part.editor .tab", { hasText: "Untitled" }).last().click();
  await ui.typeInEditor("SELECT Id, Nme FROM ApexClass");
  await page.keyboard.press("Control+Enter");
  const refused = await ui.webview(/No such column 'Nme'/);
  assert.equal((await refused.locator("pre.statement").innerText()).trim(), "SELECT Id, Nme FROM ApexClass");
  // A refused statement on another object: the tab names the object of the statement that failed, not the last that ran.
  await page.locator(".part.editor .tab", { hasText: "Untitled" }).last().click();
  await ui.typeInEditor("SELECT Id FROM NoSuchObject__c");
  await page.keyboard.press("Control+Enter");
  await page.locator(".part.editor .tab", { hasText: "NoSuchObject__c results" }).waitFor({ timeout: 15_000 });
  assert.ok(!(await ui.tabs()).some((t) => /ApexClass results/.test(t)), (await ui.tabs()).join(", "));
  // …and so does the panel's own heading (every message reaches the panel, in order, once it is ready).
  const failedPanel = await ui.webview(/NoSuchObject__c results[\s\S]*SELECT Id FROM NoSuchObject__c/);
  assert.match(await failedPanel.locator("header h1").innerText(), /NoSuchObject__c results/);
  // Back to the document: keys typed in a webview stay in the webview.
  await page.locator(".part.editor .tab", { hasText: "Untitled" }).last().click();

  await ui.runCommand("CRM: Run SOSL Search…");
  await ui.answer("Search the org (SOSL)", "Acme");
  const search = await ui.webview(/SOSL search[\s\S]*rows?/);
  assert.equal((await headerLabels(search))[1]?.trim(), "Type");
  const [type = ""] = await cellsOfRow(search, 0);
  assert.ok(["Account", "Contact", "Case", "Knowledge__kav"].includes(type.trim()), type);
});

journey("Results: an export of 60,000 rows runs as a Bulk API job with its progress shown; a cancelled one aborts the job and leaves no file", async ({ ui, emulator, workbench, server }) => {
  const page = workbench.page;
  await ui.runCommand("CRM: New SOQL Query");
  await ui.typeInEditor("SELECT Id, Name, Note__c FROM Usage_Event__c");
  await page.keyboard.press("Control+Enter");
  const frame = await resultsFrame(ui, /200 of 60,000 rows/);
  const toast = (text: RegExp) => page.locator(".notifications-toasts .notification-list-item", { hasText: text }).first();
  const exportTo = async (name?: string) => {
    await frame.locator("vscode-button", { hasText: "Export CSV" }).click();
    const dialog = page.locator(".quick-input-widget:visible .quick-input-box input");
    await dialog.waitFor();
    await page.waitForFunction(() => /\.csv$/.test((document.querySelector(".quick-input-widget .quick-input-box input") as HTMLInputElement | null)?.value ?? ""), undefined, { timeout: 10_000 });
    if (name) await dialog.fill(path.join(server.workspace, name));
    const file = await dialog.inputValue();
    await page.keyboard.press("Enter");
    return file;
  };

  const jobsBefore = emulator.requests.filter((r) => r.method === "POST" && /\/jobs\/query$/.test(r.path)).length;
  const file = await exportTo();
  await toast(/Bulk API job/).waitFor({ timeout: 20_000 }); // the progress names the job's state
  await ui.notification(/Exported 60,000 rows to /);
  assert.equal(emulator.requests.filter((r) => r.method === "POST" && /\/jobs\/query$/.test(r.path)).length - jobsBefore, 1, "one Bulk query job");
  const lines = readFileSync(file, "utf8").trimEnd().split("\r\n");
  assert.equal(lines.length, 60_001);
  assert.equal(lines[0], "Id,Name,Note__c");
  assert.match(lines[1]!, /^a0U\w{15},Row 0000001,"Said ""hello, world"" at 0"$/);

  // Cancelled while the job runs: the job is aborted at the org and no file is left.
  const cancelled = await exportTo("cancelled-export.csv");
  const progress = toast(/Bulk API job/);
  await progress.waitFor({ timeout: 20_000 });
  await progress.hover();
  await progress.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
  await ui.notification(/Export cancelled; no file was written/);
  assert.ok(!existsSync(cancelled) && !existsSync(`${cancelled}.part`));
  assert.ok(emulator.requests.some((r) => r.method === "PATCH" && /\/jobs\/query\/\w+$/.test(r.path) && /Aborted/.test(r.body)), "the job was aborted at the org");
});
