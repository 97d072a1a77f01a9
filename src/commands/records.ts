/** Record commands: access check, 15→18 ID, create and update a record from its describe, SOSL search. */
import * as vscode from "vscode";
import { get18CharId, isRecordId } from "../client/ids";
import { escapeSoslTerm } from "../client/soql-text";
import { UserCancelled } from "../platform/errorMessages";
import type { ActiveOrg } from "../views/activeOrg";
import type { FieldSummary, SobjectSummary } from "../connections/schema";
import { ObjectNode } from "../views/objectsView";
import { coerceFieldValue } from "../views/recordValues";
import type { CommandId } from "./commandIds";

async function askId(title: string, value?: string): Promise<string> {
  const id = await vscode.window.showInputBox({ title, value, ignoreFocusOut: true, validateInput: (v) => (isRecordId(v.trim()) ? undefined : vscode.l10n.t("A 15- or 18-character record ID (letters and digits)")) });
  if (!id) throw new UserCancelled();
  return id.trim();
}

/** Asks a field's value with the right control: a pick for picklists and booleans, text otherwise. */
async function askValue(field: FieldSummary, title: string): Promise<unknown> {
  if (field.type === "boolean") {
    const picked = await vscode.window.showQuickPick(["true", "false"], { title });
    if (!picked) throw new UserCancelled();
    return picked === "true";
  }
  if (field.type === "picklist" && field.picklistValues.length) {
    const picked = await vscode.window.showQuickPick(field.picklistValues, { title });
    if (!picked) throw new UserCancelled();
    return picked;
  }
  const hint = field.type === "reference" ? vscode.l10n.t("the ID of a {0}", field.referenceTo.join(" | ")) : field.type === "date" ? "YYYY-MM-DD" : field.type;
  const text = await vscode.window.showInputBox({
    title, prompt: `${field.label} (${hint})`, ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        coerceFieldValue(field, v);
        return field.required && !v.trim() ? vscode.l10n.t("{0} is required", field.label) : undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
  if (text === undefined) throw new UserCancelled();
  return coerceFieldValue(field, text);
}

/** `showSearch` runs a SOSL statement into the results panel. */
export function recordCommands(active: ActiveOrg, showSearch: (orgKey: string, sosl: string) => void): Record<Extract<CommandId, `crm.record.${string}`>, (...args: unknown[]) => unknown> {
  const crm = async () => (await active.session()).crm;

  async function pickObject(title: string, filter: (o: SobjectSummary) => boolean): Promise<string> {
    const all = await (await active.session()).schema.objects();
    const picked = await vscode.window.showQuickPick(all.filter(filter).map((o) => ({ label: o.label, description: o.name, name: o.name })), { title, matchOnDescription: true });
    if (!picked) throw new UserCancelled();
    return picked.name;
  }

  return {
    "crm.record.checkAccess": async () => {
      const recordId = await askId(vscode.l10n.t("Check access to record"));
      const who = await vscode.window.showQuickPick([{ label: vscode.l10n.t("Me"), me: true }, { label: vscode.l10n.t("Another user…"), me: false }], { title: vscode.l10n.t("Whose access?") });
      if (!who) throw new UserCancelled();
      const c = await crm();
      let userId: string | undefined;
      let userName = "You";
      if (!who.me) {
        const users = (await c.feed.getUsers()).users.map((u) => ({ label: u.name, description: u.title ?? "", u }));
        const picked = await vscode.window.showQuickPick(users, { title: vscode.l10n.t("Which user?") });
        if (!picked) throw new UserCancelled();
        userId = picked.u.id;
        userName = picked.u.name;
      }
      const access = await c.checkUserRecordAccess(recordId, userId);
      const mark = (v: boolean | null) => (v === null ? "unknown" : v ? "yes" : "no");
      const table = [vscode.l10n.t("Read: {0}", mark(access.HasReadAccess)), vscode.l10n.t("Edit: {0}", mark(access.HasEditAccess)), vscode.l10n.t("Delete: {0}", mark(access.HasDeleteAccess))].join("\n");
      await vscode.window.showInformationMessage(vscode.l10n.t("{0}: access to {1}", userName, recordId), { modal: true, detail: access.HasReadAccess === null ? `${table}\n\n${vscode.l10n.t("The record was not found, or the running user cannot see it.")}` : table });
    },
    "crm.record.convertId": async () => {
      const id = await askId(vscode.l10n.t("Convert a record ID to 18 characters"));
      const long = get18CharId(id);
      const copy = vscode.l10n.t("Copy");
      const choice = await vscode.window.showInformationMessage(`${id} → ${long}`, copy);
      if (choice === copy) await vscode.env.clipboard.writeText(long);
    },
    "crm.record.create": async (node) => {
      const orgKey = node instanceof ObjectNode ? node.orgKey : undefined;
      const objectName = node instanceof ObjectNode ? node.object.name : await pickObject(vscode.l10n.t("Create a record of which object?"), (o) => o.createable);
      const { fields } = await (await active.sessionFor(orgKey)).schema.details(objectName);
      const required = fields.filter((f) => f.required);
      const values: Record<string, unknown> = {};
      for (const [i, field] of required.entries()) values[field.name] = await askValue(field, vscode.l10n.t("New {0} ({1}/{2}): {3}", objectName, i + 1, required.length, field.label));
      const created = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Creating the {0}", objectName) }, async () => (await active.sessionFor(orgKey)).crm.createSobjectRecord(objectName, values));
      const copyId = vscode.l10n.t("Copy ID");
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t("Created {0} {1}.", objectName, created.id), copyId);
      if (choice === copyId) await vscode.env.clipboard.writeText(created.id);
      return created.id;
    },
    "crm.record.update": async () => {
      const recordId = await askId(vscode.l10n.t("Update which record (ID)?"));
      const session = await active.session();
      const c = session.crm;
      const objectName = (await session.schema.objectOfId(recordId))?.name;
      if (!objectName) throw new RangeError(vscode.l10n.t("No object of this org has the key prefix {0} (from {1})", recordId.slice(0, 3), recordId));
      const { fields } = await session.schema.details(objectName);
      const record = await c.getSobjectRecord(objectName, recordId);
      const field = await vscode.window.showQuickPick(fields.filter((f) => f.updateable).map((f) => ({ label: f.label, description: `${f.name} = ${JSON.stringify(record[f.name] ?? null)}`, f })), { title: vscode.l10n.t("Update {0} {1}: which field?", objectName, recordId), matchOnDescription: true });
      if (!field) throw new UserCancelled();
      const value = await askValue(field.f, vscode.l10n.t("{0} of {1} {2}", field.f.label, objectName, recordId));
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Updating {0}", objectName) }, () =>
        c.updateSobjectRecord(objectName, recordId, { [field.f.name]: value }, { ifUnmodifiedSince: new Date(String(record.LastModifiedDate).replace(/\+0000$/, "Z")) }));
      vscode.window.setStatusBarMessage(vscode.l10n.t("Updated {0} of {1}", field.f.label, recordId), 3000);
    },
    "crm.record.search": async () => {
      const text = await vscode.window.showInputBox({ title: vscode.l10n.t("Search the org (SOSL)"), prompt: vscode.l10n.t("Words to find, or a whole SOSL statement starting with FIND"), ignoreFocusOut: true, validateInput: (v) => (v.trim().replace(/[*?]/g, "").length >= 2 ? undefined : vscode.l10n.t("At least two characters")) });
      if (!text) throw new UserCancelled();
      const sosl = /^\s*FIND\s/i.test(text) ? text : `FIND {${escapeSoslTerm(text.trim())}}`;
      showSearch((await active.session()).record.key, sosl);
    },
  };
}
