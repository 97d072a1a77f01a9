/**
 * Journey: an agent's proposed change, as a person meets it. "CRM: Run Agent Tool…" calls crm_propose_changes
 * as an agent would; VS Code's own confirmation names the tool, the org and the effect — Cancel sends nothing;
 * accepted, the change opens as a staged edit in a results grid, is reviewed and committed, shows in Write
 * History as the agent's, and is reverted from there through the same review and commit.
 */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession();

const writes = async (url: string) => ((await (await fetch(`${url}/__emulator/requests`)).json()) as { writes: number }).writes;

journey("Agent: a proposed change is confirmed, reviewed and committed in the grid, then reverted from Write History", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.addDemoOrg(emulator.url);
  const store = emulator.seeded.store;
  const [contact, doomed] = store.liveRecords("Contact").sort((a, b) => String(a.Id).localeCompare(String(b.Id)));
  const before = contact!.Title;
  const input = JSON.stringify({ changes: [
    { operation: "update", object: "Contact", id: contact!.Id, fields: { Title: "Agent-proposed title" } },
    { operation: "delete", object: "Contact", id: doomed!.Id },
  ] });
  const alive = (id: unknown) => store.liveRecords("Contact").find((r) => r.Id === id);
  const propose = async () => {
    await ui.runCommandInto("CRM: Run Agent Tool…", "Run Agent Tool");
    await ui.pick("Run Agent Tool", "crm_propose_changes");
    await ui.answer("Run Agent Tool: crm_propose_changes", input);
    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: 20_000 });
    const said = (await dialog.innerText()).replace(/\s+/g, " ");
    assert.match(said, /Propose record changes — Demo org/);
    assert.match(said, /Open 2 proposed change\(s\) to Demo org \(developer\) as staged edits in a results grid\. Nothing is sent until you review and commit them there\./);
    return dialog;
  };

  // The person declines: nothing opens, nothing is sent.
  const sent = await writes(emulator.url);
  const declined = await propose();
  await declined.locator(".dialog-buttons .monaco-button", { hasText: /^Cancel$/ }).click();
  await declined.waitFor({ state: "detached" });
  assert.equal(await writes(emulator.url), sent);
  assert.ok(!(await ui.tabs()).some((t) => /Contact results/.test(t)), "no grid opened");

  // Accepted: the proposal waits in a grid as a staged edit, still nothing sent.
  const accepted = await propose();
  await ui.screenshot("40-agent-confirmation");
  await accepted.locator(".dialog-buttons .monaco-button", { hasText: /^Yes$/ }).click();
  const frame = await ui.webview(/An agent proposes these changes: 1 value\(s\) staged on existing records, 0 new record\(s\), 1 record\(s\) to delete/, 30_000);
  await frame.locator(".staged-count", { hasText: "2 staged edits in 2 records" }).waitFor();
  // The count is the toolbar's; the rows' marks come with the next window of rows the grid reads.
  await frame.locator(".row.to-delete").first().waitFor();
  assert.equal(await frame.locator(".row.to-delete").count(), 1, "the record to delete is struck through");
  assert.equal(await writes(emulator.url), sent, "staging sends nothing");
  await frame.locator("vscode-button", { hasText: "Review Changes" }).click();
  const modified = page.locator(".part.editor .monaco-diff-editor .editor.modified");
  await modified.locator(".view-lines", { hasText: "Title: Agent-proposed title" }).waitFor({ timeout: 15_000 });
  await modified.locator(".view-lines", { hasText: "(deleted: to the org's Recycle Bin)" }).waitFor();
  await ui.screenshot("41-agent-review");
  await page.locator(".part.editor .editor-group-container.active .tabs-container .tab.active .codicon-close").click();
  const grid = await ui.webview(/2 staged edits in 2 records/);
  await grid.locator("vscode-button", { hasText: "Commit" }).click();
  await grid.locator(".notice", { hasText: "1 record saved; 1 record deleted." }).waitFor({ timeout: 20_000 });
  assert.equal(alive(contact!.Id)!.Title, "Agent-proposed title");
  assert.equal(alive(doomed!.Id), undefined, "deleted");

  // Write History names it as the agent's; reverting stages the earlier value for the same review and commit.
  await ui.runCommand("CRM: Show Write History…");
  const picker = await ui.quickInput("Write History");
  const entry = picker.locator(".monaco-list-row", { hasText: /update 1 Contact record \(Title\)/ }).first();
  assert.match(await entry.innerText(), /by an agent/);
  assert.match(await picker.locator(".monaco-list-row", { hasText: /delete 1 record/ }).first().innerText(), /by an agent/, "the deletion too");
  await ui.screenshot("42-agent-history");
  await entry.click();
  await ui.pick("update 1 Contact record", "Revert…");
  const revert = await ui.webview(/Staged 1 value from before/, 30_000);
  await revert.locator("vscode-button", { hasText: "Commit" }).click();
  await revert.locator(".notice", { hasText: "1 record saved." }).waitFor({ timeout: 20_000 });
  assert.equal(alive(contact!.Id)!.Title ?? null, before ?? null);
  assert.deepEqual((await ui.errorsShown()).filter((e) => /failed|error/i.test(e)), []);
});
