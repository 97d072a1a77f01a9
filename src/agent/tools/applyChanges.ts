/** `crm_apply_changes` (MCP only): applies a proposed change set where the server allows writes. */
import { orgArg } from "./schemas";
import { text, ToolInputError } from "./input";
import type { Tool } from "./kit";

export const tool: Tool = {
  spec: {
    name: "crm_apply_changes",
    title: "Apply a proposed change set",
    effect: "write",
    mcpOnly: true,
    description: "Applies a change set from `crm_propose_changes`. Records changed in the org since the proposal are not written (a conflict) and are named. Only where the server was started with write access; a production org also needs the server's --allow-production.",
    inputSchema: { type: "object", properties: { changeSetId: { type: "string", description: "The ID crm_propose_changes answered." }, org: orgArg }, required: ["changeSetId"], additionalProperties: false },
  },
  run: async (input, org, host) => {
    if (!host.apply) throw new ToolInputError("crm_apply_changes is not offered here: in VS Code a person commits proposed changes in the results grid.");
    return host.apply(org, text(input, "changeSetId"));
  },
};
