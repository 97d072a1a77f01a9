/**
 * How a command-line tool signs in: a helper file (`--helper`), a ready session (`CRM_INSTANCE_URL` and
 * `CRM_ACCESS_TOKEN`), or the JWT bearer flow (`CRM_CLIENT_ID`, `CRM_USERNAME`, `CRM_JWT_KEY_FILE`, and
 * `CRM_LOGIN_URL`, by default https://login.salesforce.com) — the usual way in CI. The sign-in is verified
 * (the user's info is read) before any command runs; no secret is ever printed.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Crm, JwtBearerAuth, type CrmOptions } from "../client";
import { UsageError, type CliContext } from "./usage";

export const CREDENTIALS_HELP = `Credentials (one of):
  --helper <file>                        a helper file (JSON or YAML: { connection: { … } })
  CRM_INSTANCE_URL + CRM_ACCESS_TOKEN    a session (such as one from 'sf org auth show-access-token')
  CRM_CLIENT_ID + CRM_USERNAME + CRM_JWT_KEY_FILE [+ CRM_LOGIN_URL]
                                         the JWT bearer flow of a connected app (CI)`;

/** Which credentials the arguments and environment give, without signing in (undefined: none). */
export async function credentialOptions(helper: string | undefined, ctx: CliContext): Promise<CrmOptions | undefined> {
  const env = ctx.env;
  if (helper) return { helper: path.resolve(ctx.cwd, helper) };
  if (env.CRM_INSTANCE_URL || env.CRM_ACCESS_TOKEN) {
    if (!env.CRM_INSTANCE_URL || !env.CRM_ACCESS_TOKEN) throw new UsageError(`CRM_INSTANCE_URL and CRM_ACCESS_TOKEN go together: ${env.CRM_INSTANCE_URL ? "CRM_ACCESS_TOKEN" : "CRM_INSTANCE_URL"} is not set`);
    return { instanceUrl: env.CRM_INSTANCE_URL, accessToken: env.CRM_ACCESS_TOKEN };
  }
  const jwt = ["CRM_CLIENT_ID", "CRM_USERNAME", "CRM_JWT_KEY_FILE"];
  if (jwt.some((name) => env[name])) {
    const missing = jwt.filter((name) => !env[name]);
    if (missing.length) throw new UsageError(`The JWT bearer flow needs CRM_CLIENT_ID, CRM_USERNAME and CRM_JWT_KEY_FILE: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set`);
    const keyFile = path.resolve(ctx.cwd, env.CRM_JWT_KEY_FILE!);
    const privateKey = await readFile(keyFile, "utf8").catch(() => {
      throw new UsageError(`CRM_JWT_KEY_FILE names ${keyFile}, which cannot be read`);
    });
    const auth = new JwtBearerAuth({ loginUrl: env.CRM_LOGIN_URL || "https://login.salesforce.com", clientId: env.CRM_CLIENT_ID!, username: env.CRM_USERNAME!, privateKey });
    return { auth };
  }
  return undefined;
}

/** A signed-in client, or a UsageError (exit code 2) that says what is missing or refused. */
export async function signIn(helper: string | undefined, ctx: CliContext, extra: Partial<CrmOptions> = {}): Promise<Crm> {
  const options = await credentialOptions(helper, ctx);
  if (!options) throw new UsageError(`This command needs an org.\n${CREDENTIALS_HELP}`);
  let crm: Crm | undefined;
  try {
    crm = await Crm.create({ ...options, ...extra });
    // The sign-in reads the user's info without failing on it: a session the org refuses shows here, before any command runs.
    if (!crm.orgId) await crm.retrieveCurrentUserInfo({ raiseExcOnError: true });
    return crm;
  } catch (err) {
    crm?.close();
    // The client's errors carry no token; the sign-in's own words say what was refused.
    throw new UsageError(`Signing in to the org failed: ${(err as Error).message}`);
  }
}
