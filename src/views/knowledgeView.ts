/** The Knowledge view: Drafts, Published and Archived article versions of the active org, paged. */
import * as vscode from "vscode";
import { describeError } from "../platform/errorMessages";
import { ActiveOrg, MessageNode, OrgRootNode } from "./activeOrg";
import type { ArticleSortField, SortOrder } from "../client/constants";
import { KNOWLEDGE_GROUPS, KnowledgeModel, type ArticleRow, type PublishStatus } from "./knowledgeModel";
import { PerOrg } from "./perOrg";
import { TreeChangeQueue } from "./treeChanges";

export class KnowledgeGroupNode {
  constructor(readonly status: PublishStatus, readonly label: string, readonly orgKey: string) {}
}
export class ArticleNode {
  constructor(readonly article: ArticleRow, readonly orgKey: string) {}
}
export class LoadMoreNode {
  constructor(readonly status: PublishStatus, readonly orgKey: string) {}
}
type Node = OrgRootNode | KnowledgeGroupNode | ArticleNode | LoadMoreNode | MessageNode;

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

export class KnowledgeTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly changes = new TreeChangeQueue<Node>((node) => this.changed.fire(node));
  /** One model per org shown, and each org's three group nodes (stable, for targeted refreshes). */
  private readonly models = new PerOrg<KnowledgeModel>((key) => this.createModel(key));
  private readonly groups = new Map<string, KnowledgeGroupNode>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly active: ActiveOrg, private readonly options: () => { pageSize: number; sobject: string }) {
    this.subscriptions.push(active.onDidChange(() => {
      this.models.clear();
      this.groups.clear();
      this.changes.fire(undefined);
    }));
  }

  private group(orgKey: string, status: PublishStatus): KnowledgeGroupNode {
    const id = `${orgKey}:${status}`;
    let node = this.groups.get(id);
    if (!node) this.groups.set(id, (node = new KnowledgeGroupNode(status, KNOWLEDGE_GROUPS.find((g) => g.status === status)!.label, orgKey)));
    return node;
  }

  private sortState: { sort: ArticleSortField; order: SortOrder } = { sort: "LastPublishedDate", order: "DESC" };
  private titleFilterText = "";
  get sort() {
    return this.sortState;
  }
  get titleFilter(): string {
    return this.titleFilterText;
  }

  /** Sort and title filter apply to every org shown. */
  setSort(sort: ArticleSortField, order: SortOrder): void {
    this.sortState = { sort, order };
    this.models.existing().forEach((m) => m.setSort(sort, order));
  }

  setTitleFilter(text: string): void {
    this.titleFilterText = text.trim();
    this.models.existing().forEach((m) => m.setTitleFilter(text));
  }

  /** The model of an org (the active one when no key is given). */
  current(orgKey?: string): Promise<KnowledgeModel> {
    return this.models.get(orgKey ?? this.active.record!.key);
  }

  private async createModel(key: string): Promise<KnowledgeModel> {
    const session = await this.active.sessionFor(key);
    const model = new KnowledgeModel({ listArticleVersions: (o) => session.crm.knowledge.listArticleVersions(o) }, this.options);
    model.sort = this.sortState.sort;
    model.order = this.sortState.order;
    model.titleFilter = this.titleFilterText;
    // Only the group whose rows changed is redrawn.
    model.onDidChange((status) => this.changes.fire(status ? this.group(key, status) : undefined));
    return model;
  }

  /** Starts the named groups (or all) of an org over: after a mutation, exactly the groups it touched. */
  async refreshOrg(orgKey: string | undefined, ...statuses: PublishStatus[]): Promise<void> {
    const model = await this.current(orgKey);
    if (!statuses.length) model.reset();
    else for (const status of statuses) model.reset(status);
  }

  async refresh(...statuses: PublishStatus[]): Promise<void> {
    await Promise.all(this.active.shown().map((o) => this.refreshOrg(o.key, ...statuses)));
  }

  getChildren(node?: Node): Promise<Node[]> {
    return this.changes.track(() => this.children(node));
  }

  private async children(node?: Node): Promise<Node[]> {
    const shown = this.active.shown();
    if (!node) {
      if (this.active.showAll) return shown.map((o) => new OrgRootNode(o));
      return shown[0] ? KNOWLEDGE_GROUPS.map((g) => this.group(shown[0]!.key, g.status)) : [];
    }
    if (node instanceof OrgRootNode) return KNOWLEDGE_GROUPS.map((g) => this.group(node.org.key, g.status));
    if (!(node instanceof KnowledgeGroupNode)) return [];
    try {
      const model = await this.current(node.orgKey);
      const state = await vscode.window.withProgress({ location: { viewId: "crm.knowledge" } }, () => model.ensureLoaded(node.status));
      const children: Node[] = state.rows.map((row) => new ArticleNode(row, node.orgKey));
      if (state.error) {
        const report = describeError(state.error);
        if (report.message) children.push(new MessageNode(report.message, { command: "crm.knowledge.loadMore", title: "Retry", arguments: [new LoadMoreNode(node.status, node.orgKey)] }));
      } else if (state.hasMore) children.push(new LoadMoreNode(node.status, node.orgKey));
      else if (!state.rows.length) children.push(new MessageNode(model.titleFilter ? `No ${node.label.toLowerCase()} match '${model.titleFilter}'` : `No ${node.label.toLowerCase()}`, undefined, "info"));
      return children;
    } catch (err) {
      const report = describeError(err);
      return report.message ? [new MessageNode(report.message, { command: "crm.knowledge.refresh", title: "Retry" })] : [];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node instanceof OrgRootNode) return node.toItem("knowledge");
    if (node instanceof MessageNode) return node.toItem();
    if (node instanceof KnowledgeGroupNode) {
      const item = new vscode.TreeItem(node.label, node.status === "Draft" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `kgroup:${node.orgKey}:${node.status}`;
      const state = this.models.peek(node.orgKey)?.state(node.status);
      item.description = state && state.pages ? `${state.rows.length}${state.hasMore ? "+" : ""}` : undefined;
      item.iconPath = new vscode.ThemeIcon(node.status === "Draft" ? "edit" : node.status === "Online" ? "globe" : "archive");
      item.contextValue = `crm.knowledgeGroup;${node.status}`;
      return item;
    }
    if (node instanceof LoadMoreNode) {
      const item = new vscode.TreeItem("Load more…");
      item.id = `kmore:${node.orgKey}:${node.status}:${this.models.peek(node.orgKey)?.state(node.status)?.pages ?? 0}`;
      item.iconPath = new vscode.ThemeIcon("fold-down");
      item.command = { command: "crm.knowledge.loadMore", title: "Load more", arguments: [node] };
      item.contextValue = "crm.loadMore";
      return item;
    }
    const a = node.article;
    const item = new vscode.TreeItem(a.title);
    // A version can sit in two groups for a moment (published while Drafts still shows it): the group is part of the id.
    item.id = `article:${node.orgKey}:${a.publishStatus}:${a.id}`;
    item.description = [`#${a.articleNumber}`, `v${a.versionNumber}`, a.validationStatus, day(a.lastPublishedDate)].filter(Boolean).join(" · ");
    const tip = new vscode.MarkdownString(`**${a.title}**\n\n- Article number: ${a.articleNumber}\n- Version: ${a.versionNumber} (${a.publishStatus})\n- Validation: ${a.validationStatus}\n- URL name: \`${a.urlName}\`\n- Last published: ${day(a.lastPublishedDate) || "never"}\n- Version ID: \`${a.id}\``);
    item.tooltip = tip;
    item.iconPath = new vscode.ThemeIcon(a.validationStatus === "Validated" ? "pass" : "book");
    item.contextValue = `crm.article;${a.publishStatus}`;
    item.command = { command: "crm.knowledge.showDetails", title: "Show Article Details", arguments: [node] };
    return item;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.models.clear();
    this.changes.dispose();
    this.changed.dispose();
  }
}
