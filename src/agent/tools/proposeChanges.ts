/** `crm_propose_changes`: record changes checked and staged by the host for a person (nothing is sent). */
import { quoted } from "../quoted";
import { checkOutward } from "../trust";
import { fieldValuesArg, orgArg } from "./schemas";
import { apiName, asInput, checkFields, describeOrExplain, fieldValues, recordId, ToolInputError } from "./input";
import type { AgentOrg, Input, ProposedChange, Tool } from "./kit";

async function checkedChanges(input: Input, org: AgentOrg): Promise<ProposedChange[]> {
  const changes = input.changes;
  if (!Array.isArray(changes) || !changes.length) throw new ToolInputError("changes must be a non-empty array of { operation, object, id?, fields? }");
  if (changes.length > 200) throw new ToolInputError(`changes holds ${changes.length} changes; propose at most 200 at a time`);
  const checked: ProposedChange[] = [];
  for (const [i, raw] of changes.entries()) {
    const where = `changes[${i}]`;
    const change = asInput(raw);
    const operation = change.operation;
    if (operation !== "create" && operation !== "update" && operation !== "delete") throw new ToolInputError(`${where}.operation must be "create", "update" or "delete", got ${quoted(operation)}`);
    const object = apiName(change, "object");
    const d = await describeOrExplain(org, object, `${where}.object`);
    if (operation === "create" && change.id !== undefined) throw new ToolInputError(`${where}: a create takes no id`);
    const id = operation === "create" ? undefined : recordId(change.id, `${where}.id`);
    const fields = fieldValues(change.fields, `${where}.fields`);
    if (operation !== "delete" && !Object.keys(fields).length) throw new ToolInputError(`${where}: a${operation === "update" ? "n update" : " create"} needs fields`);
    if (operation === "delete" && Object.keys(fields).length) throw new ToolInputError(`${where}: a delete takes no fields`);
    const values = operation === "delete" ? {} : checkFields(d, fields, operation, where);
    checkOutward(org, d.name, values, `${where}.fields`);
    checked.push({ operation, object: d.name, ...(id ? { id } : {}), fields: values });
  }
  return checked;
}

export const tool: Tool = {
  spec: {
    name: "crm_propose_changes",
    title: "Propose record changes",
    vscode: { referenceName: "crmPropose", icon: "$(diff)", userDescription: "Propose record changes, staged in a results grid for you to commit" },
    effect: "stage",
    description: "Proposes creates, updates and deletes of records. Nothing is written: in VS Code the changes open as staged edits in a results grid that a person reviews (a diff per field, conflicts checked) and commits or discards; over MCP the answer is a change set (its ID and every field's before and after) that `crm_apply_changes` can apply where the server allows writes. At most 200 changes.",
    inputSchema: {
      type: "object",
      properties: {
        changes: {
          type: "array",
          minItems: 1,
          maxItems: 200,
          items: {
            type: "object",
            properties: {
              operation: { type: "string", enum: ["create", "update", "delete"] },
              object: { type: "string", description: "The object's API name." },
              id: { type: "string", description: "The record's ID (update, delete)." },
              fields: fieldValuesArg,
            },
            required: ["operation", "object"],
            additionalProperties: false,
          },
        },
        org: orgArg,
      },
      required: ["changes"],
      additionalProperties: false,
    },
  },
  run: async (input, org, host) => host.propose(org, await checkedChanges(input, org)),
};
