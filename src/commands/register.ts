/** Registers every command in one place, each through the error wrapper. */
import * as vscode from "vscode";
import { CommandRefusal } from "../platform/errorMessages";
import { wrapCommand } from "../platform/commandWrapper";
import { COMMAND_IDS, type CommandId } from "./commandIds";
import type { ActiveOrg } from "../views/activeOrg";
import type { FeedsTreeProvider } from "../views/feedsView";
import type { KnowledgeTreeProvider } from "../views/knowledgeView";
import type { ObjectsTreeProvider } from "../views/objectsView";
import { feedCommands } from "./feeds";
import { knowledgeCommands, type ArticlePanels } from "./knowledge";
import { objectCommands } from "./objects";
import { orgCommands, type OrgCommandDeps } from "./orgs";
import { recordCommands } from "./records";
import { documentCommands, type DocumentCommandDeps } from "./documents";
import { openId, soqlCommands, type SoqlCommandDeps } from "./soql";
import { exportRows } from "../webviews/rowsExport";
import { importCommands } from "./importData";
import type { ImportsInFlight } from "../connections/importsInFlight";
import { cellRunSpec, newNotebook } from "../notebooks/notebookProvider";
import { notebookCommands } from "../notebooks/notebookCommands";
import { historyCommands, type HistoryDeps } from "./writeHistory";
import { agentCommands } from "./agent";
import { migrationCommands } from "./migration";
import type { MigrationReports } from "../documents/migrationPlans";
import { queryCommands } from "./queries";
import { translationCommands } from "./translations";
import { knowledgeFolderCommands } from "./knowledgeFolder";
import type { KnowledgeFolders } from "../views/knowledgeFolders";
import type { QueriesTreeProvider } from "../views/queriesView";
import { resultsTarget } from "../webviews/resultsPanel";

/** What the commands are handed: the composition root (src/container.ts) is one. */
export interface CommandDeps extends OrgCommandDeps, Omit<SoqlCommandDeps, "manager" | "articles">, Pick<DocumentCommandDeps, "files" | "preview" | "showDiff">, Pick<HistoryDeps, "journal"> {
  active: ActiveOrg;
  objects: ObjectsTreeProvider;
  knowledge: KnowledgeTreeProvider;
  feeds: FeedsTreeProvider;
  siteId: () => string | undefined;
  queries: QueriesTreeProvider;
  articles: ArticlePanels;
  folders: KnowledgeFolders;
  migrationReports: MigrationReports;
  imports: ImportsInFlight;
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const handlers: Record<CommandId, (...args: unknown[]) => unknown> = {
    ...orgCommands(deps),
    ...objectCommands(deps.active, deps.objects, (uri, orgKey) => deps.orgs.setPin(uri, { orgKey }), (orgKey, spec) => exportRows(deps.manager, orgKey, spec)),
    ...knowledgeCommands(deps.active, deps.knowledge, deps.articles),
    ...feedCommands(deps.active, deps.feeds, deps.siteId),
    ...recordCommands(deps.active, (orgKey, sosl) => deps.results.open(resultsTarget(orgKey, "search", { api: "sosl", text: sosl }))),
    ...soqlCommands(deps),
    ...importCommands({ ...deps, flights: deps.imports, openQuery: (orgKey, soql) => deps.results.open(resultsTarget(orgKey, "import-check", { api: "soql", text: soql })) }),
    ...documentCommands(deps),
    ...translationCommands(deps),
    ...knowledgeFolderCommands(deps),
    ...queryCommands(deps.queries, deps.results, deps.orgs),
    ...historyCommands({ ...deps, openId: (orgKey, id) => openId(deps, orgKey, id) }),
    ...agentCommands(deps, vscode.Uri.joinPath(context.extensionUri, "dist", "mcp.js").fsPath),
    ...migrationCommands({ manager: deps.manager, journal: deps.journal, storage: context.globalStorageUri }, deps.migrationReports),
    ...notebookCommands({ manager: deps.manager, activeSession: () => deps.active.session(), activeAlias: () => deps.active.record?.alias, onDidChangeActive: deps.active.onDidChange }),
    "crm.notebook.new": () => newNotebook(),
    "crm.notebook.openInResults": async (arg: unknown) => {
      const cell = arg as vscode.NotebookCell | undefined;
      if (typeof cell?.notebook !== "object") throw new CommandRefusal(vscode.l10n.t("Open in Results runs from a notebook cell's toolbar."));
      const { orgKey, spec } = await cellRunSpec({ manager: deps.manager, activeSession: () => deps.active.session() }, cell);
      deps.results.open(resultsTarget(orgKey, `notebook:${cell.notebook.uri.toString()}#${cell.index}`, spec));
    },
    "crm.log.show": () => deps.log.show(),
    "crm.soql.clearDescribeCache": async () => {
      // Every view and the SOQL features read the schema, which tells them it was cleared.
      await deps.manager.clearCaches();
      vscode.window.setStatusBarMessage(vscode.l10n.t("CRM describe cache cleared"), 3000);
    },
  };
  for (const id of COMMAND_IDS) {
    context.subscriptions.push(vscode.commands.registerCommand(id, wrapCommand(id, handlers[id], deps)));
  }
}
