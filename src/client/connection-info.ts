/** Connection info: compiled from arguments, prompted on a terminal, or read from a helper file. */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { AccessTokenAuth, type AuthStrategy, ClientCredentialsAuth, JwtBearerAuth, PasswordAuth, RefreshTokenAuth } from "./auth";
import { CrmError, MissingRequiredDataError } from "./errors";
import { yaml } from "./lazyYaml";

/** The spec's connection fields (snake_case, as in helper files). `client_key` is accepted for `client_id`. */
export interface ConnectionInfo {
  base_url: string;
  org_id: string;
  username: string;
  password: string;
  endpoint_url: string;
  client_id: string;
  client_secret: string;
  security_token: string;
}

/** Helper files may carry more than the spec's eight fields, for the other sign-in flows. */
export type HelperConnection = Partial<ConnectionInfo> & {
  client_key?: string;
  refresh_token?: string;
  access_token?: string;
  instance_url?: string;
  private_key?: string;
  private_key_file?: string;
  grant_type?: "password" | "refresh_token" | "client_credentials" | "jwt_bearer" | "access_token";
};

export interface HelperContent {
  connection: HelperConnection;
  ssl_verify?: boolean | string;
}

const FIELDS = ["base_url", "org_id", "username", "password", "endpoint_url", "client_id", "client_secret", "security_token"] as const;

/**
 * Packs the eight connection fields; every one is required (an empty string is allowed for the security
 * token, which trusted IP ranges do not need).
 */
export function compileConnectionInfo(
  baseUrl: string, orgId: string, username: string, password: string, endpointUrl: string,
  clientId: string, clientSecret: string, securityToken: string,
): ConnectionInfo {
  const values = [baseUrl, orgId, username, password, endpointUrl, clientId, clientSecret, securityToken];
  values.forEach((value, i) => {
    const name = FIELDS[i]!;
    if (value === undefined || value === null) throw new MissingRequiredDataError(`compileConnectionInfo: '${name}' is required`, name);
    if (typeof value !== "string") throw new TypeError(`compileConnectionInfo: '${name}' must be a string, got ${typeof value}`);
  });
  return Object.fromEntries(FIELDS.map((name, i) => [name, values[i]])) as unknown as ConnectionInfo;
}

export interface PromptStreams {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

/** Asks for the eight fields on a terminal; the password, secret and security token are not echoed. */
export async function defineConnectionInfo(streams: PromptStreams = {}): Promise<ConnectionInfo> {
  const output = streams.output ?? process.stdout;
  let muted = false;
  const sink = new Writable({
    write(chunk, _enc, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const input = streams.input ?? process.stdin;
  // On a TTY readline runs in raw mode and echoes through `sink`, which stays silent for secrets.
  const rl = createInterface({ input, output: sink, terminal: Boolean((input as { isTTY?: boolean }).isTTY) });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (label: string, secret = false): Promise<string> => {
    output.write(`${label} [] `);
    muted = secret;
    const next = await lines.next();
    muted = false;
    if (secret) output.write("\n");
    if (next.done) throw new CrmError(`defineConnectionInfo: input ended before '${label}' was answered`);
    return String(next.value).trim();
  };
  try {
    const answers = [
      await ask("Instance URL:"), await ask("Org ID:"), await ask("Username:"), await ask("Password:", true),
      await ask("Endpoint URL:"), await ask("Client ID:"), await ask("Client Secret:", true), await ask("Security Token:", true),
    ] as const;
    return compileConnectionInfo(...answers);
  } finally {
    rl.close();
  }
}

/** 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Whether JSON.parse refused a prefix only because the prefix ends, not because of what it holds. */
function refusedOnlyForEnding(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    return /end of JSON input|Unterminated/i.test(message) || (at !== null && Number(at[1]) >= prefix.length);
  }
}

/**
 * Where and what JSON.parse's error is, without the text: V8's messages quote the file (and so a
 * password), and some name no position. The position is then found as the shortest prefix that fails
 * for what it holds rather than for ending early.
 */
function jsonErrorLocation(text: string, err: Error): { offset: number; kind: string } {
  const at = /in JSON at position (\d+)/.exec(err.message);
  const kind = /end of JSON input|Unterminated/i.test(err.message) ? "the JSON ends too early"
    : at ? err.message.slice(0, at.index).trim() : "unexpected character";
  if (at) return { offset: Number(at[1]), kind };
  let fine = 0;
  let bad = text.length;
  while (bad - fine > 1) {
    const mid = (fine + bad) >> 1;
    if (refusedOnlyForEnding(text.slice(0, mid))) fine = mid;
    else bad = mid;
  }
  return { offset: bad - 1, kind };
}

/** A parse failure named by file, line, column and kind; never quoting the file, which holds secrets. */
function helperParseError(file: string, format: "JSON" | "YAML", text: string, err: unknown): CrmError {
  let where: { line: number; column: number };
  let kind: string;
  const mark = (err as { mark?: { line: number; column: number } }).mark;
  if (format === "YAML" && mark) {
    where = { line: mark.line + 1, column: mark.column + 1 };
    kind = String((err as { reason?: string }).reason ?? "invalid YAML");
  } else {
    const found = jsonErrorLocation(text, err as Error);
    where = lineAndColumn(text, found.offset);
    kind = found.kind;
  }
  return new CrmError(`helper file ${file} is not valid ${format}: ${kind} at line ${where.line}, column ${where.column}`);
}

/** Reads a helper file (.json, .yaml or .yml by extension; other extensions are tried as JSON, then YAML). */
export function readHelperFile(filePath: string): HelperContent {
  if (typeof filePath !== "string" || !filePath) throw new TypeError("helper must be a file path string or a helper object");
  const resolved = path.resolve(filePath);
  const text = readTextFile(resolved, "helper file");
  const ext = path.extname(resolved).toLowerCase();
  const asJson = ext === ".json" || (ext !== ".yaml" && ext !== ".yml" && /^\s*[{[]/.test(text));
  let parsed: unknown;
  try {
    parsed = asJson ? JSON.parse(text) : yaml().parseYaml(text);
  } catch (err) {
    throw helperParseError(resolved, asJson ? "JSON" : "YAML", text, err);
  }
  const content = checkHelper(parsed, resolved);
  const conn = content.connection;
  if (conn.private_key_file && !conn.private_key) {
    conn.private_key = readTextFile(path.resolve(path.dirname(resolved), conn.private_key_file), "private_key_file");
  }
  return content;
}

/** Reads a UTF-8 file named by the caller, with errors that say which and why (and never its content). */
function readTextFile(file: string, what: string): string {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new CrmError(`${what} not found: ${file}`);
  }
  if (!isFile) throw new CrmError(`${what} ${file} is a folder or a device, not a file`);
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new CrmError(`${what} ${file} could not be read (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

export function checkHelper(value: unknown, source = "helper"): HelperContent {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new TypeError(`${source} must hold an object with a 'connection' section`);
  const connection = (value as { connection?: unknown }).connection;
  if (!connection || typeof connection !== "object" || Array.isArray(connection)) {
    throw new MissingRequiredDataError(`${source} has no 'connection' section (expected connection: { username, password, endpoint_url, client_id, … })`, "connection");
  }
  return value as HelperContent;
}

/** `client_key` (the original's helper spelling) and `client_id` mean the same. */
export function normalizeConnection(info: HelperConnection): HelperConnection {
  const out: HelperConnection = { ...info };
  out.client_id ??= info.client_key;
  delete out.client_key;
  for (const [key, value] of Object.entries(out)) if (value === null || value === undefined) delete (out as Record<string, unknown>)[key];
  return out;
}

/** The login URL of a connection: `endpoint_url` (a host or the full token URL), else `base_url`. */
function loginUrlOf(c: HelperConnection): string {
  const value = c.endpoint_url || c.base_url;
  if (!value) throw new MissingRequiredDataError("the connection needs 'endpoint_url' (the login or My Domain URL) or 'base_url'", "endpoint_url");
  return value;
}

/**
 * The grant a connection's fields name. A user name or a password alone means the password flow, whose
 * check then names the missing half: a misspelt password must never fall through to signing in as the
 * integration user. Client credentials only when nothing of a user is given and the app's secret is.
 */
function impliedGrant(c: HelperConnection): NonNullable<HelperConnection["grant_type"]> {
  if (c.access_token) return "access_token";
  if (c.refresh_token) return "refresh_token";
  if (c.private_key) return "jwt_bearer";
  if (c.username || c.password) return "password";
  if (c.client_id && c.client_secret) return "client_credentials";
  throw new MissingRequiredDataError(
    "the connection names no way to sign in: give username and password, a refresh_token, an access_token, a private_key (JWT), or client_id and client_secret with no username (client credentials), or set grant_type",
    c.client_id ? "username" : "client_id",
  );
}

/** Picks the sign-in strategy a connection describes (explicit `grant_type`, else by the fields present). */
export function strategyFromConnection(raw: HelperConnection): AuthStrategy {
  const c = normalizeConnection(raw);
  const grant = c.grant_type ?? impliedGrant(c);
  switch (grant) {
    case "access_token":
      return new AccessTokenAuth({ accessToken: c.access_token!, instanceUrl: c.instance_url ?? c.base_url ?? "", refreshToken: c.refresh_token, clientId: c.client_id, clientSecret: c.client_secret, loginUrl: c.endpoint_url });
    case "refresh_token":
      return new RefreshTokenAuth({ loginUrl: loginUrlOf(c), clientId: c.client_id!, clientSecret: c.client_secret, refreshToken: c.refresh_token! });
    case "jwt_bearer":
      return new JwtBearerAuth({ loginUrl: loginUrlOf(c), clientId: c.client_id!, username: c.username!, privateKey: c.private_key! });
    case "password":
      return new PasswordAuth({ loginUrl: loginUrlOf(c), clientId: c.client_id!, clientSecret: c.client_secret!, username: c.username!, password: c.password!, securityToken: c.security_token });
    case "client_credentials":
      return new ClientCredentialsAuth({ loginUrl: loginUrlOf(c), clientId: c.client_id!, clientSecret: c.client_secret! });
    default:
      throw new TypeError(`grant_type must be password, refresh_token, client_credentials, jwt_bearer or access_token, got '${String(grant)}'`);
  }
}
