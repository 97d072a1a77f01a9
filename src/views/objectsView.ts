/** The Objects view: Favorites, Standard and Custom objects of the active org; each expands to its details. */
import * as vscode from "vscode";
import { ActiveOrg, MessageNode } from "./activeOrg";
import { PerOrgTreeProvider } from "./perOrgTree";
import { fieldMarkers, typeBadge, type FieldSummary, type SobjectSummary } from "../connections/schema";
import { ObjectsModel, type GroupName } from "./objectsModel";

export class ObjectGroupNode {
  constructor(readonly group: GroupName, readonly orgKey: string) {}
}
export class ObjectNode {
  constructor(readonly object: SobjectSummary, readonly favorite: boolean, readonly group: GroupName, readonly orgKey: string) {}
}
export class SectionNode {
  constructor(readonly object: string, readonly section: "fields" | "children" | "recordTypes", readonly orgKey: string) {}
}
export class DetailNode {
  constructor(readonly item: vscode.TreeItem, readonly orgKey: string) {}
}
type Node = ObjectGroupNode | ObjectNode | SectionNode | DetailNode;

const GROUP_LABELS: Record<GroupName, string> = { favorites: "Favorites", standard: "Standard", custom: "Custom" };

function fieldIcon(f: FieldSummary): string {
  switch (f.type) {
    case "id": return "key";
    case "reference": return "link";
    case "boolean": return "symbol-boolean";
    case "int": case "double": case "currency": case "percent": return "symbol-number";
    case "date": case "datetime": case "time": return "calendar";
    case "picklist": case "multipicklist": return "symbol-enum";
    case "email": return "mail";
    case "url": return "globe";
    case "phone": return "device-mobile";
    default: return "symbol-field";
  }
}

export class ObjectsTreeProvider extends PerOrgTreeProvider<Node, ObjectsModel> {
  constructor(active: ActiveOrg, private readonly favorites: vscode.Memento) {
    super(active, "objects", "crm.objects.refresh");
    // A revalidated or cleared schema (Refresh, Clear Describe Cache) redraws what it shows.
    this.subscriptions.push(active.manager.onDidChangeSchema(() => this.changes.fire(undefined)));
  }

  protected async createModel(key: string): Promise<ObjectsModel> {
    const session = await this.active.sessionFor(key);
    const model = new ObjectsModel(session.schema, this.favorites, key);
    model.filter = this.filterText;
    return model;
  }

  refresh(node?: Node): void {
    this.changes.fire(node);
  }

  /** Revalidates the schema of every org shown (a 304 for each unchanged describe). */
  async reload(): Promise<void> {
    await Promise.all(this.active.shown().map(async (o) => (await this.active.sessionFor(o.key)).schema.refresh()));
    this.changes.fire(undefined);
  }

  /** The filter applies to every org's groups. */
  private filterText = "";
  get filter(): string {
    return this.filterText;
  }
  set filter(text: string) {
    this.filterText = text;
    for (const model of this.models.existing()) model.filter = text;
  }

  protected async topNodes(orgKey: string, model: ObjectsModel): Promise<Node[]> {
    const counts = await this.withProgress(() => model.counts());
    return (["favorites", "standard", "custom"] as GroupName[]).filter((g) => g !== "favorites" || counts.favorites > 0).map((g) => new ObjectGroupNode(g, orgKey));
  }

  protected async childrenOf(node: Node, model: ObjectsModel): Promise<(Node | MessageNode)[]> {
    const orgKey = node.orgKey;
    if (node instanceof ObjectGroupNode) {
      const favorites = new Set(model.favorites());
      const objects = await model.group(node.group);
      if (!objects.length) return [new MessageNode(model.filter ? vscode.l10n.t("No object matches '{0}'", model.filter) : vscode.l10n.t("No objects"), undefined, "info")];
      return objects.map((o) => new ObjectNode(o, favorites.has(o.name), node.group, orgKey));
    }
    if (node instanceof ObjectNode) return (["fields", "children", "recordTypes"] as const).map((section) => new SectionNode(node.object.name, section, orgKey));
    if (!(node instanceof SectionNode)) return [];
    const details = await this.withProgress(() => model.schema.details(node.object));
    if (node.section === "fields") return details.fields.map((f) => new DetailNode(this.fieldItem(`${orgKey}:${node.object}`, f), orgKey));
    if (node.section === "children") {
      return details.childRelationships.map((r) => {
        const item = new vscode.TreeItem(r.relationshipName);
        item.description = `${r.childSObject}.${r.field}`;
        item.iconPath = new vscode.ThemeIcon("references");
        item.contextValue = "crm.childRelationship";
        return new DetailNode(item, orgKey);
      });
    }
    return details.recordTypes.map((r) => {
      const item = new vscode.TreeItem(r.name);
      item.description = `${r.developerName}${r.isDefault ? " · default" : ""}`;
      item.tooltip = vscode.l10n.t("Record type ID {0}", r.id);
      item.iconPath = new vscode.ThemeIcon("symbol-class");
      return new DetailNode(item, orgKey);
    });
  }

  private fieldItem(objectName: string, f: FieldSummary): vscode.TreeItem {
    const item = new vscode.TreeItem(f.label);
    const markers = fieldMarkers(f).join(" · ");
    item.description = [f.name === f.label ? "" : f.name, typeBadge(f), markers].filter(Boolean).join(" · ");
    item.iconPath = new vscode.ThemeIcon(fieldIcon(f));
    item.contextValue = "crm.field";
    item.id = `field:${objectName}.${f.name}`;
    const tip = new vscode.MarkdownString(`**${f.label}** \`${f.name}\`\n\n${vscode.l10n.t("- Type: {0}", typeBadge(f))}\n`);
    if (f.relationshipName) tip.appendMarkdown(`${vscode.l10n.t("- Relationship: `{0}`", f.relationshipName)}\n`);
    if (f.picklistValues.length) tip.appendMarkdown(`${vscode.l10n.t("- Values: {0}", `${f.picklistValues.slice(0, 20).join(", ")}${f.picklistValues.length > 20 ? ", …" : ""}`)}\n`);
    if (markers) tip.appendMarkdown(`- ${markers}\n`);
    if (f.helpText) tip.appendMarkdown(`\n${f.helpText}`);
    item.tooltip = tip;
    return item;
  }

  protected itemOf(node: Node): vscode.TreeItem {
    if (node instanceof DetailNode) return node.item;
    if (node instanceof ObjectGroupNode) {
      const item = new vscode.TreeItem(GROUP_LABELS[node.group], node.group === "favorites" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `group:${node.orgKey}:${node.group}`;
      item.iconPath = new vscode.ThemeIcon(node.group === "favorites" ? "star-full" : node.group === "custom" ? "symbol-misc" : "symbol-namespace");
      item.contextValue = "crm.objectGroup";
      return item;
    }
    if (node instanceof ObjectNode) {
      const item = new vscode.TreeItem(node.object.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `object:${node.orgKey}:${node.group}:${node.object.name}`;
      // The API name only where it says more than the label ("Invoice" · Invoice__c, not "Account" · Account).
      item.description = node.object.name === node.object.label ? undefined : node.object.name;
      const names = `${node.object.label} (${node.object.name})`;
      item.tooltip = node.object.keyPrefix ? `${names}\n${vscode.l10n.t("Key prefix {0}", node.object.keyPrefix)}` : names;
      item.iconPath = new vscode.ThemeIcon(node.favorite ? "star-full" : "symbol-class");
      item.contextValue = `crm.object;${node.favorite ? "favorite" : "plain"}${node.object.queryable ? ";queryable" : ""}`;
      return item;
    }
    const labels = { fields: "Fields", children: "Child Relationships", recordTypes: "Record Types" } as const;
    const item = new vscode.TreeItem(labels[node.section], node.section === "fields" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `section:${node.orgKey}:${node.object}:${node.section}`;
    item.iconPath = new vscode.ThemeIcon(node.section === "fields" ? "list-flat" : node.section === "children" ? "references" : "symbol-class");
    return item;
  }
}
