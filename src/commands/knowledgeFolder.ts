/**
 * The knowledge base in a folder: Pull Articles to Folder (chosen articles, a data category, a SOQL filter or
 * every published article), Push Folder to Org (a dry run to review, conflicts left out unless chosen, drafts
 * unless publishing is asked for), and Check Knowledge Folder Against Org. The work is the client's
 * (knowledgeFolder); this is the asking, the progress and the report.
 */
import * as vscode from "vscode";
import * as knowledgeFolder from "../workflows/knowledgeFolder";
import type { DataCategory } from "../client/knowledge";
import type { PushPlanEntry, PushResult } from "../workflows/knowledgeFolder";
import type { OrgManager } from "../connections/orgManager";
import type { Log } from "../platform/log";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { withCancellableProgress } from "../platform/progress";
import { readSettings } from "../platform/settings";
import type { ActiveOrg } from "../views/activeOrg";
import { plainOrUnjudged } from "../shared/plainRichText";
import { isArticleTarget, publishStatusLabel, type PublishStatus } from "../views/knowledgeModel";
import { workspaceFolderIO, type KnowledgeFolders } from "../views/knowledgeFolders";
import type { CommandId } from "./commandIds";

export interface KnowledgeFolderDeps {
  manager: OrgManager;
  active: ActiveOrg;
  log: Log;
  folders: KnowledgeFolders;
}

function actionText(action: PushPlanEntry["action"]): string {
  switch (action) {
    case "create": return vscode.l10n.t("create a new article");
    case "draftFromOnline": return vscode.l10n.t("a draft of the published article");
    case "updateDraft": return vscode.l10n.t("update the draft");
    case "nothing": return vscode.l10n.t("article unchanged");
  }
}

/** A condition to start from: SOQL, the same in every language. */
const WHERE_EXAMPLE = "LastPublishedDate = LAST_N_DAYS:30";

function flatten(categories: DataCategory[], depth = 0): { name: string; label: string; depth: number }[] {
  return categories.flatMap((c) => [{ name: c.name, label: c.label, depth }, ...flatten(c.childCategories ?? [], depth + 1)]);
}

/** The client's "done of total: what" as a notification's progress. */
function countReport(progress: vscode.Progress<{ message?: string; increment?: number }>): (done: number, total: number, what: string) => void {
  let last = 0;
  return (done, total, what) => {
    const percent = total ? (done / total) * 100 : 0;
    progress.report({ increment: percent - last, message: what ? vscode.l10n.t("{0} of {1}: {2}", done + 1, total, what) : undefined });
    last = percent;
  };
}

/** "Pushed 3 articles to Demo org (1 published)." — or as drafts, or nothing pushed. */
function pushedText(pushed: number, published: number, alias: string): string {
  if (!pushed) return vscode.l10n.t("Pushed no article to {0}.", alias);
  if (published) return pushed === 1 ? vscode.l10n.t("Pushed 1 article to {0} (published).", alias) : vscode.l10n.t("Pushed {0} articles to {1} ({2} published).", pushed, alias, published);
  return pushed === 1 ? vscode.l10n.t("Pushed 1 article to {0} as a draft.", alias) : vscode.l10n.t("Pushed {0} articles to {1} as drafts.", pushed, alias);
}

export function knowledgeFolderCommands(deps: KnowledgeFolderDeps): Record<Extract<CommandId, `crm.folder.${string}`>, (...args: unknown[]) => unknown> {
  const { manager, active, folders, log } = deps;
  const sobject = () => readSettings().knowledgeSobject;
  const relative = (uri: vscode.Uri) => vscode.workspace.asRelativePath(uri, false);

  /** Which articles to pull: the tree's selection, or one of four ways asked for. */
  async function selectionFor(orgKey: string, node: unknown, nodes: unknown): Promise<knowledgeFolder.PullSelection> {
    const picked = (Array.isArray(nodes) ? nodes : [node]).filter(isArticleTarget).filter((n) => n.orgKey === orgKey).map((n) => n.article.knowledgeArticleId);
    if (picked.length) return { articleIds: picked };
    const crm = (await manager.session(orgKey)).crm;
    const how = await vscode.window.showQuickPick([
      { label: vscode.l10n.t("Chosen articles…"), description: vscode.l10n.t("drafts and published articles, by title"), how: "articles" },
      { label: vscode.l10n.t("A data category…"), description: vscode.l10n.t("its articles and those of the categories under it"), how: "category" },
      { label: vscode.l10n.t("A SOQL filter…"), description: vscode.l10n.t("a WHERE condition on {0}", sobject()), how: "where" },
      { label: vscode.l10n.t("All published articles"), how: "all" },
    ] as const, { title: vscode.l10n.t("Pull which articles?") });
    if (!how) throw new UserCancelled();
    if (how.how === "all") return {};
    if (how.how === "where") {
      const where = await vscode.window.showInputBox({ title: vscode.l10n.t("Pull the articles where (a SOQL condition on {0})", sobject()), placeHolder: WHERE_EXAMPLE, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t("Type a condition, such as Title LIKE '%router%'")) });
      if (where === undefined) throw new UserCancelled();
      return { where };
    }
    if (how.how === "category") {
      const groups = await crm.knowledge.getDataCategoryGroups();
      const items = groups.flatMap((g) => flatten(g.topCategories).map((c) => ({ label: `${"  ".repeat(c.depth)}${c.label}`, description: `${g.label} · ${c.name}`, group: g.name, category: c.name })));
      if (!items.length) throw new CommandRefusal(vscode.l10n.t("The org has no data categories for articles."));
      const category = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Pull the articles of which data category?"), matchOnDescription: true });
      if (!category) throw new UserCancelled();
      return { dataCategory: { group: category.group, category: category.category } };
    }
    const items = (async () => {
      const pages = await Promise.all((["Draft", "Online"] as const).map((s) => crm.knowledge.listArticleVersions({ publishStatus: s, pageSize: 200, sort: "Title", order: "ASC", sobject: sobject() })));
      const seen = new Set<string>();
      return pages.flatMap((p) => p.records).filter((v) => !seen.has(v.KnowledgeArticleId) && !!seen.add(v.KnowledgeArticleId))
        .map((v) => ({ label: v.Title, description: vscode.l10n.t("#{0} · {1} · v{2}", v.ArticleNumber, publishStatusLabel(v.PublishStatus as PublishStatus), v.VersionNumber), id: v.KnowledgeArticleId }));
    })();
    const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Pull which articles? (the draft where there is one)"), canPickMany: true, matchOnDescription: true });
    if (!chosen?.length) throw new UserCancelled();
    return { articleIds: chosen.map((c) => c.id) };
  }

  /** Where to pull to: a knowledge folder already in the workspace, a new one in it, or any folder. */
  async function destination(): Promise<vscode.Uri> {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    const items = [
      ...folders.list().map((uri) => ({ label: relative(uri), description: vscode.l10n.t("a knowledge folder of this workspace"), uri, how: "existing" as const })),
      ...(workspace ? [{ label: vscode.l10n.t("New folder in the workspace…"), description: workspace.name, how: "new" as const }] : []),
      { label: vscode.l10n.t("Choose a folder…"), how: "choose" as const },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Pull the articles into which folder?") });
    if (!picked) throw new UserCancelled();
    if (picked.how === "existing") return picked.uri!;
    if (picked.how === "new") {
      const name = await vscode.window.showInputBox({ title: vscode.l10n.t("Folder name (in the workspace)"), value: "knowledge", ignoreFocusOut: true, validateInput: (v) => (/^[\w.-]+(\/[\w.-]+)*$/.test(v.trim()) && !v.split("/").includes("..") ? undefined : vscode.l10n.t("Use letters, digits, '-', '_' and '.', with '/' between folders")) });
      if (name === undefined) throw new UserCancelled();
      return vscode.Uri.joinPath(workspace!.uri, name.trim());
    }
    const [chosen] = (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: vscode.l10n.t("Pull Here"), defaultUri: workspace?.uri })) ?? [];
    if (!chosen) throw new UserCancelled();
    return chosen;
  }

  /** The knowledge folder a command is about: the Explorer's folder, the only one in the workspace, or one picked. */
  async function folderOf(arg: unknown): Promise<vscode.Uri> {
    if (arg instanceof vscode.Uri) return folders.rootOf(arg) ?? arg;
    const known = folders.list();
    if (known.length === 1) return known[0]!;
    if (!known.length) throw new CommandRefusal(vscode.l10n.t("This workspace has no knowledge folder yet: pull articles into one with 'CRM: Pull Articles to Folder…'."));
    const picked = await vscode.window.showQuickPick(known.map((uri) => ({ label: relative(uri), uri })), { title: vscode.l10n.t("Which knowledge folder?") });
    if (!picked) throw new UserCancelled();
    return picked.uri;
  }

  /** The org a folder goes to: the one it was pulled from is offered first. */
  async function targetOrg(root: vscode.Uri): Promise<string> {
    const pulledFrom = (await knowledgeFolder.readManifest(workspaceFolderIO(root)))?.org.instanceUrl;
    const orgs = manager.registry.list();
    if (!orgs.length) throw new CommandRefusal(vscode.l10n.t("There is no org yet. Add one with 'CRM: Add Org'."));
    const items = orgs.map((o) => ({ label: o.alias, description: o.instanceUrl === pulledFrom ? vscode.l10n.t("pulled from here") : o.key === manager.registry.activeKey ? vscode.l10n.t("active") : "", detail: o.instanceUrl, key: o.key, pulledFrom: o.instanceUrl === pulledFrom }))
      .sort((a, b) => Number(b.pulledFrom) - Number(a.pulledFrom));
    if (items.length === 1) return items[0]!.key;
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Push {0} to which org?", relative(root)), matchOnDetail: true });
    if (!picked) throw new UserCancelled();
    return picked.key;
  }

  function report(results: PushResult[], alias: string): void {
    for (const r of results.filter((x) => x.outcome !== "unchanged")) {
      log.info(`Push to ${alias}: ${r.name}: ${r.outcome}${r.versionId ? ` (${r.versionId})` : ""}${r.published ? ", published" : ""}${r.message ? ` — ${r.message}` : ""}${r.warnings.map((w) => `; ${w}`).join("")}`);
    }
    const pushed = results.filter((r) => r.outcome === "pushed");
    const published = pushed.filter((r) => r.published).length;
    const failed = results.filter((r) => r.outcome === "failed" || r.outcome === "conflict" || r.outcome === "cancelled");
    const warned = pushed.filter((r) => r.warnings.length);
    const text = [
      pushedText(pushed.length, published, alias),
      ...failed.map((r) => vscode.l10n.t("{0}: {1}.", r.title, r.outcome === "cancelled" ? vscode.l10n.t("not pushed (cancelled)") : r.message ?? r.outcome)),
      ...warned.map((r) => vscode.l10n.t("{0}: {1}.", r.title, r.warnings.join("; "))),
    ].join(" ");
    const show = failed.length || warned.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const [showKnowledge, showLog] = [vscode.l10n.t("Show Knowledge"), vscode.l10n.t("Show Log")];
    void show(text, showKnowledge, showLog).then((choice) => {
      if (choice === showKnowledge) void vscode.commands.executeCommand("crm.knowledge.focus");
      if (choice === showLog) log.show();
    });
  }

  return {
    "crm.folder.pull": async (node: unknown, nodes: unknown) => {
      const orgKey = isArticleTarget(node) ? node.orgKey : (await active.session()).record.key;
      const selection = await selectionFor(orgKey, node, nodes);
      const root = await destination();
      const session = await manager.session(orgKey);
      const answered = await withCancellableProgress(vscode.l10n.t("Pulling articles from {0}", session.record.alias), (signal, progress) =>
        knowledgeFolder.pullArticles(session.crm, workspaceFolderIO(root), selection, { sobject: sobject(), signal, onProgress: countReport(progress) }));
      await folders.track(root, session.crm);
      const pulled = answered.filter((p) => !p.refused);
      const refused = answered.filter((p) => p.refused);
      for (const p of refused) log.warn(`Pull from ${session.record.alias}: ${p.refused}`);
      if (refused.length) {
        const showLog = vscode.l10n.t("Show Log");
        const text = refused.length === 1 ? vscode.l10n.t("1 article was not pulled: {0}", refused[0]!.refused!) : vscode.l10n.t("{0} articles were not pulled (each is named in the log): {1}", refused.length, refused[0]!.refused!);
        void vscode.window.showWarningMessage(text, showLog).then((choice) => choice === showLog && log.show());
      }
      if (!pulled.length) return void (refused.length || vscode.window.showInformationMessage(vscode.l10n.t("No article of {0} matched: nothing was pulled.", session.record.alias)));
      await vscode.commands.executeCommand("revealInExplorer", vscode.Uri.joinPath(root, pulled[0]!.name));
      const images = pulled.reduce((n, p) => n + p.images, 0);
      const translations = pulled.reduce((n, p) => n + p.translations.length, 0);
      const articles = pulled.length === 1 ? vscode.l10n.t("Pulled 1 article from {0} into {1}", session.record.alias, relative(root)) : vscode.l10n.t("Pulled {0} articles from {1} into {2}", pulled.length, session.record.alias, relative(root));
      const imageCount = images === 1 ? vscode.l10n.t("1 image") : vscode.l10n.t("{0} images", images);
      const translationCount = translations === 1 ? vscode.l10n.t("1 translation") : vscode.l10n.t("{0} translations", translations);
      void vscode.window.showInformationMessage(vscode.l10n.t("{0} ({1}, {2}).", articles, imageCount, translationCount));
    },
    "crm.folder.push": async (arg: unknown) => {
      const root = await folderOf(arg);
      const orgKey = await targetOrg(root);
      const session = await manager.session(orgKey);
      const io = workspaceFolderIO(root);
      const plan = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Comparing {0} with {1}", relative(root), session.record.alias) }, () =>
        knowledgeFolder.planPush(session.crm, io, { sobject: sobject() }));
      const todo = plan.entries.filter((e) => e.action !== "nothing" || e.translations.length);
      if (!todo.length) return void vscode.window.showInformationMessage(vscode.l10n.t("Nothing to push: every article in {0} is as pulled from {1}.", relative(root), session.record.alias));
      const items = todo.map((e) => {
        const languages = e.translations.map((t) => t.language).join(", ");
        const what = [e.action === "nothing" ? "" : actionText(e.action), languages ? vscode.l10n.t("translations: {0}", languages) : ""].filter(Boolean).join(" · ");
        return { label: `${e.conflict ? "$(warning) " : ""}${e.title}`, description: what, detail: e.conflict ? vscode.l10n.t("{0} — select it to overwrite the org's changes", e.conflict) : e.reason, picked: !e.conflict, entry: e };
      });
      const unchanged = plan.entries.length - todo.length;
      const chosen = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t("Push to {0}: what will happen (dry run)", session.record.alias), canPickMany: true, ignoreFocusOut: true,
        placeHolder: [
          unchanged ? vscode.l10n.t("{0} to push, {1} unchanged", todo.length, unchanged) : vscode.l10n.t("{0} to push", todo.length),
          ...(items.some((i) => !i.picked) ? [vscode.l10n.t("articles changed in the org are left out unless selected")] : []),
        ].join(" — "),
      });
      if (!chosen?.length) throw new UserCancelled();
      const mode = await vscode.window.showQuickPick([
        { label: vscode.l10n.t("Push as drafts"), description: vscode.l10n.t("nothing is published"), publish: false },
        { label: vscode.l10n.t("Push and publish"), description: vscode.l10n.t("publishes the drafts that pass the folder check and the pre-flight"), publish: true },
      ], { title: chosen.length === 1 ? vscode.l10n.t("Push 1 article to {0}", session.record.alias) : vscode.l10n.t("Push {0} articles to {1}", chosen.length, session.record.alias) });
      if (!mode) throw new UserCancelled();
      const names = chosen.map((c) => c.entry.name);
      const results = await withCancellableProgress(vscode.l10n.t("Pushing to {0}", session.record.alias), (signal, progress) =>
        knowledgeFolder.pushFolder(session.crm, io, {
          sobject: sobject(), plan: { ...plan, entries: plan.entries.filter((e) => names.includes(e.name)) }, overwrite: chosen.filter((c) => c.entry.conflict).map((c) => c.entry.name),
          publish: mode.publish, requiredFields: readSettings().preflightRequiredFields, check: { richTextRemovals: plainOrUnjudged }, signal, onProgress: countReport(progress),
        }));
      report(results, session.record.alias);
      await folders.track(root, plan.sameOrg ? session.crm : undefined);
    },
    "crm.folder.check": async (arg: unknown) => {
      const root = await folderOf(arg);
      const manifest = await knowledgeFolder.readManifest(workspaceFolderIO(root));
      const org = manifest && manager.registry.list().find((o) => o.orgId === manifest.org.id || o.instanceUrl === manifest.org.instanceUrl);
      const session = org ? await manager.session(org.key) : undefined;
      const status = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Checking {0}", relative(root)) }, () => folders.track(root, session?.crm));
      const count = (test: (s: (typeof status)[number]) => boolean) => status.filter(test).length;
      const parts = [
        vscode.l10n.t("{0} modified locally", count((s) => s.local === "modified")), vscode.l10n.t("{0} new locally", count((s) => s.local === "new")),
        ...(session ? [vscode.l10n.t("{0} changed in {1}", count((s) => s.org === "changed" || s.org === "gone"), session.record.alias), vscode.l10n.t("{0} changed on both sides", count((s) => s.conflict))] : []),
      ].join(", ");
      const summary = status.length === 1 ? vscode.l10n.t("{0}: 1 article — {1}.", relative(root), parts) : vscode.l10n.t("{0}: {1} articles — {2}.", relative(root), status.length, parts);
      void vscode.window.showInformationMessage(session ? summary : `${summary} ${vscode.l10n.t("The org it was pulled from is not among your orgs, so what changed there is not known.")}`);
    },
  };
}
