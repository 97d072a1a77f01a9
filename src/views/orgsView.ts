/** The Orgs view: one node per org (alias, kind, user, host, signed-in state, idle); the active one marked, production in warning colour. */
import * as vscode from "vscode";
import { readSettings } from "../platform/settings";
import { methodLabel, type OrgRecord } from "../connections/orgRegistry";
import type { OrgManager } from "../connections/orgManager";
import { guardsWrites } from "../connections/writeGuard";
import { orgDescription } from "./orgLabels";

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
    const item = new vscode.TreeItem(org.alias, vscode.TreeItemCollapsibleState.None);
    item.id = `org:${org.key}`;
    const idleAfter = readSettings().orgsIdleDays;
    item.description = orgDescription(org, Date.now(), idleAfter);
    // Production stands out in the theme's warning colour, whatever else the icon says; so does an org whose writes
    // ask first because its kind could not be read (guardsWrites, the guard's own rule).
    const production = org.kind === "production" || guardsWrites(org);
    const colour = production ? new vscode.ThemeColor("list.warningForeground") : active && org.signedIn ? new vscode.ThemeColor("charts.green") : undefined;
    item.iconPath = new vscode.ThemeIcon(!org.signedIn ? "debug-disconnect" : production ? "warning" : active ? "cloud" : "circle-outline", colour);
    item.contextValue = ["crm.org", org.signedIn ? "signedIn" : "signedOut", active ? "active" : "inactive", guardsWrites(org) ? "guarded" : "unguarded"].join(";");
    const tooltip = new vscode.MarkdownString(undefined, true);
    const kind = org.kind ?? vscode.l10n.t("unknown (writes are confirmed as for production)");
    const signIn = org.signedIn ? methodLabel(org.method) : vscode.l10n.t("{0} (signed out)", methodLabel(org.method));
    const lines = [
      vscode.l10n.t("User: {0}", escape(org.username ?? "—")), vscode.l10n.t("Instance: {0}", escape(org.instanceUrl)), vscode.l10n.t("Org ID: {0}", escape(org.orgId ?? "—")),
      guardsWrites(org) ? vscode.l10n.t("Kind: {0} — every write asks first", kind) : vscode.l10n.t("Kind: {0}", kind),
      vscode.l10n.t("Sign-in: {0}", signIn), vscode.l10n.t("API version: {0}", escape(org.apiVersion ?? vscode.l10n.t("latest"))),
      ...(org.lastUsedAt ? [vscode.l10n.t("Last used: {0} UTC", escape(org.lastUsedAt.slice(0, 16).replace("T", " ")))] : []),
    ];
    tooltip.appendMarkdown(`**${escape(org.alias)}**${active ? ` ${vscode.l10n.t("(active)")}` : ""}\n\n${lines.map((l) => `- ${l}`).join("\n")}`);
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: active ? vscode.l10n.t("{0}, {1} org, {2}, active", org.alias, org.kind ?? "", String(item.description)) : vscode.l10n.t("{0}, {1} org, {2}", org.alias, org.kind ?? "", String(item.description)) };
    if (!active) item.command = { command: "crm.org.setActive", title: vscode.l10n.t("Set Active"), arguments: [node] };
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
