/** `crm_get_record`: one record by object and ID. */
import { screen } from "../trust";
import { orgArg } from "./schemas";
import { apiName, recordId, ToolInputError } from "./input";
import { cell, flatten } from "./answers";
import type { AgentOrg, Input, Tool, ToolRun } from "./kit";

async function getRecord(input: Input, org: AgentOrg): Promise<ToolRun> {
  const object = apiName(input, "object");
  const id = recordId(input.id, "id");
  let fields: string[] | undefined;
  if (input.fields !== undefined) {
    if (!Array.isArray(input.fields) || !input.fields.length || input.fields.some((f) => typeof f !== "string" || !/^[A-Za-z][\w.]*$/.test(f))) throw new ToolInputError("fields must be a non-empty list of field API names");
    fields = input.fields as string[];
  }
  const screened = await screen(org, [await org.crm.getSobjectRecord(object, id, fields ? { fields } : {})]);
  const record = flatten(screened.rows[0]!);
  const lines = [`${object} ${id}`];
  for (const [field, value] of Object.entries(record)) if (fields || (value !== null && value !== "")) lines.push(`${field}: ${cell(value)}`);
  return { body: lines.join("\n"), notes: screened.notes };
}

export const tool: Tool = {
  spec: {
    name: "crm_get_record",
    title: "Read a CRM record",
    vscode: { referenceName: "crmRecord", icon: "$(file)", userDescription: "Read one record" },
    effect: "read",
    description: "Reads one record by object and ID: the given fields, or its populated fields when `fields` is left out.",
    inputSchema: {
      type: "object",
      properties: { object: { type: "string", description: "The object's API name." }, id: { type: "string", description: "The record's 15- or 18-character ID." }, fields: { type: "array", items: { type: "string" }, maxItems: 100, description: "Field API names to read." }, org: orgArg },
      required: ["object", "id"],
      additionalProperties: false,
    },
  },
  run: getRecord,
};
