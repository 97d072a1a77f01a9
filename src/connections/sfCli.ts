/** Import from the Salesforce CLI: `sf org list --json`, then `sf org display --json` for the chosen org. */
import { execFile } from "node:child_process";
import * as l10n from "@vscode/l10n";
import { CrmError } from "../client/errors";

export interface CliOrg {
  alias?: string;
  username: string;
  instanceUrl?: string;
  connected: boolean;
}

export interface CliOrgDetails {
  username: string;
  accessToken: string;
  instanceUrl: string;
  orgId?: string;
  apiVersion?: string;
}

/** Why the CLI refused, as it said it (no token ever appears in these answers). */
class CliRefusal extends CrmError {
  constructor(message: string, readonly notACommand: boolean) {
    super(message);
  }
}

function run(args: string[], command = "sf"): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, SF_DISABLE_TELEMETRY: "true", SF_AUTOUPDATE_DISABLE: "true" } }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT") return reject(new CrmError(l10n.t("The Salesforce CLI (sf) is not on PATH; install it or pick another sign-in method")));
      const what = `sf ${args.filter((a) => !a.startsWith("-")).slice(0, 3).join(" ")}`;
      const notACommand = /not a sf command|command not found|CommandNotFound/i.test(`${stdout}\n${stderr}`);
      try {
        const parsed = JSON.parse(stdout) as { status?: number; result?: unknown; message?: string; name?: string };
        if (parsed.status !== 0) return reject(new CliRefusal(l10n.t("{0} failed: {1}", what, parsed.message ?? l10n.t("no message")), notACommand || parsed.name === "CommandNotFoundError"));
        resolve(parsed.result);
      } catch {
        const message = err ? l10n.t("{0} did not answer with JSON (exit code {1})", what, String((err as { code?: unknown }).code ?? "?")) : l10n.t("{0} did not answer with JSON", what);
        reject(new CliRefusal(message, notACommand));
      }
    });
  });
}

export async function listCliOrgs(command?: string): Promise<CliOrg[]> {
  const result = (await run(["org", "list", "--json"], command)) as Record<string, { alias?: string; username: string; instanceUrl?: string; connectedStatus?: string }[] | undefined>;
  const groups = ["nonScratchOrgs", "scratchOrgs", "sandboxes", "devHubs", "other"];
  const seen = new Set<string>();
  const orgs: CliOrg[] = [];
  for (const group of groups) {
    for (const org of result?.[group] ?? []) {
      if (seen.has(org.username)) continue;
      seen.add(org.username);
      orgs.push({ alias: org.alias, username: org.username, instanceUrl: org.instanceUrl, connected: (org.connectedStatus ?? "Connected") === "Connected" });
    }
  }
  return orgs;
}

/** An access token as orgs issue them (`00D…!…`); a redacted placeholder ("[REDACTED] Use …") is not one. */
export function isUsableAccessToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9]{15}![A-Za-z0-9._-]{20,}$/.test(value);
}

/**
 * The org's details and a current access token. Since CLI 2.136.8 `sf org display` redacts the token and
 * `sf org auth show-access-token --json` gives it (refreshing it first); an older CLI has no such command
 * but still shows the token in `sf org display`. A redacted value is never taken as a token.
 */
export async function displayCliOrg(username: string, command?: string): Promise<CliOrgDetails> {
  const result = (await run(["org", "display", "--target-org", username, "--json"], command)) as { username?: string; accessToken?: string; instanceUrl?: string; id?: string; apiVersion?: string };
  if (!result?.instanceUrl) throw new CrmError(l10n.t("sf org display gave no instance URL for {0}; run 'sf org login web --alias <name>' for it first", username));
  let accessToken: string | undefined;
  try {
    const shown = (await run(["org", "auth", "show-access-token", "--target-org", username, "--json"], command)) as { accessToken?: unknown };
    if (isUsableAccessToken(shown?.accessToken)) accessToken = shown.accessToken;
  } catch (err) {
    if (!(err instanceof CliRefusal)) throw err;
    if (!err.notACommand && !isUsableAccessToken(result.accessToken)) {
      throw new CrmError(l10n.t("The Salesforce CLI would not give the access token of {0} ({1}). Run 'sf org login web --target-org {0}' and try again.", username, err.message));
    }
  }
  accessToken ??= isUsableAccessToken(result.accessToken) ? result.accessToken : undefined;
  if (!accessToken) {
    throw new CrmError(l10n.t("This Salesforce CLI hides access tokens in 'sf org display' but has no 'sf org auth show-access-token': update it ('sf update', or 'npm install --global @salesforce/cli'), then import {0} again.", username));
  }
  return { username: result.username ?? username, accessToken, instanceUrl: result.instanceUrl, orgId: result.id, apiVersion: result.apiVersion };
}
