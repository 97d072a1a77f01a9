/** The Feeds view: My News Feed, Groups (each group's feed) and User Feeds; items expand to comments. */
import * as vscode from "vscode";
import type { OrgChange } from "../connections/changes";
import { formatCount } from "../platform/numbers";
import { describeError } from "../platform/errorMessages";
import { ActiveOrg, MessageNode } from "./activeOrg";
import { clientFeedsSource, feedKey, FeedsModel, type FeedItemRow, type FeedRef } from "./feedsModel";
import { PerOrgTreeProvider } from "./perOrgTree";

export class FeedNode {
  constructor(readonly ref: FeedRef, readonly orgKey: string) {}
}
export class FolderNode {
  constructor(readonly folder: "groups" | "users", readonly orgKey: string) {}
}
export class FeedItemNode {
  constructor(readonly item: FeedItemRow, readonly ref: FeedRef, readonly orgKey: string) {}
}
export class FeedMoreNode {
  constructor(readonly ref: FeedRef, readonly orgKey: string) {}
}
/** "Load older comments…" above an item's comments when the org has more before them. */
export class OlderCommentsNode {
  constructor(readonly itemNode: FeedItemNode) {}
  get orgKey(): string {
    return this.itemNode.orgKey;
  }
}
class CommentNode {
  constructor(readonly item: vscode.TreeItem, readonly orgKey: string) {}
}
type Node = FeedNode | FolderNode | FeedItemNode | FeedMoreNode | OlderCommentsNode | CommentNode;

const firstLine = (text: string) => (text.split("\n")[0] ?? "").slice(0, 120);
const when = (iso: string) => iso.replace("T", " ").slice(0, 16);

export class FeedsTreeProvider extends PerOrgTreeProvider<Node, FeedsModel> {
  /** Stable feed nodes for targeted redraws. */
  private readonly feedNodes = new Map<string, FeedNode>();
  /** Item nodes by org, feed and item, so an item's comments can be redrawn on their own. */
  private readonly itemNodes = new Map<string, FeedItemNode>();

  constructor(active: ActiveOrg, private readonly siteId: () => string | undefined) {
    super(active, "feeds", "crm.feed.refresh");
  }

  protected override forgetNodes(): void {
    this.feedNodes.clear();
    this.itemNodes.clear();
  }

  private nodeFor(ref: FeedRef, orgKey: string): FeedNode {
    const key = `${orgKey}:${feedKey(ref)}`;
    let node = this.feedNodes.get(key);
    if (!node) this.feedNodes.set(key, (node = new FeedNode(ref, orgKey)));
    return node;
  }

  private itemNodeFor(item: FeedItemRow, ref: FeedRef, orgKey: string): FeedItemNode {
    const key = `${orgKey}:${feedKey(ref)}:${item.id}`;
    const known = this.itemNodes.get(key);
    if (known && known.item === item) return known;
    const node = new FeedItemNode(item, ref, orgKey);
    this.itemNodes.set(key, node);
    return node;
  }

  /** Loads the comments before the ones an item shows, and redraws that item. */
  async loadOlderComments(node: FeedItemNode): Promise<void> {
    await (await this.current(node.orgKey)).loadOlderComments(node.item.id);
    this.changes.fire(node);
  }

  protected async createModel(orgKey: string): Promise<FeedsModel> {
    const crm = (await this.active.sessionFor(orgKey)).crm;
    const model = new FeedsModel(clientFeedsSource(crm, () => this.siteId() || undefined));
    model.onDidChange((ref) => this.changes.fire(ref ? this.nodeFor(ref, orgKey) : undefined));
    return model;
  }

  /**
   * A post or comment, from any command or script: my news feed and the feeds showing the item or its subject
   * start over (an item's comment count and comments come with its feed).
   */
  protected override orgChanged(_orgKey: string, model: FeedsModel, change: OrgChange): void {
    if (change.area === "unknown" || change.kind === "written") {
      if (change.area === "feeds" || change.area === "unknown") model.reset();
      return;
    }
    if (change.area !== "feeds") return;
    const feeds = model.feedsShowing(change.ids);
    if (change.kind === "posted") feeds.push({ kind: "news" });
    for (const ref of feeds) model.reset(ref);
  }

  /** Starts a feed (or all feeds) of an org (the active one by default) over. */
  async refresh(ref?: FeedRef, orgKey?: string): Promise<void> {
    if (ref || orgKey) (await this.current(orgKey)).reset(ref);
    else this.models.existing().forEach((m) => m.reset());
  }

  protected async topNodes(orgKey: string): Promise<Node[]> {
    return [this.nodeFor({ kind: "news" }, orgKey), new FolderNode("groups", orgKey), new FolderNode("users", orgKey)];
  }

  protected async childrenOf(node: Node, model: FeedsModel): Promise<(Node | MessageNode)[]> {
    const orgKey = node.orgKey;
    if (node instanceof FolderNode) {
      if (node.folder === "groups") return (await model.groups()).map((g) => this.nodeFor({ kind: "group", id: g.id, name: g.name }, orgKey));
      return model.userFeeds.length ? model.userFeeds.map((r) => this.nodeFor(r, orgKey)) : [new MessageNode(vscode.l10n.t("Show a user's feed with the person icon above"), undefined, "info")];
    }
    if (node instanceof FeedNode) {
      const state = await this.withProgress(() => model.loadForTree(node.ref));
      const children: (Node | MessageNode)[] = state.rows.map((item) => this.itemNodeFor(item, node.ref, orgKey));
      if (state.error) {
        const report = describeError(state.error);
        if (report.message) children.push(new MessageNode(report.message, { command: "crm.feed.loadMore", title: vscode.l10n.t("Retry"), arguments: [new FeedMoreNode(node.ref, orgKey)] }));
      } else if (state.hasMore) children.push(new FeedMoreNode(node.ref, orgKey));
      else if (!state.rows.length) children.push(new MessageNode(vscode.l10n.t("No posts yet"), undefined, "info"));
      return children;
    }
    if (node instanceof FeedItemNode) {
      const comments = await this.withProgress(() => model.comments(node.item.id));
      const rows: Node[] = comments.rows.map((c) => {
        const item = new vscode.TreeItem(`${c.author}: ${firstLine(c.text)}`);
        item.id = `comment:${orgKey}:${feedKey(node.ref)}:${c.id}`;
        item.description = when(c.createdDate);
        item.tooltip = `${c.author}, ${when(c.createdDate)}\n\n${c.text}`;
        item.iconPath = new vscode.ThemeIcon("comment");
        return new CommentNode(item, orgKey);
      });
      return comments.olderPage ? [new OlderCommentsNode(node), ...rows] : rows;
    }
    return [];
  }

  protected itemOf(node: Node): vscode.TreeItem {
    if (node instanceof CommentNode) return node.item;
    if (node instanceof FolderNode) {
      const item = new vscode.TreeItem(node.folder === "groups" ? vscode.l10n.t("Groups") : vscode.l10n.t("User Feeds"), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `folder:${node.orgKey}:${node.folder}`;
      item.iconPath = new vscode.ThemeIcon(node.folder === "groups" ? "organization" : "person");
      return item;
    }
    if (node instanceof FeedNode) {
      const ref = node.ref;
      const label = ref.kind === "news" ? vscode.l10n.t("My News Feed") : ref.name;
      const item = new vscode.TreeItem(label, ref.kind === "news" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `feed:${node.orgKey}:${feedKey(ref)}`;
      item.iconPath = new vscode.ThemeIcon(ref.kind === "news" ? "rss" : ref.kind === "group" ? "comment-discussion" : "account");
      item.contextValue = `crm.feed;${ref.kind}`;
      return item;
    }
    if (node instanceof OlderCommentsNode) {
      const item = new vscode.TreeItem(vscode.l10n.t("Load older comments…"));
      item.iconPath = new vscode.ThemeIcon("fold-up");
      item.command = { command: "crm.feed.loadOlderComments", title: vscode.l10n.t("Load older comments"), arguments: [node] };
      return item;
    }
    if (node instanceof FeedMoreNode) {
      const item = new vscode.TreeItem(vscode.l10n.t("Load more…"));
      item.id = `feedmore:${node.orgKey}:${feedKey(node.ref)}:${this.models.peek(node.orgKey)?.state(node.ref)?.rows.length ?? 0}`;
      item.iconPath = new vscode.ThemeIcon("fold-down");
      item.command = { command: "crm.feed.loadMore", title: vscode.l10n.t("Load more"), arguments: [node] };
      return item;
    }
    const it = node.item;
    const item = new vscode.TreeItem(`${it.author}: ${firstLine(it.text)}`, it.commentCount ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `item:${node.orgKey}:${feedKey(node.ref)}:${it.id}`;
    const comments = !it.commentCount ? [] : [it.commentCount === 1 ? vscode.l10n.t("1 comment") : vscode.l10n.t("{0} comments", formatCount(it.commentCount))];
    item.description = [when(it.createdDate), ...(it.parentName ? [it.parentName] : []), ...comments].join(" · ");
    item.tooltip = `${it.author} → ${it.parentName}, ${when(it.createdDate)}\n\n${it.text}`;
    item.iconPath = new vscode.ThemeIcon("note");
    item.contextValue = "crm.feedItem";
    return item;
  }
}
