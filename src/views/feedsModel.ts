/**
 * The Feeds view's data: my news feed, each group's feed and chosen users' feeds, paged by the API's page
 * tokens, with each item's comments. No VS Code here: tested in Node.
 */
import { Emitter } from "../shared/events";

export type FeedRef = { kind: "news" } | { kind: "group"; id: string; name: string } | { kind: "user"; id: string; name: string };

export interface FeedItemRow {
  id: string;
  author: string;
  createdDate: string;
  text: string;
  parentName: string;
  commentCount: number;
}

export interface CommentRow {
  id: string;
  author: string;
  createdDate: string;
  text: string;
}

export interface FeedState {
  items: FeedItemRow[];
  nextPage: string | null;
  loaded: boolean;
  loading: boolean;
  error?: unknown;
}

type Page = Record<string, unknown>;

export interface FeedsSource {
  myNewsFeed(page?: string): Promise<Page>;
  groupFeed(groupId: string, page?: string): Promise<Page>;
  userFeed(userId: string, page?: string): Promise<Page>;
  comments(feedElementId: string, page?: string): Promise<Page>;
  groups(): Promise<{ id: string; name: string; memberCount: number }[]>;
}

export const feedKey = (ref: FeedRef) => (ref.kind === "news" ? "news" : `${ref.kind}:${ref.id}`);

/** Connect strings are HTML-entity encoded by default; the tree shows plain text. */
export function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|quot|#39|#92|amp);/g, (_m, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", "#92": "\\", amp: "&" })[e]!);
}

function tokenOf(url: unknown): string | null {
  if (typeof url !== "string" || !url) return null;
  return new URL(url, "https://placeholder.invalid").searchParams.get("page");
}

function itemRow(e: Record<string, unknown>): FeedItemRow {
  const body = (e.body as { text?: string | null } | undefined)?.text ?? "";
  const page = ((e.capabilities as Record<string, { page?: { total?: number } }> | undefined)?.comments?.page) ?? {};
  return {
    id: String(e.id), author: String((e.actor as { name?: string } | undefined)?.name ?? "someone"), createdDate: String(e.createdDate ?? ""),
    text: decodeEntities(String(body ?? "")), parentName: String((e.parent as { name?: string } | undefined)?.name ?? ""), commentCount: Number(page.total ?? 0),
  };
}

export class FeedsModel {
  private readonly states = new Map<string, FeedState>();
  private readonly changed = new Emitter<FeedRef | undefined>();
  readonly onDidChange = this.changed.event;
  readonly userFeeds: FeedRef[] = [];

  constructor(private readonly source: FeedsSource) {}

  state(ref: FeedRef): FeedState | undefined {
    return this.states.get(feedKey(ref));
  }

  async ensureLoaded(ref: FeedRef): Promise<FeedState> {
    const existing = this.states.get(feedKey(ref));
    if (existing && (existing.loaded || existing.loading || existing.error)) return existing;
    return this.loadMore(ref);
  }

  /** Fetches the next page of a feed (the first when nothing is loaded). */
  async loadMore(ref: FeedRef): Promise<FeedState> {
    const key = feedKey(ref);
    const state = this.states.get(key) ?? { items: [], nextPage: null, loaded: false, loading: false };
    if (state.loading) return state;
    state.loading = true;
    state.error = undefined;
    this.states.set(key, state);
    try {
      const token = state.loaded ? state.nextPage ?? undefined : undefined;
      const page = ref.kind === "news" ? await this.source.myNewsFeed(token) : ref.kind === "group" ? await this.source.groupFeed(ref.id, token) : await this.source.userFeed(ref.id, token);
      state.items.push(...((page.elements as Record<string, unknown>[]) ?? []).map(itemRow));
      state.nextPage = tokenOf(page.nextPageUrl) ?? (page.nextPageToken as string | null) ?? null;
      state.loaded = true;
    } catch (err) {
      state.error = err;
    } finally {
      state.loading = false;
      this.changed.fire(ref);
    }
    return state;
  }

  reset(ref?: FeedRef): void {
    if (ref) this.states.delete(feedKey(ref));
    else this.states.clear();
    this.changed.fire(ref);
  }

  groups(): Promise<{ id: string; name: string; memberCount: number }[]> {
    return this.source.groups();
  }

  /** All comments of an item, oldest first (following the comment pages). */
  async comments(itemId: string): Promise<CommentRow[]> {
    const rows: CommentRow[] = [];
    let token: string | undefined;
    for (let guard = 0; guard < 50; guard++) {
      const page = await this.source.comments(itemId, token);
      for (const c of (page.items as Record<string, unknown>[]) ?? []) {
        rows.push({ id: String(c.id), author: String((c.user as { name?: string } | undefined)?.name ?? "someone"), createdDate: String(c.createdDate ?? ""), text: decodeEntities(String((c.body as { text?: string } | undefined)?.text ?? "")) });
      }
      token = tokenOf(page.nextPageUrl) ?? undefined;
      if (!token) break;
    }
    return rows;
  }

  addUserFeed(id: string, name: string): FeedRef {
    const ref: FeedRef = { kind: "user", id, name };
    if (!this.userFeeds.some((f) => feedKey(f) === feedKey(ref))) this.userFeeds.push(ref);
    this.changed.fire(undefined);
    return ref;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
