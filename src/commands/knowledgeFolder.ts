/**
 * The knowledge base in a folder: Pull Articles to Folder (chosen articles, a data category, a SOQL filter or
 * every published article), Push Folder to Org (a dry run to review, conflicts left out unless chosen, drafts
 * unless publishing is asked for), and Check Knowledge Folder Against Org. The work is the client's
 * (knowledgeFolder); this is the asking, the progress and the report.
 */
import * as vscode from "vscode";
import * as knowledgeFolder from "../client/knowledgeFolder";
import type { DataCategory } from "../client/knowledge";
import type { PushPlanEntry, PushResult } from "../client/knowledgeFolder";
import type { OrgManager } from "../connections/orgManager";
import type { Log } from "../platform/log";
import { UserCancelled } from "../platform/errorMessages";
import { withCancellableProgress } from "../platform/progress";
import { readSettings } from "../platform/settings";
import type { ActiveOrg } from "../views/activeOrg";
import { isArticleTarget } from "../views/knowledgeModel";
import { workspaceFolderIO, type KnowledgeFolders } from "../views/knowledgeFolders";
import type { CommandId } from "./ids";

export interface KnowledgeFolderDeps {
  manager: OrgManager;
  active: ActiveOrg;
  log: Log;
  folders: KnowledgeFolders;
}

const ACTIONS: Record<PushPlanEntry["action"], string> = {
  create: "create a new article",
  draftFromOnline: "a draft of the published article",
  updateDraft: "update the draft",
  nothing: "article unchanged",
};

function flatten(categories: DataCategory[], depth = 0): { name: string; label: string; depth: number }[] {
  return categories.flatMap((c) => [{ name: c.name, label: c.label, depth }, ...flatten(c.childCategories ?? [], depth + 1)]);
}

/** The client's "done of total: what" as a notification's progress. */
function countReport(progress: vscode.Progress<{ message?: string; increment?: number }>): (done: number, total: number, what: string) => void {
  let last = 0;
  return (done, total, what) => {
    const percent = total ? (done / total) * 100 : 0;
    progress.report({ increment: percent - last, message: what ? `${done + 1} of ${total}: ${what}` : undefined });
    last = percent;
  };
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
      { label: "Chosen articles…", description: "drafts and published articles, by title", how: "articles" },
      { label: "A data category…", description: "its articles and those of the categories under it", how: "category" },
      { label: "A SOQL filter…", description: `a WHERE condition on ${sobject()}`, how: "where" },
      { label: "All published articles", how: "all" },
    ] as const, { title: "Pull which articles?" });
    if (!how) throw new UserCancelled();
    if (how.how === "all") return {};
    if (how.how === "where") {
      const where = await vscode.window.showInputBox({ title: `Pull the articles where (a SOQL condition on ${sobject()})`, placeHolder: "LastPublishedDate = LAST_N_DAYS:30", ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : "Type a condition, such as Title LIKE '%router%'") });
      if (where === undefined) throw new UserCancelled();
      return { where };
    }
    if (how.how === "category") {
      const groups = await crm.knowledge.getDataCategoryGroups();
      const items = groups.flatMap((g) => flatten(g.topCategories).map((c) => ({ label: `${"  ".repeat(c.depth)}${c.label}`, description: `${g.label} · ${c.name}`, group: g.name, category: c.name })));
      if (!items.length) throw new Error("The org has no data categories for articles.");
      const category = await vscode.window.showQuickPick(items, { title: "Pull the articles of which data category?", matchOnDescription: true });
      if (!category) throw new UserCancelled();
      return { dataCategory: { group: category.group, category: category.category } };
    }
    const items = (async () => {
      const pages = await Promise.all((["Draft", "Online"] as const).map((s) => crm.knowledge.listArticleVersions({ publishStatus: s, pageSize: 200, sort: "Title", order: "ASC", sobject: sobject() })));
      const seen = new Set<string>();
      return pages.flatMap((p) => p.records).filter((v) => !seen.has(v.KnowledgeArticleId) && !!seen.add(v.KnowledgeArticleId))
        .map((v) => ({ label: v.Title, description: `#${v.ArticleNumber} · ${v.PublishStatus === "Online" ? "Published" : v.PublishStatus} · v${v.VersionNumber}`, id: v.KnowledgeArticleId }));
    })();
    const chosen = await vscode.window.showQuickPick(items, { title: "Pull which articles? (the draft where there is one)", canPickMany: true, matchOnDescription: true });
    if (!chosen?.length) throw new UserCancelled();
    return { articleIds: chosen.map((c) => c.id) };
  }

  /** Where to pull to: a knowledge folder already in the workspace, a new one in it, or any folder. */
  async function destination(): Promise<vscode.Uri> {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    const items = [
      ...folders.list().map((uri) => ({ label: relative(uri), description: "a knowledge folder of this workspace", uri, how: "existing" as const })),
      ...(workspace ? [{ label: "New folder in the workspace…", description: workspace.name, how: "new" as const }] : []),
      { label: "Choose a folder…", how: "choose" as const },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: "Pull the articles into which folder?" });
    if (!picked) throw new UserCancelled();
    if (picked.how === "existing") return picked.uri!;
    if (picked.how === "new") {
      const name = await vscode.window.showInputBox({ title: "Folder name (in the workspace)", value: "knowledge", ignoreFocusOut: true, validateInput: (v) => (/^[\w.-]+(\/[\w.-]+)*$/.test(v.trim()) && !v.split("/").includes("..") ? undefined : "Use letters, digits, '-', '_' and '.', with '/' between folders") });
      if (name === undefined) throw new UserCancelled();
      return vscode.Uri.joinPath(workspace!.uri, name.trim());
    }
    const [chosen] = (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: "Pull Here", defaultUri: workspace?.uri })) ?? [];
    if (!chosen) throw new UserCancelled();
    return chosen;
  }

  /** The knowledge folder a command is about: the Explorer's folder, the only one in the workspace, or one picked. */
  async function folderOf(arg: unknown): Promise<vscode.Uri> {
    if (arg instanceof vscode.Uri) return folders.rootOf(arg) ?? arg;
    const known = folders.list();
    if (known.length === 1) return known[0]!;
    if (!known.length) throw new Error("This workspace has no knowledge folder yet: pull articles into one with 'CRM: Pull Articles to Folder…'.");
    const picked = await vscode.window.showQuickPick(known.map((uri) => ({ label: relative(uri), uri })), { title: "Which knowledge folder?" });
    if (!picked) throw new UserCancelled();
    return picked.uri;
  }

  /** The org a folder goes to: the one it was pulled from is offered first. */
  async function targetOrg(root: vscode.Uri): Promise<string> {
    const pulledFrom = (await knowledgeFolder.readManifest(workspaceFolderIO(root)))?.org.instanceUrl;
    const orgs = manager.registry.list();
    if (!orgs.length) throw new Error("There is no org yet. Add one with 'CRM: Add Org'.");
    const items = orgs.map((o) => ({ label: o.alias, description: o.instanceUrl === pulledFrom ? "pulled from here" : o.key === manager.registry.activeKey ? "active" : "", detail: o.instanceUrl, key: o.key }))
      .sort((a, b) => Number(b.description === "pulled from here") - Number(a.description === "pulled from here"));
    if (items.length === 1) return items[0]!.key;
    const picked = await vscode.window.showQuickPick(items, { title: `Push ${relative(root)} to which org?`, matchOnDetail: true });
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
      `Pushed ${pushed.length} article${pushed.length === 1 ? "" : "s"} to ${alias}${published ? ` (${published} published)` : pushed.length ? " as drafts" : ""}.`,
      ...failed.map((r) => `${r.title}: ${r.outcome === "cancelled" ? "not pushed (cancelled)" : r.message ?? r.outcome}.`),
      ...warned.map((r) => `${r.title}: ${r.warnings.join("; ")}.`),
    ].join(" ");
    const show = failed.length || warned.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(text, "Show Knowledge", "Show Log").then((choice) => {
      if (choice === "Show Knowledge") void vscode.commands.executeCommand("crm.knowledge.focus");
      if (choice === "Show Log") log.show();
    });
  }

  return {
    "crm.folder.pull": async (node: unknown, nodes: unknown) => {
      const orgKey = isArticleTarget(node) ? node.orgKey : (await active.session()).record.key;
      const selection = await selectionFor(orgKey, node, nodes);
      const root = await destination();
      const session = await manager.session(orgKey);
      const pulled = await withCancellableProgress(`Pulling articles from ${session.record.alias}`, (signal, progress) =>
        session.crm.knowledgeFolder.pullArticles(workspaceFolderIO(root), selection, { sobject: sobject(), signal, onProgress: countReport(progress) }));
      await folders.track(root, session.crm);
      if (!pulled.length) return void vscode.window.showInformationMessage(`No article of ${session.record.alias} matched: nothing was pulled.`);
      await vscode.commands.executeCommand("revealInExplorer", vscode.Uri.joinPath(root, pulled[0]!.name));
      const images = pulled.reduce((n, p) => n + p.images, 0);
      const translations = pulled.reduce((n, p) => n + p.translations.length, 0);
      void vscode.window.showInformationMessage(`Pulled ${pulled.length} article${pulled.length === 1 ? "" : "s"} from ${session.record.alias} into ${relative(root)} (${images} image${images === 1 ? "" : "s"}, ${translations} translation${translations === 1 ? "" : "s"}).`);
    },
    "crm.folder.push": async (arg: unknown) => {
      const root = await folderOf(arg);
      const orgKey = await targetOrg(root);
      const session = await manager.session(orgKey);
      const io = workspaceFolderIO(root);
      const plan = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Comparing ${relative(root)} with ${session.record.alias}` }, () =>
        session.crm.knowledgeFolder.planPush(io, { sobject: sobject() }));
      const todo = plan.entries.filter((e) => e.action !== "nothing" || e.translations.length);
      if (!todo.length) return void vscode.window.showInformationMessage(`Nothing to push: every article in ${relative(root)} is as pulled from ${session.record.alias}.`);
      const items = todo.map((e) => {
        const languages = e.translations.map((t) => t.language).join(", ");
        const what = [e.action === "nothing" ? "" : ACTIONS[e.action], languages ? `translations: ${languages}` : ""].filter(Boolean).join(" · ");
        return { label: `${e.conflict ? "$(warning) " : ""}${e.title}`, description: what, detail: e.conflict ? `${e.conflict} — select it to overwrite the org's changes` : e.reason, picked: !e.conflict, entry: e };
      });
      const unchanged = plan.entries.length - todo.length;
      const chosen = await vscode.window.showQuickPick(items, {
        title: `Push to ${session.record.alias}: what will happen (dry run)`, canPickMany: true, ignoreFocusOut: true,
        placeHolder: `${todo.length} to push${unchanged ? `, ${unchanged} unchanged` : ""}${items.some((i) => !i.picked) ? " — articles changed in the org are left out unless selected" : ""}`,
      });
      if (!chosen?.length) throw new UserCancelled();
      const mode = await vscode.window.showQuickPick([
        { label: "Push as drafts", description: "nothing is published", publish: false },
        { label: "Push and publish", description: "publishes the drafts that pass the pre-flight", publish: true },
      ], { title: `Push ${chosen.length} article${chosen.length === 1 ? "" : "s"} to ${session.record.alias}` });
      if (!mode) throw new UserCancelled();
      const names = chosen.map((c) => c.entry.name);
      const results = await withCancellableProgress(`Pushing to ${session.record.alias}`, (signal, progress) =>
        session.crm.knowledgeFolder.pushFolder(io, {
          sobject: sobject(), plan: { ...plan, entries: plan.entries.filter((e) => names.includes(e.name)) }, overwrite: chosen.filter((c) => c.entry.conflict).map((c) => c.entry.name),
          publish: mode.publish, requiredFields: readSettings().preflightRequiredFields, signal, onProgress: countReport(progress),
        }));
      report(results, session.record.alias);
      await folders.track(root, plan.sameOrg ? session.crm : undefined);
    },
    "crm.folder.check": async (arg: unknown) => {
      const root = await folderOf(arg);
      const manifest = await knowledgeFolder.readManifest(workspaceFolderIO(root));
      const org = manifest && manager.registry.list().find((o) => o.orgId === manifest.org.id || o.instanceUrl === manifest.org.instanceUrl);
      const session = org ? await manager.session(org.key) : undefined;
      const status = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking ${relative(root)}` }, () => folders.track(root, session?.crm));
      const count = (test: (s: (typeof status)[number]) => boolean) => status.filter(test).length;
      const parts = [
        `${count((s) => s.local === "modified")} modified locally`, `${count((s) => s.local === "new")} new locally`,
        ...(session ? [`${count((s) => s.org === "changed" || s.org === "gone")} changed in ${session.record.alias}`, `${count((s) => s.conflict)} changed on both sides`] : []),
      ];
      void vscode.window.showInformationMessage(`${relative(root)}: ${status.length} articles — ${parts.join(", ")}.${session ? "" : " The org it was pulled from is not among your orgs, so what changed there is not known."}`);
    },
  };
}
