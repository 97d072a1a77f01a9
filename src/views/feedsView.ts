/** The Feeds view: My News Feed, Groups (each group's feed) and User Feeds; items expand to comments. */
import * as vscode from "vscode";
import { describeError } from "../platform/errorMessages";
import { ActiveOrg, MessageNode, OrgRootNode } from "./activeOrg";
import { feedKey, FeedsModel, type FeedItemRow, type FeedRef } from "./feedsModel";

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
class CommentNode {
  constructor(readonly item: vscode.TreeItem) {}
}
type Node = OrgRootNode | FeedNode | FolderNode | FeedItemNode | FeedMoreNode | CommentNode | MessageNode;

const firstLine = (text: string) => (text.split("\n")[0] ?? "").slice(0, 120);
const when = (iso: string) => iso.replace("T", " ").slice(0, 16);

export class FeedsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** One model per org shown, and stable feed nodes for targeted refreshes. */
  private readonly models = new Map<string, FeedsModel>();
  private readonly feedNodes = new Map<string, FeedNode>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly active: ActiveOrg, private readonly siteId: () => string | undefined) {
    this.subscriptions.push(active.onDidChange(() => {
      this.models.forEach((m) => m.dispose());
      this.models.clear();
      this.feedNodes.clear();
      this.changed.fire(undefined);
    }));
  }

  private nodeFor(ref: FeedRef, orgKey: string): FeedNode {
    const key = `${orgKey}:${feedKey(ref)}`;
    let node = this.feedNodes.get(key);
    if (!node) this.feedNodes.set(key, (node = new FeedNode(ref, orgKey)));
    return node;
  }

  /** The model of an org (the active one when no key is given). */
  async current(orgKey?: string): Promise<FeedsModel> {
    const orgId = orgKey ?? this.active.record!.key;
    let existing = this.models.get(orgId);
    if (!existing) {
      const crm = (await this.active.sessionFor(orgId)).crm;
      const site = () => this.siteId() || undefined;
      const model = new FeedsModel({
        myNewsFeed: (page) => crm.feed.getMyNewsFeed({ page, siteId: site() }),
        groupFeed: (id, page) => crm.feed.getGroupFeed(id, { page, siteId: site() }),
        userFeed: (id, page) => crm.feed.getUserNewsFeed(id, { page, siteId: site() }),
        comments: (id, page) => crm.feed.getComments(id, { page, siteId: site() }),
        groups: async () => ((await crm.feed.getGroups({ siteId: site() })).groups as { id: string; name: string; memberCount: number }[]) ?? [],
      });
      model.onDidChange((ref) => this.changed.fire(ref ? this.nodeFor(ref, orgId) : undefined));
      this.models.set(orgId, (existing = model));
    }
    return existing;
  }

  /** Starts a feed (or all feeds) of an org (the active one by default) over. */
  async refresh(ref?: FeedRef, orgKey?: string): Promise<void> {
    if (ref || orgKey) (await this.current(orgKey)).reset(ref);
    else this.models.forEach((m) => m.reset());
  }

  async getChildren(node?: Node): Promise<Node[]> {
    const shown = this.active.shown();
    if (!node) {
      if (this.active.showAll) return shown.map((o) => new OrgRootNode(o));
      if (!shown[0]) return [];
    }
    const orgKey = node instanceof OrgRootNode ? node.org.key : node && "orgKey" in node ? node.orgKey : shown[0]!.key;
    try {
      const model = await this.current(orgKey);
      if (!node || node instanceof OrgRootNode) return [this.nodeFor({ kind: "news" }, orgKey), new FolderNode("groups", orgKey), new FolderNode("users", orgKey)];
      if (node instanceof FolderNode) {
        if (node.folder === "groups") return (await model.groups()).map((g) => this.nodeFor({ kind: "group", id: g.id, name: g.name }, orgKey));
        return model.userFeeds.length ? model.userFeeds.map((r) => this.nodeFor(r, orgKey)) : [new MessageNode("Show a user's feed with the person icon above", undefined, "info")];
      }
      if (node instanceof FeedNode) {
        const state = await vscode.window.withProgress({ location: { viewId: "crm.feeds" } }, () => model.ensureLoaded(node.ref));
        const children: Node[] = state.items.map((item) => new FeedItemNode(item, node.ref, orgKey));
        if (state.error) {
          const report = describeError(state.error);
          if (report.message) children.push(new MessageNode(report.message, { command: "crm.feed.loadMore", title: "Retry", arguments: [new FeedMoreNode(node.ref, orgKey)] }));
        } else if (state.nextPage) children.push(new FeedMoreNode(node.ref, orgKey));
        else if (!state.items.length) children.push(new MessageNode("No posts yet", undefined, "info"));
        return children;
      }
      if (node instanceof FeedItemNode) {
        const comments = await vscode.window.withProgress({ location: { viewId: "crm.feeds" } }, () => model.comments(node.item.id));
        return comments.map((c) => {
          const item = new vscode.TreeItem(`${c.author}: ${firstLine(c.text)}`);
          item.description = when(c.createdDate);
          item.tooltip = `${c.author}, ${when(c.createdDate)}\n\n${c.text}`;
          item.iconPath = new vscode.ThemeIcon("comment");
          return new CommentNode(item);
        });
      }
      return [];
    } catch (err) {
      const report = describeError(err);
      return report.message ? [new MessageNode(report.message, { command: "crm.feed.refresh", title: "Retry" })] : [];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node instanceof OrgRootNode) return node.toItem("feeds");
    if (node instanceof MessageNode) return node.toItem();
    if (node instanceof CommentNode) return node.item;
    if (node instanceof FolderNode) {
      const item = new vscode.TreeItem(node.folder === "groups" ? "Groups" : "User Feeds", vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `folder:${node.orgKey}:${node.folder}`;
      item.iconPath = new vscode.ThemeIcon(node.folder === "groups" ? "organization" : "person");
      return item;
    }
    if (node instanceof FeedNode) {
      const ref = node.ref;
      const label = ref.kind === "news" ? "My News Feed" : ref.name;
      const item = new vscode.TreeItem(label, ref.kind === "news" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `feed:${node.orgKey}:${feedKey(ref)}`;
      item.iconPath = new vscode.ThemeIcon(ref.kind === "news" ? "rss" : ref.kind === "group" ? "comment-discussion" : "account");
      item.contextValue = `crm.feed;${ref.kind}`;
      return item;
    }
    if (node instanceof FeedMoreNode) {
      const item = new vscode.TreeItem("Load more…");
      item.id = `feedmore:${node.orgKey}:${feedKey(node.ref)}:${this.models.get(node.orgKey)?.state(node.ref)?.items.length ?? 0}`;
      item.iconPath = new vscode.ThemeIcon("fold-down");
      item.command = { command: "crm.feed.loadMore", title: "Load more", arguments: [node] };
      return item;
    }
    const it = node.item;
    const item = new vscode.TreeItem(`${it.author}: ${firstLine(it.text)}`, it.commentCount ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `item:${node.orgKey}:${feedKey(node.ref)}:${it.id}`;
    item.description = `${when(it.createdDate)}${it.parentName ? ` · ${it.parentName}` : ""}${it.commentCount ? ` · ${it.commentCount} comment${it.commentCount > 1 ? "s" : ""}` : ""}`;
    item.tooltip = `${it.author} → ${it.parentName}, ${when(it.createdDate)}\n\n${it.text}`;
    item.iconPath = new vscode.ThemeIcon("note");
    item.contextValue = "crm.feedItem";
    return item;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.models.forEach((m) => m.dispose());
    this.changed.dispose();
  }
}
