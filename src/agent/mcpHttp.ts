/**
 * The agent's tools over MCP's Streamable HTTP transport on loopback, for a VS Code MCP server definition
 * (src/agent/mcpProvider.ts). VS Code alone holds the key (a header of the definition); the org's token never
 * leaves the extension host, and the key reaches only the tools, at the org's agent access. Stateless: each
 * POST gets its own server and transport, answered as JSON. The extension loads this file (dist/mcp-http.js,
 * with the SDK) when VS Code first starts the server.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { MAX_MESSAGE_BYTES, TOO_LARGE, toolServer, type ToolServerSpec } from "./mcpProtocol";

export interface LoopbackMcp {
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

export interface LoopbackMcpOptions {
  /** Sent by VS Code as `Authorization: Bearer <key>`. */
  key: string;
  /** The tools a path's last segment stands for, or undefined (404). */
  serverFor(handle: string): ToolServerSpec | undefined;
  /** Largest request body (default MAX_MESSAGE_BYTES, as on stdio). */
  maxBodyBytes?: number;
}

const PATH = /^\/mcp\/([\w-]{1,64})$/;

export async function serveMcpOnLoopback(options: LoopbackMcpOptions): Promise<LoopbackMcp> {
  const key = Buffer.from(`Bearer ${options.key}`);
  const maxBody = options.maxBodyBytes ?? MAX_MESSAGE_BYTES;
  let host = "";
  const server = createServer((req, res) => {
    void answer(req, res).catch((err: unknown) => refuse(res, 500, `The server failed: ${(err as Error).message}`));
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A browser page could aim at loopback (DNS rebinding, a form): it sends an Origin or another Host; VS Code does neither.
    if (req.headers.host !== host || req.headers.origin !== undefined) return refuse(res, 403, "Only VS Code on this machine may call this server.");
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== key.length || !timingSafeEqual(given, key)) return refuse(res, 401, "Missing or wrong key.");
    const handle = PATH.exec(new URL(req.url ?? "/", "http://x").pathname)?.[1];
    const spec = handle === undefined ? undefined : options.serverFor(handle);
    if (!spec) return refuse(res, 404, "No such server: VS Code lists the current ones.");
    // Stateless: no event stream to open, no session to end.
    if (req.method !== "POST") return refuse(res, 405, "POST only.", { Allow: "POST" });
    const body = await readBody(req, maxBody);
    if (body === undefined) return refuse(res, 413, maxBody === MAX_MESSAGE_BYTES ? TOO_LARGE : `A request body is at most ${maxBody} bytes.`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return refuse(res, 400, "The body is not JSON.");
    }
    const mcp = toolServer(spec);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(req, res, parsed);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  return {
    origin: `http://${host}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The body as text, or undefined once it passes the limit (the rest is not read). */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { "Content-Type": "application/json", ...headers, ...(status === 413 ? { Connection: "close" } : {}) });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}
