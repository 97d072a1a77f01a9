/**
 * What the Objects, Knowledge and Feeds views share: one model per org shown (created once however many
 * nodes ask), the active org or every signed-in org under its own root, redraws that never overlap a
 * pending getChildren, a start-over when the orgs shown change, and the org's change events delivered to
 * the model they concern.
 */
import * as vscode from "vscode";
import type { OrgChange } from "../connections/changes";
import { describeError } from "../platform/errorMessages";
import { ActiveOrg, MessageNode, OrgRootNode } from "./activeOrg";
import { ExpansionMemory, type StateStore } from "./expansionMemory";
import { PerOrg } from "./perOrg";
import { TreeChangeQueue } from "./treeChanges";

export abstract class PerOrgTreeProvider<Node extends { readonly orgKey: string }, Model extends object> implements vscode.TreeDataProvider<Node | OrgRootNode | MessageNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | OrgRootNode | MessageNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  protected readonly changes = new TreeChangeQueue<Node | undefined>((node) => this.changed.fire(node));
  protected readonly models = new PerOrg<Model>((key) => this.createModel(key));
  protected readonly subscriptions: vscode.Disposable[] = [];
  private expansion?: ExpansionMemory;

  /** `view`: the view's id suffix (`crm.<view>`), used for node ids and progress. */
  constructor(protected readonly active: ActiveOrg, protected readonly view: "objects" | "knowledge" | "feeds", private readonly refreshCommand: string) {
    this.subscriptions.push(
      active.onDidChange(() => {
        this.models.clear();
        this.forgetNodes();
        this.changes.fire(undefined);
      }),
      active.manager.onDidChange((change) => {
        const model = this.models.peek(change.orgKey);
        if (model) this.orgChanged(change.orgKey, model, change);
      }),
    );
  }

  /** Creates an org's model (its session signs in on first use). */
  protected abstract createModel(orgKey: string): Promise<Model>;
  /** The nodes an org shows at its top. */
  protected abstract topNodes(orgKey: string, model: Model): Promise<Node[]>;
  /** The children of a node below the top. */
  protected abstract childrenOf(node: Node, model: Model): Promise<(Node | MessageNode)[]>;
  protected abstract itemOf(node: Node): vscode.TreeItem;
  /**
   * A node at the top that shows open starts loading what it holds: VS Code asks the open nodes' children one
   * after another (after a reload, every group the person left open), and their loads should run side by side.
   */
  protected prefetch(_node: Node, _model: Model): void {}
  /** A write the org accepted: redraw what it changed (nothing else). */
  protected orgChanged(_orgKey: string, _model: Model, _change: OrgChange): void {}
  /** Drops the nodes kept for targeted redraws when the orgs shown change. */
  protected forgetNodes(): void {}

  /** The model of an org (the active one when no key is given), created on first use. */
  current(orgKey?: string): Promise<Model> {
    return this.models.get(orgKey ?? this.active.record!.key);
  }

  /** Runs work with the view's progress bar. */
  protected withProgress<T>(work: () => Promise<T>): Thenable<T> {
    return vscode.window.withProgress({ location: { viewId: `crm.${this.view}` } }, work);
  }

  getChildren(node?: Node | OrgRootNode | MessageNode): Promise<(Node | OrgRootNode | MessageNode)[]> {
    return this.changes.track(() => this.children(node));
  }

  private async children(node?: Node | OrgRootNode | MessageNode): Promise<(Node | OrgRootNode | MessageNode)[]> {
    if (node instanceof MessageNode) return [];
    const shown = this.active.shown();
    if (!node && this.active.showAll) return shown.map((o) => new OrgRootNode(o));
    const orgKey = node instanceof OrgRootNode ? node.org.key : node ? node.orgKey : shown[0]?.key;
    if (!orgKey) return [];
    try {
      const model = await this.current(orgKey);
      if (node && !(node instanceof OrgRootNode)) return await this.childrenOf(node, model);
      const top = await this.topNodes(orgKey, model);
      for (const n of top) if (this.getTreeItem(n).collapsibleState === vscode.TreeItemCollapsibleState.Expanded) this.prefetch(n, model);
      return top;
    } catch (err) {
      const report = describeError(err);
      return report.message ? [new MessageNode(report.message, { command: this.refreshCommand, title: vscode.l10n.t("Retry") })] : [];
    }
  }

  /** The view's tree, whose opened and closed rows are remembered across window reloads. */
  createTreeView(options: Omit<vscode.TreeViewOptions<Node | OrgRootNode | MessageNode>, "treeDataProvider">, store: StateStore): vscode.TreeView<Node | OrgRootNode | MessageNode> {
    const expansion = (this.expansion = new ExpansionMemory(store, this.view));
    const tree = vscode.window.createTreeView(`crm.${this.view}`, { ...options, treeDataProvider: this });
    this.subscriptions.push(
      tree.onDidExpandElement((e) => expansion.set(this.getTreeItem(e.element).id, true)),
      tree.onDidCollapseElement((e) => expansion.set(this.getTreeItem(e.element).id, false)),
    );
    return tree;
  }

  getTreeItem(node: Node | OrgRootNode | MessageNode): vscode.TreeItem {
    if (node instanceof MessageNode) return node.toItem();
    const item = node instanceof OrgRootNode ? node.toItem(this.view) : this.itemOf(node);
    return this.expansion ? this.expansion.apply(item) : item;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.models.clear();
    this.changes.dispose();
    this.changed.dispose();
  }
}
