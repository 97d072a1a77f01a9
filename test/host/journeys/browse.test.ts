/** Journeys: browsing Objects, Knowledge and Feeds in a real VS Code, the article lifecycle, records. */
import assert from "node:assert/strict";
import type { Driver } from "../workbench";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({
  settings: { "crm.knowledge.pageSize": 5 },
  setup: async ({ ui, emulator }) => {
    await ui.addDemoOrg(emulator.url);
  },
});

journey("Objects: standard and custom groups; an object expands to fields with type badges and markers", async ({ ui }) => {
  await ui.expandPane("Objects");
  await ui.expandRow("Objects", "Standard");
  assert.equal((await ui.waitForRow("Objects", "Contact")).description, "", "no API name that only repeats the label");
  await ui.expandRow("Objects", "Contact");
  const lastName = await ui.waitForRow("Objects", "Last Name");
  assert.equal(lastName.description, "LastName · string(255) · required");
  // The next field (required ones come first) may sit below the view's edge, and a list draws only the rows in
  // view: the other views make room (a click and a key on a tree still filling in can land on another row).
  for (const pane of ["Knowledge", "Feeds"]) await ui.collapsePane(pane);
  const accountId = await ui.eventually("the AccountId field in view", async () => (await ui.rows("Objects")).find((r) => r.description.startsWith("AccountId ")));
  assert.equal(accountId.description, "AccountId · → Account");
  await ui.screenshot("05-objects");
});

journey("Objects: the filter narrows every group at once; Describe opens the JSON describe", async ({ ui, workbench }) => {
  await ui.viewAction("Objects", "Filter Objects");
  await ui.answer("Filter objects", "invoice");
  await ui.expandRow("Objects", "Custom");
  await ui.eventually("the filter to leave Invoice and not Contact", async () => {
    const labels = (await ui.rows("Objects")).map((r) => r.label);
    return labels.includes("Invoice") && !labels.includes("Contact");
  });
  await ui.runCommand("CRM: Describe Object");
  await ui.pick("Which object", "Invoice");
  await workbench.page.locator(".part.editor .tab", { hasText: "Invoice__c.json" }).waitFor({ timeout: 15_000 });
  // Monaco renders spaces as non-breaking spaces.
  await workbench.page.waitForFunction(() => /"name":\s"Invoice__c"/.test((document.querySelector(".part.editor .monaco-editor .view-lines")?.textContent ?? "").replace(/\u00a0/g, " ")), undefined, { timeout: 15_000 });
  await ui.viewAction("Objects", "Clear Objects Filter");
});

journey("Knowledge: drafts listed with number, version and validation; Load more fetches the next page", async ({ ui, emulator }) => {
  await ui.expandPane("Knowledge");
  const drafts = await ui.waitForRow("Knowledge", "Load more…");
  assert.ok(drafts);
  const before = (await ui.rows("Knowledge")).filter((r) => /^#\d{9} · v\d+/.test(r.description)).length;
  assert.equal(before, 5, "a page of five drafts (crm.knowledge.pageSize)");
  const queries = emulator.requests.filter((r) => r.path.endsWith("/query")).length;
  await ui.rowIn("Knowledge", "Load more…").click();
  const after = await ui.eventually("the next page of drafts", async () => {
    const shown = (await ui.rows("Knowledge")).filter((r) => /^#\d{9} · v\d+/.test(r.description)).length;
    return shown !== before && shown;
  });
  assert.ok(after > before && after <= 10, `${before} → ${after}`);
  // The demo org has three knowledge languages: a page is read with its articles' translations, one query more.
  assert.equal(emulator.requests.filter((r) => r.path.endsWith("/query")).length - queries, 2, "exactly one page fetched, with its translations");
  await ui.screenshot("06-knowledge");
});

/** Waits until a row sits under the named group (every group expanded), failing on any error shown meanwhile. */
async function waitUnderGroup(ui: Driver, view: string, label: string, group: string, groups: string[]): Promise<void> {
  await ui.eventually(`'${label}' under ${group}`, async () => {
    const errors = (await ui.errorsShown()).filter((e) => /already registered|refused|failed/i.test(e));
    assert.deepEqual(errors, [], "no error while the tree changes");
    return (await ui.groupOf(view, label, groups)) === group;
  }, 20_000);
}

journey("Knowledge: with every group expanded, create a draft, publish it as a major version, then archive it (with a modal confirm)", async ({ ui, emulator, workbench }) => {
  const groups = ["Drafts", "Published", "Archived"];
  await ui.withKnowledgeFilter("Journey article", async () => {
    await ui.runCommand("CRM: Create Article…");
    await ui.answer("Title", "Journey article");
    await ui.answer("URL name", "journey-article");
    await ui.answer("Summary", "Made by the journey");
    await ui.answer("Answer (optional, HTML)", "<p>Step one.</p>");
    await ui.notification(/Created the draft 'Journey article'/);
    await ui.webview(/Journey article[\s\S]*Version ID/); // its details open beside, the keyboard stays put
    await ui.runCommandInto("CRM: Publish Article…", "Publish which draft");
    await ui.pick("Publish which draft", "Journey article");
    await ui.pick("Publish 'Journey article' as", "Major version");
    await ui.notification(/Published 'Journey article'/);
    await waitUnderGroup(ui, "Knowledge", "Journey article", "Published", groups);
    await ui.webview(/Journey article[\s\S]*Version\s*1 · Online/); // the open details panel follows the publish
    const row = (await emulator.seeded.store.liveRecords("Knowledge__kav")).find((v) => v.Title === "Journey article")!;
    assert.equal(String(row.PublishStatus), "Online");
    assert.equal(row.Answer__c, "<p>Step one.</p>", "the body went into the rich-text field");
    await ui.runCommandInto("CRM: Archive Article…", "Archive which published article");
    await ui.pick("Archive which published article", "Journey article");
    await workbench.page.locator(".monaco-dialog-box .monaco-button", { hasText: /^Archive$/ }).click();
    await ui.eventually("the article to be archived in the org", () => row.PublishStatus === "Archived");
    await waitUnderGroup(ui, "Knowledge", "Journey article", "Archived", groups);
    await ui.webview(/Journey article[\s\S]*Version\s*1 · Archived/);
    await ui.runCommand("CRM: Refresh Knowledge");
    await ui.runCommand("CRM: Refresh Knowledge");
    await waitUnderGroup(ui, "Knowledge", "Journey article", "Archived", groups);
  });
});

journey("Feeds: the news feed lists posts with their comments; posting with an @mention and commenting show up", async ({ ui, emulator }) => {
  await ui.expandPane("Feeds");
  const feeds = "Feeds";
  const firstPost = await ui.eventually("posts in My News Feed", async () => {
    const rows = (await ui.rows(feeds)).filter((r) => /: /.test(r.label));
    return rows.length > 0 && rows;
  }, 20_000);
  const commented = firstPost.find((r) => /\d+ comments?$/.test(r.description));
  assert.ok(commented, JSON.stringify(firstPost));
  await ui.expandRow(feeds, commented.label);
  for (const other of ["Orgs", "Objects", "Knowledge"]) await ui.collapsePane(other);
  // The group feed too: Groups and its feeds sit below My News Feed's posts.
  await ui.scrollTree(feeds, "End");
  await ui.expandRow(feeds, "Groups");
  await ui.scrollTree(feeds, "End");
  await ui.expandRow(feeds, "Release team");
  await ui.runCommand("CRM: Post to Feed…");
  await ui.pick("Post to", "Release team");
  await ui.answer("Post", "Release notes are ready, @Alan Turing please review");
  const postLabel = "Ada Lovelace: Release notes are ready, @Alan Turing please review";
  // The post shows in the expanded group feed (at the end) and in My News Feed (at the top), with no error in between.
  for (const [end, group] of [["End", "Release team"], ["Home", "My News Feed"]] as const) {
    // Rows outside the pane are not rendered: look at the end the post goes to.
    await ui.eventually(`the post in ${group}`, async () => {
      await ui.scrollTree(feeds, end);
      return (await ui.groupOf(feeds, postLabel, ["My News Feed", "Groups", "Release team"])) === group;
    }, 20_000);
    if (group === "My News Feed") assert.match((await ui.waitForRow(feeds, postLabel)).description, /Release team/);
  }
  assert.deepEqual((await ui.errorsShown()).filter((e) => /already registered/i.test(e)), []);
  const item = emulator.seeded.store.liveRecords("FeedItem").find((i) => String(i.Body).startsWith("Release notes are ready"))!;
  assert.deepEqual((item._segments as { type: string }[]).map((s) => s.type), ["Text", "Mention", "Text"], "the @mention became a mention segment");
  await ui.runCommand("CRM: Comment…");
  await ui.pick("Comment on which post", "Ada Lovelace: Release notes are ready");
  await ui.answer("Comment on Ada Lovelace's post", "Reviewed, looks good");
  await ui.waitForRow(feeds, "Ada Lovelace: Release notes are ready, @Alan Turing please review", /1 comment$/);
  await ui.screenshot("07-feeds");
  for (const other of ["Orgs", "Objects", "Knowledge"]) await ui.expandPane(other);
});

journey("Records: create a Contact from its required fields, check access to it, convert an ID", async ({ ui, emulator, workbench }) => {
  await ui.runCommand("CRM: Create Record…");
  await ui.pick("Create a record of which object", "Contact");
  await ui.answer("New Contact (1/1): Last Name", "Journeyman");
  await ui.notification(/Created Contact 003\w{15}\./);
  const created = emulator.seeded.store.liveRecords("Contact").find((c) => c.LastName === "Journeyman");
  assert.ok(created);
  await ui.runCommand("CRM: Check Record Access…");
  await ui.answer("Check access to record", created.Id);
  await ui.pick("Whose access", "Me");
  const dialog = workbench.page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  assert.match((await dialog.innerText()).replace(/\s+/g, " "), /Read: yes Edit: yes Delete: yes/);
  await dialog.locator(".monaco-button").first().click();
  await ui.runCommand("CRM: Convert ID to 18 Characters…");
  await ui.answer("Convert a record ID to 18 characters", created.Id.slice(0, 15));
  await ui.notification(new RegExp(`${created.Id.slice(0, 15)} → ${created.Id}`));
});

journey("Knowledge: assign a data category to a draft from the org's category tree", async ({ ui, emulator }) => {
  await ui.runCommand("CRM: Assign Data Category…");
  await ui.pick("Assign a data category to which draft", "Book an on-site engineer");
  await ui.pick("Data category for", "Routers");
  await ui.notification(/is now in Products › Routers/);
  const draft = emulator.seeded.store.liveRecords("Knowledge__kav").find((v) => v.Title === "Book an on-site engineer" && v.PublishStatus === "Draft")!;
  assert.ok(emulator.seeded.store.liveRecords("Knowledge__DataCategorySelection").some((s) => s.ParentId === draft.Id && s.DataCategoryName === "Routers"));
});

journey("SOQL: New SOQL Query opens a SOQL editor that completes fields and relationship paths and marks mistakes", async ({ ui, workbench }) => {
  const page = workbench.page;
  await ui.runCommand("CRM: New SOQL Query on Object");
  await ui.pick("Which object", "Contact");
  await ui.statusBarText(/^SOQL$/);
  const editor = page.locator(".part.editor .editor-group-container.active .monaco-editor").first();
  await editor.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await page.keyboard.type("SELECT Id FROM Contact");
  for (let i = 0; i < " FROM Contact".length; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.type(", Account.Ow");
  // Typing opens suggestions by itself (quick suggestions, the "." trigger): on a busy machine the list shown
  // can still be the one for "Account" (CI loaded #9). Once the editor holds the text, the list for it is awaited.
  await page.waitForFunction(() => (document.querySelector(".part.editor .editor-group-container.active .monaco-editor .view-lines")?.textContent ?? "").replace(/\u00a0/g, " ").includes("Account.Ow"), undefined, { timeout: 15_000 });
  await page.keyboard.press("Control+Space");
  const suggestions = page.locator(".editor-widget.suggest-widget .monaco-list-row .label-name");
  // Account's Owner (and OwnerId) are offered: the relationship path was followed.
  await ui.eventually("Owner among the suggestions for Account.Ow", async () => (await suggestions.allInnerTexts()).some((l) => /^Owner/.test(l)));
  await ui.screenshot("09-soql-completion");
  await page.keyboard.press("Escape");
  // Mistakes are marked as you type: an unknown field as a warning, a syntax error as an error.
  await page.keyboard.press("Control+A");
  await page.keyboard.type("SELECT Id, Nmae FROM Contact");
  await editor.locator(".squiggly-warning").first().waitFor({ timeout: 15_000 });
  await page.keyboard.press("Control+A");
  await page.keyboard.type("SELECT Id FORM Contact");
  await editor.locator(".squiggly-error").first().waitFor({ timeout: 15_000 });
  // Hover names the field; Format Document lays the query out.
  await page.keyboard.press("Control+A");
  await page.keyboard.type("select id, leadsource from contact where leadsource = 'Web'");
  await editor.locator(".view-line span span", { hasText: /^leadsource$/ }).first().hover();
  const hover = page.locator(".monaco-hover:visible, .monaco-resizable-hover:visible").first();
  await hover.waitFor({ timeout: 15_000 });
  assert.match(await hover.innerText(), /Lead Source[\s\S]*picklist/);
  await page.keyboard.press("Escape");
  await ui.runCommand("Format Document");
  await page.waitForFunction(() => (document.querySelector(".part.editor .monaco-editor .view-lines")?.textContent ?? "").replace(/\u00a0/g, " ").includes("FROM contact"), undefined, { timeout: 15_000 });
});

journey("A window reload opens again what was open: Knowledge's Published and Archived, a feed under Groups", async ({ ui }) => {
  const isOpen = (view: string, label: string) => ui.rowIn(view, label).getAttribute("aria-expanded", { timeout: 1_000 }).then((v) => v === "true", () => false);
  for (const pane of ["Orgs", "Objects", "Feeds"]) await ui.collapsePane(pane);
  await ui.expandPane("Knowledge");
  await ui.scrollTree("Knowledge", "Home");
  await ui.expandRow("Knowledge", "Published");
  await ui.scrollTree("Knowledge", "End");
  await ui.expandRow("Knowledge", "Archived");
  // Release team was opened under Groups by the feeds journey.
  await ui.collapsePane("Knowledge");
  await ui.expandPane("Feeds");
  await ui.scrollTree("Feeds", "End");
  assert.ok(await isOpen("Feeds", "Release team"), "open before the reload");

  await ui.reloadWindow();
  await ui.openContainer("CRM");
  // Rows outside the pane are not drawn: each is looked for at the end of the tree it sits at.
  const openAgain = (view: string, label: string, end: "Home" | "End") => ui.eventually(`${label} to open again`, async () => {
    await ui.scrollTree(view, end);
    return isOpen(view, label);
  }, 30_000);
  await ui.expandPane("Feeds");
  await openAgain("Feeds", "Release team", "End");
  await ui.collapsePane("Feeds");
  await ui.expandPane("Knowledge");
  await openAgain("Knowledge", "Published", "Home");
  await openAgain("Knowledge", "Archived", "End");
});
