/** The Objects view: Favorites, Standard and Custom objects of the active org; each expands to its details. */
import * as vscode from "vscode";
import { describeError } from "../platform/errorMessages";
import { ActiveOrg, MessageNode } from "./activeOrg";
import { ObjectsModel, typeBadge, type FieldSummary, type GroupName, type SobjectSummary } from "./objectsModel";

export class ObjectGroupNode {
  constructor(readonly group: GroupName) {}
}
export class ObjectNode {
  constructor(readonly object: SobjectSummary, readonly favorite: boolean, readonly group: GroupName) {}
}
export class SectionNode {
  constructor(readonly object: string, readonly section: "fields" | "children" | "recordTypes") {}
}
export class DetailNode {
  constructor(readonly item: vscode.TreeItem) {}
}
type Node = ObjectGroupNode | ObjectNode | SectionNode | DetailNode | MessageNode;

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

export class ObjectsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private model?: ObjectsModel;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly active: ActiveOrg, private readonly favorites: vscode.Memento) {
    this.subscriptions.push(active.onDidChange(() => ((this.model = undefined), this.changed.fire(undefined))));
  }

  /** The model of the active org, created on first use. */
  async current(): Promise<ObjectsModel> {
    if (!this.model) {
      const record = this.active.record!;
      const session = await this.active.session();
      this.model = new ObjectsModel({ describeGlobal: (since) => session.crm.getAllSobjects({ ifModifiedSince: since }), describe: (name) => session.describe(name) }, this.favorites, record.key);
    }
    return this.model;
  }

  refresh(node?: Node): void {
    this.changed.fire(node);
  }

  async reload(): Promise<void> {
    await (await this.current()).objects(true);
    this.changed.fire(undefined);
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!this.active.record?.signedIn) return [];
    try {
      const model = await this.current();
      if (!node) {
        const counts = await vscode.window.withProgress({ location: { viewId: "crm.objects" } }, () => model.counts());
        return (["favorites", "standard", "custom"] as GroupName[]).filter((g) => g !== "favorites" || counts.favorites > 0).map((g) => new ObjectGroupNode(g));
      }
      if (node instanceof ObjectGroupNode) {
        const favorites = new Set(model.favorites());
        const objects = await model.group(node.group);
        if (!objects.length) return [new MessageNode(model.filter ? `No object matches '${model.filter}'` : "No objects", undefined, "info")];
        return objects.map((o) => new ObjectNode(o, favorites.has(o.name), node.group));
      }
      if (node instanceof ObjectNode) {
        return [new SectionNode(node.object.name, "fields"), new SectionNode(node.object.name, "children"), new SectionNode(node.object.name, "recordTypes")];
      }
      if (node instanceof SectionNode) {
        const details = await vscode.window.withProgress({ location: { viewId: "crm.objects" } }, () => model.details(node.object));
        if (node.section === "fields") return details.fields.map((f) => new DetailNode(this.fieldItem(node.object, f)));
        if (node.section === "children") {
          return details.childRelationships.map((r) => {
            const item = new vscode.TreeItem(r.relationshipName);
            item.description = `${r.childSObject}.${r.field}`;
            item.iconPath = new vscode.ThemeIcon("references");
            item.contextValue = "crm.childRelationship";
            return new DetailNode(item);
          });
        }
        return details.recordTypes.map((r) => {
          const item = new vscode.TreeItem(r.name);
          item.description = `${r.developerName}${r.isDefault ? " · default" : ""}`;
          item.tooltip = `Record type ID ${r.id}`;
          item.iconPath = new vscode.ThemeIcon("symbol-class");
          return new DetailNode(item);
        });
      }
      return [];
    } catch (err) {
      const report = describeError(err);
      return report.message ? [new MessageNode(report.message, { command: "crm.objects.refresh", title: "Retry" })] : [];
    }
  }

  private fieldItem(objectName: string, f: FieldSummary): vscode.TreeItem {
    const item = new vscode.TreeItem(f.label);
    const markers = [f.required && "required", f.unique && "unique", f.externalId && "external ID"].filter(Boolean).join(" · ");
    item.description = `${f.name} · ${typeBadge(f)}${markers ? ` · ${markers}` : ""}`;
    item.iconPath = new vscode.ThemeIcon(fieldIcon(f));
    item.contextValue = "crm.field";
    item.id = `field:${objectName}.${f.name}`;
    const tip = new vscode.MarkdownString(`**${f.label}** \`${f.name}\`\n\n- Type: ${typeBadge(f)}\n`);
    if (f.relationshipName) tip.appendMarkdown(`- Relationship: \`${f.relationshipName}\`\n`);
    if (f.picklistValues.length) tip.appendMarkdown(`- Values: ${f.picklistValues.slice(0, 20).join(", ")}${f.picklistValues.length > 20 ? ", …" : ""}\n`);
    if (markers) tip.appendMarkdown(`- ${markers}\n`);
    if (f.helpText) tip.appendMarkdown(`\n${f.helpText}`);
    item.tooltip = tip;
    return item;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node instanceof MessageNode) return node.toItem();
    if (node instanceof DetailNode) return node.item;
    if (node instanceof ObjectGroupNode) {
      const item = new vscode.TreeItem(GROUP_LABELS[node.group], node.group === "favorites" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `group:${node.group}`;
      item.iconPath = new vscode.ThemeIcon(node.group === "favorites" ? "star-full" : node.group === "custom" ? "symbol-misc" : "symbol-namespace");
      item.contextValue = "crm.objectGroup";
      return item;
    }
    if (node instanceof ObjectNode) {
      const item = new vscode.TreeItem(node.object.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `object:${node.group}:${node.object.name}`;
      item.description = node.object.name;
      item.tooltip = `${node.object.label} (${node.object.name})${node.object.keyPrefix ? `\nKey prefix ${node.object.keyPrefix}` : ""}`;
      item.iconPath = new vscode.ThemeIcon(node.favorite ? "star-full" : "symbol-class");
      item.contextValue = `crm.object;${node.favorite ? "favorite" : "plain"}${node.object.queryable ? ";queryable" : ""}`;
      return item;
    }
    const labels = { fields: "Fields", children: "Child Relationships", recordTypes: "Record Types" } as const;
    const item = new vscode.TreeItem(labels[node.section], node.section === "fields" ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `section:${node.object}:${node.section}`;
    item.iconPath = new vscode.ThemeIcon(node.section === "fields" ? "list-flat" : node.section === "children" ? "references" : "symbol-class");
    return item;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
