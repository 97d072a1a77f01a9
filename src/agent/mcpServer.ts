/**
 * `crm-explorer-mcp`'s server: the agent's tools over one org, whose access mode decides what is offered and
 * what is refused. Proposals are held as change sets; `crm_apply_changes` is listed only where writing is
 * allowed.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { instructionsFor, TOOLS } from "./catalog";
import { ChangeSets } from "./changeSets";
import { toolServer } from "./mcpProtocol";
import { runTool, type AgentHost, type AgentOrg } from "./tools";

export interface McpOptions {
  org: AgentOrg;
  budget: number;
  allowProduction: boolean;
  version: string;
}

export function crmMcpServer(options: McpOptions): Server {
  const { org } = options;
  const changeSets = new ChangeSets();
  const host: AgentHost = {
    budget: options.budget,
    personConfirms: false,
    allowProduction: options.allowProduction,
    propose: (o, changes) => changeSets.propose(o, changes),
    apply: (o, id) => changeSets.apply(o, id),
  };
  return toolServer({
    orgName: org.name,
    version: options.version,
    instructions: instructionsFor(org.name, org.kind, org.access),
    tools: TOOLS.filter((t) => org.access !== "off" && (t.name !== "crm_apply_changes" || org.access === "write")),
    call: (name, input) => runTool(name, input, org, host),
  });
}
