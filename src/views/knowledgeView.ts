/** The Knowledge view: Drafts, Published and Archived article versions of the active org, paged. */
import * as vscode from "vscode";
import type { ArticleSortField, SortOrder } from "../client/constants";
import type { OrgChange } from "../connections/changes";
import { describeError } from "../platform/errorMessages";
import { ActiveOrg, MessageNode } from "./activeOrg";
import { languageLabel } from "../shared/languages";
import { KNOWLEDGE_GROUPS, KnowledgeModel, publishStatusLabel, sessionKnowledgeSource, type ArticleRow, type PublishStatus, type TranslationRow } from "./knowledgeModel";
import { PerOrgTreeProvider } from "./perOrgTree";

export class KnowledgeGroupNode {
  constructor(readonly status: PublishStatus, readonly label: string, readonly orgKey: string) {}
}
export class ArticleNode {
  constructor(readonly article: ArticleRow, readonly orgKey: string) {}
}
/** A translation under its master article's row. */
export class TranslationNode {
  constructor(readonly article: TranslationRow, readonly master: ArticleRow, readonly orgKey: string) {}
}
export class LoadMoreNode {
  constructor(readonly status: PublishStatus, readonly orgKey: string) {}
}
type Node = KnowledgeGroupNode | ArticleNode | TranslationNode | LoadMoreNode;

/** A group's words in the user's language (whole sentences: languages do not build them from the label). */
function groupWords(status: PublishStatus): { label: string; none: string; noneMatching: (filter: string) => string } {
  switch (status) {
    case "Draft": return { label: vscode.l10n.t("Drafts"), none: vscode.l10n.t("No drafts"), noneMatching: (f) => vscode.l10n.t("No drafts match '{0}'", f) };
    case "Online": return { label: vscode.l10n.t("Published"), none: vscode.l10n.t("No published articles"), noneMatching: (f) => vscode.l10n.t("No published articles match '{0}'", f) };
    case "Archived": return { label: vscode.l10n.t("Archived"), none: vscode.l10n.t("No archived articles"), noneMatching: (f) => vscode.l10n.t("No archived articles match '{0}'", f) };
  }
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

/** The groups a change can alter, beyond those already showing a version it names. */
function groupsChangedBy(change: OrgChange): PublishStatus[] {
  switch (change.kind) {
    case "created": return change.unpublished ? ["Draft", "Online"] : ["Draft"];
    case "updated": case "deleted": return ["Draft"];
    // Publishing a new version archives the one published before it.
    case "published": return ["Draft", "Online", "Archived"];
    case "archived": return ["Online", "Archived"];
    default: return ["Draft", "Online", "Archived"];
  }
}

export class KnowledgeTreeProvider extends PerOrgTreeProvider<Node, KnowledgeModel> {
  /** Each org's three group nodes (stable, for targeted redraws). */
  private readonly groups = new Map<string, KnowledgeGroupNode>();

  constructor(active: ActiveOrg, private readonly options: () => { pageSize: number; sobject: string }) {
    super(active, "knowledge", "crm.knowledge.refresh");
  }

  protected override forgetNodes(): void {
    this.groups.clear();
  }

  private group(orgKey: string, status: PublishStatus): KnowledgeGroupNode {
    const id = `${orgKey}:${status}`;
    let node = this.groups.get(id);
    if (!node) this.groups.set(id, (node = new KnowledgeGroupNode(status, groupWords(status).label, orgKey)));
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

  protected async createModel(key: string): Promise<KnowledgeModel> {
    const session = await this.active.sessionFor(key);
    const model = new KnowledgeModel(sessionKnowledgeSource(session), this.options);
    model.sort = this.sortState.sort;
    model.order = this.sortState.order;
    model.titleFilter = this.titleFilterText;
    // Only the group whose rows changed is redrawn.
    model.onDidChange((status) => this.changes.fire(status ? this.group(key, status) : undefined));
    return model;
  }

  /** A knowledge write, from any command, panel or document: the groups it can have changed start over. */
  protected override orgChanged(_orgKey: string, model: KnowledgeModel, change: OrgChange): void {
    if (change.area !== "knowledge" && change.area !== "unknown") return;
    for (const status of new Set([...groupsChangedBy(change), ...model.groupsShowing(change.ids)])) model.reset(status);
  }

  /** Starts every group of every org shown over (the Refresh button). */
  async refresh(): Promise<void> {
    await Promise.all(this.active.shown().map(async (o) => (await this.current(o.key)).reset()));
  }

  protected async topNodes(orgKey: string): Promise<Node[]> {
    return KNOWLEDGE_GROUPS.map((status) => this.group(orgKey, status));
  }

  protected override prefetch(node: Node, model: KnowledgeModel): void {
    if (node instanceof KnowledgeGroupNode) void model.ensureLoaded(node.status);
  }

  protected async childrenOf(node: Node, model: KnowledgeModel): Promise<(Node | MessageNode)[]> {
    if (node instanceof ArticleNode) return (node.article.translations ?? []).map((t) => new TranslationNode(t, node.article, node.orgKey));
    if (!(node instanceof KnowledgeGroupNode)) return [];
    const state = await this.withProgress(() => model.loadForTree(node.status));
    const children: (Node | MessageNode)[] = state.rows.map((row) => new ArticleNode(row, node.orgKey));
    if (state.error) {
      const report = describeError(state.error);
      if (report.message) children.push(new MessageNode(report.message, { command: "crm.knowledge.loadMore", title: vscode.l10n.t("Retry"), arguments: [new LoadMoreNode(node.status, node.orgKey)] }));
    } else if (state.hasMore) children.push(new LoadMoreNode(node.status, node.orgKey));
    else if (!state.rows.length) children.push(new MessageNode(model.titleFilter ? groupWords(node.status).noneMatching(model.titleFilter) : groupWords(node.status).none, undefined, "info"));
    return children;
  }

  protected itemOf(node: Node): vscode.TreeItem {
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
      const item = new vscode.TreeItem(vscode.l10n.t("Load more…"));
      item.id = `kmore:${node.orgKey}:${node.status}:${this.models.peek(node.orgKey)?.state(node.status)?.pages ?? 0}`;
      item.iconPath = new vscode.ThemeIcon("fold-down");
      item.command = { command: "crm.knowledge.loadMore", title: vscode.l10n.t("Load more"), arguments: [node] };
      item.contextValue = "crm.loadMore";
      return item;
    }
    if (node instanceof TranslationNode) return translationItem(node);
    const a = node.article;
    const item = new vscode.TreeItem(a.title, a.translations?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    // A version can sit in two groups for a moment (published while Drafts still shows it): the group is part of the id.
    item.id = `article:${node.orgKey}:${a.publishStatus}:${a.id}`;
    item.description = [`#${a.articleNumber}`, `v${a.versionNumber}`, a.validationStatus, day(a.lastPublishedDate)].filter(Boolean).join(" · ");
    const tip = new vscode.MarkdownString([
      `**${a.title}**`, "",
      vscode.l10n.t("- Article number: {0}", a.articleNumber),
      vscode.l10n.t("- Version: {0} ({1})", a.versionNumber, publishStatusLabel(a.publishStatus)),
      vscode.l10n.t("- Validation: {0}", a.validationStatus),
      vscode.l10n.t("- URL name: `{0}`", a.urlName),
      vscode.l10n.t("- Last published: {0}", day(a.lastPublishedDate) || vscode.l10n.t("never")),
      vscode.l10n.t("- Version ID: `{0}`", a.id),
    ].join("\n"));
    item.tooltip = tip;
    item.iconPath = new vscode.ThemeIcon(a.validationStatus === "Validated" ? "pass" : "book");
    item.contextValue = `crm.article;${a.publishStatus}`;
    item.command = { command: "crm.knowledge.showDetails", title: vscode.l10n.t("Show Article Details"), arguments: [node] };
    return item;
  }
}

function translationItem(node: TranslationNode): vscode.TreeItem {
  const t = node.article;
  // No id: a translation is a leaf (no expansion to keep; its handle from the master's id and its language keeps the
  // selection). VS Code can ask an open master's children twice at once while its group redraws (a save's refresh), and
  // an id registered by both answers throws "already registered" and leaves the master open on no rows.
  const item = new vscode.TreeItem(languageLabel(t.language));
  item.description = [publishStatusLabel(t.publishStatus), `v${t.versionNumber}`, t.stale ? vscode.l10n.t("out of date") : "", t.title].filter(Boolean).join(" · ");
  item.tooltip = new vscode.MarkdownString([
    `**${t.title}** — ${languageLabel(t.language)}`, "",
    vscode.l10n.t("- {0}, version {1}", publishStatusLabel(t.publishStatus), t.versionNumber),
    vscode.l10n.t("- Last changed: {0}", day(t.lastModifiedDate)),
    ...(t.stale ? [vscode.l10n.t("- **Out of date**: the master article was published on {0}, after this translation's last change", day(node.master.lastPublishedDate))] : []),
    vscode.l10n.t("- Version ID: `{0}`", t.id),
  ].join("\n"));
  item.iconPath = t.stale ? new vscode.ThemeIcon("warning", new vscode.ThemeColor("list.warningForeground")) : new vscode.ThemeIcon(t.publishStatus === "Draft" ? "edit" : t.publishStatus === "Online" ? "globe" : "archive");
  item.contextValue = `crm.translation;${t.publishStatus}${t.stale ? ";stale" : ""}`;
  item.command = { command: "crm.knowledge.showDetails", title: vscode.l10n.t("Show Article Details"), arguments: [node] };
  return item;
}
