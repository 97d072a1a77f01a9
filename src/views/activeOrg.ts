/**
 * Which orgs the Objects, Knowledge and Feeds views show: the active one, or every signed-in org grouped
 * by org when `crm.views.showAllOrgs` is on. Sets the `crm.activeOrg` context (none / signedOut / ready)
 * that the views' welcome content keys on, and tells views to start over when that changes.
 */
import * as vscode from "vscode";
import { CommandRefusal } from "../platform/errorMessages";
import type { OrgManager } from "../connections/orgManager";
import type { OrgRecord } from "../connections/orgRegistry";
import type { OrgSession } from "../connections/orgSession";

export class ActiveOrg implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<OrgRecord | undefined>();
  readonly onDidChange = this.changed.event;
  private lastSignature = "";
  private readonly subscription: { dispose(): void };

  constructor(readonly manager: OrgManager, private readonly showAllSetting: () => boolean) {
    this.subscription = manager.registry.onDidChange(() => this.update());
    this.update();
  }

  get showAll(): boolean {
    return this.showAllSetting();
  }

  /** The orgs the views show: every signed-in org with showAllOrgs, else the active one when signed in. */
  shown(): OrgRecord[] {
    if (this.showAll) return this.manager.registry.list().filter((o) => o.signedIn);
    const record = this.record;
    return record?.signedIn ? [record] : [];
  }

  /** The session of an org shown in a view (the active org when no key is given). */
  async sessionFor(key?: string): Promise<OrgSession> {
    return key ? this.manager.session(key) : this.session();
  }

  /** Re-evaluates after a setting change. */
  refresh(): void {
    this.lastSignature = "";
    this.update();
  }

  get record(): OrgRecord | undefined {
    const key = this.manager.registry.activeKey;
    return key ? this.manager.registry.get(key) : undefined;
  }

  /** The active org's session (signing in on first use). */
  async session(): Promise<OrgSession> {
    const record = this.record;
    if (!record) throw new CommandRefusal(vscode.l10n.t("No org is active. Add one with 'CRM: Add Org'."));
    return this.manager.session(record.key);
  }

  private update(): void {
    const record = this.record;
    const state = !record ? "none" : record.signedIn ? "ready" : "signedOut";
    void vscode.commands.executeCommand("setContext", "crm.activeOrg", state);
    const signature = `${record?.key ?? ""}|${state}|${this.showAll ? this.shown().map((o) => o.key).join(",") : ""}`;
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

/** With showAllOrgs, the top node of each org in a view. */
export class OrgRootNode {
  constructor(readonly org: OrgRecord) {}

  toItem(view: string): vscode.TreeItem {
    const item = new vscode.TreeItem(this.org.alias, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `${view}:org:${this.org.key}`;
    item.description = this.org.username;
    item.iconPath = new vscode.ThemeIcon("cloud");
    item.contextValue = "crm.orgRoot";
    return item;
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
