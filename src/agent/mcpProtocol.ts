/**
 * The agent's tools as an MCP server, whatever runs them: the SDK's low-level Server (the tools' JSON schemas
 * are ours, their inputs are checked by the tools themselves) over a list of tools and one way to call them.
 * `crm-explorer-mcp` serves one org over stdio with it (mcpServer.ts); the extension serves the org a VS Code
 * MCP server definition names over loopback HTTP (mcpHttp.ts). No client code here: the extension loads this
 * with the SDK, from its own file, only when VS Code starts that server.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSpec } from "./catalog";
import { quoted } from "./quoted";

/** The largest message either server takes (a proposal of many changes fits, a flood does not), on stdio as on HTTP. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
export const TOO_LARGE = `A message to this server is at most ${MAX_MESSAGE_BYTES.toLocaleString("en-US")} bytes (4 MB); this one was larger and was not read.`;

export interface ToolAnswerText {
  text: string;
  isError?: boolean;
  /** Rows as data: sent as the result's structuredContent, beside the text (MCP 2025-06-18). */
  structured?: Record<string, unknown>;
}

export interface ToolServerSpec {
  /** The org's name: a call naming another org is refused. */
  orgName: string;
  version: string;
  instructions: string;
  tools: readonly ToolSpec[];
  call(name: string, input: Record<string, unknown>): Promise<ToolAnswerText>;
}

export function toolServer(spec: ToolServerSpec): Server {
  const server = new Server({ name: "crm-explorer", title: "CRM Explorer", version: spec.version }, { capabilities: { tools: {} }, instructions: spec.instructions });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: spec.tools.map((t) => ({
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
    if (input.org !== undefined && input.org !== spec.orgName) return { content: [{ type: "text" as const, text: `This server serves ${spec.orgName} only; it cannot reach ${quoted(input.org)}.` }], isError: true };
    delete input.org;
    const answer = await spec.call(name, input);
    return { content: [{ type: "text" as const, text: answer.text }], ...(answer.structured ? { structuredContent: answer.structured } : {}), ...(answer.isError ? { isError: true } : {}) };
  });
  return server;
}
