/**
 * The org the Objects and Knowledge views show: the active one. Sets the `crm.activeOrg` context
 * (none / signedOut / ready) that the views' welcome content keys on, and tells views to start over
 * when the active org or its sign-in state changes.
 */
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import type { OrgRecord } from "../connections/orgRegistry";
import type { OrgSession } from "../connections/orgSession";

export class ActiveOrg implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<OrgRecord | undefined>();
  readonly onDidChange = this.changed.event;
  private lastSignature = "";
  private readonly subscription: { dispose(): void };

  constructor(readonly manager: OrgManager) {
    this.subscription = manager.registry.onDidChange(() => this.update());
    this.update();
  }

  get record(): OrgRecord | undefined {
    const key = this.manager.registry.activeKey;
    return key ? this.manager.registry.get(key) : undefined;
  }

  /** The active org's session (signing in on first use). */
  async session(): Promise<OrgSession> {
    const record = this.record;
    if (!record) throw new Error("No org is active. Add one with 'CRM: Add Org'.");
    return this.manager.session(record.key);
  }

  private update(): void {
    const record = this.record;
    const state = !record ? "none" : record.signedIn ? "ready" : "signedOut";
    void vscode.commands.executeCommand("setContext", "crm.activeOrg", state);
    const signature = `${record?.key ?? ""}|${state}`;
    if (signature !== this.lastSignature) {
      this.lastSignature = signature;
      this.changed.fire(record);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** A node that says what went wrong instead of a pop-up from getChildren, with a retry. */
export class MessageNode {
  constructor(readonly message: string, readonly retry?: vscode.Command, readonly icon = "error") {}

  toItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.message, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon(this.icon, this.icon === "error" ? new vscode.ThemeColor("errorForeground") : undefined);
    item.tooltip = this.retry ? `${this.message}\n\nClick to retry.` : this.message;
    item.command = this.retry;
    item.contextValue = "crm.message";
    return item;
  }
}
