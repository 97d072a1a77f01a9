/** Journey: Import Data — a CSV with one bad row: the dry run says so first, the org takes the good rows, and the results are written beside the file. */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({ setup: async ({ ui, emulator }) => ui.addDemoOrg(emulator.url) });

journey("Import Data: a CSV with one bad row — the dry run names it, the org holds exactly the good rows, success and failure files beside the input", async ({ ui, emulator, workbench, server }) => {
  const page = workbench.page;
  const input = path.join(server.workspace, "new-contacts.csv");
  writeFileSync(input, "Last Name,Email,Shoe size\nImported One,one@example.com,44\nImported Bad,not-an-email,41\nImported Two,two@example.com,39\n");

  await ui.runCommand("CRM: Import Data…");
  const dialog = page.locator(".quick-input-widget:visible .quick-input-box input");
  await dialog.waitFor();
  // The dialog fills its input in steps, ending with the folder it opens on; what is typed before then is overwritten.
  await ui.eventually("the open dialog to show the folder it opens on", async () => (await dialog.inputValue()).replace(/\/$/, "") === server.workspace);
  await dialog.fill(input);
  assert.equal(await dialog.inputValue(), input);
  await page.keyboard.press("Enter");
  await ui.pick("Import 3 rows of new-contacts.csv into which object", "Contact");
  await ui.pick("What should each row do to Contact", "Insert");
  // The mapping: Last Name → LastName by label, Email by name, the shoe size loads nothing.
  const mapping = await ui.quickInput("Map the columns to Contact fields");
  assert.match(await mapping.innerText(), /Not loaded: Shoe size/);
  await ui.pick("Map the columns to Contact fields", "Import with this mapping");
  // The dry run names the bad row before anything is sent.
  const warning = page.locator(".monaco-dialog-box");
  await warning.waitFor();
  assert.match(await warning.innerText(), /1 problem on 1 line of new-contacts\.csv[\s\S]*Line 3 \(Email\): Email must be an email address, not 'not-an-email'/);
  assert.ok(!emulator.requests.some((r) => r.path.includes("/jobs/ingest")), "nothing sent before the choice");
  await warning.locator(".monaco-button", { hasText: /^Import Anyway$/ }).click();

  await ui.notification(/Imported 2 of 3 rows of new-contacts\.csv into Contact; 1 failed/);
  const inOrg = emulator.seeded.store.liveRecords("Contact").filter((c) => String(c.LastName).startsWith("Imported "));
  assert.deepEqual(inOrg.map((c) => c.LastName).sort(), ["Imported One", "Imported Two"], "exactly the good rows");
  const success = parseCsv(readFileSync(path.join(server.workspace, "new-contacts.success.csv"), "utf8"), { columns: true }) as Record<string, string>[];
  const failed = parseCsv(readFileSync(path.join(server.workspace, "new-contacts.failed.csv"), "utf8"), { columns: true }) as Record<string, string>[];
  assert.deepEqual(success.map((r) => [r.LastName, r.sf__Created]), [["Imported One", "true"], ["Imported Two", "true"]]);
  assert.deepEqual(inOrg.map((c) => c.Id).sort(), success.map((r) => r.sf__Id).sort());
  assert.equal(failed.length, 1);
  assert.equal(failed[0]!.LastName, "Imported Bad");
  assert.match(failed[0]!.sf__Error!, /INVALID_EMAIL_ADDRESS/);
  assert.ok(!existsSync(path.join(server.workspace, "new-contacts.unprocessed.csv")));
});
