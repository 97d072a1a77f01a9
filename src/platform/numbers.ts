/** Counts and times as the user reads them, in VS Code's display language (1,234 in English; 1.234 in German). */
import * as l10n from "@vscode/l10n";

let locale: string | undefined;
let formatter: Intl.NumberFormat | undefined;

/** Set at activation from `vscode.env.language`; until then (and in Node tests) the process's own locale. */
export function useLocale(tag: string | undefined): void {
  locale = tag;
  formatter = undefined;
}

/** Built on first use: the first Intl formatter of a process costs about 10 ms, which activation must not pay. */
export const formatCount = (n: number): string => (formatter ??= new Intl.NumberFormat(locale)).format(n);

/** "1 record", "12 records": whole phrases, so a language can word each. */
export const recordsText = (n: number): string => (n === 1 ? l10n.t("1 record") : l10n.t("{0} records", formatCount(n)));
export const rowsText = (n: number): string => (n === 1 ? l10n.t("1 row") : l10n.t("{0} rows", formatCount(n)));

/** A moment, in the user's language and time zone. */
export const formatTime = (time: string | number | Date): string => new Date(time).toLocaleString(locale);
