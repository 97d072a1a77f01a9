/**
 * The Queries view: the workspace's saved queries (every `.soql` file, named by its header) and each org's
 * query history, one search over both (Filter Queries…). A saved query opens its file; a history entry opens
 * as a new SOQL document, runs again, or is saved into the library.
 */
import { formatCount, formatTime } from "../platform/numbers";
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import type { QueryHistory } from "../soql/runHistory";
import { queriesMatching, savedQuery, type OrgHistory, type SavedQuery } from "./queriesModel";
import type { HistoryEntry } from "../soql/runHistory";
import { stripComments } from "../soql/runText";

export type QueryNode =
  | { kind: "library"; count: number }
  | { kind: "saved"; query: SavedQuery }
  | { kind: "history"; history: OrgHistory }
  | { kind: "run"; orgKey: string; alias: string; entry: HistoryEntry };

const LIBRARY_GLOB = "**/*.soql";
const EXCLUDE = "**/{node_modules,.git}/**";

export class QueriesTreeProvider implements vscode.TreeDataProvider<QueryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<QueryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private library?: Promise<SavedQuery[]>;
  filter = "";
  private readonly watcher = vscode.workspace.createFileSystemWatcher(LIBRARY_GLOB);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly manager: OrgManager, private readonly history: QueryHistory) {
    const reload = () => this.refresh();
    this.subscriptions = [this.watcher, this.watcher.onDidCreate(reload), this.watcher.onDidChange(reload), this.watcher.onDidDelete(reload), manager.registry.onDidChange(reload)];
  }

  /** Reads the library again (files changed) and redraws; history is read as it is drawn. */
  refresh(): void {
    this.library = undefined;
    this.changed.fire(undefined);
  }

  setFilter(text: string): void {
    this.filter = text.trim();
    this.changed.fire(undefined);
  }

  private readLibrary(): Promise<SavedQuery[]> {
    return (this.library ??= (async () => {
      const files = await vscode.workspace.findFiles(LIBRARY_GLOB, EXCLUDE, 2000);
      return Promise.all(files.map(async (uri) => savedQuery(uri.toString(), new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)))));
    })());
  }

  private async content() {
    const histories = this.manager.registry.list().map((o) => ({ orgKey: o.key, alias: o.alias, entries: this.history.list(o.key) }));
    return queriesMatching(await this.readLibrary(), histories, this.filter);
  }

  async getChildren(node?: QueryNode): Promise<QueryNode[]> {
    const { library, histories } = await this.content();
    if (!node) return [{ kind: "library", count: library.length }, ...histories.map((history) => ({ kind: "history" as const, history }))];
    if (node.kind === "library") return library.map((query) => ({ kind: "saved", query }));
    if (node.kind === "history") return (histories.find((h) => h.orgKey === node.history.orgKey)?.entries ?? []).map((entry) => ({ kind: "run", orgKey: node.history.orgKey, alias: node.history.alias, entry }));
    return [];
  }

  getTreeItem(node: QueryNode): vscode.TreeItem {
    const filtered = (counted: string) => (this.filter ? vscode.l10n.t("{0} matching “{1}”", counted, this.filter) : counted);
    switch (node.kind) {
      case "library": {
        const item = new vscode.TreeItem(vscode.l10n.t("Library"), vscode.TreeItemCollapsibleState.Expanded);
        item.description = filtered(node.count === 1 ? vscode.l10n.t("1 saved query") : vscode.l10n.t("{0} saved queries", formatCount(node.count)));
        item.iconPath = new vscode.ThemeIcon("library");
        item.tooltip = vscode.l10n.t("The workspace's .soql files; a saved query's header names it (// name:, // org:, // tags:, // description:)");
        return item;
      }
      case "saved": {
        const q = node.query;
        const item = new vscode.TreeItem(q.name, vscode.TreeItemCollapsibleState.None);
        item.description = [q.org, q.tags.join(", ")].filter(Boolean).join(" · ");
        item.tooltip = new vscode.MarkdownString().appendText(q.description ?? q.name).appendCodeblock(q.statement, "soql");
        item.iconPath = new vscode.ThemeIcon("bookmark");
        item.contextValue = "savedQuery";
        item.command = { command: "vscode.open", title: vscode.l10n.t("Open"), arguments: [vscode.Uri.parse(q.uri)] };
        return item;
      }
      case "history": {
        const item = new vscode.TreeItem(vscode.l10n.t("History — {0}", node.history.alias), vscode.TreeItemCollapsibleState.Collapsed);
        const runs = node.history.entries.length;
        item.description = filtered(runs === 1 ? vscode.l10n.t("1 run") : vscode.l10n.t("{0} runs", formatCount(runs)));
        item.iconPath = new vscode.ThemeIcon("history");
        return item;
      }
      case "run": {
        const e = node.entry;
        const item = new vscode.TreeItem(stripComments(e.text).replace(/\s+/g, " "), vscode.TreeItemCollapsibleState.None);
        item.description = `${formatTime(e.ranAt)} · ${formatCount(e.rows)} ${e.rows === 1 ? "row" : "rows"}`;
        item.tooltip = new vscode.MarkdownString().appendCodeblock(e.text, "soql").appendText(`${node.alias}, ${e.api === "tooling" ? "Tooling API" : e.api === "sosl" ? "search" : "data API"}`);
        item.iconPath = new vscode.ThemeIcon(e.api === "sosl" ? "search" : "play");
        item.contextValue = "queryRun";
        item.command = { command: "crm.queries.openRun", title: vscode.l10n.t("Open"), arguments: [node] };
        return item;
      }
    }
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
