/**
 * Chatter feed operations through the Connect REST API. Each takes the client first
 * (`feed.postComment(crm, id, …)`); the same functions are bound on `crm.feed`.
 *
 * `createdById` (posting as another user): the Connect API has no such input, so with it the post or
 * comment is created through the sObject API (FeedItem / FeedComment with CreatedById), which the org
 * allows only to users with "Insert System Field Values for Chatter Feeds", and only as plain text.
 */
import type { Crm } from "./crm";
import type { CrmResponse } from "./transport";
import { decodeEntities } from "./entities";
import { APIRequestError, InvalidResponseError, MissingRequiredDataError } from "./errors";
import { requireRecordId } from "./ids";
import type { CommentPage, FeedComment, FeedElement, FeedElementPage, GroupPage, UserPage } from "./shapes";
import { plugIn, type Bound } from "./plugins";
import { feedIntent } from "./intent";

/** A Connect message segment: `{ type: "Text", text }`, `{ type: "Mention", id }`, markup, links, hashtags. */
export type MessageSegment = { type: string } & Record<string, unknown>;

export interface FeedPageOptions {
  /** Community (Experience Cloud site) ID: the call goes under /connect/communities/{siteId}. */
  siteId?: string;
  pageSize?: number;
  /** Page token from a previous page's `nextPageToken`. */
  page?: string;
}

export interface PostOptions {
  messageText?: string;
  /** Segments win over `messageText` when both are given. */
  messageSegments?: MessageSegment[];
  siteId?: string;
  createdById?: string;
}

async function chatterPath(crm: Crm, siteId: string | undefined, suffix: string): Promise<string> {
  const community = siteId === undefined ? "" : `/connect/communities/${encodeURIComponent(requireRecordId(siteId, "siteId"))}`;
  return crm.apiPath(`${community}/chatter${suffix}`);
}

function pageParams(o: FeedPageOptions) {
  if (o.pageSize !== undefined && (!Number.isInteger(o.pageSize) || o.pageSize < 1 || o.pageSize > 100)) {
    throw new RangeError(`pageSize must be a whole number from 1 to 100, got ${String(o.pageSize)}`);
  }
  return { pageSize: o.pageSize, page: o.page };
}

function feedId(value: string, argument: string): string {
  return encodeURIComponent(requireRecordId(value, argument));
}

/** The calling user's news feed (a Feed Element Page: `elements`, `nextPageUrl`). */
export async function getMyNewsFeed(crm: Crm, options: FeedPageOptions = {}): Promise<FeedElementPage> {
  return crm.getJson(await chatterPath(crm, options.siteId, "/feeds/news/me/feed-elements"), { params: pageParams(options) });
}

/** A user's profile feed. */
export async function getUserNewsFeed(crm: Crm, userId: string, options: FeedPageOptions = {}): Promise<FeedElementPage> {
  return crm.getJson(await chatterPath(crm, options.siteId, `/feeds/user-profile/${feedId(userId, "userId")}/feed-elements`), { params: pageParams(options) });
}

/** A group's feed (the record feed of the group). */
export async function getGroupFeed(crm: Crm, groupId: string, options: FeedPageOptions = {}): Promise<FeedElementPage> {
  return crm.getJson(await chatterPath(crm, options.siteId, `/feeds/record/${feedId(groupId, "groupId")}/feed-elements`), { params: pageParams(options) });
}

/** Beyond the spec: a page of a feed element's comments. */
export async function getComments(crm: Crm, feedElementId: string, options: FeedPageOptions = {}): Promise<CommentPage> {
  return crm.getJson(await chatterPath(crm, options.siteId, `/feed-elements/${feedId(feedElementId, "feedElementId")}/capabilities/comments/items`), { params: pageParams(options) });
}

/** Beyond the spec: the groups of the org (for pickers and the Feeds tree). */
export async function getGroups(crm: Crm, options: { siteId?: string; query?: string } = {}): Promise<GroupPage> {
  return crm.getJson(await chatterPath(crm, options.siteId, "/groups"), { params: { q: options.query } });
}

/** Beyond the spec: users by name (for @mentions and user feeds). */
export async function getUsers(crm: Crm, options: { siteId?: string; query?: string } = {}): Promise<UserPage> {
  return crm.getJson(await chatterPath(crm, options.siteId, "/users"), { params: { q: options.query } });
}

/** A person to @mention or whose feed to show, with plain-text (decoded) name and title. */
export interface UserChoice {
  id: string;
  name: string;
  title?: string;
}

/**
 * Beyond the spec: active users by name, for @mentions and user pickers. From Connect's users list, or,
 * where the org refuses that list (404 where Chatter's people directory is off, 403 without permission),
 * from a SOQL query on User, so posting and picking a user keep working. `source` says which answered.
 */
export async function findUsers(crm: Crm, options: { siteId?: string; query?: string } = {}): Promise<{ users: UserChoice[]; source: "connect" | "soql" }> {
  const plain = (v: unknown) => (typeof v === "string" && v ? decodeEntities(v) : undefined);
  try {
    const page = await getUsers(crm, options);
    const users = ((page.users as Record<string, unknown>[] | undefined) ?? []).map((u) => ({ id: String(u.id), name: plain(u.name) ?? String(u.id), title: plain(u.title) }));
    return { users, source: "connect" };
  } catch (err) {
    if (!(err instanceof APIRequestError) || (err.status !== 404 && err.status !== 403)) throw err;
    const rows = await crm.queryAll<{ Id: string; Name: string; Title?: string | null }>("SELECT Id, Name, Title FROM User WHERE IsActive = true ORDER BY Name", { maxRows: 2000 });
    const wanted = options.query?.toLowerCase();
    const users = rows.records.filter((u) => !wanted || u.Name.toLowerCase().includes(wanted));
    return { users: users.map((u) => ({ id: u.Id, name: u.Name, title: u.Title ?? undefined })), source: "soql" };
  }
}

function segmentsOf(options: PostOptions, what: string): MessageSegment[] {
  if (options.messageSegments !== undefined) {
    if (!Array.isArray(options.messageSegments) || !options.messageSegments.length) {
      throw new MissingRequiredDataError(`messageSegments must be a non-empty array to post a ${what}`, "messageSegments");
    }
    options.messageSegments.forEach((s, i) => {
      if (!s || typeof s !== "object" || typeof s.type !== "string") throw new TypeError(`messageSegments[${i}] must be an object with a 'type' such as "Text" or "Mention"`);
    });
    return options.messageSegments;
  }
  if (typeof options.messageText !== "string" || !options.messageText.trim()) {
    throw new MissingRequiredDataError(`messageText or messageSegments is required to post a ${what}`, "messageText");
  }
  return [{ type: "Text", text: options.messageText }];
}

function plainTextForSobject(options: PostOptions): string {
  if (options.messageSegments !== undefined) {
    throw new TypeError("createdById works with messageText only: the sObject API that sets CreatedById takes plain text, not message segments");
  }
  if (typeof options.messageText !== "string" || !options.messageText.trim()) throw new MissingRequiredDataError("messageText is required", "messageText");
  return options.messageText;
}

/** What the sObject API answers for a post or comment made as another user (`createdById`). */
export interface SavedAsUser {
  id: string;
  success: boolean;
  errors: unknown[];
}

/**
 * Posts to the feed of a user, group or record (`subjectId`; "me" for one's own). Resolves to the feed element,
 * or with `createdById` to the sObject API's save result.
 */
export async function postFeedItem(crm: Crm, subjectId: string, options: PostOptions & { createdById: string }): Promise<SavedAsUser>;
export async function postFeedItem(crm: Crm, subjectId: string, options: PostOptions & { createdById?: undefined }): Promise<FeedElement>;
export async function postFeedItem(crm: Crm, subjectId: string, options: PostOptions): Promise<FeedElement | SavedAsUser> {
  if (subjectId !== "me") requireRecordId(subjectId, "subjectId");
  if (options?.createdById !== undefined) {
    const text = plainTextForSobject(options);
    const created = await crm.createSobjectRecord("FeedItem", { ParentId: subjectId === "me" ? crm.userId : subjectId, Body: text, Type: "TextPost", CreatedById: requireRecordId(options.createdById, "createdById") });
    return created;
  }
  const segments = segmentsOf(options ?? {}, "feed item");
  const response = await crm.request<FeedElement>("POST", await chatterPath(crm, options.siteId, "/feed-elements"), {
    body: { messageSegments: segments }, feedElementType: "FeedItem", subjectId,
  }, { intent: feedIntent("post", subjectId) });
  return answered(response, "the feed element");
}

/** Comments on a feed element. Resolves to the comment, or with `createdById` to the sObject API's save result. */
export async function postComment(crm: Crm, feedElementId: string, options: PostOptions & { createdById: string }): Promise<SavedAsUser>;
export async function postComment(crm: Crm, feedElementId: string, options: PostOptions & { createdById?: undefined }): Promise<FeedComment>;
export async function postComment(crm: Crm, feedElementId: string, options: PostOptions): Promise<FeedComment | SavedAsUser> {
  requireRecordId(feedElementId, "feedElementId");
  if (options?.createdById !== undefined) {
    const text = plainTextForSobject(options);
    const created = await crm.createSobjectRecord("FeedComment", { FeedItemId: feedElementId, CommentBody: text, CreatedById: requireRecordId(options.createdById, "createdById") });
    return created;
  }
  const segments = segmentsOf(options ?? {}, "feed comment");
  const response = await crm.request<FeedComment>("POST", await chatterPath(crm, options.siteId, `/feed-elements/${feedId(feedElementId, "feedElementId")}/capabilities/comments/items`), {
    body: { messageSegments: segments },
  }, { intent: feedIntent("comment", feedElementId) });
  return answered(response, "the comment");
}

/** A created resource's body: the org answers 201 with it; an empty answer is an error, not an empty object. */
function answered<T>(response: CrmResponse<T>, what: string): T {
  if (response.data === undefined) throw new InvalidResponseError(`${response.method} ${response.path} created ${what} but answered ${response.status} without it`, response.status, response.method, response.path);
  return response.data;
}

/**
 * Beyond the spec: turns `@Name` mentions in plain text into Mention segments, given the people and
 * groups that may be mentioned (longest names first, so "@Ada Lovelace" beats "@Ada").
 */
export function textToSegments(text: string, mentionable: { id: string; name: string }[]): MessageSegment[] {
  const names = [...mentionable].sort((a, b) => b.name.length - a.name.length);
  const segments: MessageSegment[] = [];
  let buffer = "";
  for (let i = 0; i < text.length; ) {
    const hit = text[i] === "@" ? names.find((m) => text.startsWith(m.name, i + 1)) : undefined;
    if (hit) {
      if (buffer) segments.push({ type: "Text", text: buffer });
      buffer = "";
      segments.push({ type: "Mention", id: hit.id });
      i += hit.name.length + 1;
    } else {
      buffer += text[i];
      i++;
    }
  }
  if (buffer) segments.push({ type: "Text", text: buffer });
  return segments;
}

/** The functions this module adds to every client as `crm.feed`. */
const api = { getMyNewsFeed, getUserNewsFeed, getGroupFeed, getComments, getGroups, getUsers, findUsers, postFeedItem, postComment, textToSegments };
plugIn("feed", api);
declare module "./crm" {
  interface Crm {
    /** Chatter: feeds, groups, users, posts and comments. */
    readonly feed: Bound<typeof api>;
  }
}
