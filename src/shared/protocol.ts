/**
 * Messages between the extension host and its webviews. Both sides validate what they receive:
 * a webview is a separate document, so its messages are untrusted input like any other.
 */

/** One limit as the Org Info panel draws it. */
export interface LimitBar {
  name: string;
  label: string;
  used: number;
  max: number;
  /** used / max in [0, 1]; 0 when max is 0. */
  pressure: number;
}

export interface OrgInfoView {
  alias: string;
  instanceUrl: string;
  apiVersion: string;
  user: { name: string; username: string; email: string; userId: string; locale: string };
  limits: LimitBar[];
  fetchedAt: string;
}

export type HostToOrgInfo =
  | { type: "loading" }
  | { type: "orgInfo"; info: OrgInfoView }
  | { type: "error"; message: string };

export type OrgInfoToHost = { type: "ready" } | { type: "refresh" } | { type: "openInBrowser" };

const ORG_INFO_REQUESTS: ReadonlySet<string> = new Set<OrgInfoToHost["type"]>(["ready", "refresh", "openInBrowser"]);

/** The webview's message if it is one the Org Info panel understands; otherwise undefined. */
export function parseOrgInfoRequest(raw: unknown): OrgInfoToHost | undefined {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const type = (raw as { type?: unknown }).type;
  return typeof type === "string" && ORG_INFO_REQUESTS.has(type) ? { type: type as OrgInfoToHost["type"] } : undefined;
}

function isLimitBar(value: unknown): value is LimitBar {
  if (!value || typeof value !== "object") return false;
  const bar = value as Record<string, unknown>;
  return typeof bar.name === "string" && typeof bar.label === "string" && [bar.used, bar.max, bar.pressure].every((n) => typeof n === "number" && Number.isFinite(n));
}

function isOrgInfoView(value: unknown): value is OrgInfoView {
  if (!value || typeof value !== "object") return false;
  const info = value as Record<string, unknown>;
  const user = info.user as Record<string, unknown> | undefined;
  return (
    ["alias", "instanceUrl", "apiVersion", "fetchedAt"].every((k) => typeof info[k] === "string") &&
    !!user && ["name", "username", "email", "userId", "locale"].every((k) => typeof user[k] === "string") &&
    Array.isArray(info.limits) && info.limits.every(isLimitBar)
  );
}

/** The host's message if it is well formed; otherwise undefined (the webview ignores it). */
export function parseOrgInfoUpdate(raw: unknown): HostToOrgInfo | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const msg = raw as Record<string, unknown>;
  if (msg.type === "loading") return { type: "loading" };
  if (msg.type === "error" && typeof msg.message === "string") return { type: "error", message: msg.message };
  if (msg.type === "orgInfo" && isOrgInfoView(msg.info)) return { type: "orgInfo", info: msg.info };
  return undefined;
}
