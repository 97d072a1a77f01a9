/** The grid's words and numbers in the display language. */
import * as l10n from "@vscode/l10n";
import { displayLocale } from "../dom";
import { EXPORT_FORMAT_NAMES, type CopyFormat, type ResultsSummary } from "../../protocol/results";

export const count = new Intl.NumberFormat(displayLocale);
/** "1 row", "12 rows": whole phrases, so a language can word each. */
export const rowsText = (n: number) => (n === 1 ? l10n.t("1 row") : l10n.t("{0} rows", count.format(n)));
/** What a row or cell mark says (the host's states, in the display language). */
const STATE_LABELS: Record<string, string> = { inserted: l10n.t("Inserted"), saved: l10n.t("Saved"), refused: l10n.t("Refused"), conflict: l10n.t("Conflict"), deleted: l10n.t("Deleted"), toDelete: l10n.t("To delete"), staged: l10n.t("Staged") };
export const stateLabel = (state: string) => STATE_LABELS[state] ?? state;
/** The copy and export formats' names (a language may write them its own way). */
export const FORMAT_LABELS: Record<CopyFormat | (typeof EXPORT_FORMAT_NAMES)[number], string> = {
  tsv: l10n.t("TSV"), csv: l10n.t("CSV"), json: l10n.t("JSON"), markdown: l10n.t("Markdown"), xlsx: l10n.t("XLSX"), ndjson: l10n.t("NDJSON"),
};


export function statusText(s: ResultsSummary): string {
  const parts = [s.fetching ? l10n.t("Fetching… {0}", ofRowsText(s.fetched, s.totalSize)) : ofRowsText(s.fetched, s.totalSize)];
  if (s.filter) parts.push(l10n.t("{0} match “{1}”", count.format(s.viewSize), s.filter));
  parts.push(l10n.t("first page in {0} ms", count.format(s.elapsedMs)), l10n.t("ran {0}", new Date(s.ranAt).toLocaleTimeString(displayLocale)));
  if (s.more) parts.push(l10n.t("more rows on the org"));
  return parts.join(" · ");
}

/** "12 of 320 rows" (one sentence per number, so a language can word each). */
export function ofRowsText(shown: number, total: number): string {
  return total === 1 ? l10n.t("{0} of 1 row", count.format(shown)) : l10n.t("{0} of {1} rows", count.format(shown), count.format(total));
}

export function stagedText(cells: number, rows: number): string {
  if (!cells) return l10n.t("No staged edits");
  const edits = cells === 1 ? l10n.t("1 staged edit") : l10n.t("{0} staged edits", count.format(cells));
  return rows === 1 ? l10n.t("{0} in 1 record", edits) : l10n.t("{0} in {1} records", edits, count.format(rows));
}
