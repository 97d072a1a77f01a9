/** What the Article Details panel shows, read through the client; rich-text images become data: URIs here. */
import * as l10n from "@vscode/l10n";
import { isTranslationStale } from "../client/versions";
import { richTextImageUrls } from "../client/urls";
import type { OrgSession } from "../connections/orgSession";
import { isRichText } from "../connections/schema";
import { languageLabel } from "../shared/languages";
import type { ArticleDetailsView } from "./protocol/article";


/** The dates the panel shows, with their labels (read when the panel is, so in the display language). */
const dateFields = () => [["ArticleCreatedDate", l10n.t("Created")], ["LastModifiedDate", l10n.t("Last modified")], ["FirstPublishedDate", l10n.t("First published")],
  ["LastPublishedDate", l10n.t("Last published")], ["ArchivedDate", l10n.t("Archived")]] as const;

/**
 * The org's images in rich-text HTML fetched through the client and inlined as data: URIs, so the token
 * never reaches a webview. An image that cannot be fetched stays an rtaImage URL, which the panels' CSP
 * refuses: it shows as broken, nothing leaks.
 */
export async function inlineImages(crm: OrgSession["crm"], html: string, recordId: string, field: string, sobject: string): Promise<string> {
  // All of a body's images at once: each is a round trip of its own.
  const images = await Promise.all(richTextImageUrls(html).map(async (url) => ({ url, image: await crm.fetchRichTextImage(url, recordId, field, { sobject }).catch(() => undefined) })));
  for (const { url, image } of images) {
    if (image?.contentType.startsWith("image/") && image.contentType !== "image/svg+xml") html = html.split(url).join(`data:${image.contentType};base64,${image.bytes.toString("base64")}`);
  }
  return html;
}

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

export async function readArticleDetails(session: OrgSession, articleId: string, sobject: string): Promise<ArticleDetailsView> {
  const { crm } = session;
  // Whether to read translations is asked beside the record, so the translations go with the versions.
  const multilingual = session.multilingual();
  const [details, describe, categories] = await Promise.all([
    crm.knowledge.getArticleDetails(articleId, { sobject }),
    session.schema.describe(sobject),
    crm.knowledge.getDataCategorySelections(articleId, { sobject }),
  ]);
  const knowledgeArticleId = text(details.KnowledgeArticleId);
  // The images need only the body: they are read while the versions and translations are.
  const richTextRead = Promise.all(
    describe.fields
      .filter((f) => isRichText(f) && typeof details[f.name] === "string" && details[f.name])
      .map(async (f) => ({ field: f.name, label: f.label, html: await inlineImages(crm, details[f.name] as string, articleId, f.name, sobject) })),
  );
  const [versions, translations] = knowledgeArticleId
    ? await Promise.all([
      crm.knowledge.getVersionsOfArticle(knowledgeArticleId, { sobject }),
      multilingual.then((many) => (many ? crm.knowledge.getTranslations(knowledgeArticleId, { sobject }) : [])),
    ])
    : [[], []];
  const online = versions.find((v) => v.PublishStatus === "Online");
  // The master in its language (the version shown, or the article's published one), then each translation's latest version.
  const master = details.IsMasterLanguage === false ? online ?? versions[0] : details;
  const latest = translations.filter((t) => t.PublishStatus !== "Archived" || !translations.some((o) => o.Language === t.Language && o.PublishStatus !== "Archived"));
  const languages = translations.length && master
    ? [master, ...latest].map((v) => ({
      id: text(v.Id), label: languageLabel(text(v.Language)), publishStatus: text(v.PublishStatus), versionNumber: Number(v.VersionNumber ?? 0),
      stale: v !== master && isTranslationStale(v as { LastModifiedDate?: string }, online), master: v === master,
    }))
    : [];
  const richText = await richTextRead;
  const score = Number(details.ViewScore__c ?? details.ArticleTotalViewCount);
  return {
    id: text(details.Id),
    knowledgeArticleId: text(details.KnowledgeArticleId),
    title: text(details.Title),
    articleNumber: text(details.ArticleNumber),
    versionNumber: Number(details.VersionNumber ?? 0),
    publishStatus: text(details.PublishStatus),
    validationStatus: text(details.ValidationStatus),
    language: text(details.Language),
    urlName: text(details.UrlName),
    summary: text(details.Summary),
    viewScore: Number.isFinite(score) ? score : null,
    dates: dateFields().filter(([name]) => details[name]).map(([name, label]) => ({ label, value: text(details[name]) })),
    dataCategories: categories,
    richText,
    versions: versions.map((v) => ({ id: text(v.Id), versionNumber: Number(v.VersionNumber ?? 0), publishStatus: text(v.PublishStatus), title: text(v.Title) })),
    languages,
    fetchedAt: new Date().toISOString(),
  };
}
