/**
 * Journey: edit query results in the grid — three cells of different types (text, picklist, date), review,
 * commit; a refused row keeps its edit; a row changed in the org meanwhile is not overwritten; the commit is
 * reverted from the write history; two rows are deleted after confirming.
 */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { workbenchSession } from "./session";

const { journey } = workbenchSession();

const QUERY = "SELECT Id, LastName, Title, LeadSource, Birthdate FROM Contact ORDER BY LastName LIMIT 6";

const cell = (frame: Frame, row: number, column: string) =>
  frame.locator(`.grid .body .row[data-row="${row}"] [role=gridcell][aria-colindex="${["Id", "LastName", "Title", "LeadSource", "Birthdate"].indexOf(column) + 2}"]`);

/** Opens a cell's editor with a double-click and returns it. */
async function editCell(frame: Frame, row: number, column: string) {
  const target = cell(frame, row, column);
  await target.waitFor();
  await frame.locator(`.grid .body .row[data-row="${row}"] [role=gridcell].pending`).first().waitFor({ state: "detached", timeout: 15_000 });
  await target.dblclick();
  const editor = target.locator(".editor");
  await editor.waitFor();
  return editor;
}

journey("Grid: three cells of different types staged, reviewed and committed; a refused row keeps its edit; a row changed meanwhile is not overwritten", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.addDemoOrg(emulator.url);
  await ui.runNewQuery(QUERY);
  const frame = await ui.webview(/6 of \d+ rows|6 of 6 rows/, 30_000);
  await frame.locator(".staged-count", { hasText: "No staged edits" }).waitFor();

  const store = emulator.seeded.store;
  const sorted = store.liveRecords("Contact").sort((a, b) => String(a.LastName).localeCompare(String(b.LastName))).slice(0, 6);
  const [first, second, third] = sorted.map((r) => ({ ...r }));

  // A read-only cell says why on hover.
  assert.match((await cell(frame, 0, "Id").getAttribute("title")) ?? "", /Read-only: A record's ID cannot be changed/);

  // Text, picklist, date.
  const title = await editCell(frame, 0, "Title");
  await title.fill("VP of Support");
  await title.press("Enter");
  const source = await editCell(frame, 0, "LeadSource");
  assert.equal(await source.evaluate((n) => n.tagName), "SELECT", "a picklist edits with its values");
  const newSource = ["Web", "Partner Referral"].find((v) => v !== first!.LeadSource)!;
  await source.selectOption(newSource);
  await source.press("Enter");
  const birthdate = await editCell(frame, 0, "Birthdate");
  assert.equal(await birthdate.getAttribute("type"), "date");
  await birthdate.fill("1990-04-12");
  await birthdate.press("Enter");
  // The org requires a last name: this row will be refused.
  const lastName = await editCell(frame, 1, "LastName");
  await lastName.fill("");
  await lastName.press("Enter");
  // Someone else changes the third row while it is staged here.
  const mine = await editCell(frame, 2, "Title");
  await mine.fill("Mine");
  await mine.press("Enter");
  const theirs = store.liveRecords("Contact").find((r) => r.Id === third!.Id)!;
  theirs.Title = "Theirs";
  store.touch(theirs, String(theirs.OwnerId));

  await frame.locator(".staged-count", { hasText: "5 staged edits in 3 records" }).waitFor();
  assert.match((await cell(frame, 0, "Title").getAttribute("class")) ?? "", /staged/);

  // Review: a diff of fetched and staged values.
  await frame.locator("vscode-button", { hasText: "Review Changes" }).click();
  await page.locator(".part.editor .tabs-container .tab", { hasText: /fetched ↔ staged/ }).first().waitFor({ timeout: 15_000 });
  const modified = page.locator(".part.editor .monaco-diff-editor .editor.modified");
  await modified.locator(".view-lines", { hasText: "Title: VP of Support" }).waitFor({ timeout: 15_000 });
  await ui.screenshot("21-grid-review");
  await page.locator(".part.editor .editor-group-container.active .tabs-container .tab.active .codicon-close").click();

  const results = await ui.webview(/staged edits in 3 records/);
  await results.locator("vscode-button", { hasText: "Commit" }).click();
  await results.locator(".notice", { hasText: /1 record saved; 1 record refused by the org.*; 1 record changed in the org since they were read, not written/ }).waitFor({ timeout: 20_000 });

  const now = (id: unknown) => store.liveRecords("Contact").find((r) => r.Id === id)!;
  assert.deepEqual([now(first!.Id).Title, now(first!.Id).LeadSource, now(first!.Id).Birthdate], ["VP of Support", newSource, "1990-04-12"]);
  assert.equal(now(second!.Id).LastName, second!.LastName, "the refused row was not written");
  assert.equal(now(third!.Id).Title, "Theirs", "the row changed meanwhile was not overwritten");
  // The refused row keeps its edit and says why; the conflicting one is marked.
  await results.locator('.grid .body .row[data-row="1"] .gutter.refused').waitFor();
  assert.match((await results.locator('.grid .body .row[data-row="1"] .gutter').getAttribute("title")) ?? "", /Required fields are missing: \[LastName\]/);
  assert.match((await cell(results, 1, "LastName").getAttribute("class")) ?? "", /refused/);
  assert.match((await results.locator('.grid .body .row[data-row="2"] .gutter').getAttribute("title")) ?? "", /Changed in the org since it was fetched/);
  assert.equal((await cell(results, 2, "Title").innerText()).trim(), "Mine", "the conflicting edit is still staged");
  await results.locator(".staged-count", { hasText: "2 staged edits in 2 records" }).waitFor();
  await ui.screenshot("22-grid-committed");
  assert.deepEqual((await ui.errorsShown()).filter((e) => /failed|error/i.test(e)), []);
});

journey("Grid: the commit is reverted from the write history, through the same review and commit", async ({ ui, emulator }) => {
  const store = emulator.seeded.store;
  const saved = { ...store.liveRecords("Contact").find((r) => r.Title === "VP of Support")! };
  await ui.runCommand("CRM: Show Write History…");
  const picker = await ui.quickInput("Write History");
  // The commit's one request: the saved record and the refused one (whose earlier values were not overwritten).
  const entry = picker.locator(".monaco-list-row", { hasText: /update 2 Contact records \(Title, LeadSource, Birthdate, LastName\)/ }).first();
  assert.match(await entry.innerText(), /1 refused: Required fields are missing/);
  await entry.click();
  await ui.pick("update 2 Contact records", "Revert…");
  const frame = await ui.webview(/Staged 3 values from before/, 30_000);
  await frame.locator(".staged-count", { hasText: "3 staged edits in 1 record" }).waitFor();
  await frame.locator("vscode-button", { hasText: "Commit" }).click();
  await frame.locator(".notice", { hasText: "1 record saved." }).waitFor({ timeout: 20_000 });
  const now = store.liveRecords("Contact").find((r) => r.Id === saved.Id)!;
  assert.notEqual(now.Title, "VP of Support");
  assert.notEqual(now.LeadSource, saved.LeadSource);
  assert.notEqual(now.Birthdate, "1990-04-12");
});

journey("Grid: two rows are deleted after a confirmation naming the count and the object", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  // Back to the first grid (the revert opened its own, over the same org's records).
  await page.locator(".part.editor .tabs-container .tab", { hasText: "Contact results" }).first().click();
  const frame = await ui.webview(/staged edits in 2 records/);
  for (const row of [3, 4]) await frame.locator(`.grid .body .row[data-row="${row}"] [role=gridcell].pending`).first().waitFor({ state: "detached", timeout: 15_000 });
  const ids = await Promise.all([3, 4].map(async (row) => (await cell(frame, row, "Id").innerText()).trim()));
  await cell(frame, 3, "LastName").click();
  await cell(frame, 4, "LastName").click({ modifiers: ["Shift"] });
  await frame.locator(".selection-stats", { hasText: "2 cells" }).waitFor();
  await frame.locator("vscode-button", { hasText: "Delete Rows" }).click();
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), /Delete 2 Contact records from Demo org\?/);
  await dialog.locator(".monaco-button", { hasText: /^Delete$/ }).click();
  await frame.locator(".notice", { hasText: "2 records deleted." }).waitFor({ timeout: 20_000 });
  const store = emulator.seeded.store;
  assert.ok(ids.every((id) => /^003\w{15}$/.test(id)), `two contact IDs were read: ${ids.join(", ")}`);
  assert.deepEqual(store.liveRecords("Contact").filter((r) => ids.includes(String(r.Id))), [], "both are deleted in the org");
  await frame.locator('.grid .body .row.deleted[data-row="3"]').waitFor();

  // Columns: hide one and freeze the first two from their menus; the layout stays when the panel shows again.
  const headers = () => frame.locator(".grid .header [role=columnheader] button.sort").allInnerTexts();
  const menuOf = async (label: string) => {
    const header = frame.locator(".grid .header [role=columnheader]", { has: frame.locator("button.sort", { hasText: new RegExp(`^${label}`) }) });
    await header.hover();
    await header.locator(".column-menu-button").click();
    return frame.locator(".column-menu");
  };
  await (await menuOf("Birthdate")).locator("button", { hasText: "Hide Column" }).click();
  await frame.locator("vscode-button", { hasText: "Show 1 Hidden" }).waitFor();
  assert.deepEqual((await headers()).map((h) => h.trim()), ["Id", "LastName", "Title", "LeadSource"]);
  await (await menuOf("LastName")).locator("button", { hasText: "Freeze Columns Up to Here" }).click();
  await frame.locator('.grid .header [role=columnheader].frozen[aria-colindex="3"]').waitFor();
  await page.locator(".part.editor .tabs-container .tab", { hasText: "Contact results" }).last().click();
  await page.locator(".part.editor .tabs-container .tab", { hasText: "Contact results" }).first().click();
  const again = await ui.webview(/staged edits in 2 records/);
  await again.locator('.grid .header [role=columnheader].frozen[aria-colindex="3"]').waitFor();
  assert.equal(await again.locator(".grid .header button.sort", { hasText: /^Birthdate/ }).count(), 0, "still hidden");
  await again.locator("vscode-button", { hasText: "Show 1 Hidden" }).click();
  await again.locator(".grid .header button.sort", { hasText: /^Birthdate/ }).waitFor();
});

journey("Grid: child rows open at two levels, and a child row's cell is edited and committed to that record", async ({ ui, emulator }) => {
  await ui.runNewQuery("SELECT Id, Name, (SELECT Id, LastName, Title, (SELECT CaseNumber, Subject FROM Cases) FROM Contacts) FROM Account WHERE Name = 'Acme Ltd'");
  const frame = await ui.webview(/1 of 1 row/, 30_000);
  const childrenCell = frame.locator('.grid .body .row[data-row="0"] [role=gridcell].children');
  const contacts = frame.locator(".grid .child table").first();
  const contactsCaption = contacts.locator("caption", { hasText: /Contacts · \d+ of \d+ rows?/ });
  // One click, even while the run's last summary arrives: the grid is patched, not built again under the pointer.
  await childrenCell.click();
  await contactsCaption.waitFor();
  // The contact's cases: a table inside the contacts table.
  await contacts.locator("tbody tr").first().locator("button.link-button").click();
  await contacts.locator("tr.nested table caption", { hasText: /Cases · \d+ of \d+ rows?/ }).waitFor();
  // Edit the first contact's Title in the child table and commit.
  const titleCell = contacts.locator("tbody tr").first().locator("td.editable").nth(1);
  await titleCell.dblclick();
  await titleCell.locator(".editor").fill("Edited in a child table");
  await titleCell.locator(".editor").press("Enter");
  await frame.locator(".staged-count", { hasText: "1 staged edit in 1 record" }).waitFor();
  await frame.locator("vscode-button", { hasText: "Commit" }).click();
  await frame.locator(".notice", { hasText: "1 record saved." }).waitFor({ timeout: 20_000 });
  const account = emulator.seeded.store.liveRecords("Account").find((a) => a.Name === "Acme Ltd")!;
  const first = emulator.seeded.store.liveRecords("Contact").filter((c) => c.AccountId === account.Id).some((c) => c.Title === "Edited in a child table");
  assert.ok(first, "the child record was written");
  await ui.screenshot("23-grid-child-tables");
});
