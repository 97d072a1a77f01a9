/**
 * The shapes of Connect REST API (Chatter) and knowledge results the client returns. The fields named are the
 * documented ones the client and its callers read; every other field the org sends is kept, typed `unknown`.
 * Connect strings arrive HTML-entity-encoded (`&#39;`, `&amp;`): decode them for display (`decodeEntities`).
 */

/** Connect: a user or other actor as a feed shows it (User Summary). */
export interface ConnectUser {
  id: string;
  name: string;
  displayName?: string;
  title?: string | null;
  username?: string;
  [field: string]: unknown;
}

/** Connect: a message body (Feed Body / Comment Body): plain text and its segments. */
export interface MessageBody {
  text: string | null;
  isRichText?: boolean;
  messageSegments?: ({ type: string } & Record<string, unknown>)[];
  [field: string]: unknown;
}

/** Connect: one comment (Comment). */
export interface FeedComment {
  id: string;
  createdDate: string;
  user: ConnectUser;
  body: MessageBody;
  feedElement?: { id: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** Connect: a page of comments (Comment Page): `nextPageUrl` continues to older comments. */
export interface CommentPage {
  items: FeedComment[];
  total: number;
  currentPageUrl: string | null;
  nextPageUrl: string | null;
  nextPageToken?: string | null;
  [field: string]: unknown;
}

/** Connect: one feed element (Feed Item). */
export interface FeedElement {
  id: string;
  feedElementType?: string;
  createdDate: string;
  actor: ConnectUser;
  body: MessageBody;
  /** The record, user or group whose feed it is on. */
  parent: { id: string; name?: string; [field: string]: unknown };
  capabilities?: { comments?: { page: CommentPage; [field: string]: unknown }; [capability: string]: unknown };
  [field: string]: unknown;
}

/** Connect: a page of a feed (Feed Element Page). */
export interface FeedElementPage {
  elements: FeedElement[];
  currentPageUrl: string | null;
  nextPageUrl: string | null;
  nextPageToken?: string | null;
  updatesUrl?: string | null;
  [field: string]: unknown;
}

/** Connect: a Chatter group (Group). */
export interface ChatterGroup {
  id: string;
  name: string;
  memberCount: number;
  visibility?: string;
  [field: string]: unknown;
}

/** Connect: a page of groups (Group Page). */
export interface GroupPage {
  groups: ChatterGroup[];
  currentPageUrl?: string | null;
  nextPageUrl: string | null;
  total?: number;
  [field: string]: unknown;
}

/** Connect: a page of users (User Page). */
export interface UserPage {
  users: ConnectUser[];
  currentPageUrl?: string | null;
  nextPageUrl: string | null;
  total?: number;
  [field: string]: unknown;
}

export type PublishStatus = "Draft" | "Online" | "Archived";

/** A knowledge article version record (`Knowledge__kav` or another article type), as the sObject API and SOQL return it. */
export interface KnowledgeArticleVersion {
  Id: string;
  KnowledgeArticleId: string;
  ArticleNumber: string;
  Title: string;
  UrlName: string;
  VersionNumber: number;
  PublishStatus: PublishStatus;
  ValidationStatus?: string;
  Language?: string;
  Summary?: string | null;
  LastPublishedDate?: string | null;
  LastModifiedDate?: string;
  /** Custom fields (the rich-text body, …). */
  [field: string]: unknown;
}

/** A translation: a version row of an article in another language than its master language. */
export interface TranslationVersion extends KnowledgeArticleVersion {
  Language: string;
  /** The master version it was translated from (when submitted for translation). */
  MasterVersionId?: string | null;
  AssignedToId?: string | null;
}

/** The org's knowledge languages (`/knowledgeManagement/settings`): the master language and those articles can be translated into. */
export interface KnowledgeSettings {
  defaultLanguage: string;
  knowledgeEnabled: boolean;
  languages: { name: string; active: boolean }[];
}

/** An article's facts from Knowledge Management (`/knowledgeManagement/articles/{id}`): which versions exist. */
export interface KnowledgeArticle {
  articleId: string;
  articleNumber: string;
  articleType?: string;
  masterLanguage?: string;
  onlineArticleMasterVersionId: string | null;
  draftArticleMasterVersionId: string | null;
  archivedArticleMasterVersionId: string | null;
  [field: string]: unknown;
}

/** A master version from Knowledge Management (`/knowledgeManagement/articleVersions/masterVersions/{id}`). */
export interface KnowledgeMasterVersion {
  articleId: string;
  articleVersionId: string;
  articleNumber: string;
  publishStatus: string;
  versionNumber: number;
  language?: string;
  [field: string]: unknown;
}

/** One way the org could run a query (the query resource's `explain`). */
export interface QueryPlan {
  /** Rows the plan expects to return. */
  cardinality: number;
  /** The indexed fields an Index plan uses. */
  fields: string[];
  leadingOperationType: "Index" | "Other" | "Sharing" | "TableScan" | (string & {});
  /** Why filters were or were not used (unindexed, negative, …). */
  notes?: { description: string; fields: string[]; tableEnumOrId: string }[];
  /** Below 1: selective enough; above 1: the query is not selective. */
  relativeCost: number;
  /** Rows of the object in all. */
  sobjectCardinality: number;
  sobjectType: string;
}

/** The plans of a query, the one the org uses first. */
export interface QueryExplain {
  plans: QueryPlan[];
}

/** What the REST sObject resource answers to a create (a record of one; Collections answer a SaveResult per record). */
export interface CreateResult {
  id: string;
  success: boolean;
  errors: unknown[];
}
