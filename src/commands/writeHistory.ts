/**
 * CRM: Show Write History — every write the extension made, newest first, searchable; an entry opens its
 * records, copies its details, or is reverted: its before values are staged in a results grid over the same
 * records (read afresh), to review and commit like any edit. Records changed since that write are left out.
 */
import { CommandRefusal } from "../platform/errorMessages";
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import { revertPlan, WriteJournal, type JournalEntry } from "../connections/writeJournal";
import { currentRecords } from "../client/records";
import { soqlLiteral } from "../client/soql-text";
import { formatCount, formatTime, recordsText } from "../platform/numbers";
import type { ResultsPanels } from "../webviews/resultsPanel";
import { resultsTarget } from "../webviews/resultsPanel";
import type { QueryRun } from "../webviews/queryRun";

export interface HistoryDeps {
  manager: OrgManager;
  journal: () => Promise<WriteJournal>;
  results: ResultsPanels;
  /** Work to do on a results run once it is read (staging a revert's values). */
  openId: (orgKey: string, id: string) => Promise<void>;
}

const ICONS: Record<string, string> = { created: "add", updated: "edit", deleted: "trash", published: "cloud-upload", archived: "archive", posted: "comment", commented: "comment-discussion", written: "save" };


function detailOf(entry: JournalEntry): string {
  const failed = entry.records.filter((r) => !r.ok);
  const fields = [...new Set(entry.records.flatMap((r) => Object.keys(r.after ?? {})))];
  const parts = [recordsText(entry.records.length)];
  if (entry.by === "agent") parts.unshift(vscode.l10n.t("by an agent"));
  if (failed.length) parts.push(vscode.l10n.t("{0} refused: {1}", formatCount(failed.length), failed[0]!.error ?? ""));
  if (fields.length) parts.push(fields.slice(0, 8).join(", "));
  if (entry.records.some((r) => r.before)) parts.push(vscode.l10n.t("revertible"));
  return parts.join(" · ");
}

const revertible = (entry: JournalEntry) => (entry.migration ? !entry.migration.reverted : !!entry.object && entry.records.some((r) => r.ok && r.id && r.before && r.after));

/** Stages an entry's before values in a results grid over its records, after checking them against the org. */
export async function revertEntry(deps: HistoryDeps, entry: JournalEntry): Promise<void> {
  // A migration run is taken back as a whole: its inserts deleted, its updates restored.
  if (entry.migration) return void (await vscode.commands.executeCommand("crm.migration.revert", entry));
  if (!revertible(entry)) throw new CommandRefusal(vscode.l10n.t("This write cannot be reverted here: the history holds no earlier values for it (only grid commits and document saves record them)."));
  const session = await deps.manager.session(entry.orgKey);
  const records = entry.records.filter((r) => r.ok && r.id && r.before);
  const fields = [...new Set(records.flatMap((r) => Object.keys(r.before!)))];
  const ids = records.map((r) => r.id!);
  // The history is a file on disk: its object, fields and IDs are checked (by currentRecords) before the grid's statement is made of them.
  const current = await currentRecords(session.crm, entry.object!, ids, fields);
  const text = `SELECT Id, ${fields.join(", ")} FROM ${entry.object} WHERE Id IN (${ids.map(soqlLiteral).join(", ")})`;
  const plan = revertPlan(entry, current);
  if (!plan.restore.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t("Nothing to revert: every record of “{0}” changed in the org since ({1}).", entry.summary, plan.changedSince.map((c) => c.id).join(", ")));
    return;
  }
  const source = `revert:${entry.id}`;
  const stage = (run: QueryRun) => {
    let staged = 0;
    for (const restore of plan.restore) {
      const index = run.table.records.findIndex((r) => String(r.Id).slice(0, 15) === restore.id.slice(0, 15));
      if (index < 0) continue;
      for (const [field, value] of Object.entries(restore.fields)) {
        const column = run.table.columns.findIndex((c) => c.path.toLowerCase() === field.toLowerCase());
        if (column >= 0 && run.table.columns[column]!.editor && (value === null || typeof value !== "object")) {
          run.edits.stageValue(index, column, value as string | number | boolean | null);
          staged++;
        }
      }
    }
    const changed = plan.changedSince.map((c) => `${c.id} (${c.fields.length ? c.fields.join(", ") : vscode.l10n.t("deleted")})`).join("; ");
    const left = plan.changedSince.length ? ` ${vscode.l10n.t("Left out, changed in the org since: {0}.", changed)}` : "";
    const said = staged === 1
      ? vscode.l10n.t("Staged 1 value from before “{0}” ({1}). Review Changes, then Commit to restore them.", entry.summary, formatTime(entry.time))
      : vscode.l10n.t("Staged {0} values from before “{1}” ({2}). Review Changes, then Commit to restore them.", formatCount(staged), entry.summary, formatTime(entry.time));
    return `${said}${left}`;
  };
  deps.results.open(resultsTarget(entry.orgKey, source, { api: "soql", text }), { onFirstRun: stage });
}

interface EntryItem extends vscode.QuickPickItem {
  entry: JournalEntry;
}

export function historyCommands(deps: HistoryDeps) {
  return {
    "crm.history.show": async () => {
      const journal = await deps.journal();
      const entries = journal.list();
      if (!entries.length) {
        void vscode.window.showInformationMessage(vscode.l10n.t("No writes yet: grid commits, document saves, imports, knowledge actions and posts are listed here once made."));
        return;
      }
      const revertButton = { iconPath: new vscode.ThemeIcon("discard"), tooltip: vscode.l10n.t("Revert (stage the earlier values for review)") };
      const picker = vscode.window.createQuickPick<EntryItem>();
      picker.title = vscode.l10n.t("Write History");
      picker.placeholder = vscode.l10n.t("Search by object, field, value, record ID or org");
      picker.matchOnDescription = true;
      picker.matchOnDetail = true;
      picker.items = entries.map((entry) => ({
        entry,
        label: `$(${entry.by === "agent" ? "sparkle" : ICONS[entry.kind] ?? "save"}) ${entry.summary}`,
        description: `${entry.alias} · ${formatTime(entry.time)}`,
        // The IDs and values are searchable too.
        detail: `${detailOf(entry)} · ${entry.records.slice(0, 3).map((r) => r.id).filter(Boolean).join(", ")}`,
        buttons: revertible(entry) ? [revertButton] : [],
      }));
      const chosen = await new Promise<{ item: EntryItem; revert: boolean } | undefined>((resolve) => {
        picker.onDidTriggerItemButton((e) => resolve({ item: e.item, revert: true }));
        picker.onDidAccept(() => resolve(picker.selectedItems[0] ? { item: picker.selectedItems[0], revert: false } : undefined));
        picker.onDidHide(() => resolve(undefined));
        picker.show();
      });
      picker.dispose();
      if (!chosen) return;
      const { entry } = chosen.item;
      if (chosen.revert) return revertEntry(deps, entry);
      const actions = [
        ...(revertible(entry) ? [{ label: `$(discard) ${vscode.l10n.t("Revert…")}`, description: vscode.l10n.t("stage the earlier values in a grid to review and commit"), id: "revert" }] : []),
        ...(entry.records.some((r) => r.id) ? [{ label: `$(go-to-file) ${vscode.l10n.t("Open Records")}`, description: recordsText(Math.min(entry.records.length, 20)), id: "open" }] : []),
        { label: `$(copy) ${vscode.l10n.t("Copy Details as JSON")}`, id: "copy" },
      ];
      const action = await vscode.window.showQuickPick(actions, { title: entry.summary, placeHolder: `${entry.alias} · ${formatTime(entry.time)}` });
      if (action?.id === "revert") return revertEntry(deps, entry);
      if (action?.id === "open") for (const r of entry.records.filter((r) => r.id).slice(0, 20)) await deps.openId(entry.orgKey, r.id!);
      if (action?.id === "copy") {
        await vscode.env.clipboard.writeText(JSON.stringify(entry, null, 2));
        vscode.window.setStatusBarMessage(vscode.l10n.t("Write details copied"), 3000);
      }
    },
    "crm.history.clear": async () => {
      const clear = vscode.l10n.t("Clear");
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t("Clear the write history of every org? The org's data is not changed."), { modal: true }, clear);
      if (choice === clear) (await deps.journal()).clear();
    },
  };
}
