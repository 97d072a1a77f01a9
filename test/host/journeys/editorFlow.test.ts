/** Journey: the editor flow VS Code users expect — a clean new query, results beside it, article previews reused. */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({ settings: { "crm.knowledge.pageSize": 5 } });

journey("New SOQL Query starts with a statement that has no error; its results open beside it, the query still in view", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.addDemoOrg(emulator.url);
  await ui.runCommand("CRM: New SOQL Query");
  await ui.statusBarText(/^SOQL$/);
  const editor = page.locator(".part.editor .editor-group-container.active .monaco-editor").first();
  await page.waitForFunction(() => /FROM\s*Account/.test(document.querySelector(".part.editor .view-lines")?.textContent?.replace(/\u00a0/g, " ") ?? ""));
  // Diagnostics run on open and judge fields from Account's describe: once the org has answered it, nothing is marked.
  await ui.eventually("the org to answer Account's describe", () => emulator.requests.some((r) => /\/sobjects\/Account\/describe$/.test(r.path) && r.answeredAt !== undefined));
  await ui.eventually("the CodeLens to show", () => page.locator(".part.editor .codelens-decoration a", { hasText: /^\s*Run$/ }).count());
  assert.equal(await editor.locator(".squiggly-error, .squiggly-warning").count(), 0, "nothing is marked before the user types");
  // The object is selected: typing replaces it.
  await page.keyboard.type("Contact");
  await page.waitForFunction(() => /FROM\s*Contact/.test(document.querySelector(".part.editor .view-lines")?.textContent?.replace(/\u00a0/g, " ") ?? ""));
  await page.locator(".part.editor .codelens-decoration a", { hasText: /^\s*Run$/ }).first().click();
  await ui.webview(/200 of 200 rows/);
  const groups = page.locator(".part.editor .editor-group-container");
  assert.equal(await groups.count(), 2, "the results open in a group beside the query's");
  assert.ok(await groups.nth(0).locator(".monaco-editor").isVisible(), "the query stays in view");
  assert.match(await groups.nth(1).locator(".tab.active").innerText(), /results/i);
});

journey("Article Details from the tree: clicking one article after another reuses the preview tab; opening it again keeps it", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.runCommand("View: Close All Editors");
  // The query written in the first journey is not kept.
  await page.locator(".monaco-dialog-box .monaco-button", { hasText: "Don't Save" }).click({ timeout: 10_000 });
  await ui.runCommand("View: Single Column Editor Layout");
  for (const pane of ["Orgs", "Objects", "Feeds", "Queries"]) await ui.collapsePane(pane);
  await ui.expandPane("Knowledge");
  const drafts = emulator.seeded.store.liveRecords("Knowledge__kav").filter((v) => v.PublishStatus === "Draft");
  const titles = (await ui.rows("Knowledge")).map((r) => r.label).filter((label) => drafts.some((d) => d.Title === label));
  const waitTitles = () => ui.eventually("three drafts in Knowledge", async () => {
    titles.splice(0, titles.length, ...(await ui.rows("Knowledge")).map((r) => r.label).filter((label) => drafts.some((d) => d.Title === label)));
    return titles.length >= 3;
  }, 20_000);
  await waitTitles();
  const [first, second, third] = titles as [string, string, string];
  const articleTabs = () => page.locator(".part.editor .tab", { has: page.locator(".label-name", { hasText: /./ }) }).evaluateAll((tabs) => tabs.map((t) => t.textContent?.trim() ?? ""));
  const escaped = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  await ui.rowIn("Knowledge", first).click();
  await ui.webview(new RegExp(`${escaped(first)}[\\s\\S]*Version ID`));
  await ui.rowIn("Knowledge", second).click();
  await ui.webview(new RegExp(`${escaped(second)}[\\s\\S]*Version ID`));
  assert.deepEqual((await articleTabs()).length, 1, `one preview tab, reused: ${JSON.stringify(await articleTabs())}`);
  assert.ok((await articleTabs())[0]!.includes(second));

  // Opened again, the preview is kept: the next article opens a tab of its own.
  await ui.rowIn("Knowledge", second).click();
  await ui.rowIn("Knowledge", third).click();
  await ui.webview(new RegExp(`${escaped(third)}[\\s\\S]*Version ID`));
  const tabs = await articleTabs();
  assert.equal(tabs.length, 2, JSON.stringify(tabs));
  assert.ok(tabs.some((t) => t.includes(second)) && tabs.some((t) => t.includes(third)), JSON.stringify(tabs));
});
