/** Shared request context and reply helpers of the emulator's route modules. */
import type { IncomingHttpHeaders } from "node:http";
import type { Seeded } from "./seed";
import type { Session } from "./oauth";
import { ApiError } from "./soql";
import type { Rec, Store } from "./store";

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface OrgState {
  seeded: Seeded;
  baseUrl: () => string;
  latestVersion: string;
  apiUsage: { used: number; max: number };
  childBatchSize: number;
  cursors: CursorStore;
}

export interface Ctx {
  method: string;
  /** Path after `/services/data/vNN.N`, starting with "/". */
  path: string;
  version: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  session: Session;
  user: Rec;
  org: OrgState;
  store: Store;
}

export type Handler = (ctx: Ctx, params: string[]) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });
export const noContent = (): Reply => ({ status: 204 });

export const notFound = () => new ApiError(404, "NOT_FOUND", "The requested resource does not exist");

export function bodyObject(ctx: Ctx): Record<string, unknown> {
  if (!ctx.body || typeof ctx.body !== "object" || Array.isArray(ctx.body)) {
    throw new ApiError(400, "JSON_PARSER_ERROR", "The request body must be a JSON object");
  }
  return ctx.body as Record<string, unknown>;
}

interface Cursor {
  /** The rows, or how to read a window of them (a generated table's query, never held whole). */
  rows: Record<string, unknown>[] | ((offset: number, count: number) => Record<string, unknown>[]);
  totalSize: number;
  batchSize: number;
  touched: number;
}

/** Query locators: `/query/{id}-{offset}`; idle ones expire after 15 minutes, at most 200 kept. */
export class CursorStore {
  private readonly cursors = new Map<string, Cursor>();
  private counter = 0;

  constructor(private readonly newLocatorId: () => string) {}

  open(rows: Cursor["rows"], totalSize: number, batchSize: number): string {
    const id = `${this.newLocatorId()}`;
    this.counter++;
    this.cursors.set(id, { rows, totalSize, batchSize, touched: Date.now() });
    if (this.cursors.size > 200) this.cursors.delete(this.cursors.keys().next().value!);
    return id;
  }

  /** Returns one page from `offset`, with the locator of the next page when more rows remain. */
  page(locator: string, version: string): Record<string, unknown> {
    const match = /^(.+)-(\d+)$/.exec(locator);
    const cursor = match ? this.cursors.get(match[1]!) : undefined;
    if (!match || !cursor || Date.now() - cursor.touched > 15 * 60_000) {
      throw new ApiError(400, "INVALID_QUERY_LOCATOR", "invalid query locator");
    }
    cursor.touched = Date.now();
    const offset = Number(match[2]);
    const nextUrl = (next: number) => `/services/data/v${version}/query/${match[1]}-${next}`;
    if (typeof cursor.rows !== "function") return pageOf(cursor.rows, offset, cursor.batchSize, cursor.totalSize, nextUrl);
    const records = cursor.rows(offset, cursor.batchSize);
    const done = offset + records.length >= cursor.totalSize;
    return done ? { totalSize: cursor.totalSize, done, records } : { totalSize: cursor.totalSize, done, nextRecordsUrl: nextUrl(offset + records.length), records };
  }
}

export function pageOf(rows: Record<string, unknown>[], offset: number, batchSize: number, totalSize: number, nextUrl: (offset: number) => string) {
  const records = rows.slice(offset, offset + batchSize);
  const done = offset + records.length >= rows.length;
  return done ? { totalSize, done, records } : { totalSize, done, nextRecordsUrl: nextUrl(offset + records.length), records };
}
