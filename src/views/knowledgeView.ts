/** The Knowledge view: Drafts, Published and Archived article versions of the active org, paged. */
import * as vscode from "vscode";
import { describeError } from "../platform/errorMessages";
import { ActiveOrg, MessageNode } from "./activeOrg";
import { KNOWLEDGE_GROUPS, KnowledgeModel, type ArticleRow, type PublishStatus } from "./knowledgeModel";

export class KnowledgeGroupNode {
  constructor(readonly status: PublishStatus, readonly label: string) {}
}
export class ArticleNode {
  constructor(readonly article: ArticleRow) {}
}
export class LoadMoreNode {
  constructor(readonly status: PublishStatus) {}
}
type Node = KnowledgeGroupNode | ArticleNode | LoadMoreNode | MessageNode;

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

export class KnowledgeTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private model?: KnowledgeModel;
  private readonly groups = new Map<PublishStatus, KnowledgeGroupNode>(KNOWLEDGE_GROUPS.map((g) => [g.status, new KnowledgeGroupNode(g.status, g.label)]));
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly active: ActiveOrg, private readonly options: () => { pageSize: number; sobject: string }) {
    this.subscriptions.push(active.onDidChange(() => {
      this.model?.dispose();
      this.model = undefined;
      this.changed.fire(undefined);
    }));
  }

  async current(): Promise<KnowledgeModel> {
    if (!this.model) {
      const session = await this.active.session();
      const model = new KnowledgeModel({ listArticleVersions: (o) => session.crm.knowledge.listArticleVersions(o) }, this.options);
      // Only the group whose rows changed is redrawn.
      model.onDidChange((status) => this.changed.fire(status ? this.groups.get(status) : undefined));
      this.model = model;
    }
    return this.model;
  }

  /** Starts the named groups (or all) over: after a mutation, exactly the groups it touched. */
  async refresh(...statuses: PublishStatus[]): Promise<void> {
    const model = await this.current();
    if (!statuses.length) model.reset();
    else for (const status of statuses) model.reset(status);
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!this.active.record?.signedIn) return [];
    if (!node) return [...this.groups.values()];
    if (!(node instanceof KnowledgeGroupNode)) return [];
    try {
      const model = await this.current();
      const state = await vscode.window.withProgress({ location: { viewId: "crm.knowledge" } }, () => model.ensureLoaded(node.status));
      const children: Node[] = state.rows.map((row) => new ArticleNode(row));
      if (state.error) {
        const report = describeError(state.error);
        if (report.message) children.push(new MessageNode(report.message, { command: "crm.knowledge.loadMore", title: "Retry", arguments: [new LoadMoreNode(node.status)] }));
      } else if (state.hasMore) children.push(new LoadMoreNode(node.status));
      else if (!state.rows.length) children.push(new MessageNode(model.titleFilter ? `No ${node.label.toLowerCase()} match '${model.titleFilter}'` : `No ${node.label.toLowerCase()}`, undefined, "info"));
      return children;
    } catch (err) {
      const report = describeError(err);
      return report.message ? [new MessageNode(report.message, { command: "crm.knowledge.refresh", title: "Retry" })] : [];
    }
  }

  getParent(node: Node): Node | undefined {
    if (node instanceof ArticleNode) return this.groups.get(node.article.publishStatus);
    if (node instanceof LoadMoreNode) return this.groups.get(node.status);
    return undefined;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node instanceof MessageNode) return node.toItem();
    if (node instanceof KnowledgeGroupNode) {
      const item = new vscode.TreeItem(node.label, node.status === "Draft" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `kgroup:${node.status}`;
      const state = this.model?.state(node.status);
      item.description = state && state.pages ? `${state.rows.length}${state.hasMore ? "+" : ""}` : undefined;
      item.iconPath = new vscode.ThemeIcon(node.status === "Draft" ? "edit" : node.status === "Online" ? "globe" : "archive");
      item.contextValue = `crm.knowledgeGroup;${node.status}`;
      return item;
    }
    if (node instanceof LoadMoreNode) {
      const item = new vscode.TreeItem("Load more…");
      item.id = `kmore:${node.status}:${this.model?.state(node.status)?.pages ?? 0}`;
      item.iconPath = new vscode.ThemeIcon("fold-down");
      item.command = { command: "crm.knowledge.loadMore", title: "Load more", arguments: [node] };
      item.contextValue = "crm.loadMore";
      return item;
    }
    const a = node.article;
    const item = new vscode.TreeItem(a.title);
    item.id = `article:${a.id}`;
    item.description = [`#${a.articleNumber}`, `v${a.versionNumber}`, a.validationStatus, day(a.lastPublishedDate)].filter(Boolean).join(" · ");
    const tip = new vscode.MarkdownString(`**${a.title}**\n\n- Article number: ${a.articleNumber}\n- Version: ${a.versionNumber} (${a.publishStatus})\n- Validation: ${a.validationStatus}\n- URL name: \`${a.urlName}\`\n- Last published: ${day(a.lastPublishedDate) || "never"}\n- Version ID: \`${a.id}\``);
    item.tooltip = tip;
    item.iconPath = new vscode.ThemeIcon(a.validationStatus === "Validated" ? "pass" : "book");
    item.contextValue = `crm.article;${a.publishStatus}`;
    return item;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.model?.dispose();
    this.changed.dispose();
  }
}
