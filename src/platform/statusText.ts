/** The status bar's words for the active org and its API usage. */
import type { ApiUsage } from "../client";
import { formatCount } from "./numbers";

export interface StatusView {
  text: string;
  tooltip: string;
  /** Above 80 % of the daily allocation. */
  warning: boolean;
}

/** `kind` is the org's (production, sandbox, …): production is named in the text and always shown as a warning. */
export function statusText(alias: string, usage: ApiUsage | undefined, signedIn: boolean, kind?: string): StatusView {
  const production = kind === "production";
  const name = production ? `$(warning) ${alias} (production)` : `$(cloud) ${alias}`;
  const what = kind ? `${alias} (${kind} org)` : alias;
  if (!signedIn) return { text: `${name} · signed out`, tooltip: `${what}: signed out. Click to switch org or sign in.`, warning: true };
  const guard = production ? " Every write asks for confirmation first." : "";
  if (!usage || usage.max <= 0) return { text: name, tooltip: `${what}: API usage appears after the first call.${guard} Click to switch org or show org info.`, warning: production };
  const share = usage.used / usage.max;
  const percent = Math.round(share * 100);
  return {
    text: `${name} · API ${formatCount(usage.used)}/${formatCount(usage.max)}`,
    tooltip: `${what}: ${formatCount(usage.used)} of ${formatCount(usage.max)} daily API requests used (${percent} %).${guard} Click to switch org or show org info.`,
    warning: production || share > 0.8,
  };
}
