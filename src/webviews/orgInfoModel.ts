/** What the Org Info panel shows: the org's limits as labelled bars (most pressing first), its user and version. */
import type { OrgManager } from "../connections/orgManager";
import type { OrgRecord } from "../connections/orgRegistry";
import type { LimitBar, OrgInfoView } from "./protocol/orgInfo";

type LimitEntry = { Max?: unknown; Remaining?: unknown } & Record<string, unknown>;

const ACRONYMS = new Set(["api", "mb", "sso", "url", "id", "soql", "sosl"]);

/** "DailyApiRequests" → "Daily API Requests"; "DataStorageMB" → "Data Storage MB". */
export function limitLabel(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(" ")
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word))
    .join(" ");
}

function barOf(name: string, label: string, entry: LimitEntry): LimitBar | undefined {
  const max = Number(entry.Max);
  const remaining = Number(entry.Remaining);
  if (!Number.isFinite(max) || !Number.isFinite(remaining)) return undefined;
  const used = Math.max(max - remaining, 0);
  return { name, label, used, max, pressure: max > 0 ? Math.min(used / max, 1) : 0 };
}

/**
 * Every limit with a Max and Remaining, including the per-app or per-kind entries nested inside one
 * (PermissionSets.CreateCustom), sorted by how much of it is used, then by name.
 */
export function limitBars(limits: Record<string, unknown>): LimitBar[] {
  const bars: LimitBar[] = [];
  for (const [name, value] of Object.entries(limits)) {
    if (!value || typeof value !== "object") continue;
    const entry = value as LimitEntry;
    const bar = barOf(name, limitLabel(name), entry);
    if (bar) bars.push(bar);
    for (const [childName, child] of Object.entries(entry)) {
      if (childName === "Max" || childName === "Remaining" || !child || typeof child !== "object") continue;
      const nested = barOf(`${name}.${childName}`, `${limitLabel(name)} · ${limitLabel(childName)}`, child as LimitEntry);
      if (nested) bars.push(nested);
    }
  }
  return bars.sort((a, b) => b.pressure - a.pressure || a.label.localeCompare(b.label));
}

/** Reads everything the panel shows; two requests, made in parallel. */
export async function readOrgInfo(manager: OrgManager, org: OrgRecord): Promise<OrgInfoView> {
  const { crm } = await manager.session(org.key);
  const [limits, user] = await Promise.all([crm.getOrgLimits(), crm.retrieveCurrentUserInfo({ allData: true, raiseExcOnError: true })]);
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return {
    alias: org.alias,
    instanceUrl: crm.instanceUrl ?? org.instanceUrl,
    apiVersion: crm.version ?? org.apiVersion ?? "",
    user: { name: text(user.name), username: text(user.preferred_username) || (org.username ?? ""), email: text(user.email), userId: text(user.user_id), locale: text(user.locale) },
    limits: limitBars(limits),
    fetchedAt: new Date().toISOString(),
  };
}
