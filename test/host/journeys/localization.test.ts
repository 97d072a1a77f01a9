/**
 * Journey: VS Code in the pseudo language (qps-ploc), the extension carrying its pseudo-localized manifest and
 * runtime bundle. The views, the Add Org wizard, the panels, the SOQL document's CodeLenses and the status bar
 * show no English word of their own: every word left is the org's data.
 */
import assert from "node:assert/strict";
import { untranslatedWords } from "../pseudoLocale";
import { workbenchSession, type Session } from "./session";

const { journey } = workbenchSession({ pseudoLocalized: true });

/** VS Code's own words (our test language pack translates none of VS Code's): the input box's default message and the hint it adds to a prompt. */
const VS_CODE_OWN = ["Press 'Enter' to confirm your input or 'Escape' to cancel", "(Press 'Enter' to confirm or 'Escape' to cancel)"];

/** An alias with no ASCII letters, so the org's name never passes for an untranslated word. */
const ALIAS = "Ωργ";

/** Fails naming every English word `where` shows beyond `data`. */
function assertTranslated(where: string, text: string, data: string[] = []): void {
  const words = untranslatedWords(text, data);
  assert.deepEqual(words, [], `${where} shows untranslated words ${JSON.stringify(words)} in:\n${text}`);
}

/** A pattern matching this text as it is. */
const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));

/** The palette title of a command: category and title, as the manifest's pseudo strings give them. */
const commandTitle = (s: Session, command: string) => `${s.pseudo!.nls("category.crm")}: ${s.pseudo!.nls(`command.${command}.title`)}`;

journey("Pseudo-localized: the views, the Add Org wizard and the panels show no untranslated word", async (s) => {
  const { ui, emulator, workbench } = s;
  const p = s.pseudo!;
  const page = workbench.page;

  // The views before any org: titles and welcome content.
  await ui.openContainer(p.nls("viewsContainer.crm.title"));
  const views = ["orgs", "objects", "knowledge", "feeds", "queries"].map((v) => p.nls(`view.crm.${v}.name`));
  for (const view of views) await ui.pane(view).locator(".pane-header").waitFor();
  // (Until the extension has activated, VS Code says in its own words that no view has data yet.)
  await page.locator(".part.sidebar .welcome-view-content", { hasText: p.t("Try the Demo Org") }).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !/no data provider/.test(document.querySelector(".part.sidebar")?.textContent ?? ""), undefined, { timeout: 30_000 });
  assertTranslated("the CRM views before an org is added", await page.locator(".part.sidebar").innerText());

  // The Add Org wizard, every step of the username-password method.
  const wizard = p.t("Add Org");
  await ui.runCommandInto(commandTitle(s, "crm.org.add"), wizard);
  const step = async (title: string) => {
    const widget = await ui.quickInput(`${wizard}: ${p.t(title)}`);
    const texts = await widget.locator(".quick-input-title, .quick-input-message, .monaco-list-row .label-name, .monaco-list-row .quick-input-list-label-meta").allInnerTexts();
    assertTranslated(`the wizard's step '${title}'`, texts.join("\n"), [...VS_CODE_OWN, emulator.url, "https://yourdomain.my.salesforce.com", "https://login.salesforce.com", "https://test.salesforce.com"]);
    return `${wizard}: ${p.t(title)}`;
  };
  await ui.pick(await step("How do you sign in to this org?"), p.t("Username and password"));
  await ui.pick(await step("Where do you log in?"), p.t("My Domain or another URL"));
  const c = emulator.credentials;
  for (const [title, answer] of [["Login URL", emulator.url], ["Username", c.username], ["Password", c.password], ["Security token", c.securityToken], ["Consumer key", c.clientId], ["Consumer secret", c.clientSecret], ["Name for this org", ALIAS]] as const) {
    await ui.answer(await step(title), answer);
  }
  await ui.waitForRow(views[0]!, ALIAS);

  // The views with the org: Knowledge's groups, the feeds and the query library, each group expanded.
  const knowledge = views[2]!;
  for (const view of [views[0]!, views[1]!, views[3]!, views[4]!]) await ui.collapsePane(view);
  await ui.expandPane(knowledge);
  // From the last group up, so each group row is still in sight when it is expanded.
  for (const group of ["Archived", "Published", "Drafts"]) await ui.expandRow(knowledge, p.t(group));
  const articles = emulator.seeded.store.liveRecords("Knowledge__kav");
  const articleTitles = articles.map((a) => String(a.Title));
  const knowledgeRows = await ui.rows(knowledge);
  // (Titles, article numbers and validation states are the org's values, in the org's language.)
  assertTranslated("the Knowledge view", knowledgeRows.map((r) => `${r.label} ${r.description}`).join("\n"), [...articleTitles, ...articles.map((a) => String(a.ArticleNumber)), ...articles.map((a) => String(a.ValidationStatus))]);
  await ui.collapsePane(knowledge);
  for (const view of [views[3]!, views[4]!]) {
    await ui.expandPane(view);
    await ui.pane(view).locator(".monaco-list-row[aria-level='1']").first().waitFor({ timeout: 20_000 });
    const groupRows = await ui.pane(view).locator(".monaco-list-row[aria-level='1']").evaluateAll((rows) => rows.map((r) => r.querySelector(".label-name")?.textContent ?? ""));
    assertTranslated(`the top rows of ${view}`, groupRows.join("\n"));
    await ui.collapsePane(view);
  }

  // Org Info: the panel's own words (the limits' names are the org's).
  await ui.runCommand(commandTitle(s, "crm.org.showInfo"));
  const info = await ui.webview(p.t("Most used first. Read at {0}.").split("{0}")[0]!);
  const infoChrome = await info.locator("header, dl.facts dt, h2, p.muted").allInnerTexts();
  const placeholder = await info.locator("vscode-textfield.filter").getAttribute("placeholder");
  assertTranslated("Org Info", [...infoChrome, placeholder ?? ""].join("\n"), [ALIAS]);

  // Article Details: buttons, facts, versions.
  // The first published article, right under its group (in sight whatever the pane's height).
  await ui.expandPane(knowledge);
  await ui.expandRow(knowledge, p.t("Published"));
  const shown = (await ui.rows(knowledge)).map((r) => r.label);
  const title = shown[shown.indexOf(p.t("Published")) + 1]!;
  const article = articles.find((a) => String(a.Title) === title && a.PublishStatus === "Online")!;
  assert.ok(article, `'${title}' is a published article`);
  await ui.rowIn(knowledge, title).click();
  const details = await ui.webview(title);
  await details.locator("header .actions vscode-button").first().waitFor();
  const detailsChrome = await details.locator("header .actions, dl.facts dt, nav.versions, p.muted").allInnerTexts();
  assertTranslated("Article Details", detailsChrome.join("\n"), [String(article.Title), String(article.Id)]);

  // Query results: the toolbar, the status line, the statement's heading.
  await ui.runCommand(commandTitle(s, "crm.soql.newQuery"));
  await ui.typeInEditor("SELECT Id, Name FROM Account LIMIT 5");
  await page.keyboard.press("Control+Enter");
  const results = await ui.webview(p.t("Statement"));
  await results.locator(".grid .body .row").first().waitFor();
  const resultsChrome = await results.locator("header, p.status, details.query summary").allInnerTexts();
  const filter = await results.locator("vscode-textfield.filter").getAttribute("placeholder");
  assertTranslated("the query results", [...resultsChrome, filter ?? ""].join("\n"), [ALIAS]);
  // The document's CodeLenses and the org's status bar item.
  await page.locator(".part.editor .tab", { hasText: "Untitled" }).last().click();
  await page.locator(".part.editor .codelens-decoration a").first().waitFor({ timeout: 20_000 });
  const lenses = await page.locator(".part.editor .codelens-decoration").allInnerTexts();
  assertTranslated("the SOQL document's CodeLenses", lenses.join("\n"), [ALIAS]);
  assertTranslated("the org's status bar item", await ui.statusBarText(new RegExp(ALIAS)), [ALIAS]);

  // A command's picker, its answer and an error with its button, in the display language too.
  const sort = await ui.runCommandInto(commandTitle(s, "crm.knowledge.sort"), p.t("Sort articles by"));
  assertTranslated("the Sort Articles picker", (await sort.locator(".quick-input-title, .monaco-list-row .label-name:visible").allInnerTexts()).join("\n"));
  await page.keyboard.press("Escape");
  const find = p.t("Find an article by its number");
  await ui.runCommandInto(commandTitle(s, "crm.knowledge.findByNumber"), find);
  await ui.answer(find, "999999");
  await ui.notification(literally(p.t("No article has the number {0}.").replace("{0}", "999999")));
  await ui.runCommand(commandTitle(s, "crm.folder.check"));
  const failed = page.locator(".notifications-toasts .notification-list-item", { hasText: literally(p.t("This workspace has no knowledge folder yet: pull articles into one with 'CRM: Pull Articles to Folder…'.")) }).first();
  await failed.locator(".monaco-button", { hasText: p.t("Show Log") }).waitFor({ timeout: 20_000 });
  await ui.screenshot("pseudo-localized");
}, 240_000);
