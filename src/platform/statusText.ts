/** The status bar's words for the active org and its API usage. */
import type { ApiUsage } from "../client";

export interface StatusView {
  text: string;
  tooltip: string;
  /** Above 80 % of the daily allocation. */
  warning: boolean;
}

const number = new Intl.NumberFormat("en-US");

export function statusText(alias: string, usage: ApiUsage | undefined, signedIn: boolean): StatusView {
  if (!signedIn) return { text: `$(cloud) ${alias} · signed out`, tooltip: `${alias}: signed out. Click to switch org or sign in.`, warning: true };
  if (!usage || usage.max <= 0) return { text: `$(cloud) ${alias}`, tooltip: `${alias}: API usage appears after the first call. Click to switch org or show org info.`, warning: false };
  const share = usage.used / usage.max;
  const percent = Math.round(share * 100);
  return {
    text: `$(cloud) ${alias} · API ${number.format(usage.used)}/${number.format(usage.max)}`,
    tooltip: `${alias}: ${number.format(usage.used)} of ${number.format(usage.max)} daily API requests used (${percent} %). Click to switch org or show org info.`,
    warning: share > 0.8,
  };
}
