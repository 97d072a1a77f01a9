/**
 * CRM: Compare Records… — two records of one object, in one org or two (a sandbox and production), side by
 * side in the diff editor as aligned field lists (the fields both can show, differing ones first). The right
 * side is the record's own `crm:` document: copy a value across with the diff editor's arrow and save, and
 * the save goes through the usual conflict check and production guard.
 */
import * as vscode from "vscode";
import { isRecordId } from "../client/ids";
import type { OrgManager } from "../connections/orgManager";
import { compareLayout, recordPath, type CrmFiles } from "../documents/crmFiles";
import { CRM_SCHEME } from "../documents/crmFileSystem";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";

export interface CompareDeps {
  manager: OrgManager;
  files: { files: CrmFiles };
  showDiff(left: { label: string; text: string }, right: vscode.Uri, title: string): Promise<void>;
}

export interface RecordAt {
  orgKey: string;
  id: string;
}

async function pickRecord(manager: OrgManager, step: string, preferredOrg: string | undefined): Promise<RecordAt> {
  const orgs = manager.registry.list().filter((o) => o.signedIn);
  if (!orgs.length) throw new CommandRefusal(vscode.l10n.t("There is no signed-in org. Add one with 'CRM: Add Org'."));
  const first = preferredOrg ?? manager.registry.activeKey;
  const items = [...orgs].sort((a, b) => Number(b.key === first) - Number(a.key === first)).map((o) => ({ label: o.alias, description: o.kind ?? "", detail: o.instanceUrl, key: o.key }));
  const org = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: vscode.l10n.t("{0}: its org", step), matchOnDetail: true });
  if (!org) throw new UserCancelled();
  const id = await vscode.window.showInputBox({
    title: vscode.l10n.t("{0}: its record ID ({1})", step, org.label), prompt: vscode.l10n.t("A 15- or 18-character record ID"), ignoreFocusOut: true,
    validateInput: (v) => (isRecordId(v.trim()) ? undefined : vscode.l10n.t("A record ID has 15 or 18 letters and digits.")),
  });
  if (id === undefined) throw new UserCancelled();
  return { orgKey: org.key, id: id.trim() };
}

export async function compareRecords(deps: CompareDeps, left?: RecordAt, right?: RecordAt): Promise<void> {
  left ??= await pickRecord(deps.manager, vscode.l10n.t("Compare Records (1/2) the record to compare with"), undefined);
  right ??= await pickRecord(deps.manager, vscode.l10n.t("Compare Records (2/2) the record to edit"), left.orgKey);
  const [leftSession, rightSession] = await Promise.all([deps.manager.session(left.orgKey), deps.manager.session(right.orgKey)]);
  const [leftObject, rightObject] = await Promise.all([leftSession.schema.objectOfId(left.id), rightSession.schema.objectOfId(right.id)]);
  if (!leftObject || !rightObject) throw new CommandRefusal(vscode.l10n.t("No object of {0} or {1} has IDs starting {2}.", leftSession.record.alias, rightSession.record.alias, (leftObject ? right : left).id.slice(0, 3)));
  if (leftObject.name !== rightObject.name) throw new CommandRefusal(vscode.l10n.t("Both records must be of one object: {0} is {1}, {2} is {3}.", left.id, leftObject.label, right.id, rightObject.label));
  const sobject = rightObject.name;
  const [leftDescribe, rightDescribe] = await Promise.all([leftSession.schema.describe(sobject), rightSession.schema.describe(sobject)]);
  const readable = new Set((leftDescribe.fields ?? []).map((f) => f.name));
  // The right side's document fields (what it can save) that the left side can read.
  const fields = (rightDescribe.fields ?? []).filter((f) => f.updateable && !f.calculated && f.type !== "base64" && readable.has(f.name)).map((f) => f.name);
  const [leftValues, rightValues] = await Promise.all([
    leftSession.crm.getSobjectRecord(sobject, left.id, { fields }),
    rightSession.crm.getSobjectRecord(sobject, right.id, { fields }),
  ]);
  const layout = compareLayout(leftValues, rightValues, fields);
  const path = recordPath(rightSession.record.alias, sobject, right.id);
  deps.files.files.orderFields(path, layout.order);
  const leftName = `${leftSession.record.alias} ${sobject} ${left.id}`;
  await deps.showDiff({ label: `${leftName}.json`, text: layout.leftText }, vscode.Uri.from({ scheme: CRM_SCHEME, path }),
    layout.differing.length === 1
      ? vscode.l10n.t("{0} ↔ {1} {2} (1 differing field first)", leftName, rightSession.record.alias, right.id)
      : vscode.l10n.t("{0} ↔ {1} {2} ({3} differing fields first)", leftName, rightSession.record.alias, right.id, layout.differing.length));
}
