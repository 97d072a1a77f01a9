/** The Orgs view: one node per org (alias, user, host, signed-in state); the active one marked. */
import * as vscode from "vscode";
import { METHOD_LABELS, type OrgRecord } from "../connections/orgRegistry";
import type { OrgManager } from "../connections/orgManager";

export class OrgNode {
  constructor(readonly org: OrgRecord, readonly active: boolean) {}
}

export class OrgsTreeProvider implements vscode.TreeDataProvider<OrgNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<OrgNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(private readonly manager: OrgManager) {
    this.subscription = manager.registry.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(element?: OrgNode): OrgNode[] {
    if (element) return [];
    const active = this.manager.registry.activeKey;
    return this.manager.registry.list().map((org) => new OrgNode(org, org.key === active));
  }

  getTreeItem(node: OrgNode): vscode.TreeItem {
    const { org, active } = node;
    const host = new URL(org.instanceUrl).host;
    const item = new vscode.TreeItem(org.alias, vscode.TreeItemCollapsibleState.None);
    item.id = `org:${org.key}`;
    item.description = `${org.username ?? ""}${org.username ? " · " : ""}${host}${org.signedIn ? "" : " · signed out"}`;
    item.iconPath = new vscode.ThemeIcon(!org.signedIn ? "debug-disconnect" : active ? "cloud" : "circle-outline", active && org.signedIn ? new vscode.ThemeColor("charts.green") : undefined);
    item.contextValue = ["crm.org", org.signedIn ? "signedIn" : "signedOut", active ? "active" : "inactive"].join(";");
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${escape(org.alias)}**${active ? " (active)" : ""}\n\n`);
    tooltip.appendMarkdown(`- User: ${escape(org.username ?? "—")}\n- Instance: ${escape(org.instanceUrl)}\n- Org ID: ${escape(org.orgId ?? "—")}\n`);
    tooltip.appendMarkdown(`- Sign-in: ${METHOD_LABELS[org.method]}${org.signedIn ? "" : " (signed out)"}\n- API version: ${escape(org.apiVersion ?? "latest")}`);
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: `${org.alias}, ${org.username ?? ""}, ${host}, ${org.signedIn ? "signed in" : "signed out"}${active ? ", active" : ""}` };
    if (!active) item.command = { command: "crm.org.setActive", title: "Set Active", arguments: [node] };
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
}
