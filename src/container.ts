import * as vscode from "vscode";
import { DESCRIBE_SCHEME, DescribeDocuments } from "./views/describeDocuments";
import { runArticleAction } from "./commands/knowledge";
import { ImportsInFlight } from "./connections/importsInFlight";
import { CrmNotebookSerializer, crmNotebookController, keepChosenCharts, NOTEBOOK_TYPE } from "./notebooks/notebookProvider";
import { addProposedCells, notebookOrgStatus } from "./notebooks/notebookCommands";
import type { NotebookCell } from "./notebooks/notebookFile";
import { journalFile, recordChanges } from "./connections/journalStore";
import { compareRecords } from "./commands/compare";
import { DescribeStore } from "./connections/describeStore";
import { OrgManager } from "./connections/orgManager";
import { OrgRegistry, type OrgRecord } from "./connections/orgRegistry";
import { OrgStatusBar } from "./connections/statusBar";
import { CommandRefusal } from "./platform/errorMessages";
import { Log } from "./platform/log";
import { Redactor } from "./platform/redact";
import { readSettings } from "./platform/settings";
import { openId } from "./commands/soql";
import { exportRows } from "./webviews/rowsExport";
import { CrmFiles } from "./documents/crmFiles";
import { CRM_SCHEME, CrmFileSystem } from "./documents/crmFileSystem";
import { SoqlCatalogs } from "./soql/catalogCache";
import { SoqlCompletionProvider } from "./soql/completionProvider";
import { SoqlDiagnostics } from "./soql/diagnosticsProvider";
import { PlanDiagnostics } from "./soql/planDiagnostics";
import { SoqlFormatter, SoqlHoverProvider } from "./soql/editorProviders";
import { QueryHistory } from "./soql/runHistory";
import { SoqlCodeLenses, SoqlDocumentOrgs, SoqlOrgStatus } from "./soql/runProviders";
import { BuiltInDemo } from "./connections/builtInDemo";
import { ActiveOrg } from "./views/activeOrg";
import { FeedsTreeProvider } from "./views/feedsView";
import { KnowledgeTreeProvider } from "./views/knowledgeView";
import { KnowledgeFolders } from "./views/knowledgeFolders";
import { ObjectsTreeProvider } from "./views/objectsView";
import { QueriesTreeProvider } from "./views/queriesView";
import { OrgsTreeProvider } from "./views/orgsView";
import { articlePanels } from "./webviews/articlePanel";
import { orgInfoPanels } from "./webviews/orgInfoPanel";
import { previewPanels } from "./webviews/previewPanel";
import { resultsPanels } from "./webviews/resultsPanel";
import { REVIEW_SCHEME, ReviewDocuments } from "./webviews/reviewDocuments";
import { layoutStore } from "./webviews/columnLayouts";
import type { WriteJournal } from "./connections/writeJournal";
import { registerLanguageModelTools } from "./agent/languageModelTools";
import { registerMcpServerProvider, type McpApi } from "./agent/mcpProvider";
import type { SoqlDocumentOrgs as DocumentOrgs } from "./soql/runProviders";
import type { ProposedChange } from "./agent/tools";
import { stageProposal } from "./commands/agent";
import type { CommandDeps } from "./commands/register";
import { MIGRATION_REPORT_SCHEME, MigrationCodeLenses, MigrationReports } from "./documents/migrationPlans";

/**
 * The composition root: one object, built in `activate`, owns what the extension is made of — the sessions (the
 * org manager), the write journal, the views, the panels and the editors' services — and wires them together
 * once, registering each with the extension's subscriptions. The commands are handed it; nothing else builds a
 * service.
 */
export class Container implements CommandDeps {
  readonly redactor: Redactor;
  readonly log: Log;
  readonly registry: OrgRegistry;
  readonly demo: BuiltInDemo;
  readonly manager: OrgManager;
  readonly active: ActiveOrg;
  readonly objects: ObjectsTreeProvider;
  readonly knowledge: KnowledgeTreeProvider;
  readonly feeds: FeedsTreeProvider;
  readonly queries: QueriesTreeProvider;
  readonly folders: KnowledgeFolders;
  /** The org each SOQL document runs against (its pin, or the active org). */
  readonly orgs: DocumentOrgs;
  readonly history: QueryHistory;
  readonly journal: () => Promise<WriteJournal>;
  readonly files: CrmFileSystem;
  readonly orgInfo: ReturnType<typeof orgInfoPanels>;
  readonly articles: ReturnType<typeof articlePanels>;
  readonly results: ReturnType<typeof resultsPanels>;
  readonly preview: ReturnType<typeof previewPanels>["panels"];
  readonly migrationReports: MigrationReports;
  /** Imports under way, written down before their rows go (what Check Interrupted Imports reads). */
  readonly imports: ImportsInFlight;
  /** The last value given to each bind variable (kept with the workspace). */
  readonly binds: vscode.Memento;
  readonly siteId = () => readSettings().feedSiteId || undefined;
  private readonly reviews: ReviewDocuments;
  private readonly mcpDeps: Parameters<typeof registerMcpServerProvider>[0];

  constructor(context: vscode.ExtensionContext) {
    const redactor = new Redactor();
    const log = new Log(redactor);
    const registry = new OrgRegistry(context.globalState, context.secrets);
    const describeStore = new DescribeStore(vscode.Uri.joinPath(context.globalStorageUri, "describes").fsPath);
    const demo = new BuiltInDemo();
    context.subscriptions.push({ dispose: () => void demo.stop() });
    const manager = new OrgManager(registry, {
      settings: readSettings, log, remember: (...secrets) => redactor.remember(...secrets), describeStore, confirmWrite: confirmProductionWrite, startDemo: (url) => demo.start(url),
    });
    const orgs = new OrgsTreeProvider(manager);
    const active = new ActiveOrg(manager, () => readSettings().showAllOrgs);
    const objects = new ObjectsTreeProvider(active, context.globalState);
    const knowledge = new KnowledgeTreeProvider(active, () => {
      const settings = readSettings();
      return { pageSize: settings.knowledgePageSize, sobject: settings.knowledgeSobject };
    });
    const soqlOrgs = new SoqlDocumentOrgs(manager, context.workspaceState);
    // In a workspace not trusted, its files never make the extension contact an org by itself (untitled documents are the user's own).
    const untrustedFile = (uri: vscode.Uri) => !vscode.workspace.isTrusted && uri.scheme !== "untitled";
    const soqlCatalogs = new SoqlCatalogs(async (key) => (await active.sessionFor(key)).schema, (uri) => soqlOrgs.orgKeyFor(uri), untrustedFile);
    const soqlDiagnostics = new SoqlDiagnostics(soqlCatalogs);
    const history = new QueryHistory(context.globalState, () => readSettings().soqlHistorySize);
    const siteId = this.siteId;
    const feeds = new FeedsTreeProvider(active, siteId);
    const queries = new QueriesTreeProvider(manager, history);
    const panelDeps = { extensionUri: context.extensionUri, manager, log, redactor };
    const orgInfo = orgInfoPanels(panelDeps);
    const articles = articlePanels(panelDeps, runArticleAction);
    const journal = journalFile(vscode.Uri.joinPath(context.globalStorageUri, "write-history.json").fsPath, () => readSettings().writeHistoryMaxEntries, (m) => log.warn(m));
    const crmFiles = new CrmFileSystem(new CrmFiles({
      org: (alias) => manager.sessionByAlias(alias),
      knowledgeSobject: () => readSettings().knowledgeSobject,
      store: context.workspaceState,
    }), manager);
    const reviews = new ReviewDocuments();
    const planDiagnostics = new PlanDiagnostics(() => readSettings().largeObjectRows);
    const preview = previewPanels(panelDeps, async (uri) => {
      const p = crmFiles.files.parse(uri.path);
      if (p?.kind !== "articleFile" || !p.file.endsWith(".html")) throw new CommandRefusal(vscode.l10n.t("Only an article's .html document has a preview."));
      return { orgKey: crmFiles.orgKeyOf(uri) ?? "", sobject: p.sobject, id: p.id, field: p.file.slice(0, -5), title: await crmFiles.files.displayName(uri.path) };
    });
    const results = resultsPanels(panelDeps, {
      onRun: (orgKey, run) => void history.add(orgKey, { text: run.spec.text, api: run.spec.api, ranAt: run.ranAt.toISOString(), rows: run.totalSize, durationMs: run.elapsedMs }).then(() => queries.refresh()),
      exportRows: (orgKey, spec, format) => exportRows(manager, orgKey, spec, format),
      openId: (orgKey, id) => openId({ manager, articles }, orgKey, id),
      showDiff: (left, right, title) => reviews.showDiff(left, right, title),
      compareRecords: (orgKey, left, right) => compareRecords({ manager, files: crmFiles, showDiff: (l, r, t) => reviews.showDiff(l, r, t) }, { orgKey, id: left }, { orgKey, id: right }),
      layouts: layoutStore(context.globalState),
      onPlan: (source, spec, plan) => planDiagnostics.set(source, spec, plan),
    });
    const folders = new KnowledgeFolders();
    const migrationReports = new MigrationReports();
    context.subscriptions.push(
      migrationReports,
      vscode.workspace.registerTextDocumentContentProvider(MIGRATION_REPORT_SCHEME, migrationReports),
      vscode.languages.registerCodeLensProvider({ pattern: "**/*.migration.{yaml,yml}" }, new MigrationCodeLenses()),
      folders,
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
      results,
      reviews,
      planDiagnostics,
      vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, reviews),
      recordChanges(manager, journal),
      soqlOrgs,
      feeds.createTreeView({ showCollapseAll: true }, context.workspaceState),
      queries,
      vscode.window.createTreeView("crm.queries", { treeDataProvider: queries, showCollapseAll: true }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("crm.feed.siteId")) void feeds.refresh();
        if (e.affectsConfiguration("crm.views.showAllOrgs")) active.refresh();
      }),
      vscode.window.createTreeView("crm.orgs", { treeDataProvider: orgs, showCollapseAll: false }),
      objects.createTreeView({ showCollapseAll: true }, context.workspaceState),
      knowledge.createTreeView({ showCollapseAll: true, canSelectMany: true }, context.workspaceState),
      vscode.workspace.registerTextDocumentContentProvider(DESCRIBE_SCHEME, new DescribeDocuments(active)),
      crmFiles,
      preview.panels,
      preview.subscription,
      vscode.workspace.registerFileSystemProvider(CRM_SCHEME, crmFiles, { isCaseSensitive: true }),
      vscode.workspace.registerTextDocumentContentProvider("crm-theirs", crmFiles),
      crmFiles.onDidSave(async (saved) => {
        if (!saved.createdId) return;
        const isArticle = saved.sobject === readSettings().knowledgeSobject;
        // A saved template made a record: its tab makes way for the record's own document.
        const template = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === saved.uri.toString());
        if (template) await vscode.window.tabGroups.close(template);
        if (isArticle) await vscode.commands.executeCommand("crm.document.editArticle", { orgKey: saved.orgKey, id: saved.createdId });
        else await vscode.commands.executeCommand("crm.document.openRecord", saved.orgKey, saved.createdId);
      }),
      vscode.languages.registerCompletionItemProvider({ language: "soql" }, new SoqlCompletionProvider(soqlCatalogs), ".", " ", "(", ",", "'"),
      vscode.languages.registerHoverProvider({ language: "soql" }, new SoqlHoverProvider(soqlCatalogs)),
      vscode.languages.registerDocumentFormattingEditProvider({ language: "soql" }, new SoqlFormatter()),
      vscode.languages.registerCodeLensProvider({ language: "soql" }, new SoqlCodeLenses(soqlOrgs)),
      new SoqlOrgStatus(soqlOrgs, untrustedFile),
      soqlDiagnostics,
      vscode.workspace.onDidGrantWorkspaceTrust(() => soqlDiagnostics.refreshAll()),
      soqlOrgs.onDidCloseUntitled((uri) => results.release(uri.toString())),
      // Another org (active, or pinned to a document) means other describes to complete and check against.
      active.onDidChange(() => {
        soqlCatalogs.clear();
        soqlDiagnostics.refreshAll();
      }),
      soqlOrgs.onDidChange(() => soqlDiagnostics.refreshAll()),
      manager.onDidChangeSchema(() => soqlDiagnostics.refreshAll()),
      new OrgStatusBar(manager),
      // Told once, with the way back; views then show the org signed out instead of failing call after call.
      manager.onDidLoseSession(async ({ org, reason }) => {
        log.warn(`[${org.alias}] signed out: the org refused its session (${reason})`);
        const choice = await vscode.window.showWarningMessage(vscode.l10n.t("{0} is signed out: the org refused its session ({1}). Sign in again to keep using it.", org.alias, redactor.redact(reason)), vscode.l10n.t("Sign In Again"));
        if (choice) await vscode.commands.executeCommand("crm.org.signInAgain", org.key);
      }),
    );
    const agentDeps = {
      manager,
      stage: (orgKey: string, changes: ProposedChange[]) => stageProposal({ manager, results }, orgKey, changes),
      proposeCells: (org: string, cells: NotebookCell[]) => addProposedCells({ activeAlias: () => active.record?.alias }, org, cells),
    };
    const mcpDeps = { ...agentDeps, version: String(context.extension.packageJSON.version), warn: (message: string) => log.warn(message) };
    context.subscriptions.push(registerLanguageModelTools(agentDeps), registerMcpServerProvider(mcpDeps));
    context.subscriptions.push(
      vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new CrmNotebookSerializer(() => readSettings().notebookSaveOutputs)),
      crmNotebookController({ manager, activeSession: () => active.session() }),
      keepChosenCharts(),
      notebookOrgStatus({ manager, activeSession: () => active.session(), activeAlias: () => active.record?.alias, onDidChangeActive: active.onDidChange }),
    );
    const imports = new ImportsInFlight(vscode.Uri.joinPath(context.globalStorageUri, "imports-in-flight").fsPath);
    this.redactor = redactor;
    this.log = log;
    this.registry = registry;
    this.demo = demo;
    this.manager = manager;
    this.active = active;
    this.objects = objects;
    this.knowledge = knowledge;
    this.feeds = feeds;
    this.queries = queries;
    this.folders = folders;
    this.orgs = soqlOrgs;
    this.history = history;
    this.journal = journal;
    this.files = crmFiles;
    this.orgInfo = orgInfo;
    this.articles = articles;
    this.results = results;
    this.preview = preview.panels;
    this.migrationReports = migrationReports;
    this.imports = imports;
    this.binds = context.workspaceState;
    this.reviews = reviews;
    this.mcpDeps = mcpDeps;
  }

  // Services are handed on as functions (a command passes `deps.showDiff` along): each is bound to the container.

  /** A text beside a document, or two texts, in the diff editor. */
  readonly showDiff = (left: { label: string; text: string }, right: vscode.Uri | { label: string; text: string }, title: string): Promise<void> => this.reviews.showDiff(left, right, title);

  /** The MCP server definition provider, registered with an API of VS Code 1.101's shape (a test hands in its own). */
  readonly registerMcpServerProvider = (api?: McpApi): vscode.Disposable => registerMcpServerProvider(this.mcpDeps, api);
}

/** The production guard's question: modal, naming the org and the change; only the explicit button sends it. */
async function confirmProductionWrite(org: OrgRecord, change: string): Promise<boolean> {
  const send = vscode.l10n.t("Send to Production");
  const question = `${change[0]!.toLocaleUpperCase()}${change.slice(1)}`;
  const choice = await vscode.window.showWarningMessage(
    org.kind === "production" ? vscode.l10n.t("{0} is a production org. {1}?", org.alias, question) : vscode.l10n.t("{0} may be a production org (its kind could not be read). {1}?", org.alias, question),
    { modal: true, detail: vscode.l10n.t("This changes live data in {0}. Cancel sends nothing. To stop asking for this org, use \"CRM: Production Write Confirmations…\".", new URL(org.instanceUrl).host) },
    send,
  );
  return choice === send;
}
