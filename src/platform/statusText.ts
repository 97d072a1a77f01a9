/** The status bar's words for the active org and its API usage. */
import type { ApiUsage } from "../client";
import { formatCount } from "./numbers";

export interface StatusView {
  text: string;
  tooltip: string;
  /** Above 80 % of the daily allocation. */
  warning: boolean;
}

export function statusText(alias: string, usage: ApiUsage | undefined, signedIn: boolean): StatusView {
  if (!signedIn) return { text: `$(cloud) ${alias} · signed out`, tooltip: `${alias}: signed out. Click to switch org or sign in.`, warning: true };
  if (!usage || usage.max <= 0) return { text: `$(cloud) ${alias}`, tooltip: `${alias}: API usage appears after the first call. Click to switch org or show org info.`, warning: false };
  const share = usage.used / usage.max;
  const percent = Math.round(share * 100);
  return {
    text: `$(cloud) ${alias} · API ${formatCount(usage.used)}/${formatCount(usage.max)}`,
    tooltip: `${alias}: ${formatCount(usage.used)} of ${formatCount(usage.max)} daily API requests used (${percent} %). Click to switch org or show org info.`,
    warning: share > 0.8,
  };
}
