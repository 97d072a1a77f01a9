/**
 * CRM client library: the core entry (`crm-explorer/client`) — sign-in, transport, REST, queries, and the
 * knowledge, feed, Collections and Composite groups. Bulk API 2.0 (`crm-explorer/client/bulk`) is an entry of
 * its own: importing it adds `crm.bulk` to every client. The workflows over the client (migration, the knowledge
 * folder) live in src/workflows, functions that take their clients. YAML is read by a module loaded on first use.
 */
export { Crm, orgKindOf, productionLike, productionLikeWords, type OrgKind, type CrmOptions, type HelperCallOptions, type QueryResult, type QueryAllResult, type QueryOptions, type RecordAccess, type UserInfo, type CrmEvents } from "./crm";
export * as knowledge from "./knowledge";
export * as feed from "./feed";
export * as collections from "./collections";
export * as composite from "./composite";
export type { CompositeSubrequest, CompositeResult, BatchSubrequest } from "./composite";
export type { SaveResult, SaveError, CollectionOptions, RecordUpdate } from "./collections";
export * as api from "./api";
export { compileConnectionInfo, defineConnectionInfo, readHelperFile, strategyFromConnection, type ConnectionInfo, type HelperConnection, type HelperContent } from "./connection-info";
export {
  PasswordAuth, RefreshTokenAuth, ClientCredentialsAuth, JwtBearerAuth, AccessTokenAuth, KeptSessionAuth, type KeptSession, createPkcePair, createOAuthState, buildAuthorizationUrl,
  exchangeAuthorizationCode, sessionFromTokenResponse, requestDeviceCode, pollDeviceToken, type DeviceCode, type AuthSession, type AuthStrategy, type TokenPoster, type PkcePair,
} from "./auth";
export { CrmError, MissingRequiredDataError, DataMismatchError, InvalidURLError, InvalidFieldError, APIRequestError, AuthenticationError, NetworkError, InvalidResponseError, CancelledError, BulkJobError, IngestCountError, type ApiErrorEntry } from "./errors";
export { get18CharId, isRecordId, sameRecordId } from "./ids";
export { PlugInNotLoadedError } from "./plugins";
export { deprecated, type DeprecationOptions } from "./deprecated";
export { soqlLiteral, escapeSoslTerm } from "./soql-text";
export { DEFAULT_TIMEOUT_MS, DEFAULT_KNOWLEDGE_SOBJECT, COLLECTION_LIMIT, ARTICLE_SORT_FIELDS, type ArticleSortField, type SortOrder } from "./constants";
export { intentOf, type WriteIntent, type WriteKind, type WriteArea, type WriteVia } from "./intent";
export { createTokenPoster, type PendingWrite, type CompletedWrite, type CrmResponse, type ApiUsage, type Logger, type RetryOptions, type RequestInfo, type HttpMethod } from "./transport";
export { withWriteContext, type WriteContext, type WriteAuthor, type WriteGroup } from "./writeRecord";
export { checkOrgUrl, isLoopbackHost, richTextImageUrls } from "./urls";
export { decodeEntities } from "./entities";
export type { DescribeGlobal, GlobalSObject, SObjectDescribe, FieldDescribe, ChildRelationship, PicklistValue, RecordTypeInfo } from "./describe";
export type {
  ConnectUser, MessageBody, FeedComment, CommentPage, FeedElement, FeedElementPage, ChatterGroup, GroupPage, UserPage,
  KnowledgeArticleVersion, KnowledgeArticle, KnowledgeMasterVersion, PublishStatus, QueryPlan, QueryExplain, TranslationVersion, KnowledgeSettings, CreateResult,
} from "./shapes";
export { isTranslationStale, masterAsTranslated, type PreflightReport, type PreflightProblem, type VersionComparison, type ComparedField } from "./versions";
export type { SavedAsUser } from "./feed";
