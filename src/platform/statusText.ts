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

/** `kind` is the org's (production, sandbox, …): production is named in the text and always shown as a warning. */
export function statusText(alias: string, usage: ApiUsage | undefined, signedIn: boolean, kind?: string): StatusView {
  const production = kind === "production";
  const name = production ? `$(warning) ${l10n.t("{0} (production)", alias)}` : `$(cloud) ${alias}`;
  const what = kind ? l10n.t("{0} ({1} org)", alias, kind) : alias;
  if (!signedIn) return { text: l10n.t("{0} · signed out", name), tooltip: l10n.t("{0}: signed out. Click to switch org or sign in.", what), warning: true };
  const click = l10n.t("Click to switch org or show org info.");
  const then = production ? `${l10n.t("Every write asks for confirmation first.")} ${click}` : click;
  if (!usage || usage.max <= 0) return { text: name, tooltip: l10n.t("{0}: API usage appears after the first call. {1}", what, then), warning: production };
  const share = usage.used / usage.max;
  const percent = Math.round(share * 100);
  return {
    text: l10n.t("{0} · API {1}/{2}", name, formatCount(usage.used), formatCount(usage.max)),
    tooltip: l10n.t("{0}: {1} of {2} daily API requests used ({3} %). {4}", what, formatCount(usage.used), formatCount(usage.max), percent, then),
    warning: production || share > 0.8,
  };
}
