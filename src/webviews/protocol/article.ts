/** The Article Details panel's messages (see common.ts). */
import * as z from "zod/mini";
import { commonUpdates, parserOf, recordId } from "./common";

const articleDetailsView = z.object({
  id: z.string(),
  knowledgeArticleId: z.string(),
  title: z.string(),
  articleNumber: z.string(),
  versionNumber: z.number(),
  publishStatus: z.string(),
  validationStatus: z.string(),
  language: z.string(),
  urlName: z.string(),
  summary: z.string(),
  viewScore: z.nullable(z.number()),
  dates: z.array(z.object({ label: z.string(), value: z.string() })),
  dataCategories: z.array(z.object({ group: z.string(), category: z.string() })),
  /** Rich-text fields as the CRM stores them (images as data: URIs); untrusted: the webview sanitizes. */
  richText: z.array(z.object({ field: z.string(), label: z.string(), html: z.string() })),
  versions: z.array(z.object({ id: z.string(), versionNumber: z.number(), publishStatus: z.string(), title: z.string() })),
  /** The master language and each translation (empty on an org with one knowledge language). */
  languages: z.array(z.object({ id: z.string(), label: z.string(), publishStatus: z.string(), versionNumber: z.number(), stale: z.boolean(), master: z.boolean() })),
  fetchedAt: z.string(),
});
export type ArticleDetailsView = z.infer<typeof articleDetailsView>;

export const ARTICLE_ACTIONS = ["edit", "publish", "archive", "createDraft", "openInBrowser", "translate", "compare"] as const;
export type ArticleAction = (typeof ARTICLE_ACTIONS)[number];

const hostToArticle = z.discriminatedUnion("type", [...commonUpdates, z.object({ type: z.literal("article"), article: articleDetailsView })]);
export type HostToArticle = z.infer<typeof hostToArticle>;

const articleToHost = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("refresh") }),
  z.object({ type: z.literal("action"), action: z.enum(ARTICLE_ACTIONS) }),
  z.object({ type: z.literal("openVersion"), id: recordId }),
]);
export type ArticleToHost = z.infer<typeof articleToHost>;

export const parseArticleUpdate = parserOf(hostToArticle);
export const parseArticleRequest = parserOf(articleToHost);
