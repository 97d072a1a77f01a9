/** Knowledge commands from the tree (one or many selected) or the palette (with a picker). */
import * as vscode from "vscode";
import { isRichText } from "../connections/schema";
import { InvalidFieldError } from "../client/errors";
import { get18CharId } from "../client/ids";
import { richTextImageUrls } from "../client/urls";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { readSettings } from "../platform/settings";
import type { ActiveOrg } from "../views/activeOrg";
import { isArticleTarget, toArticleRow, type ArticleRow, type ArticleTarget, type PublishStatus } from "../views/knowledgeModel";
import { ArticleNode, LoadMoreNode, TranslationNode, type KnowledgeTreeProvider } from "../views/knowledgeView";
import type { ArticleAction, ArticleDetailsView } from "../webviews/protocol/article";
import type { PanelTarget } from "../webviews/panels";
import type { CommandId } from "./commandIds";

/** Article Details panels: shown and kept, or shown in the preview panel the next preview reuses. */
export interface ArticlePanels {
  show(target: PanelTarget, options?: { preserveFocus?: boolean }): unknown;
  showPreview(target: PanelTarget, options?: { preserveFocus?: boolean }): unknown;
}

export const withViewProgress = <T>(title: string, work: () => Promise<T>) => vscode.window.withProgress({ location: { viewId: "crm.knowledge" }, title }, work);

/** What a publish of several versions did, one word per version ("Success" or the org's reason): a message naming each one not published. */
export function showPublishOutcome(outcome: { name: string; word: string }[], what: "drafts" | "translations"): void {
  const failed = outcome.filter((o) => o.word !== "Success");
  const published = outcome.length - failed.length;
  const summary = what === "drafts"
    ? vscode.l10n.t("Published {0} of {1} drafts.", published, outcome.length)
    : vscode.l10n.t("Published {0} of {1} translations.", published, outcome.length);
  const notPublished = vscode.l10n.t("Not published: {0}", failed.map((f) => `${f.name} (${f.word})`).join("; "));
  if (failed.length) void vscode.window.showWarningMessage(`${summary} ${notPublished}`);
  else void vscode.window.showInformationMessage(summary);
}

/** The word an action result gives one version (by its 15-character ID). */
export const outcomeOf = (result: { outputValues?: Record<string, unknown> | null } | undefined, id: string) => String(result?.outputValues?.[id.slice(0, 15)] ?? vscode.l10n.t("no answer"));

/** The org a node belongs to (undefined: the active org). */
const orgOf = (node: unknown) => (isArticleTarget(node) || node instanceof LoadMoreNode ? node.orgKey : undefined);

/**
 * The articles a command acts on: the clicked node with the selection, or — from the palette — one
 * picked among the org's versions in the right state (by title, up to 200 per state).
 */
async function articlesOf(active: ActiveOrg, node: unknown, nodes: unknown, status: PublishStatus | undefined, title: string): Promise<ArticleRow[]> {
  // A multi-selection acts within the clicked node's org.
  const selected = Array.isArray(nodes) ? nodes.filter((n): n is ArticleTarget => isArticleTarget(n) && n.orgKey === orgOf(node)).map((n) => n.article) : [];
  if (selected.length) return status ? selected.filter((a) => a.publishStatus === status) : selected;
  if (isArticleTarget(node)) return [node.article];
  const crm = (await active.session()).crm;
  const states: PublishStatus[] = status ? [status] : ["Draft", "Online", "Archived"];
  const items = (async () => {
    const pages = await Promise.all(states.map((s) => crm.knowledge.listArticleVersions({ publishStatus: s, pageSize: 200, sort: "Title", order: "ASC", sobject: readSettings().knowledgeSobject })));
    return pages.flatMap((p) => p.records.map(toArticleRow)).map((a) => ({ label: a.title, description: vscode.l10n.t("#{0} · {1} · v{2}", a.articleNumber, a.publishStatus, a.versionNumber), a }));
  })();
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, placeHolder: vscode.l10n.t("Type to filter by title or number") });
  if (!picked) throw new UserCancelled();
  return [picked.a];
}

const ARTICLE_ACTION_COMMANDS: Record<Exclude<ArticleAction, "createDraft">, CommandId> = {
  edit: "crm.knowledge.updateArticle",
  publish: "crm.knowledge.publish",
  archive: "crm.knowledge.archive",
  openInBrowser: "crm.knowledge.openInBrowser",
  translate: "crm.translation.submit",
  compare: "crm.translation.compareVersions",
};

/**
 * An Article Details button: the same command as the tree's menu, given the article the panel shows (so it
 * confirms, reports progress and errors as from the tree; the panel follows the change the command makes).
 */
export async function runArticleAction(orgKey: string, a: ArticleDetailsView, action: ArticleAction): Promise<void> {
  const row = (id: string, versionNumber: number, publishStatus: string): ArticleRow => ({ id, knowledgeArticleId: a.knowledgeArticleId, articleNumber: a.articleNumber, title: a.title, urlName: a.urlName, versionNumber, publishStatus: publishStatus as PublishStatus, validationStatus: a.validationStatus, lastPublishedDate: null, lastModifiedDate: null });
  const article = row(a.id, a.versionNumber, a.publishStatus);
  const shown = a.languages.find((l) => l.id === a.id && !l.master);
  const master = a.languages.find((l) => l.master);
  // A translation's edit and publish are the translation commands, given the translation as the tree shows it.
  if (shown && master && (action === "edit" || action === "publish" || action === "createDraft")) {
    const node = new TranslationNode({ ...article, language: a.language, stale: shown.stale }, row(master.id, master.versionNumber, master.publishStatus), orgKey);
    return void (await vscode.commands.executeCommand(action === "publish" ? "crm.translation.publish" : "crm.translation.edit", node));
  }
  const command = action === "createDraft" ? (a.publishStatus === "Online" ? "crm.knowledge.createDraftFromOnline" : "crm.knowledge.createDraftFromMaster") : ARTICLE_ACTION_COMMANDS[action];
  await vscode.commands.executeCommand(command, { orgKey, article } satisfies ArticleTarget);
}

async function one(active: ActiveOrg, node: unknown, status: PublishStatus | undefined, title: string): Promise<ArticleRow> {
  return (await articlesOf(active, node, undefined, status, title))[0]!;
}

/** The article a command is about: the tree node, or one picked from the palette in any state. */
export const articleOf = (active: ActiveOrg, node: unknown, title: string) => one(active, node, undefined, title);

function slug(title: string): string {
  return title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80);
}

export function knowledgeCommands(active: ActiveOrg, provider: KnowledgeTreeProvider, articles: ArticlePanels): Record<Extract<CommandId, `crm.knowledge.${string}`>, (...args: unknown[]) => unknown> {
  const crm = async (node?: unknown) => (await active.sessionFor(orgOf(node))).crm;
  const sobject = () => readSettings().knowledgeSobject;
  return {
    "crm.knowledge.refresh": () => provider.refresh(),
    "crm.knowledge.showDetails": async (node) => {
      const a = await one(active, node, undefined, vscode.l10n.t("Show the details of which article?"));
      const orgKey = isArticleTarget(node) ? node.orgKey : (await active.session()).record.key;
      // A row clicked in the tree opens in the preview panel, as a file clicked in the Explorer does.
      if (node instanceof ArticleNode || node instanceof TranslationNode) articles.showPreview({ orgKey, id: a.id });
      else articles.show({ orgKey, id: a.id });
    },
    "crm.knowledge.loadMore": async (node) => {
      if (!(node instanceof LoadMoreNode)) return;
      const model = await provider.current(node.orgKey);
      await withViewProgress(vscode.l10n.t("Loading articles"), () => model.loadMore(node.status));
    },
    "crm.knowledge.sort": async () => {
      const model = provider.sort;
      const fields = [
        ["LastPublishedDate", vscode.l10n.t("Last published ascending"), vscode.l10n.t("Last published descending")],
        ["CreatedDate", vscode.l10n.t("Created ascending"), vscode.l10n.t("Created descending")],
        ["Title", vscode.l10n.t("Title ascending"), vscode.l10n.t("Title descending")],
        ["ViewScore", vscode.l10n.t("View score ascending"), vscode.l10n.t("View score descending")],
      ] as const;
      const picked = await vscode.window.showQuickPick(
        fields.flatMap(([sort, ascending, descending]) => (["DESC", "ASC"] as const).map((order) => ({ label: order === "ASC" ? ascending : descending, picked: model.sort === sort && model.order === order, sort, order }))),
        { title: vscode.l10n.t("Sort articles by") },
      );
      if (!picked) throw new UserCancelled();
      provider.setSort(picked.sort, picked.order);
    },
    "crm.knowledge.filter": async () => {
      const text = await vscode.window.showInputBox({ title: vscode.l10n.t("Filter articles by title"), prompt: vscode.l10n.t("Text the title contains (empty shows all)"), value: provider.titleFilter });
      if (text === undefined) throw new UserCancelled();
      provider.setTitleFilter(text);
      await vscode.commands.executeCommand("setContext", "crm.knowledgeFiltered", Boolean(provider.titleFilter));
    },
    "crm.knowledge.clearFilter": async () => {
      provider.setTitleFilter("");
      await vscode.commands.executeCommand("setContext", "crm.knowledgeFiltered", false);
    },
    "crm.knowledge.createArticle": async () => {
      const title = await vscode.window.showInputBox({ title: vscode.l10n.t("New article (1/4): Title"), validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t("Enter a title")), ignoreFocusOut: true });
      if (!title) throw new UserCancelled();
      const urlName = await vscode.window.showInputBox({ title: vscode.l10n.t("New article (2/4): URL name"), value: slug(title), ignoreFocusOut: true,
        validateInput: (v) => (/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(v) ? undefined : vscode.l10n.t("Letters, digits and hyphens; not starting or ending with a hyphen")) });
      if (!urlName) throw new UserCancelled();
      const summary = await vscode.window.showInputBox({ title: vscode.l10n.t("New article (3/4): Summary (optional)"), ignoreFocusOut: true });
      if (summary === undefined) throw new UserCancelled();
      // The body goes into the article type's first rich-text field, whatever the org calls it.
      const session = await active.session();
      const bodyField = (await session.schema.describe(sobject())).fields.find((f) => isRichText(f) && f.createable !== false);
      let body: string | undefined;
      if (bodyField) {
        body = await vscode.window.showInputBox({ title: vscode.l10n.t("New article (4/4): {0} (optional, HTML)", bodyField.label), placeHolder: "<p>…</p>", ignoreFocusOut: true });
        if (body === undefined) throw new UserCancelled();
      }
      const data: Record<string, unknown> = { Title: title.trim(), UrlName: urlName, ...(summary ? { Summary: summary } : {}), ...(bodyField && body ? { [bodyField.name]: body } : {}) };
      const id = await withViewProgress(vscode.l10n.t("Creating the article"), () => session.crm.knowledge.createArticle(data, { sobject: sobject() }));
      void vscode.window.showInformationMessage(vscode.l10n.t("Created the draft '{0}' ({1}).", title.trim(), id));
      articles.show({ orgKey: session.record.key, id }, { preserveFocus: true });
      return id;
    },
    "crm.knowledge.publish": async (node, nodes) => {
      const articles = await articlesOf(active, node, nodes, "Draft", vscode.l10n.t("Publish which draft?"));
      if (!articles.length) throw new CommandRefusal(vscode.l10n.t("Only drafts can be published; select one or more drafts."));
      const kind = await vscode.window.showQuickPick([
        { label: vscode.l10n.t("Major version"), description: vscode.l10n.t("the current published version is archived"), major: true },
        { label: vscode.l10n.t("Minor version"), description: vscode.l10n.t("replaces the current published version, keeping its number"), major: false },
      ], { title: articles.length === 1 ? vscode.l10n.t("Publish '{0}' as", articles[0]!.title) : vscode.l10n.t("Publish {0} drafts as", articles.length) });
      if (!kind) throw new UserCancelled();
      const c = await crm(node);
      const checked = await preflighted(node, articles);
      if (articles.length === 1) {
        await withViewProgress(vscode.l10n.t("Publishing"), () => c.knowledge.publishArticle(articles[0]!.id, { majorVersion: kind.major }));
        void vscode.window.showInformationMessage(vscode.l10n.t("Published '{0}'.", articles[0]!.title));
      } else {
        await publishMany(node, checked, kind.major);
      }
    },
    "crm.knowledge.publishSelected": async (node, nodes) => {
      const articles = await articlesOf(active, node, nodes, "Draft", vscode.l10n.t("Publish which drafts?"));
      if (!articles.length) throw new CommandRefusal(vscode.l10n.t("Select one or more drafts to publish."));
      await publishMany(node, await preflighted(node, articles), true);
    },
    "crm.knowledge.archive": async (node) => {
      const a = await one(active, node, "Online", vscode.l10n.t("Archive which published article?"));
      const archive = vscode.l10n.t("Archive");
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t("Archive '{0}' (#{1})?", a.title, a.articleNumber), { modal: true, detail: vscode.l10n.t("Readers will no longer see it. Archived versions can't be edited.") }, archive);
      if (choice !== archive) throw new UserCancelled();
      await withViewProgress(vscode.l10n.t("Archiving"), async () => (await crm(node)).knowledge.archiveArticle(a.id));
    },
    "crm.knowledge.deleteDraft": async (node) => {
      const a = await one(active, node, "Draft", vscode.l10n.t("Delete which draft?"));
      const deleteDraft = vscode.l10n.t("Delete Draft");
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t("Delete the draft '{0}' (#{1}, version {2})?", a.title, a.articleNumber, a.versionNumber), { modal: true, detail: vscode.l10n.t("The draft's changes are lost. A published version of the article stays as it is.") }, deleteDraft);
      if (choice !== deleteDraft) throw new UserCancelled();
      await withViewProgress(vscode.l10n.t("Deleting the draft"), async () => (await crm(node)).knowledge.deleteArticleDraft(a.id, { sobject: sobject() }));
    },
    "crm.knowledge.createDraftFromOnline": async (node) => {
      const a = await one(active, node, "Online", vscode.l10n.t("Create a draft of which published article?"));
      const choice = await vscode.window.showQuickPick([
        { label: vscode.l10n.t("Keep it published"), description: vscode.l10n.t("readers see the published version while you edit"), unpublish: false },
        { label: vscode.l10n.t("Unpublish it"), description: vscode.l10n.t("the published version becomes the draft"), unpublish: true },
      ], { title: vscode.l10n.t("Draft of '{0}'", a.title) });
      if (!choice) throw new UserCancelled();
      await withViewProgress(vscode.l10n.t("Creating the draft"), async () => (await crm(node)).knowledge.createDraftFromOnlineArticle(a.knowledgeArticleId || a.id, { unpublish: choice.unpublish }));
      void vscode.window.showInformationMessage(vscode.l10n.t("Created a draft of '{0}'.", a.title));
    },
    "crm.knowledge.checkValidation": async (node) => {
      const a = await one(active, node, undefined, vscode.l10n.t("Check the validation status of which article?"));
      const status = await (await crm(node)).knowledge.getValidationStatus({ articleId: a.id, sobject: sobject() });
      void vscode.window.showInformationMessage(vscode.l10n.t("'{0}' (version {1}): {2}.", a.title, a.versionNumber, status || vscode.l10n.t("no validation status")));
    },
    "crm.knowledge.findByTitle": async () => {
      const title = await vscode.window.showInputBox({ title: vscode.l10n.t("Find an article by its exact title"), ignoreFocusOut: true });
      if (!title) throw new UserCancelled();
      const found = await (await crm()).knowledge.checkForExistingArticle(title, { sobject: sobject(), returnIdAndNumber: true, includeArchived: true });
      if (!found[0]) return void vscode.window.showInformationMessage(vscode.l10n.t("No article is titled '{0}'.", title));
      const [copyId, openInBrowser] = [vscode.l10n.t("Copy ID"), vscode.l10n.t("Open in Browser")];
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t("'{0}' is article #{1} (version ID {2}).", title, found[1], found[0]), copyId, openInBrowser);
      if (choice === copyId) await vscode.env.clipboard.writeText(found[0]);
      if (choice === openInBrowser) await vscode.env.openExternal(vscode.Uri.parse(await (await crm()).knowledge.getArticleUrl({ articleId: found[0], sobject: sobject() })));
    },
    "crm.knowledge.findByNumber": async () => {
      const number = await vscode.window.showInputBox({ title: vscode.l10n.t("Find an article by its number"), validateInput: (v) => (/^\d+$/.test(v.trim()) ? undefined : vscode.l10n.t("Digits only, such as 1001 or 000001001")), ignoreFocusOut: true });
      if (!number) throw new UserCancelled();
      const id = await (await crm()).knowledge.getArticleIdFromNumber(number.trim(), { sobject: sobject() });
      if (!id) return void vscode.window.showInformationMessage(vscode.l10n.t("No article has the number {0}.", number.trim()));
      const [copyId, openInBrowser] = [vscode.l10n.t("Copy ID"), vscode.l10n.t("Open in Browser")];
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t("Article #{0}: newest version {1}.", number.trim(), id), copyId, openInBrowser);
      if (choice === copyId) await vscode.env.clipboard.writeText(id);
      if (choice === openInBrowser) await vscode.env.openExternal(vscode.Uri.parse(await (await crm()).knowledge.getArticleUrl({ articleId: id, sobject: sobject() })));
    },
    "crm.knowledge.openInBrowser": async (node) => {
      const a = await one(active, node, undefined, vscode.l10n.t("Open which article?"));
      const style = (await vscode.window.showQuickPick([{ label: vscode.l10n.t("Lightning"), style: "lightning" as const }, { label: vscode.l10n.t("Classic"), style: "classic" as const }], { title: vscode.l10n.t("Open in") }))?.style;
      if (!style) throw new UserCancelled();
      await vscode.env.openExternal(vscode.Uri.parse(await (await crm(node)).knowledge.getArticleUrl({ articleId: a.id, sobject: sobject(), style })));
    },
    "crm.knowledge.updateArticle": async (node) => {
      const a = await one(active, node, "Draft", vscode.l10n.t("Update which draft?"));
      const field = await vscode.window.showQuickPick([
        { label: vscode.l10n.t("Title"), api: "Title", value: a.title }, { label: vscode.l10n.t("URL name"), api: "UrlName", value: a.urlName }, { label: vscode.l10n.t("Summary"), api: "Summary", value: "" },
        { label: vscode.l10n.t("Validation status"), api: "ValidationStatus", value: a.validationStatus },
      ].map((f) => ({ ...f, description: f.value })), { title: vscode.l10n.t("Update '{0}': which field?", a.title) });
      if (!field) throw new UserCancelled();
      let value: string | undefined;
      if (field.api === "ValidationStatus") value = (await vscode.window.showQuickPick(["Validated", "Not Validated"], { title: vscode.l10n.t("Validation status") })) ?? undefined;
      else value = await vscode.window.showInputBox({ title: vscode.l10n.t("{0} of '{1}'", field.label, a.title), value: field.value, ignoreFocusOut: true, validateInput: (v) => (field.api === "Title" && !v.trim() ? vscode.l10n.t("A title can't be empty") : undefined) });
      if (value === undefined) throw new UserCancelled();
      await withViewProgress(vscode.l10n.t("Updating the draft"), async () => (await crm(node)).knowledge.updateArticle(a.id, { [field.api]: value }, { sobject: sobject() }));
      vscode.window.setStatusBarMessage(vscode.l10n.t("Updated {0} of '{1}'", field.label, a.title), 3000);
    },
    "crm.knowledge.createDraftFromMaster": async (node) => {
      const a = await one(active, node, undefined, vscode.l10n.t("Create a new draft of which article?"));
      const draftId = await withViewProgress(vscode.l10n.t("Creating the draft"), async () => (await crm(node)).knowledge.createDraftFromMasterVersion({ knowledgeArticleId: a.knowledgeArticleId, sobject: sobject() }));
      void vscode.window.showInformationMessage(vscode.l10n.t("Created a draft of '{0}' ({1}).", a.title, draftId));
    },
    "crm.knowledge.assignDataCategory": async (node) => {
      const a = await one(active, node, "Draft", vscode.l10n.t("Assign a data category to which draft?"));
      const c = await crm(node);
      type Choice = vscode.QuickPickItem & { group: string; category: string };
      const choices = (async () => {
        const out: Choice[] = [];
        const walk = (group: string, cats: { name: string; label: string; childCategories?: unknown[] }[], depth: number) => {
          for (const cat of cats) {
            out.push({ label: `${"\u2003".repeat(depth)}${cat.label}`, description: `${group} · ${cat.name}`, group, category: cat.name });
            walk(group, (cat.childCategories ?? []) as typeof cats, depth + 1);
          }
        };
        for (const g of await c.knowledge.getDataCategoryGroups()) {
          out.push({ label: g.label, kind: vscode.QuickPickItemKind.Separator, group: g.name, category: "" });
          walk(g.name, g.topCategories, 0);
        }
        return out;
      })();
      const picked = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t("Data category for '{0}'", a.title), matchOnDescription: true });
      if (!picked) throw new UserCancelled();
      await withViewProgress(vscode.l10n.t("Assigning the category"), () => c.knowledge.assignDataCategory(a.id, picked.group, picked.category, { sobject: sobject() }));
      void vscode.window.showInformationMessage(vscode.l10n.t("'{0}' is now in {1} › {2}.", a.title, picked.group, picked.category.replace(/_/g, " ")));
    },
    "crm.knowledge.downloadImages": async (node) => {
      const a = await one(active, node, undefined, vscode.l10n.t("Download the images of which article?"));
      const c = await crm(node);
      const details = await c.knowledge.getArticleDetails(a.id, { sobject: sobject() });
      const images = Object.entries(details).flatMap(([field, value]) =>
        typeof value === "string" ? richTextImageUrls(value).map((url) => ({ field, url })) : []);
      if (!images.length) return void vscode.window.showInformationMessage(vscode.l10n.t("'{0}' has no images in its rich-text fields.", a.title));
      const folder = await vscode.window.showOpenDialog({ title: images.length === 1 ? vscode.l10n.t("Save the image of '{0}' to", a.title) : vscode.l10n.t("Save {0} images of '{1}' to", images.length, a.title), canSelectFiles: false, canSelectFolders: true, openLabel: vscode.l10n.t("Save Here") });
      if (!folder?.[0]) throw new UserCancelled();
      const { saved, refused } = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: images.length === 1 ? vscode.l10n.t("Downloading 1 image") : vscode.l10n.t("Downloading {0} images", images.length), cancellable: true }, async (progress, token) => {
        const files: string[] = [];
        let skipped = 0;
        for (const image of images) {
          if (token.isCancellationRequested) throw new UserCancelled();
          try {
            files.push(await c.downloadImage(image.url, a.id, image.field, { filePath: folder[0]!.fsPath, sobject: sobject() }));
          } catch (err) {
            // A reference that is not an image's (an author's trick to reach other files or resources) is skipped, not fatal.
            if (!(err instanceof InvalidFieldError)) throw err;
            skipped++;
          }
          progress.report({ increment: 100 / images.length });
        }
        return { saved: files, refused: skipped };
      });
      const savedNote = saved.length === 1 ? vscode.l10n.t("Saved 1 image of '{0}' to {1}.", a.title, folder[0].fsPath) : vscode.l10n.t("Saved {0} images of '{1}' to {2}.", saved.length, a.title, folder[0].fsPath);
      const skippedNote = !refused ? "" : refused === 1 ? vscode.l10n.t("Skipped 1 whose reference is not a rich-text image's.") : vscode.l10n.t("Skipped {0} whose reference is not a rich-text image's.", refused);
      const reveal = vscode.l10n.t("Reveal");
      const choice = await vscode.window.showInformationMessage([savedNote, skippedNote].filter(Boolean).join(" "), ...(saved.length ? [reveal] : []));
      if (choice === reveal) await vscode.commands.executeCommand("revealFileInOS", vscode.Uri.file(saved[0]!));
    },
    "crm.knowledge.copyId": async (node) => {
      const a = await one(active, node, undefined, vscode.l10n.t("Copy the ID of which article?"));
      await vscode.env.clipboard.writeText(a.id);
      vscode.window.setStatusBarMessage(vscode.l10n.t("Copied {0}", a.id), 3000);
    },
    "crm.knowledge.copy18Id": async (node) => {
      const a = await one(active, node, undefined, vscode.l10n.t("Copy the 18-character ID of which article?"));
      const id = get18CharId(a.id);
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(vscode.l10n.t("Copied {0}", id), 3000);
    },
  };

  /**
   * The pre-flight before publishing: every draft checked first; when any fails, a checklist per article with
   * Publish Anyway or (when some pass) publishing only those. Resolves to the drafts to publish, each with
   * the reason it is held back otherwise.
   */
  async function preflighted(node: unknown, articles: ArticleRow[]): Promise<{ publish: ArticleRow[]; held: { a: ArticleRow; word: string }[] }> {
    const session = await active.sessionFor(orgOf(node));
    const reports = await withViewProgress(vscode.l10n.t("Checking before publishing"), async () => session.crm.knowledge.preflightPublish(articles.map((a) => a.id), {
      sobject: sobject(), describe: await session.schema.describe(sobject()), requiredFields: readSettings().preflightRequiredFields,
    }));
    const report = (a: ArticleRow) => reports.find((r) => r.id.slice(0, 15) === a.id.slice(0, 15));
    const failing = articles.filter((a) => !report(a)?.passed);
    if (!failing.length) return { publish: articles, held: [] };
    const passing = articles.filter((a) => report(a)?.passed);
    const detail = articles.map((a) => [`${report(a)?.passed ? "✓" : "✗"} ${a.title}`, ...(report(a)?.problems ?? []).map((p) => `    ${p.severity === "error" ? "✗" : "!"} ${p.message}`)].join("\n")).join("\n");
    const onlyPassing = vscode.l10n.t("Publish {0} Passing", passing.length);
    const anyway = vscode.l10n.t("Publish Anyway");
    const choice = await vscode.window.showWarningMessage(
      articles.length === 1 ? vscode.l10n.t("'{0}' is not ready to publish.", articles[0]!.title) : vscode.l10n.t("{0} of {1} drafts are not ready to publish.", failing.length, articles.length),
      { modal: true, detail }, ...(passing.length ? [onlyPassing] : []), anyway,
    );
    if (!choice) throw new UserCancelled();
    if (choice === anyway) return { publish: articles, held: [] };
    const firstError = (a: ArticleRow) => report(a)?.problems.find((p) => p.severity === "error")?.message ?? vscode.l10n.t("not checked");
    return { publish: passing, held: failing.map((a) => ({ a, word: vscode.l10n.t("pre-flight: {0}", firstError(a)) })) };
  }

  async function publishMany(node: unknown, checked: { publish: ArticleRow[]; held: { a: ArticleRow; word: string }[] }, major: boolean): Promise<void> {
    const articles = checked.publish;
    const [result] = await withViewProgress(vscode.l10n.t("Publishing {0} drafts", articles.length), async () => (await crm(node)).knowledge.publishMultipleArticles(articles.map((a) => a.id), { majorVersion: major }));
    showPublishOutcome([...articles.map((a) => ({ a, word: outcomeOf(result, a.id) })), ...checked.held].map((o) => ({ name: `'${o.a.title}'`, word: o.word })), "drafts");
  }
}
