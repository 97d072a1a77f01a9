/** Activation constructs and registers only: no network I/O until a view or command needs the org. */
import * as vscode from "vscode";
import { DESCRIBE_SCHEME, DescribeDocuments } from "./commands/objects";
import { runArticleAction } from "./commands/knowledge";
import { registerCommands } from "./commands/register";
import { importDemoHelper } from "./connections/demo";
import { OrgManager } from "./connections/orgManager";
import { OrgRegistry } from "./connections/orgRegistry";
import { OrgStatusBar } from "./connections/statusBar";
import { Log } from "./platform/log";
import { Redactor } from "./platform/redact";
import { readSettings } from "./platform/settings";
import { SoqlCatalogCache } from "./soql/catalogCache";
import { SoqlCompletionProvider } from "./soql/completionProvider";
import { SoqlDiagnostics } from "./soql/diagnosticsProvider";
import { SoqlFormatter, SoqlHoverProvider } from "./soql/editorProviders";
import { ActiveOrg } from "./views/activeOrg";
import { FeedsTreeProvider } from "./views/feedsView";
import { KnowledgeTreeProvider } from "./views/knowledgeView";
import { ObjectsTreeProvider } from "./views/objectsView";
import { OrgsTreeProvider } from "./views/orgsView";
import { articlePanels } from "./webviews/articlePanel";
import { orgInfoPanels } from "./webviews/orgInfoPanel";

/** What the extension exposes to its in-host tests. */
export interface CrmExplorerApi {
  manager: OrgManager;
  registry: OrgRegistry;
}

export function activate(context: vscode.ExtensionContext): CrmExplorerApi {
  const redactor = new Redactor();
  const log = new Log(redactor);
  const registry = new OrgRegistry(context.globalState, context.secrets);
  const manager = new OrgManager(registry, { settings: readSettings, log, remember: (...secrets) => redactor.remember(...secrets) });
  const orgs = new OrgsTreeProvider(manager);
  const active = new ActiveOrg(manager, () => vscode.workspace.getConfiguration("crm").get<boolean>("views.showAllOrgs", false));
  const objects = new ObjectsTreeProvider(active, context.globalState);
  const knowledge = new KnowledgeTreeProvider(active, () => {
    const settings = readSettings();
    return { pageSize: settings.knowledgePageSize, sobject: settings.knowledgeSobject };
  });
  const soqlCatalog = new SoqlCatalogCache(objects);
  const soqlDiagnostics = new SoqlDiagnostics(soqlCatalog);
  const siteId = () => readSettings().feedSiteId || undefined;
  const feeds = new FeedsTreeProvider(active, siteId);
  const panelDeps = { extensionUri: context.extensionUri, manager, log, redactor };
  const orgInfo = orgInfoPanels(panelDeps);
  const articles = articlePanels(panelDeps, runArticleAction);
  context.subscriptions.push(
    log,
    registry,
    manager,
    orgs,
    active,
    objects,
    knowledge,
    feeds,
    orgInfo,
    articles,
    vscode.window.createTreeView("crm.feeds", { treeDataProvider: feeds, showCollapseAll: true }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("crm.feed.siteId")) void feeds.refresh();
      if (e.affectsConfiguration("crm.views.showAllOrgs")) active.refresh();
    }),
    vscode.window.createTreeView("crm.orgs", { treeDataProvider: orgs, showCollapseAll: false }),
    vscode.window.createTreeView("crm.objects", { treeDataProvider: objects, showCollapseAll: true }),
    vscode.window.createTreeView("crm.knowledge", { treeDataProvider: knowledge, showCollapseAll: true, canSelectMany: true }),
    vscode.workspace.registerTextDocumentContentProvider(DESCRIBE_SCHEME, new DescribeDocuments(active)),
    vscode.languages.registerCompletionItemProvider({ language: "soql" }, new SoqlCompletionProvider(soqlCatalog), ".", " ", "(", ",", "'"),
    vscode.languages.registerHoverProvider({ language: "soql" }, new SoqlHoverProvider(soqlCatalog)),
    vscode.languages.registerDocumentFormattingEditProvider({ language: "soql" }, new SoqlFormatter()),
    soqlDiagnostics,
    active.onDidChange(() => {
      soqlCatalog.clear();
      soqlDiagnostics.refreshAll();
    }),
    new OrgStatusBar(manager),
  );
  const clearDescribeCache = () => {
    manager.clearCaches();
    objects.clear();
    soqlCatalog.clear();
    soqlDiagnostics.refreshAll();
  };
  registerCommands(context, { manager, log, redactor, orgInfo, articles, active, objects, knowledge, feeds, siteId, clearDescribeCache });
  const demoHelper = process.env.CRM_DEMO_HELPER;
  if (demoHelper) void importDemoHelper(registry, demoHelper).catch((err: unknown) => log.error("importing the demo org's helper file failed", err));
  log.info(`CRM Explorer ${String(context.extension.packageJSON.version)} activated`);
  return { manager, registry };
}

export function deactivate(): void {}
