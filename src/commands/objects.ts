/** Objects commands: refresh, filter, favorites, describe (read-only JSON), new SOQL query, copy name, open in Setup. */
import * as vscode from "vscode";
import type { RunSpec } from "../shared/runSpec";
import { UserCancelled } from "../platform/errorMessages";
import type { ActiveOrg } from "../views/activeOrg";
import { ObjectNode, type ObjectsTreeProvider } from "../views/objectsView";
import type { CommandId } from "./commandIds";
import { DESCRIBE_SCHEME } from "../views/describeDocuments";

/** The org a node belongs to (undefined: the active org). */
const orgOf = (arg: unknown) => (arg instanceof ObjectNode ? arg.orgKey : undefined);

async function resolveObject(provider: ObjectsTreeProvider, arg: unknown): Promise<string> {
  if (arg instanceof ObjectNode) return arg.object.name;
  const objects = await (await provider.current()).schema.objects();
  const picked = await vscode.window.showQuickPick(objects.map((o) => ({ label: o.label, description: o.name, name: o.name })), { title: vscode.l10n.t("Which object?"), matchOnDescription: true });
  if (!picked) throw new UserCancelled();
  return picked.name;
}

/** `pinDocument` ties a new SOQL document to the org it was started from; `exportRecords` writes a statement's rows to a file. */
export function objectCommands(active: ActiveOrg, provider: ObjectsTreeProvider, pinDocument: (uri: vscode.Uri, orgKey: string) => Promise<void>, exportRecords: (orgKey: string, spec: RunSpec) => Promise<void>): Record<Extract<CommandId, `crm.objects.${string}`>, (...args: unknown[]) => unknown> {
  return {
    "crm.objects.refresh": () => provider.reload(),
    "crm.objects.filter": async () => {
      const text = await vscode.window.showInputBox({ title: vscode.l10n.t("Filter objects"), prompt: vscode.l10n.t("Part of an object's label or API name"), value: provider.filter });
      if (text === undefined) throw new UserCancelled();
      provider.filter = text.trim();
      await vscode.commands.executeCommand("setContext", "crm.objectsFiltered", Boolean(provider.filter));
      provider.refresh();
    },
    "crm.objects.clearFilter": async () => {
      provider.filter = "";
      await vscode.commands.executeCommand("setContext", "crm.objectsFiltered", false);
      provider.refresh();
    },
    "crm.objects.addFavorite": async (arg) => {
      await (await provider.current(orgOf(arg))).setFavorite(await resolveObject(provider, arg), true);
      provider.refresh();
    },
    "crm.objects.removeFavorite": async (arg) => {
      await (await provider.current(orgOf(arg))).setFavorite(await resolveObject(provider, arg), false);
      provider.refresh();
    },
    "crm.objects.describe": async (arg) => {
      const name = await resolveObject(provider, arg);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: DESCRIBE_SCHEME, path: `/${name}.json`, query: orgOf(arg) ?? "" }));
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    "crm.objects.newQuery": async (arg) => {
      const name = await resolveObject(provider, arg);
      const orgKey = orgOf(arg);
      const content = await (await provider.current(orgKey)).schema.starterQuery(name);
      const document = await vscode.workspace.openTextDocument({ language: "soql", content });
      // A query started from another org's node (all orgs shown) runs on that org.
      if (orgKey) await pinDocument(document.uri, orgKey);
      await vscode.window.showTextDocument(document);
    },
    "crm.objects.exportRecords": async (arg) => {
      const name = await resolveObject(provider, arg);
      const orgKey = orgOf(arg) ?? (await active.session()).record.key;
      const { fields } = await (await provider.current(orgKey)).schema.details(name);
      // Compound and binary fields cannot be exported row by row (nor by a Bulk job): their parts can.
      const exportable = fields.filter((f) => !["address", "location", "base64"].includes(f.type)).map((f) => f.name);
      await exportRecords(orgKey, { api: "soql", text: `SELECT ${exportable.join(", ")} FROM ${name}` });
    },
    "crm.objects.copyApiName": async (arg) => {
      const name = await resolveObject(provider, arg);
      await vscode.env.clipboard.writeText(name);
      vscode.window.setStatusBarMessage(vscode.l10n.t("Copied {0}", name), 3000);
    },
    "crm.objects.openInSetup": async (arg) => {
      const name = await resolveObject(provider, arg);
      const key = orgOf(arg);
      const record = key ? active.manager.registry.get(key)! : active.record!;
      await vscode.env.openExternal(vscode.Uri.parse(`${record.instanceUrl}/lightning/setup/ObjectManager/${encodeURIComponent(name)}/Details/view`));
    },
  };
}
