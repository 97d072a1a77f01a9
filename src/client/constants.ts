/** Default request timeout: 30 seconds, overridable per client and per call. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The knowledge article version sObject used when none is given. */
export const DEFAULT_KNOWLEDGE_SOBJECT = "Knowledge__kav";
/** Default page size of `getArticlesList`. */
export const DEFAULT_ARTICLE_PAGE_SIZE = 20;
/** The only sort keys the knowledge articles list accepts. */
export const ARTICLE_SORT_FIELDS = ["LastPublishedDate", "CreatedDate", "Title", "ViewScore"] as const;
export type ArticleSortField = (typeof ARTICLE_SORT_FIELDS)[number];
export type SortOrder = "ASC" | "DESC";
/** The most records one sObject Collections request takes (documented limit). */
export const COLLECTION_LIMIT = 200;
