/**
 * The Knowledge view's data for one org: Drafts, Published and Archived article versions, each paged
 * (one page per "Load more", never more), sorted and filtered by title. No VS Code here: tested in Node.
 */
import type { ArticleSortField, SortOrder } from "../client/constants";
import { Emitter } from "../shared/events";
import { newById } from "../shared/lists";

export type PublishStatus = "Draft" | "Online" | "Archived";
export const KNOWLEDGE_GROUPS: { status: PublishStatus; label: string }[] = [
  { status: "Draft", label: "Drafts" },
  { status: "Online", label: "Published" },
  { status: "Archived", label: "Archived" },
];

export interface ArticleRow {
  id: string;
  knowledgeArticleId: string;
  articleNumber: string;
  title: string;
  urlName: string;
  versionNumber: number;
  publishStatus: PublishStatus;
  validationStatus: string;
  lastPublishedDate: string | null;
  lastModifiedDate: string | null;
}

export interface GroupState {
  rows: ArticleRow[];
  hasMore: boolean;
  pages: number;
  loading: boolean;
  error?: unknown;
}

export interface KnowledgeSource {
  listArticleVersions(options: { publishStatus: PublishStatus; sort: ArticleSortField; order: SortOrder; pageSize: number; pageNum: number; titleContains?: string; sobject: string }): Promise<{ records: Record<string, unknown>[]; hasMore: boolean }>;
}

export function toArticleRow(r: Record<string, unknown>): ArticleRow {
  return {
    id: String(r.Id), knowledgeArticleId: String(r.KnowledgeArticleId ?? ""), articleNumber: String(r.ArticleNumber ?? ""), title: String(r.Title ?? ""),
    urlName: String(r.UrlName ?? ""), versionNumber: Number(r.VersionNumber ?? 0), publishStatus: r.PublishStatus as PublishStatus,
    validationStatus: String(r.ValidationStatus ?? ""), lastPublishedDate: (r.LastPublishedDate as string | null) ?? null, lastModifiedDate: (r.LastModifiedDate as string | null) ?? null,
  };
}

export class KnowledgeModel {
  sort: ArticleSortField = "LastPublishedDate";
  order: SortOrder = "DESC";
  titleFilter = "";
  private readonly states = new Map<PublishStatus, GroupState>();
  private readonly changed = new Emitter<PublishStatus | undefined>();
  /** Fires the group whose rows changed, or undefined for all of them. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly source: KnowledgeSource, private readonly options: () => { pageSize: number; sobject: string }) {}

  state(status: PublishStatus): GroupState | undefined {
    return this.states.get(status);
  }

  /** Loads the first page of a group unless it is loaded already. */
  async ensureLoaded(status: PublishStatus): Promise<GroupState> {
    const existing = this.states.get(status);
    if (existing && (existing.pages > 0 || existing.loading || existing.error)) return existing;
    return this.loadMore(status);
  }

  /** Fetches exactly one more page of a group. */
  async loadMore(status: PublishStatus): Promise<GroupState> {
    const state = this.states.get(status) ?? { rows: [], hasMore: false, pages: 0, loading: false };
    if (state.loading) return state;
    state.loading = true;
    state.error = undefined;
    this.states.set(status, state);
    const { pageSize, sobject } = this.options();
    try {
      const page = await this.source.listArticleVersions({ publishStatus: status, sort: this.sort, order: this.order, pageSize, pageNum: state.pages + 1, titleContains: this.titleFilter || undefined, sobject });
      // An article published or edited between two pages can move into the next page: each version once.
      state.rows.push(...newById(state.rows, page.records.map(toArticleRow)));
      state.hasMore = page.hasMore;
      state.pages++;
    } catch (err) {
      state.error = err;
    } finally {
      state.loading = false;
      this.changed.fire(status);
    }
    return state;
  }

  /**
   * Forgets loaded pages (after a sort or filter change, or a refresh); groups reload when shown. A load
   * still running finishes into the state it started with, which is no longer kept: the newer load wins.
   */
  reset(status?: PublishStatus): void {
    if (status) this.states.delete(status);
    else this.states.clear();
    this.changed.fire(status);
  }

  setSort(sort: ArticleSortField, order: SortOrder): void {
    this.sort = sort;
    this.order = order;
    this.reset();
  }

  setTitleFilter(text: string): void {
    this.titleFilter = text.trim();
    this.reset();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
