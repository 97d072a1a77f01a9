/**
 * Journey: a migration plan in the workspace — its Dry Run opens the report beside it; Run Migration into a
 * second org (a production one) asks the guard once with the whole run, Cancel writes nothing; the run is one
 * Write History entry, and Revert there takes the target back to how it was.
 */
import assert from "node:assert/strict";
import { after } from "node:test";
import { startEmulator, type Emulator } from "../../../src/demo-org";
import { answerPasswordSteps, workbenchSession } from "./session";

const PLAN = `from: Demo org
to: Target
objects:
  - object: Account
    where: Industry = 'Energy'
    match: [Name]
  - object: Contact
    where: Account.Industry = 'Energy'
    match: [Email]
`;

let target: Emulator | undefined;
after(() => target?.close());

const { journey } = workbenchSession({
  workspaceFiles: { "energy.migration.yaml": PLAN },
  setup: async ({ ui, emulator }) => {
    target = await startEmulator({ port: 0, seed: "empty", orgKind: "production" });
    await ui.addDemoOrg(emulator.url);
    await ui.runCommand("CRM: Add Org…");
    await ui.pick("How do you sign in", "Username and password");
    await ui.pick("Where do you log in", "My Domain or another URL");
    await answerPasswordSteps(ui, target, "Target");
    await ui.waitForRow("Orgs", "Target");
  },
});

journey("Migration: a plan's dry run opens its report beside it; the run into a production org asks once, and Write History reverts it", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  const source = emulator.seeded.store;
  const energy = source.liveRecords("Account").filter((a) => a.Industry === "Energy");
  const contacts = source.liveRecords("Contact").filter((c) => energy.some((a) => a.Id === c.AccountId));
  const live = (object: string) => target!.seeded.store.liveRecords(object);
  const writes = () => target!.requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/services/oauth2/")).length;

  await ui.openContainer("Explorer");
  await ui.runCommand("Go to File...");
  await page.locator(".quick-input-widget .quick-input-box input").fill("energy.migration.yaml");
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: "energy.migration.yaml" }).first().click();
  await page.locator(".part.editor .tab.active", { hasText: "energy.migration.yaml" }).waitFor();

  // Dry Run: both orgs read, the report beside the plan, nothing written.
  await page.locator(".part.editor .codelens-decoration a", { hasText: /Dry Run/ }).first().click();
  await page.locator(".part.editor .tab", { hasText: "energy (migration report).md" }).waitFor({ timeout: 30_000 });
  const report = page.locator(".part.editor .monaco-editor", { hasText: "Migration dry run" }).first();
  await report.waitFor({ timeout: 20_000 });
  const reportText = (await report.locator(".view-lines").innerText()).replace(/\u00a0/g, " ");
  assert.match(reportText, /# Migration dry run: Demo org → Target/);
  assert.match(reportText, new RegExp(`\\| Account \\| ${energy.length} \\| ${energy.length} \\| 0 \\| 0 \\| 0 \\|`));
  await ui.notification(new RegExp(`Dry run: ${energy.length + contacts.length} to insert, 0 to update, 0 refused in Target\\.`));
  assert.equal(writes(), 0, "a dry run writes nothing");
  await ui.screenshot("44-migration-dry-run");

  // Run: the production guard asks once, with the whole run; Cancel sends nothing.
  const dialog = page.locator(".monaco-dialog-box");
  await page.locator(".part.editor .codelens-decoration a", { hasText: /Run Migration/ }).first().click();
  await dialog.waitFor({ timeout: 30_000 });
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), new RegExp(`Target is a production org\\. Migrate records from Demo org into Target: insert ${energy.length + contacts.length}, update 0\\?`));
  await ui.screenshot("45-migration-guard");
  await dialog.locator(".monaco-button", { hasText: /^Cancel$/ }).click();
  await page.waitForTimeout(500);
  assert.equal(writes(), 0, "cancelled: nothing was sent");

  await page.locator(".part.editor .codelens-decoration a", { hasText: /Run Migration/ }).first().click();
  await dialog.waitFor({ timeout: 30_000 });
  await dialog.locator(".monaco-button", { hasText: /^Send to Production$/ }).click();
  await ui.notification(new RegExp(`Migrated into Target: ${energy.length + contacts.length} inserted, 0 updated\\.`));
  assert.deepEqual(live("Account").map((a) => a.Name).sort(), energy.map((a) => a.Name).sort());
  const nameOf = (store: Emulator["seeded"]["store"], id: unknown) => store.find(String(id))?.rec.Name;
  assert.deepEqual(
    live("Contact").map((c) => `${c.Email}|${nameOf(target!.seeded.store, c.AccountId)}`).sort(),
    contacts.map((c) => `${c.Email}|${nameOf(source, c.AccountId)}`).sort(),
    "every contact under its account's namesake",
  );

  // Write History holds the run as one entry; Revert (asked once more, production) deletes what it inserted.
  await ui.runCommand("CRM: Show Write History…");
  const picker = await ui.quickInput("Write History");
  const rows = picker.locator(".monaco-list-row");
  const entry = rows.filter({ hasText: /migrate from Demo org/ }).first();
  assert.match(await entry.innerText(), new RegExp(`${energy.length + contacts.length} inserted`));
  assert.equal(await rows.filter({ hasText: /Target/ }).count(), 1, "one entry for the whole run");
  await entry.click();
  await ui.pick("migrate from Demo org", "Revert…");
  await dialog.waitFor({ timeout: 30_000 });
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), new RegExp(`Target is a production org\\. Revert the migration of .*: delete ${energy.length + contacts.length} records it inserted, restore 0 it updated\\?`));
  await dialog.locator(".monaco-button", { hasText: /^Send to Production$/ }).click();
  await ui.notification(new RegExp(`Reverted the migration into Target: ${energy.length + contacts.length} deleted, 0 restored\\.`));
  assert.equal(live("Account").length + live("Contact").length, 0, "the target is as it was");
  assert.deepEqual((await ui.errorsShown()).filter((e) => /failed|error/i.test(e)), []);
}, 240_000);
