/**
 * CRM: Import Data… — a CSV file loaded into an object through Bulk API 2.0: columns matched to fields (the
 * match can be changed), a dry run against the describe before anything is sent, a job with progress and
 * cancel, and the org's successful and failed rows written beside the file.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { IngestOperation, IngestResult, SObjectDescribe } from "../client";
// The errors module, not the client's entry: loading the extension must not load the HTTP stack.
import { BulkJobError, CancelledError } from "../client/errors";
import { parseCsv } from "../client/csv";
import type { OrgChange } from "../connections/changes";
import { dryRun, loadableFields, mapColumns, mappedCsv, resultCsv, type ColumnMapping } from "../connections/dataImport";
import type { Log } from "../platform/log";
import { formatCount } from "../platform/numbers";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { withCancellableProgress } from "../platform/progress";
import type { ActiveOrg } from "../views/activeOrg";
import type { CommandId } from "./ids";

const operations = (): { label: string; operation: IngestOperation; detail: string }[] => [
  { label: vscode.l10n.t("Insert"), operation: "insert", detail: vscode.l10n.t("Create a record from each row") },
  { label: vscode.l10n.t("Update"), operation: "update", detail: vscode.l10n.t("Change the records an Id column names") },
  { label: vscode.l10n.t("Upsert"), operation: "upsert", detail: vscode.l10n.t("Update the record an external ID names, or create it") },
  { label: vscode.l10n.t("Delete"), operation: "delete", detail: vscode.l10n.t("Delete the records an Id column names (they go to the Recycle Bin)") },
];

/** Shows the mapping and lets each column be pointed at another field (or at none) until accepted. */
async function confirmMapping(mapping: ColumnMapping[], describe: SObjectDescribe, operation: IngestOperation): Promise<ColumnMapping[]> {
  const fields = loadableFields(describe, operation);
  for (;;) {
    type Item = vscode.QuickPickItem & { index?: number };
    const unmatched = mapping.filter((m) => !m.field).map((m) => m.column);
    const items: Item[] = [
      { label: `$(check) ${vscode.l10n.t("Import with this mapping")}`, detail: unmatched.length ? vscode.l10n.t("Not loaded: {0}", unmatched.join(", ")) : vscode.l10n.t("Every column is loaded") },
      { label: vscode.l10n.t("Columns"), kind: vscode.QuickPickItemKind.Separator },
      ...mapping.map((m, index) => ({ label: m.column, description: m.field ? `→ ${m.field}` : vscode.l10n.t("→ not loaded"), index })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Map the columns to {0} fields (pick a column to change it)", describe.name), matchOnDescription: true, ignoreFocusOut: true });
    if (!picked) throw new UserCancelled();
    if (picked.index === undefined) return mapping;
    const column = mapping[picked.index]!;
    const choice = await vscode.window.showQuickPick(
      [{ label: vscode.l10n.t("Do not load this column"), field: undefined as string | undefined }, ...fields.map((f) => ({ label: f.label, description: `${f.name} · ${f.type}`, field: f.name as string | undefined }))],
      { title: vscode.l10n.t("Load '{0}' into which field?", column.column), matchOnDescription: true },
    );
    if (choice) mapping = mapping.map((m, i) => (i === picked.index ? { column: m.column, field: choice.field } : m.field === choice.field && choice.field ? { column: m.column } : m));
  }
}

/** "3 problems on 2 lines of contacts.csv": one sentence per count, so a language can word each. */
function problemsText(problems: number, lines: number, name: string): string {
  if (problems === 1) return vscode.l10n.t("1 problem on 1 line of {0}", name);
  return lines === 1 ? vscode.l10n.t("{0} problems on 1 line of {1}", formatCount(problems), name) : vscode.l10n.t("{0} problems on {1} lines of {2}", formatCount(problems), formatCount(lines), name);
}

export function importCommands(active: ActiveOrg, log: Log): Record<Extract<CommandId, "crm.data.import">, (...args: unknown[]) => unknown> {
  return {
    "crm.data.import": async (arg: unknown) => {
      const file = arg instanceof vscode.Uri ? arg : (await vscode.window.showOpenDialog({ title: vscode.l10n.t("Import which CSV file?"), filters: { CSV: ["csv"] }, canSelectMany: false, openLabel: vscode.l10n.t("Import") }))?.[0];
      if (!file) throw new UserCancelled();
      const name = path.basename(file.fsPath);
      let table: string[][];
      try {
        table = parseCsv(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)).replace(/^\uFEFF/, ""));
      } catch (err) {
        throw new CommandRefusal(vscode.l10n.t("{0} is not a CSV file that can be read: {1}", name, (err as Error).message), { cause: err });
      }
      const [header, ...rows] = table;
      if (!header || !rows.length) throw new CommandRefusal(vscode.l10n.t("{0} has no rows under its header line.", name));
      const session = await active.session();
      const objects = (await session.schema.objects()).filter((o) => o.createable || o.updateable);
      const object = await vscode.window.showQuickPick(objects.map((o) => ({ label: o.label, description: o.name, name: o.name })), { title: rows.length === 1 ? vscode.l10n.t("Import the row of {0} into which object?", name) : vscode.l10n.t("Import {0} rows of {1} into which object?", formatCount(rows.length), name), matchOnDescription: true });
      if (!object) throw new UserCancelled();
      const operation = (await vscode.window.showQuickPick(operations(), { title: vscode.l10n.t("What should each row do to {0}?", object.name) }))?.operation;
      if (!operation) throw new UserCancelled();
      const describe = await session.schema.describe(object.name);
      let externalIdFieldName: string | undefined;
      if (operation === "upsert") {
        const keys = describe.fields.filter((f) => f.externalId || f.name === "Id");
        externalIdFieldName = (await vscode.window.showQuickPick(keys.map((f) => ({ label: f.label, description: f.name, name: f.name })), { title: vscode.l10n.t("Match rows to records by which field?") }))?.name;
        if (!externalIdFieldName) throw new UserCancelled();
      }
      const mapping = await confirmMapping(mapColumns(header, describe, operation), describe, operation);

      // The dry run: every row checked against the describe before anything is sent.
      const problems = dryRun(rows, mapping, describe, operation, externalIdFieldName);
      if (problems.length) {
        for (const p of problems) log.warn(`Import of ${name}: line ${p.line}${p.column ? `, ${p.column}` : ""}: ${p.message}`);
        const lines = new Set(problems.map((p) => p.line)).size;
        const shown = problems.slice(0, 8).map((p) => (p.column ? vscode.l10n.t("Line {0} ({1}): {2}", p.line, p.column, p.message) : vscode.l10n.t("Line {0}: {1}", p.line, p.message)));
        if (problems.length > 8) shown.push(vscode.l10n.t("… and {0} more (all in the CRM Explorer log).", formatCount(problems.length - 8)));
        const importAnyway = vscode.l10n.t("Import Anyway");
        const choice = await vscode.window.showWarningMessage(problemsText(problems.length, lines, name), {
          modal: true,
          detail: `${shown.join("\n")}\n\n${vscode.l10n.t("Import anyway: the org refuses what it must, row by row, and those rows go to {0}.", `${name.replace(/\.csv$/i, "")}.failed.csv`)}`,
        }, importAnyway);
        if (choice !== importAnyway) throw new UserCancelled();
      }
      if (operation === "delete") {
        const alias = session.record.alias;
        const typed = await vscode.window.showInputBox({
          title: rows.length === 1 ? vscode.l10n.t("Delete 1 {0} record", object.name) : vscode.l10n.t("Delete {0} {1} records", formatCount(rows.length), object.name),
          prompt: vscode.l10n.t("Type the org's name, {0}, to delete them", alias), ignoreFocusOut: true,
          validateInput: (v) => (v === alias ? undefined : vscode.l10n.t("Type {0} exactly", alias)),
        });
        if (typed !== alias) throw new UserCancelled();
      }

      let result: IngestResult;
      try {
        result = await withCancellableProgress(vscode.l10n.t("Importing {0} into {1}", name, object.name), (signal, progress) =>
          session.crm.bulk.ingest({ object: object.name, operation, externalIdFieldName }, mappedCsv(rows, mapping), {
            signal,
            onProgress: (p) => progress.report({ message: vscode.l10n.t("Bulk API job {0} · {1} of {2} rows processed", p.state, formatCount(p.processed ?? 0), formatCount(rows.length)) }),
          }));
      } catch (err) {
        if (err instanceof BulkJobError && err.partial) await writeResults(file, err.partial);
        if (err instanceof CancelledError) {
          void vscode.window.showInformationMessage(vscode.l10n.t("Import of {0} cancelled: the job was aborted at the org. Rows it had already processed stay.", name));
          return;
        }
        throw err;
      }
      const written = await writeResults(file, result);
      const ids = result.successfulRows.map((r) => r.sf__Id).filter((id): id is string => !!id);
      session.announce({ kind: operation === "insert" ? "created" : operation === "delete" ? "deleted" : "updated", area: "records", object: object.name, ids, method: "POST", path: "/jobs/ingest" } satisfies OrgChange);
      const ok = result.successfulRows.length;
      const failed = result.failedRows.length;
      const [openFailed, openSuccessful] = [vscode.l10n.t("Open Failed Rows"), vscode.l10n.t("Open Successful Rows")];
      const buttons = [...(failed ? [openFailed] : []), ...(ok ? [openSuccessful] : [])];
      const summary = failed
        ? vscode.l10n.t("Imported {0} of {1} rows of {2} into {3}; {4} failed.", formatCount(ok), formatCount(rows.length), name, object.name, formatCount(failed))
        : vscode.l10n.t("Imported {0} of {1} rows of {2} into {3}.", formatCount(ok), formatCount(rows.length), name, object.name);
      const choice = await (failed ? vscode.window.showWarningMessage(summary, ...buttons) : vscode.window.showInformationMessage(summary, ...buttons));
      if (choice === openFailed) await vscode.window.showTextDocument(written.failed);
      if (choice === openSuccessful) await vscode.window.showTextDocument(written.success);
    },
  };
}

/** `<name>.success.csv` and `<name>.failed.csv` (and `.unprocessed.csv` when the org left rows) beside the input. */
async function writeResults(input: vscode.Uri, result: IngestResult): Promise<{ success: vscode.Uri; failed: vscode.Uri }> {
  const base = input.fsPath.replace(/\.csv$/i, "");
  const write = async (suffix: string, rows: Record<string, string | null>[]) => {
    const uri = vscode.Uri.file(`${base}.${suffix}.csv`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(resultCsv(rows)));
    return uri;
  };
  const success = await write("success", result.successfulRows);
  const failed = await write("failed", result.failedRows);
  if (result.unprocessedRows.length) await write("unprocessed", result.unprocessedRows);
  return { success, failed };
}
