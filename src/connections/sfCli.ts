/** Import from the Salesforce CLI: `sf org list --json`, then `sf org display --json` for the chosen org. */
import { execFile } from "node:child_process";
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

function run(args: string[], command = "sf"): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, SF_DISABLE_TELEMETRY: "true", SF_AUTOUPDATE_DISABLE: "true" } }, (err, stdout) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT") return reject(new CrmError("The Salesforce CLI (sf) is not on PATH; install it or pick another sign-in method"));
      try {
        const parsed = JSON.parse(stdout) as { status?: number; result?: unknown; message?: string };
        if (parsed.status !== 0) return reject(new CrmError(`sf ${args.slice(0, 2).join(" ")} failed: ${parsed.message ?? "no message"}`));
        resolve(parsed.result);
      } catch {
        reject(new CrmError(`sf ${args.slice(0, 2).join(" ")} did not answer with JSON${err ? `: ${err.message}` : ""}`));
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

export async function displayCliOrg(username: string, command?: string): Promise<CliOrgDetails> {
  const result = (await run(["org", "display", "--target-org", username, "--json"], command)) as Partial<CliOrgDetails> & { id?: string };
  if (!result?.accessToken || !result.instanceUrl) throw new CrmError(`sf org display gave no access token for ${username}; run 'sf org login web' for it first`);
  return { username: result.username ?? username, accessToken: result.accessToken, instanceUrl: result.instanceUrl, orgId: result.id, apiVersion: result.apiVersion };
}
