/**
 * The Knowledge view's data for one org: Drafts, Published and Archived article versions, each paged
 * (one page per "Load more", never more), sorted and filtered by title. No VS Code here: tested in Node.
 */
import * as l10n from "@vscode/l10n";
import type { ArticleSortField, SortOrder } from "../client/constants";
import type { OrgSession } from "../connections/orgSession";
import { isTranslationStale } from "../client/versions";
import { Pager, type Page } from "./pager";

export type PublishStatus = "Draft" | "Online" | "Archived";
export const KNOWLEDGE_GROUPS: PublishStatus[] = ["Draft", "Online", "Archived"];

/** A version's publication state as people say it ("Online" is the API's word for Published). */
export function publishStatusLabel(status: PublishStatus): string {
  switch (status) {
    case "Draft": return l10n.t("Draft");
    case "Online": return l10n.t("Published");
    case "Archived": return l10n.t("Archived");
  }
}

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
  /** The article's translations (read with the page on a multilingual org; undefined when not read). */
  translations?: TranslationRow[];
}

/** A translation of an article shown under it: the version row in another language, out of date when the master was published since. */
export interface TranslationRow extends ArticleRow {
  language: string;
  stale: boolean;
}

/** An article version a command acts on, with its org: a Knowledge tree row, or the article an Article Details panel shows. */
export interface ArticleTarget {
  orgKey: string;
  article: ArticleRow;
}

export function isArticleTarget(value: unknown): value is ArticleTarget {
  const t = value as Partial<ArticleTarget> | undefined;
  return typeof t?.orgKey === "string" && typeof t.article === "object" && t.article !== null && typeof t.article.id === "string";
}

export interface KnowledgeSource {
  listArticleVersions(options: { publishStatus: PublishStatus; sort: ArticleSortField; order: SortOrder; pageSize: number; pageNum: number; titleContains?: string; sobject: string }): Promise<{ records: Record<string, unknown>[]; hasMore: boolean }>;
  /** The translations of these articles, or undefined when the org has one knowledge language (nothing to read). */
  translationsOf?(knowledgeArticleIds: string[], sobject: string): Promise<Record<string, unknown>[] | undefined>;
}

/**
 * The session's articles as the view reads them. The org's knowledge languages (whether to read translations)
 * are asked for beside the first page rather than after it: one sequential round trip fewer on a cold session.
 */
export function sessionKnowledgeSource(session: Pick<OrgSession, "crm" | "multilingual">): KnowledgeSource {
  return {
    listArticleVersions: (o) => {
      void session.multilingual();
      return session.crm.knowledge.listArticleVersions(o);
    },
    translationsOf: async (ids, sobject) => ((await session.multilingual()) ? session.crm.knowledge.getTranslations(ids, { sobject }) : undefined),
  };
}

export function toArticleRow(r: Record<string, unknown>): ArticleRow {
  return {
    id: String(r.Id), knowledgeArticleId: String(r.KnowledgeArticleId ?? ""), articleNumber: String(r.ArticleNumber ?? ""), title: String(r.Title ?? ""),
    urlName: String(r.UrlName ?? ""), versionNumber: Number(r.VersionNumber ?? 0), publishStatus: r.PublishStatus as PublishStatus,
    validationStatus: String(r.ValidationStatus ?? ""), lastPublishedDate: (r.LastPublishedDate as string | null) ?? null, lastModifiedDate: (r.LastModifiedDate as string | null) ?? null,
  };
}

export function toTranslationRow(r: Record<string, unknown>, master: ArticleRow): TranslationRow {
  const row = toArticleRow(r);
  return { ...row, language: String(r.Language ?? ""), stale: isTranslationStale({ LastModifiedDate: row.lastModifiedDate ?? undefined }, { LastPublishedDate: master.lastPublishedDate }) };
}

export class KnowledgeModel extends Pager<PublishStatus, ArticleRow, number> {
  sort: ArticleSortField = "LastPublishedDate";
  order: SortOrder = "DESC";
  titleFilter = "";

  constructor(private readonly source: KnowledgeSource, private readonly options: () => { pageSize: number; sobject: string }) {
    super((status) => status);
  }

  protected async fetch(publishStatus: PublishStatus, pageNum = 1): Promise<Page<ArticleRow, number>> {
    const { pageSize, sobject } = this.options();
    const page = await this.source.listArticleVersions({ publishStatus, sort: this.sort, order: this.order, pageSize, pageNum, titleContains: this.titleFilter || undefined, sobject });
    const rows = page.records.map(toArticleRow);
    // One query for the whole page's translations, each placed under its master article.
    const translations = rows.length ? await this.source.translationsOf?.([...new Set(rows.map((r) => r.knowledgeArticleId))], sobject) : undefined;
    if (translations) {
      for (const row of rows) row.translations = translations.filter((t) => t.KnowledgeArticleId === row.knowledgeArticleId).map((t) => toTranslationRow(t, row));
    }
    return { rows, next: page.hasMore ? pageNum + 1 : null };
  }

  /** The groups loaded that show one of these versions (or a version or translation of one of these articles). */
  groupsShowing(ids: string[]): PublishStatus[] {
    const wanted = new Set(ids.map((id) => id.slice(0, 15)));
    return this.holding((row) => [row, ...(row.translations ?? [])].some((r) => wanted.has(r.id.slice(0, 15)) || wanted.has(r.knowledgeArticleId.slice(0, 15))));
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
}
