/** How an org is described in the Orgs view: kind, user, host, and whether it may need signing in again. No VS Code here. */
import * as l10n from "@vscode/l10n";
import type { OrgRecord } from "../connections/orgRegistry";

const DAY_MS = 24 * 3600_000;

/** Whole days since the org last answered, when that is at least `idleDays` (refresh tokens can expire unused). */
export function idleDays(org: Pick<OrgRecord, "lastUsedAt" | "addedAt">, now: number, idleAfterDays: number): number | undefined {
  const last = Date.parse(org.lastUsedAt ?? org.addedAt);
  if (!Number.isFinite(last) || idleAfterDays <= 0) return undefined;
  const days = Math.floor((now - last) / DAY_MS);
  return days >= idleAfterDays ? days : undefined;
}

export function orgDescription(org: OrgRecord, now: number, idleAfterDays: number): string {
  const host = new URL(org.instanceUrl).host;
  const idle = org.signedIn ? idleDays(org, now, idleAfterDays) : undefined;
  return [
    org.kind,
    org.username,
    host,
    org.signedIn ? undefined : l10n.t("signed out"),
    idle === undefined ? undefined : l10n.t("unused for {0} days: may need signing in again", idle),
  ].filter(Boolean).join(" · ");
}
