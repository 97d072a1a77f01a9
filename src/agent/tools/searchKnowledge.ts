/** `crm_search_knowledge`: full-text search of published articles in one language. */
import { escapeSoslTerm, soqlLiteral } from "../../client/soql-text";
import { richTextAsMarkdown } from "../articleText";
import { screen } from "../trust";
import { languageArg, orgArg } from "./schemas";
import { articleLanguage, text, whole, ToolInputError } from "./input";
import { bounded, cell, roomFor } from "./answers";
import { ARTICLE_FIELDS, type AgentHost, type AgentOrg, type Input, type Tool, type ToolRun } from "./kit";

async function searchKnowledge(input: Input, org: AgentOrg, host: AgentHost): Promise<ToolRun> {
  const words = text(input, "text");
  if (words.replace(/[*?\s]/g, "").length < 2) throw new ToolInputError("text must hold at least two letters or digits to search for");
  const language = await articleLanguage(input, org);
  const limit = whole(input, "limit", 10, 50);
  const sobject = org.knowledgeSobject;
  const sosl = `FIND {${escapeSoslTerm(words)}} IN ALL FIELDS RETURNING ${sobject}(${ARTICLE_FIELDS.join(", ")} WHERE PublishStatus = 'Online' AND Language = ${soqlLiteral(language)} LIMIT ${limit}) WITH SNIPPET (target_length=160)`;
  const found = await screen(org, (await org.crm.search(sosl)).searchRecords);
  const searchRecords = found.rows;
  if (!searchRecords.length) return `No published ${language} article matches "${words}". Try other words, or another language.`;
  const base = await org.crm.apiPath().then(() => org.crm.baseUrl ?? "");
  const lines = [`${searchRecords.length} published article${searchRecords.length === 1 ? "" : "s"} in ${language} match "${words}":`];
  for (const r of searchRecords) {
    const snippet = typeof r["snippet.text"] === "string" ? plainSnippet(r["snippet.text"]) : cell(r.Summary);
    lines.push([
      `- ${cell(r.Title)}`,
      `  ID ${String(r.Id)} · article ${cell(r.ArticleNumber)} · URL name ${cell(r.UrlName)}`,
      ...(snippet ? [`  ${snippet}`] : []),
      `  ${base}/lightning/r/${sobject}/${String(r.Id)}/view`,
    ].join("\n"));
  }
  return { body: bounded(lines.join("\n"), roomFor(host)), notes: found.notes };
}

/** A search snippet as one line, its <mark> highlights as Markdown bold and any other markup dropped. */
function plainSnippet(html: string): string {
  return cell(richTextAsMarkdown(html.replace(/<mark>/gi, "<b>").replace(/<\/mark>/gi, "</b>")));
}

export const tool: Tool = {
  spec: {
    name: "crm_search_knowledge",
    title: "Search knowledge articles",
    vscode: { referenceName: "crmKnowledge", icon: "$(book)", userDescription: "Search published knowledge articles" },
    effect: "read",
    description: "Full-text search of published knowledge articles in one language. Each hit has its version ID, article number, title, URL name, a snippet of the matching text and a link to the article. Use to find the article that answers a question or a case.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "Words to search for." }, language: languageArg, limit: { type: "integer", minimum: 1, maximum: 50, description: "Most articles to return (default 10)." }, org: orgArg },
      required: ["text"],
      additionalProperties: false,
    },
  },
  run: searchKnowledge,
};
