/** Asking for bind variables' values (`:name`), one input box each, the last values offered again: for SOQL documents and notebooks alike. */
import * as vscode from "vscode";

/** The values given, by name; undefined when the person cancels (nothing runs). */
export async function askBindValues(names: readonly string[], remembered: Record<string, string>): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t("Value for :{0} ({1} of {2})", name, i + 1, names.length), value: remembered[name] ?? "", ignoreFocusOut: true,
      prompt: vscode.l10n.t("A number, true/false, a date (2026-01-31), TODAY or LAST_N_DAYS:7 as they are; any other text is quoted for you. After IN: values separated by commas."),
    });
    if (value === undefined) return undefined;
    values[name] = value;
  }
  return values;
}
