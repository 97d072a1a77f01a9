/**
 * MCP over stdio, one JSON-RPC message a line, that outlives what a caller sends: a line over the size limit
 * is skipped as it streams (never held) and answered with a JSON-RPC error; a line that is not JSON gets a
 * parse error, one that is not a JSON-RPC message an invalid-request error; the server then reads on. (The
 * SDK's own stdio transport stops reading for good after an oversized message.) Closing stdin ends it.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MAX_MESSAGE_BYTES, TOO_LARGE } from "./mcpProtocol";

type Id = string | number | null;

/** A top-level id in the first bytes of a message (`{"id":…` or `{"jsonrpc":"2.0","id":…`), or null: never a nested one. */
function leadingId(head: string): Id {
  const m = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,100}")\s*[,}]/.exec(head);
  return m ? (JSON.parse(m[1]!) as string | number) : null;
}

export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Why the transport closed, for the person reading stderr. */
  closedBecause?: string;
  private chunks: Buffer[] = [];
  private size = 0;
  /** The first bytes of a line past the limit, which is being skipped up to its end. */
  private skipping?: string;
  private closed = false;

  constructor(private readonly input: Readable = process.stdin, private readonly output: Writable = process.stdout, private readonly maxBytes = MAX_MESSAGE_BYTES) {}

  private readonly onData = (chunk: Buffer) => {
    for (let from = 0; ;) {
      const end = chunk.indexOf(10, from);
      this.take(chunk.subarray(from, end === -1 ? chunk.length : end));
      if (end === -1) return;
      this.endOfLine();
      from = end + 1;
    }
  };
  private readonly onEnd = () => void this.close("stdin closed");
  private readonly onInputError = (err: Error) => {
    this.onerror?.(err);
    void this.close(`stdin failed: ${err.message}`);
  };

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onInputError);
  }

  private take(piece: Buffer): void {
    if (this.skipping !== undefined || !piece.length) return;
    if (this.size + piece.length <= this.maxBytes) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    this.skipping = Buffer.concat([...this.chunks, piece.subarray(0, 256)]).subarray(0, 256).toString("utf8");
    this.chunks = [];
    this.size = 0;
  }

  private endOfLine(): void {
    if (this.skipping !== undefined) {
      const id = leadingId(this.skipping);
      this.skipping = undefined;
      return void this.refuse(id, -32600, TOO_LARGE);
    }
    const line = Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, "");
    this.chunks = [];
    this.size = 0;
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return void this.refuse(null, -32700, "Parse error: a line sent to this server is one JSON-RPC message in JSON; this one is not JSON.");
    }
    const message = JSONRPCMessageSchema.safeParse(json);
    if (!message.success) {
      const id = (json as { id?: unknown } | null)?.id;
      return void this.refuse(typeof id === "string" || typeof id === "number" ? id : null, -32600, "Invalid Request: not a JSON-RPC 2.0 message.");
    }
    this.onmessage?.(message.data);
  }

  private refuse(id: Id, code: number, message: string): Promise<void> {
    return this.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => (this.output.write(text) ? resolve() : this.output.once("drain", resolve)));
  }

  async close(reason = "closed by the server"): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closedBecause = reason;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onInputError);
    this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
