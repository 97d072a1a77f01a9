/** Quick picks whose items are partly known at once and partly on their way from the org. */
import * as vscode from "vscode";

/**
 * Shows `first` and `last` at once and puts the items `later` resolves to between them when they arrive (busy
 * until then): the items that need no request can be picked without waiting a round trip for the others. A
 * failure to load the later items leaves the others to pick from, and says so in the placeholder.
 */
export function pickWhileLoading<T extends vscode.QuickPickItem>(options: { title: string; first: T[]; later: Promise<T[]>; last: T[] }): Promise<T | undefined> {
  const picker = vscode.window.createQuickPick<T>();
  picker.title = options.title;
  picker.items = [...options.first, ...options.last];
  picker.busy = true;
  return new Promise<T | undefined>((resolve) => {
    let settled = false;
    const finish = (item: T | undefined) => {
      if (settled) return;
      settled = true;
      resolve(item);
      picker.dispose();
    };
    options.later.then(
      (items) => {
        const active = picker.activeItems;
        picker.items = [...options.first, ...items, ...options.last];
        // Keep the row the keyboard was on: replacing the items would move the focus to the first.
        picker.activeItems = active;
      },
      (err: unknown) => (picker.placeholder = vscode.l10n.t("Could not load the rest: {0}", (err as Error).message)),
    ).finally(() => (picker.busy = false));
    picker.onDidAccept(() => finish(picker.selectedItems[0]));
    picker.onDidHide(() => finish(undefined));
    picker.show();
  });
}
