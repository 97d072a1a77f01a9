/**
 * The agent's tools as an MCP server (the SDK's low-level Server: the tools' JSON schemas are ours, the
 * inputs are checked by the tools themselves). One org per server; its access mode decides what is offered
 * and what is refused. Proposals are held as change sets; `crm_apply_changes` is listed only where writing
 * is allowed.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { TOOLS } from "./catalog";
import { ChangeSets, type BeforeValues } from "./changeSets";
import { runTool, type AgentHost, type AgentOrg } from "./tools";

export interface McpOptions {
  org: AgentOrg;
  budget: number;
  allowProduction: boolean;
  version: string;
  /** Hears the before values of a change set about to be applied (the journal keeps them), and nothing once done. */
  applying?: (applying?: { changeSet: string; before: BeforeValues }) => void;
}

export function crmMcpServer(options: McpOptions): Server {
  const { org } = options;
  const changeSets = new ChangeSets();
  const host: AgentHost = {
    budget: options.budget,
    personConfirms: false,
    allowProduction: options.allowProduction,
    propose: (o, changes) => changeSets.propose(o, changes),
    apply: (o, id) => changeSets.apply(o, id, options.applying),
  };
  const offered = TOOLS.filter((t) => org.access !== "off" && (t.name !== "crm_apply_changes" || org.access === "write"));
  const server = new Server(
    { name: "crm-explorer", title: "CRM Explorer", version: options.version },
    { capabilities: { tools: {} }, instructions: `Tools over the CRM org ${org.name} (${org.kind}); agent access: ${org.access}. Describe objects before querying; propose changes rather than writing them.` },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: offered.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.title, readOnlyHint: t.effect === "read", destructiveHint: t.effect !== "read", openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const input = { ...(args ?? {}) } as Record<string, unknown>;
    if (input.org !== undefined && input.org !== org.name) return { content: [{ type: "text" as const, text: `This server serves ${org.name} only; it cannot reach ${JSON.stringify(input.org)}.` }], isError: true };
    delete input.org;
    const answer = await runTool(name, input, org, host);
    return { content: [{ type: "text" as const, text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
  });
  return server;
}
