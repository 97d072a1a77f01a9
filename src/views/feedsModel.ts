/**
 * The Feeds view's data: my news feed, each group's feed and chosen users' feeds, paged by the API's page
 * tokens, with each item's comments. No VS Code here: tested in Node.
 */
import type { Crm, CommentPage, FeedComment, FeedElement, FeedElementPage, GroupPage } from "../client";
import { decodeEntities } from "../client/entities";
import { newById } from "../shared/lists";
import { Pager, type Page } from "./pager";

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

export interface FeedsSource {
  myNewsFeed(page?: string): Promise<FeedElementPage>;
  groupFeed(groupId: string, page?: string): Promise<FeedElementPage>;
  userFeed(userId: string, page?: string): Promise<FeedElementPage>;
  comments(feedElementId: string, page?: string): Promise<CommentPage>;
  groups(): Promise<GroupPage>;
}

/** A client's feeds as the view reads them, in a community (`siteId`) when one is set. */
export function clientFeedsSource(crm: Pick<Crm, "feed">, siteId: () => string | undefined): FeedsSource {
  return {
    myNewsFeed: (page) => crm.feed.getMyNewsFeed({ page, siteId: siteId() }),
    groupFeed: (id, page) => crm.feed.getGroupFeed(id, { page, siteId: siteId() }),
    userFeed: (id, page) => crm.feed.getUserNewsFeed(id, { page, siteId: siteId() }),
    // 25 a page rather than the API's 3: fewer "Load older comments" steps for a long thread.
    comments: (id, page) => crm.feed.getComments(id, { page, pageSize: 25, siteId: siteId() }),
    groups: () => crm.feed.getGroups({ siteId: siteId() }),
  };
}

export const feedKey = (ref: FeedRef) => (ref.kind === "news" ? "news" : `${ref.kind}:${ref.id}`);

/** A Connect string (possibly absent) as shown: decoded, or the fallback. */
const shown = (value: unknown, fallback = ""): string => (typeof value === "string" ? decodeEntities(value) : fallback);

function tokenOf(url: unknown): string | null {
  if (typeof url !== "string" || !url) return null;
  return new URL(url, "https://placeholder.invalid").searchParams.get("page");
}

// Orgs leave parts out (a system post has no actor; a feed without the comments capability): read defensively.
function itemRow(e: FeedElement): FeedItemRow {
  return {
    id: e.id, author: shown(e.actor?.name, "someone"), createdDate: e.createdDate ?? "", text: shown(e.body?.text),
    parentName: shown(e.parent?.name), commentCount: e.capabilities?.comments?.page?.total ?? 0,
  };
}

function commentRow(c: FeedComment): CommentRow {
  return { id: c.id, author: shown(c.user?.name, "someone"), createdDate: c.createdDate ?? "", text: shown(c.body?.text) };
}

/** An item's comments as far as loaded: the latest page first (oldest to newest), older pages before it. */
export interface CommentsState {
  rows: CommentRow[];
  /** The page token of the comments before `rows`, when there are more. */
  olderPage: string | null;
}

export class FeedsModel extends Pager<FeedRef, FeedItemRow, string> {
  private readonly commentStates = new Map<string, Promise<CommentsState>>();
  readonly userFeeds: FeedRef[] = [];

  constructor(private readonly source: FeedsSource) {
    super(feedKey);
  }

  protected async fetch(ref: FeedRef, token: string | undefined): Promise<Page<FeedItemRow, string>> {
    const page = ref.kind === "news" ? await this.source.myNewsFeed(token) : ref.kind === "group" ? await this.source.groupFeed(ref.id, token) : await this.source.userFeed(ref.id, token);
    return { rows: (page.elements ?? []).map(itemRow), next: tokenOf(page.nextPageUrl) ?? page.nextPageToken ?? null };
  }

  /** Starts a feed (or all) over, with the comments of its items; a load on its way is superseded. */
  override reset(ref?: FeedRef): void {
    if (ref) for (const item of this.state(ref)?.rows ?? []) this.commentStates.delete(item.id);
    else this.commentStates.clear();
    super.reset(ref);
  }

  /** The feeds loaded that show one of these items, or whose subject (a group or user) is one of these IDs. */
  feedsShowing(ids: string[]): FeedRef[] {
    const wanted = new Set(ids);
    const loaded = this.holding(() => true);
    const showing = [...this.holding((row) => wanted.has(row.id)), ...[...this.userFeeds, ...loaded].filter((r) => r.kind !== "news" && wanted.has(r.id))];
    return [...new Map(showing.map((r) => [feedKey(r), r])).values()];
  }

  async groups(): Promise<{ id: string; name: string; memberCount: number }[]> {
    return ((await this.source.groups()).groups ?? []).map((g) => ({ id: g.id, name: shown(g.name), memberCount: g.memberCount }));
  }

  /** An item's latest comments (one page, oldest to newest), loaded once and kept until the feed is reset. */
  comments(itemId: string): Promise<CommentsState> {
    let state = this.commentStates.get(itemId);
    if (!state) {
      state = this.source.comments(itemId).then((page) => ({ rows: (page.items ?? []).map(commentRow), olderPage: tokenOf(page.nextPageUrl) }));
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
    state.rows.unshift(...newById(state.rows, (page.items ?? []).map(commentRow)));
    state.olderPage = tokenOf(page.nextPageUrl);
    return state;
  }

  addUserFeed(id: string, name: string): FeedRef {
    const ref: FeedRef = { kind: "user", id, name };
    if (!this.userFeeds.some((f) => feedKey(f) === feedKey(ref))) this.userFeeds.push(ref);
    this.changed.fire(undefined);
    return ref;
  }

}
