/** `crm_get_article`: one knowledge article as Markdown, sanitized, with its status and version. */
import { isRichText } from "../../client/describe";
import { soqlLiteral } from "../../client/soql-text";
import { richTextAsMarkdown } from "../articleText";
import { inert } from "../inert";
import { quoted } from "../quoted";
import { AUTHOR_KEY, screen, Withheld } from "../trust";
import { languageArg, orgArg } from "./schemas";
import { articleLanguage, recordId, text, ToolInputError } from "./input";
import { bounded, cell, roomFor } from "./answers";
import { ARTICLE_FIELDS, type AgentHost, type AgentOrg, type Input, type Tool, type ToolRun } from "./kit";

async function getArticle(input: Input, org: AgentOrg, host: AgentHost): Promise<ToolRun> {
  const given = ["id", "articleNumber", "urlName"].filter((k) => input[k] !== undefined);
  if (given.length !== 1) throw new ToolInputError("give exactly one of id, articleNumber or urlName");
  const sobject = org.knowledgeSobject;
  const d = await org.schema.describe(sobject);
  const shown = d.fields.filter((f) => ARTICLE_FIELDS.includes(f.name) || ["PublishStatus", "VersionNumber", "Language", "LastPublishedDate", "LastModifiedDate"].includes(f.name) || (f.custom && ["string", "textarea", "picklist", "multipicklist", "url", "email", "boolean", "date", "datetime"].includes(f.type)));
  const select = `SELECT ${shown.map((f) => f.name).join(", ")} FROM ${sobject}`;
  // A version ID names that version exactly (any status, any language): one query reads it.
  const asVersion = input.id === undefined ? [] : (await org.crm.soqlQuery(`${select} WHERE Id = ${soqlLiteral(recordId(input.id, "id"))}`)).records;
  let version = asVersion[0];
  let language: string | undefined;
  if (!version) {
    const where = input.id !== undefined ? `KnowledgeArticleId = ${soqlLiteral(String(input.id))}`
      : input.articleNumber !== undefined ? `ArticleNumber = ${soqlLiteral(text(input, "articleNumber"))}`
        : `UrlName = ${soqlLiteral(text(input, "urlName"))}`;
    language = await articleLanguage(input, org);
    // 'Online' sorts after 'Draft': descending, the published version comes first.
    version = (await org.crm.soqlQuery(`${select} WHERE ${where} AND Language = ${soqlLiteral(language)} AND PublishStatus IN ('Online', 'Draft') ORDER BY PublishStatus DESC, VersionNumber DESC LIMIT 2`)).records[0];
  }
  if (!version) return `No article${language ? ` in ${language}` : ""} matches ${given[0]} ${quoted(input[given[0]!])} (published or draft).`;
  const screened = await screen(org, [version]);
  version = screened.rows[0]!;
  const lines = [`# ${cell(version.Title)}`, `ID ${String(version.Id)} · article ${cell(version.ArticleNumber)} · ${cell(version.PublishStatus)} · version ${cell(version.VersionNumber)} · ${cell(version.Language)} · URL name ${cell(version.UrlName)}`];
  for (const f of shown) {
    if (["Id", "Title", "ArticleNumber", "PublishStatus", "VersionNumber", "Language", "UrlName", "KnowledgeArticleId"].includes(f.name)) continue;
    const value = version[f.name];
    if (value === null || value === undefined || value === "") continue;
    lines.push("", `## ${inert(f.label)} (${f.name})`, value instanceof Withheld ? value.toString() : isRichText(f) ? richTextAsMarkdown(String(value)) : inert(value));
  }
  if (version[AUTHOR_KEY]) lines.splice(2, 0, `Written by: ${cell(version[AUTHOR_KEY])}`);
  return { body: bounded(lines.join("\n"), roomFor(host)), notes: screened.notes };
}

export const tool: Tool = {
  spec: {
    name: "crm_get_article",
    title: "Read a knowledge article",
    vscode: { referenceName: "crmArticle", icon: "$(book)", userDescription: "Read a knowledge article as Markdown" },
    effect: "read",
    description: "Reads one knowledge article's fields (title, summary, body …) as Markdown, sanitized, naming its status and version. Give exactly one of `id` (version or article ID), `articleNumber` or `urlName`. The published version when there is one, else the latest draft.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "A version ID (ka…) or knowledge article ID (kA…)." },
        articleNumber: { type: "string", description: "The article number (000001001)." },
        urlName: { type: "string", description: "The article's URL name." },
        language: languageArg,
        org: orgArg,
      },
      additionalProperties: false,
    },
  },
  run: getArticle,
};
