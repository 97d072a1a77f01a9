/** Connection info: compiled from arguments, prompted on a terminal, or read from a helper file. */
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { load as loadYaml } from "js-yaml";
import { AccessTokenAuth, type AuthStrategy, ClientCredentialsAuth, JwtBearerAuth, PasswordAuth, RefreshTokenAuth } from "./auth";
import { CrmError, MissingRequiredDataError } from "./errors";

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

/** Reads a helper file (.json, .yaml or .yml by extension; other extensions are tried as JSON, then YAML). */
export function readHelperFile(filePath: string): HelperContent {
  if (typeof filePath !== "string" || !filePath) throw new TypeError("helper must be a file path string or a helper object");
  const resolved = path.resolve(filePath);
  if (!existsSync(resolved)) throw new CrmError(`helper file not found: ${resolved}`);
  const text = readFileSync(resolved, "utf8");
  const ext = path.extname(resolved).toLowerCase();
  let parsed: unknown;
  try {
    if (ext === ".json") parsed = JSON.parse(text);
    else if (ext === ".yaml" || ext === ".yml") parsed = loadYaml(text);
    else {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = loadYaml(text);
      }
    }
  } catch (err) {
    throw new CrmError(`helper file ${resolved} is not valid ${ext === ".json" ? "JSON" : "YAML"}: ${(err as Error).message}`);
  }
  const content = checkHelper(parsed, resolved);
  const conn = content.connection;
  if (conn.private_key_file && !conn.private_key) {
    conn.private_key = readFileSync(path.resolve(path.dirname(resolved), conn.private_key_file), "utf8");
  }
  return content;
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

/** Picks the sign-in strategy a connection describes (explicit `grant_type`, else by the fields present). */
export function strategyFromConnection(raw: HelperConnection): AuthStrategy {
  const c = normalizeConnection(raw);
  const grant = c.grant_type ?? (c.access_token ? "access_token" : c.refresh_token ? "refresh_token" : c.private_key ? "jwt_bearer" : c.username && c.password ? "password" : "client_credentials");
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
