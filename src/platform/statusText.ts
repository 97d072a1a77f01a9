/** The status bar's words for the active org and its API usage. */
import * as l10n from "@vscode/l10n";
import type { ApiUsage } from "../client";
import { formatCount } from "./numbers";

export interface StatusView {
  text: string;
  tooltip: string;
  /** Above 80 % of the daily allocation. */
  warning: boolean;
}

/**
 * `org.kind` is the org's (production, sandbox, …); `org.guarded` says whether its writes ask first (guardsWrites,
 * the one rule: production or a kind that could not be read, unless turned off). Either is named in the text
 * and shown as a warning.
 */
export function statusText(alias: string, usage: ApiUsage | undefined, signedIn: boolean, org: { kind?: string; guarded?: boolean } = {}): StatusView {
  const { kind, guarded = false } = org;
  const production = kind === "production";
  const marked = production ? l10n.t("{0} (production)", alias) : guarded ? l10n.t("{0} (kind unknown)", alias) : undefined;
  const name = marked ? `$(warning) ${marked}` : `$(cloud) ${alias}`;
  const what = kind ? l10n.t("{0} ({1} org)", alias, kind) : alias;
  if (!signedIn) return { text: l10n.t("{0} · signed out", name), tooltip: l10n.t("{0}: signed out. Click to switch org or sign in.", what), warning: true };
  const click = l10n.t("Click to switch org or show org info.");
  const then = guarded ? `${l10n.t("Every write asks for confirmation first.")} ${click}` : click;
  const warn = production || guarded;
  if (!usage || usage.max <= 0) return { text: name, tooltip: l10n.t("{0}: API usage appears after the first call. {1}", what, then), warning: warn };
  const share = usage.used / usage.max;
  const percent = Math.round(share * 100);
  return {
    text: l10n.t("{0} · API {1}/{2}", name, formatCount(usage.used), formatCount(usage.max)),
    tooltip: l10n.t("{0}: {1} of {2} daily API requests used ({3} %). {4}", what, formatCount(usage.used), formatCount(usage.max), percent, then),
    warning: warn || share > 0.8,
  };
}
