/** The active org and its live API usage in the status bar; hidden while no org exists. */
import * as vscode from "vscode";
import { statusText } from "../platform/statusText";
import type { OrgManager } from "./orgManager";
import { guardsWrites } from "./writeGuard";

export class OrgStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("crm.activeOrg", vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: { dispose(): void }[] = [];

  constructor(private readonly manager: OrgManager) {
    this.item.name = "CRM: Active Org";
    this.item.command = "crm.org.switch";
    this.subscriptions.push(manager.registry.onDidChange(() => this.update()), manager.onDidChangeApiUsage(() => this.update()));
    this.update();
  }

  update(): void {
    const key = this.manager.registry.activeKey;
    const record = key ? this.manager.registry.get(key) : undefined;
    if (!record) {
      this.item.hide();
      return;
    }
    const view = statusText(record.alias, this.manager.apiUsage(record.key), record.signedIn, { kind: record.kind, guarded: guardsWrites(record) });
    this.item.text = view.text;
    // Plain text first (an alias may contain Markdown), then links trusted for these two commands only.
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendText(view.tooltip);
    tooltip.appendMarkdown(`\n\n[$(info) ${vscode.l10n.t("Limits and user")}](command:crm.org.showInfo) · [$(arrow-swap) ${vscode.l10n.t("Switch org")}](command:crm.org.switch)`);
    tooltip.isTrusted = { enabledCommands: ["crm.org.showInfo", "crm.org.switch"] };
    this.item.tooltip = tooltip;
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    this.item.accessibilityInformation = { label: view.tooltip };
    this.item.show();
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.item.dispose();
  }
}
