/**
 * The Feeds view's data: my news feed, each group's feed and chosen users' feeds, paged by the API's page
 * tokens, with each item's comments. No VS Code here: tested in Node.
 */
import { decodeEntities } from "../client/entities";
import { Emitter } from "../shared/events";
import { newById } from "../shared/lists";

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

/** A Connect string (possibly absent) as shown: decoded, or the fallback. */
const shown = (value: unknown, fallback = ""): string => (typeof value === "string" ? decodeEntities(value) : fallback);

function tokenOf(url: unknown): string | null {
  if (typeof url !== "string" || !url) return null;
  return new URL(url, "https://placeholder.invalid").searchParams.get("page");
}

function itemRow(e: Record<string, unknown>): FeedItemRow {
  const body = (e.body as { text?: string | null } | undefined)?.text ?? "";
  const page = ((e.capabilities as Record<string, { page?: { total?: number } }> | undefined)?.comments?.page) ?? {};
  return {
    id: String(e.id), author: shown((e.actor as { name?: string } | undefined)?.name, "someone"), createdDate: String(e.createdDate ?? ""),
    text: shown(body), parentName: shown((e.parent as { name?: string } | undefined)?.name), commentCount: Number(page.total ?? 0),
  };
}

function commentRow(c: Record<string, unknown>): CommentRow {
  return { id: String(c.id), author: shown((c.user as { name?: string } | undefined)?.name, "someone"), createdDate: String(c.createdDate ?? ""), text: shown((c.body as { text?: string } | undefined)?.text) };
}

/** An item's comments as far as loaded: the latest page first (oldest to newest), older pages before it. */
export interface CommentsState {
  rows: CommentRow[];
  /** The page token of the comments before `rows`, when there are more. */
  olderPage: string | null;
}

export class FeedsModel {
  private readonly states = new Map<string, FeedState>();
  private readonly commentStates = new Map<string, Promise<CommentsState>>();
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
      // A feed posted to meanwhile can repeat an item on the next page: each item once.
      state.items.push(...newById(state.items, ((page.elements as Record<string, unknown>[]) ?? []).map(itemRow)));
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

  /** Starts a feed (or all) over; comments are read again too. A load still running lands in the state it started with, which is dropped. */
  reset(ref?: FeedRef): void {
    if (ref) this.states.delete(feedKey(ref));
    else this.states.clear();
    this.commentStates.clear();
    this.changed.fire(ref);
  }

  async groups(): Promise<{ id: string; name: string; memberCount: number }[]> {
    return (await this.source.groups()).map((g) => ({ ...g, name: shown(g.name) }));
  }

  /** An item's latest comments (one page, oldest to newest), loaded once and kept until the feed is reset. */
  comments(itemId: string): Promise<CommentsState> {
    let state = this.commentStates.get(itemId);
    if (!state) {
      state = this.source.comments(itemId).then((page) => ({ rows: ((page.items as Record<string, unknown>[]) ?? []).map(commentRow), olderPage: tokenOf(page.nextPageUrl) }));
      state.catch(() => this.commentStates.delete(itemId));
      this.commentStates.set(itemId, state);
    }
    return state;
  }

  /** Loads the page of comments before those shown, and puts it in front of them. */
  async loadOlderComments(itemId: string): Promise<CommentsState> {
    const state = await this.comments(itemId);
    if (!state.olderPage) return state;
    const page = await this.source.comments(itemId, state.olderPage);
    state.rows.unshift(...newById(state.rows, ((page.items as Record<string, unknown>[]) ?? []).map(commentRow)));
    state.olderPage = tokenOf(page.nextPageUrl);
    return state;
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
