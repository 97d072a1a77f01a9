/** Chatter through the Connect REST API, under /chatter and /connect/communities/{siteId}/chatter (crm-rest-api.md §5). */
import { type Ctx, type Route, type Reply, json, notFound, bodyObject } from "./context";
import type { WriteHooks } from "./data";
import { ApiError } from "./soql";
import type { Rec } from "./store";

type Segment = Record<string, unknown>;

function connectDate(value: unknown): string {
  return String(value).replace(/\+0000$/, "Z");
}

/** Connect escapes `< > " ' \ &` in strings unless X-Chatter-Entity-Encoding: false. */
function encoder(ctx: Ctx): (s: string) => string {
  if (String(ctx.headers["x-chatter-entity-encoding"]).toLowerCase() === "false") return (s) => s;
  const map: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "\\": "&#92;" };
  return (s) => s.replace(/[&<>"'\\]/g, (c) => map[c]!);
}

function relative(ms: number): string {
  const minutes = Math.max(1, Math.round((Date.now() - ms) / 60_000));
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  return hours < 24 ? `${hours}h ago` : `${Math.round(hours / 24)}d ago`;
}

function base(ctx: Ctx, siteId: string | undefined): string {
  return `/services/data/v${ctx.version}${siteId ? `/connect/communities/${siteId}` : ""}/chatter`;
}

function userSummary(ctx: Ctx, siteId: string | undefined, id: unknown) {
  const u = ctx.store.find(String(id))?.rec;
  if (!u) return null;
  const photo = `${ctx.org.baseUrl()}/profilephoto/005/T`;
  // Every string Connect returns is entity-encoded, names included, not only message bodies.
  const enc = encoder(ctx);
  const text = (v: unknown) => (v === null || v === undefined ? null : enc(String(v)));
  return {
    additionalLabel: null, communityNickname: text(u.CommunityNickname), companyName: "Demo Org", displayName: text(u.Name), firstName: text(u.FirstName),
    id: u.Id, isActive: u.IsActive, isInThisCommunity: true, lastName: text(u.LastName), motif: { color: "1797C0", smallIconUrl: "/img/icon/profile16.png" },
    mySubscription: null, name: text(u.Name), outOfOffice: { message: "" }, photo: { smallPhotoUrl: photo, mediumPhotoUrl: photo, url: `${base(ctx, siteId)}/users/${u.Id}/photo` },
    reputation: null, title: text(u.Title), type: "User", url: `${base(ctx, siteId)}/users/${u.Id}`, userType: "Internal",
  };
}

function bodyOf(ctx: Ctx, siteId: string | undefined, rec: Rec, textField: string) {
  const enc = encoder(ctx);
  const stored = (rec._segments as Segment[] | undefined) ?? [{ type: "Text", text: String(rec[textField] ?? "") }];
  const segments = stored.map((s) => {
    if (s.type === "Mention") {
      const summary = userSummary(ctx, siteId, s.id) ?? { id: s.id, name: s.name };
      return { type: "Mention", text: `@${String(summary.name)}`, name: summary.name, accessible: true, record: summary, user: summary };
    }
    return { ...s, text: enc(String(s.text ?? "")) };
  });
  return { isRichText: false, messageSegments: segments, text: segments.map((s) => s.text).join("") };
}

function parentSummary(ctx: Ctx, siteId: string | undefined, id: unknown) {
  const found = ctx.store.find(String(id));
  if (!found) return null;
  if (found.def.name === "User") return userSummary(ctx, siteId, id);
  const kind = found.def.name === "CollaborationGroup" ? "groups" : "records";
  const name = found.rec.Name ?? found.rec.Subject ?? found.rec.CaseNumber;
  return { id: found.rec.Id, motif: null, mySubscription: null, name: name === undefined || name === null ? null : encoder(ctx)(String(name)), type: found.def.name, url: `${base(ctx, siteId)}/${kind}/${found.rec.Id}` };
}

function comments(ctx: Ctx, itemId: string): Rec[] {
  return ctx.store.liveRecords("FeedComment").filter((c) => c.FeedItemId === itemId).sort((a, b) => String(a.CreatedDate).localeCompare(String(b.CreatedDate)));
}

function commentBody(ctx: Ctx, siteId: string | undefined, c: Rec) {
  const b = base(ctx, siteId);
  return {
    body: bodyOf(ctx, siteId, c, "CommentBody"), capabilities: { edit: { isEditRestricted: false }, upDownVote: null }, clientInfo: null,
    createdDate: connectDate(c.CreatedDate), feedElement: { id: c.FeedItemId, url: `${b}/feed-elements/${c.FeedItemId}` }, id: c.Id,
    isDeleteRestricted: false, likes: { items: [], total: 0 }, likesMessage: null, moderationFlags: null, myLike: null,
    parent: { id: c.FeedItemId, url: `${b}/feed-elements/${c.FeedItemId}` }, relativeCreatedDate: relative(Date.parse(connectDate(c.CreatedDate))),
    threadLevel: 1, threadParentId: null, type: "TextComment", url: `${b}/comments/${c.Id}`, user: userSummary(ctx, siteId, c.CreatedById),
  };
}

/**
 * A Comment Page. `CreatedDateLatestAsc` (the default): the first page holds the latest comments, oldest
 * first within the page, and the next page the ones before them; `CreatedDateOldestAsc` pages from the start.
 */
function commentPage(ctx: Ctx, siteId: string | undefined, itemId: string, pageSize: number, offset: number, sort = "CreatedDateLatestAsc") {
  const all = comments(ctx, itemId);
  const sortParam = sort === "CreatedDateLatestAsc" ? "" : `&sort=${sort}`;
  const url = (o: number) => `${base(ctx, siteId)}/feed-elements/${itemId}/capabilities/comments/items${o ? `?page=${token(o)}&pageSize=${pageSize}${sortParam}` : sortParam ? `?${sortParam.slice(1)}` : ""}`;
  const items = sort === "CreatedDateLatestAsc" ? all.slice(Math.max(0, all.length - offset - pageSize), all.length - offset) : all.slice(offset, offset + pageSize);
  const more = offset + pageSize < all.length;
  return {
    currentPageToken: offset ? token(offset) : null, currentPageUrl: url(offset), items: items.map((c) => commentBody(ctx, siteId, c)),
    nextPageToken: more ? token(offset + pageSize) : null, nextPageUrl: more ? url(offset + pageSize) : null,
    previousPageToken: null, previousPageUrl: null, total: all.length,
  };
}

function feedItemBody(ctx: Ctx, siteId: string | undefined, item: Rec) {
  const b = base(ctx, siteId);
  const actor = userSummary(ctx, siteId, item.CreatedById);
  return {
    actor, body: bodyOf(ctx, siteId, item, "Body"),
    capabilities: {
      comments: { page: commentPage(ctx, siteId, item.Id, 3, 0) },
      chatterLikes: { isLikedByCurrentUser: false, likesMessage: null, myLike: null, page: { items: [], total: Number(item.LikeCount ?? 0) } },
      bookmarks: { isBookmarkedByCurrentUser: false },
      edit: { isEditRestricted: false, latestRevision: 1, lastEditedBy: null, lastEditedDate: null },
      topics: { canAssignTopics: true, items: [] },
    },
    clientInfo: null, createdDate: connectDate(item.CreatedDate), modifiedDate: connectDate(item.LastModifiedDate), event: false,
    feedElementType: "FeedItem", hasVerifiedComment: false,
    header: { isRichText: null, messageSegments: [{ type: "EntityLink", text: actor?.name ?? "", reference: { id: item.CreatedById, url: actor?.url } }], text: actor?.name ?? "" },
    id: item.Id, isDeleteRestricted: false, isSharable: true, originalFeedItem: null, originalFeedItemActor: null,
    parent: parentSummary(ctx, siteId, item.ParentId), photoUrl: actor?.photo.smallPhotoUrl ?? null,
    relativeCreatedDate: relative(Date.parse(connectDate(item.CreatedDate))), type: item.Type ?? "TextPost", url: `${b}/feed-elements/${item.Id}`, visibility: "InternalUsers",
  };
}

function token(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString("base64url");
}

function offsetOf(page: string | null): number {
  if (!page) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(page, "base64url").toString("utf8"));
  if (!match) throw new ApiError(400, "INVALID_ID_FIELD", "Invalid page token.");
  return Number(match[1]);
}

function pageSizeOf(ctx: Ctx, fallback: number): number {
  const size = Number(ctx.query.get("pageSize") ?? fallback);
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new ApiError(400, "INVALID_API_INPUT", "Page size must be between 1 and 100.");
  return size;
}

function resolveUser(ctx: Ctx, id: string): Rec {
  const rec = id === "me" ? ctx.user : ctx.store.find(id)?.rec;
  if (!rec || ctx.store.find(rec.Id)?.def.name !== "User") throw notFound();
  return rec;
}

function feedPage(ctx: Ctx, siteId: string | undefined, kind: string, subject: string, items: Rec[]): Reply {
  const pageSize = pageSizeOf(ctx, 25);
  const offset = offsetOf(ctx.query.get("page"));
  const sorted = items.sort((a, b) => String(b.CreatedDate).localeCompare(String(a.CreatedDate)));
  const url = (o: number) => `${base(ctx, siteId)}/feeds/${kind}/${subject}/feed-elements${o ? `?page=${token(o)}&pageSize=${pageSize}` : ""}`;
  const more = offset + pageSize < sorted.length;
  return json(200, {
    currentPageToken: offset ? token(offset) : null, currentPageUrl: url(offset),
    elements: sorted.slice(offset, offset + pageSize).map((i) => feedItemBody(ctx, siteId, i)), isModifiedToken: null, isModifiedUrl: null,
    nextPageToken: more ? token(offset + pageSize) : null, nextPageUrl: more ? url(offset + pageSize) : null,
    updatesToken: `2:${Date.now()}`, updatesUrl: `${url(0)}?updatedSince=2%3A${Date.now()}`,
  });
}

/** Reads `messageSegments` of a Connect input body; rejects unknown properties as the API does. */
function inputSegments(ctx: Ctx, input: Record<string, unknown>, allowed: string[]): Segment[] {
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key)) throw new ApiError(400, "JSON_PARSER_ERROR", `Unrecognized field "${key}" at [line:1, column:${JSON.stringify(input).indexOf(`"${key}"`) + 1}]`);
  }
  const body = input.body as { messageSegments?: unknown } | undefined;
  const segments = body?.messageSegments;
  if (!Array.isArray(segments) || !segments.length) throw new ApiError(400, "INVALID_API_INPUT", "The body of the feed element must have at least one message segment.");
  let length = 0, mentions = 0;
  const out = segments.map((raw) => {
    const s = raw as Segment;
    const type = String(s.type ?? "").toLowerCase();
    switch (type) {
      case "text":
        length += String(s.text ?? "").length;
        return { type: "Text", text: String(s.text ?? "") };
      case "mention": {
        mentions++;
        const target = ctx.store.find(String(s.id ?? ""));
        if (!target || !["User", "CollaborationGroup"].includes(target.def.name)) throw new ApiError(400, "INVALID_ID_FIELD", `Invalid identifier: ${String(s.id)}`);
        return { type: "Mention", id: target.rec.Id, name: target.rec.Name };
      }
      case "link":
        return { type: "Link", text: String(s.url ?? ""), url: s.url };
      case "hashtag":
        return { type: "Hashtag", text: `#${String(s.tag ?? "")}`, tag: s.tag };
      case "markupbegin": case "markupend":
        return { type: type === "markupbegin" ? "MarkupBegin" : "MarkupEnd", text: "", markupType: s.markupType, htmlTag: String(s.markupType ?? "").toLowerCase() };
      default:
        throw new ApiError(400, "INVALID_API_INPUT", `Unknown message segment type: ${String(s.type)}`);
    }
  });
  if (length > 10_000) throw new ApiError(400, "INVALID_API_INPUT", "The body can't exceed 10,000 characters.");
  if (mentions > 25) throw new ApiError(400, "INVALID_API_INPUT", "You can mention at most 25 people or groups.");
  return out;
}

const plain = (segments: Segment[]) => segments.map((s) => (s.type === "Mention" ? `@${String(s.name)}` : String(s.text ?? ""))).join("");

function visibleInNews(ctx: Ctx, userId: string): Rec[] {
  const groups = new Set(ctx.store.liveRecords("CollaborationGroupMember").filter((m) => m.MemberId === userId).map((m) => m.CollaborationGroupId));
  return ctx.store.liveRecords("FeedItem").filter((i) => i.CreatedById === userId || i.ParentId === userId || groups.has(i.ParentId) || ctx.store.find(String(i.ParentId))?.def.name === "Account");
}

function groupBody(ctx: Ctx, siteId: string | undefined, g: Rec) {
  return {
    id: g.Id, name: encoder(ctx)(String(g.Name)), description: g.Description === undefined || g.Description === null ? null : encoder(ctx)(String(g.Description)), memberCount: g.MemberCount ?? 0, visibility: g.CollaborationType === "Private" ? "PrivateAccess" : "PublicAccess",
    owner: userSummary(ctx, siteId, g.OwnerId), type: "CollaborationGroup", url: `${base(ctx, siteId)}/groups/${g.Id}`, lastFeedElementPostDate: null, isArchived: false,
    myRole: ctx.store.liveRecords("CollaborationGroupMember").some((m) => m.CollaborationGroupId === g.Id && m.MemberId === ctx.user.Id) ? "StandardMember" : "NotAMember",
  };
}

export const chatterHooks: WriteHooks = {
  create: {
    FeedItem: (ctx, values) => {
      if (values.CreatedById !== undefined) checkSystemFields(ctx);
      const item = ctx.store.insert("FeedItem", { ...values, CommentCount: 0 }, String(values.CreatedById ?? ctx.user.Id));
      return item;
    },
    FeedComment: (ctx, values) => {
      if (values.CreatedById !== undefined) checkSystemFields(ctx);
      const item = ctx.store.find(String(values.FeedItemId));
      if (!item || item.def.name !== "FeedItem") throw new ApiError(400, "INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", ["FeedItemId"]);
      item.rec.CommentCount = Number(item.rec.CommentCount ?? 0) + 1;
      return ctx.store.insert("FeedComment", { ...values, ParentId: item.rec.ParentId }, String(values.CreatedById ?? ctx.user.Id));
    },
  },
};

/** Only users with "Insert System Field Values for Chatter Feeds" (admins here) may set CreatedById. */
function checkSystemFields(ctx: Ctx) {
  const profile = ctx.store.find(String(ctx.user.ProfileId))?.rec;
  if (profile?.Name !== "System Administrator") {
    throw new ApiError(400, "INVALID_FIELD_FOR_INSERT_UPDATE", "Unable to create fields: CreatedById. You need the Insert System Field Values for Chatter Feeds permission.", ["CreatedById"]);
  }
}

/** The same routes answer under /chatter and /connect/communities/{siteId}/chatter. */
export function chatterRoutes(): Route[] {
  const P = "^(?:/connect/communities/([^/]+))?/chatter";
  const site = (ctx: Ctx, siteId: string | undefined) => {
    if (siteId && siteId.slice(0, 15) !== ctx.org.seeded.siteId.slice(0, 15)) throw notFound();
    return siteId;
  };
  const r = (method: string, suffix: string, handler: (ctx: Ctx, siteId: string | undefined, params: string[]) => Reply): Route => ({
    method, pattern: new RegExp(`${P}${suffix}/?$`), handler: (ctx, [siteId, ...rest]) => handler(ctx, site(ctx, siteId), rest as string[]),
  });
  return [
    r("GET", "/feeds/news/([^/]+)/feed-elements", (ctx, s, [who]) => {
      const user = resolveUser(ctx, who!);
      if (user.Id !== ctx.user.Id) throw new ApiError(403, "INSUFFICIENT_ACCESS", "You can read only your own news feed.");
      return feedPage(ctx, s, "news", user.Id, visibleInNews(ctx, user.Id));
    }),
    r("GET", "/feeds/user-profile/([^/]+)/feed-elements", (ctx, s, [who]) => {
      const user = resolveUser(ctx, who!);
      return feedPage(ctx, s, "user-profile", user.Id, ctx.store.liveRecords("FeedItem").filter((i) => i.ParentId === user.Id || i.CreatedById === user.Id));
    }),
    r("GET", "/feeds/record/([^/]+)/feed-elements", (ctx, s, [id]) => {
      const found = id === "me" ? { rec: ctx.user } : ctx.store.find(id!);
      if (!found) throw notFound();
      return feedPage(ctx, s, "record", found.rec.Id, ctx.store.liveRecords("FeedItem").filter((i) => i.ParentId === found.rec.Id));
    }),
    r("POST", "/feed-elements", (ctx, s) => {
      const input = ctx.body && typeof ctx.body === "object" ? bodyObject(ctx) : {};
      const subjectId = String(input.subjectId ?? ctx.query.get("subjectId") ?? "");
      const type = String(input.feedElementType ?? ctx.query.get("feedElementType") ?? "");
      if (type !== "FeedItem") throw new ApiError(400, "INVALID_API_INPUT", "feedElementType must be FeedItem.");
      const segments = inputSegments(ctx, input, ["body", "feedElementType", "subjectId", "visibility", "capabilities"]);
      const parent = subjectId === "me" ? ctx.user : ctx.store.find(subjectId)?.rec;
      if (!parent) throw new ApiError(404, "NOT_FOUND", "The requested resource does not exist");
      const item = ctx.store.insert("FeedItem", { ParentId: parent.Id, Body: plain(segments), Type: "TextPost", CommentCount: 0 }, ctx.user.Id);
      item._segments = segments;
      return json(201, feedItemBody(ctx, s, item));
    }),
    r("GET", "/feed-elements/([^/]+)", (ctx, s, [id]) => {
      const item = ctx.store.find(id!);
      if (!item || item.def.name !== "FeedItem") throw notFound();
      return json(200, feedItemBody(ctx, s, item.rec));
    }),
    r("GET", "/feed-elements/([^/]+)/capabilities/comments/items", (ctx, s, [id]) => {
      const item = ctx.store.find(id!);
      if (!item || item.def.name !== "FeedItem") throw notFound();
      const sort = ctx.query.get("sort") ?? "CreatedDateLatestAsc";
      if (!["CreatedDateLatestAsc", "CreatedDateOldestAsc", "Relevance"].includes(sort)) throw new ApiError(400, "INVALID_API_INPUT", `Invalid value for sort: ${sort}`);
      return json(200, commentPage(ctx, s, item.rec.Id, pageSizeOf(ctx, 3), offsetOf(ctx.query.get("page")), sort === "Relevance" ? "CreatedDateLatestAsc" : sort));
    }),
    r("POST", "/feed-elements/([^/]+)/capabilities/comments/items", (ctx, s, [id]) => {
      const item = ctx.store.find(id!);
      if (!item || item.def.name !== "FeedItem") throw notFound();
      const segments = inputSegments(ctx, bodyObject(ctx), ["body", "threadParentId", "capabilities"]);
      const comment = ctx.store.insert("FeedComment", { FeedItemId: item.rec.Id, ParentId: item.rec.ParentId, CommentBody: plain(segments) }, ctx.user.Id);
      comment._segments = segments;
      item.rec.CommentCount = Number(item.rec.CommentCount ?? 0) + 1;
      return json(201, commentBody(ctx, s, comment));
    }),
    r("GET", "/users/([^/]+)", (ctx, s, [who]) => json(200, userSummary(ctx, s, resolveUser(ctx, who!).Id))),
    r("GET", "/users", (ctx, s) => {
      const q = ctx.query.get("q")?.toLowerCase();
      const users = ctx.store.liveRecords("User").filter((u) => !q || `${u.Name} ${u.Username}`.toLowerCase().includes(q));
      return json(200, { currentPageUrl: `${base(ctx, s)}/users`, nextPageUrl: null, previousPageUrl: null, users: users.map((u) => userSummary(ctx, s, u.Id)) });
    }),
    r("GET", "/groups", (ctx, s) => {
      const q = ctx.query.get("q")?.toLowerCase();
      const groups = ctx.store.liveRecords("CollaborationGroup").filter((g) => !q || String(g.Name).toLowerCase().includes(q));
      return json(200, { currentPageUrl: `${base(ctx, s)}/groups`, groups: groups.map((g) => groupBody(ctx, s, g)), nextPageUrl: null, previousPageUrl: null });
    }),
    r("GET", "/groups/([^/]+)", (ctx, s, [id]) => {
      const g = ctx.store.find(id!);
      if (!g || g.def.name !== "CollaborationGroup") throw notFound();
      return json(200, groupBody(ctx, s, g.rec));
    }),
  ];
}
