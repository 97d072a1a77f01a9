/** `crm_draft_article`: a new knowledge article as a draft, or an article edited as a draft; never published. */
import { soqlLiteral } from "../../client/soql-text";
import { quoted } from "../quoted";
import { checkOutward } from "../trust";
import { fieldValuesArg, orgArg } from "./schemas";
import { checkFields, fieldValues, recordId, text, ToolInputError } from "./input";
import { cell } from "./answers";
import type { AgentOrg, Input, Tool } from "./kit";

async function draftArticle(input: Input, org: AgentOrg): Promise<string> {
  const sobject = org.knowledgeSobject;
  const d = await org.schema.describe(sobject);
  const fields = fieldValues(input.fields, "fields");
  for (const name of ["title", "urlName"] as const) if (input[name] !== undefined) fields[name === "title" ? "Title" : "UrlName"] = text(input, name);
  if (typeof fields.UrlName === "string" && !/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/.test(fields.UrlName)) throw new ToolInputError(`urlName must be letters and digits joined by single hyphens, got ${quoted(fields.UrlName)}`);
  const knowledge = org.crm.knowledge;
  if (input.id === undefined) {
    if (!fields.Title || !fields.UrlName) throw new ToolInputError("a new article needs title and urlName (give id to edit an existing article as a draft)");
    const values = checkFields(d, fields, "create", "fields");
    checkOutward(org, sobject, values, "fields");
    const id = await knowledge.createArticle(values, { sobject });
    return `Created a draft article (not published): ${id} "${String(values.Title)}". A person publishes it.\n${await articleLink(org, id)}`;
  }
  const given = recordId(input.id, "id");
  if (!Object.keys(fields).length) throw new ToolInputError("an edit needs title, urlName or fields to change");
  const values = checkFields(d, fields, "update", "fields");
  checkOutward(org, sobject, values, "fields");
  const { records } = await org.crm.soqlQuery(`SELECT Id, KnowledgeArticleId, PublishStatus, Title FROM ${sobject} WHERE (Id = ${soqlLiteral(given)} OR KnowledgeArticleId = ${soqlLiteral(given)}) AND PublishStatus IN ('Online', 'Draft') ORDER BY PublishStatus ASC LIMIT 2`);
  // 'Draft' sorts first: an article with a draft is edited there; a published one gets a new draft.
  const version = records[0];
  if (!version) throw new ToolInputError(`id ${given} names no published or draft article`);
  let draftId = String(version.Id);
  let made = "";
  if (version.PublishStatus !== "Draft") {
    draftId = await knowledge.createDraftFromMasterVersion({ knowledgeArticleId: String(version.KnowledgeArticleId), sobject });
    made = " (a new draft version; the published version stays online)";
  }
  await knowledge.updateArticle(draftId, values, { sobject });
  return `Updated the draft ${draftId} of "${cell(version.Title)}"${made}: ${Object.keys(values).join(", ")}. Not published: a person publishes it.\n${await articleLink(org, draftId)}`;
}

async function articleLink(org: AgentOrg, versionId: string): Promise<string> {
  return org.crm.knowledge.getArticleUrl({ articleId: versionId, sobject: org.knowledgeSobject, style: "lightning" });
}

export const tool: Tool = {
  spec: {
    name: "crm_draft_article",
    title: "Draft a knowledge article",
    vscode: { referenceName: "crmDraftArticle", icon: "$(edit)", userDescription: "Create or edit a knowledge article as a draft (never published)" },
    effect: "stage",
    description: "Creates a new knowledge article as a draft (`title`, `urlName`, other `fields`), or with `id` edits an article as a draft (a published article gets a new draft version; the published one stays online). Never publishes: publishing stays a person's action. In VS Code a person confirms it first.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "An existing article's version or article ID, to edit it as a draft." },
        title: { type: "string" },
        urlName: { type: "string", description: "Letters, digits and hyphens; unique among articles." },
        fields: fieldValuesArg,
        org: orgArg,
      },
      additionalProperties: false,
    },
  },
  run: draftArticle,
};
