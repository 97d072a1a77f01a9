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
import { UserCancelled } from "../platform/errorMessages";
import { withCancellableProgress } from "../platform/progress";
import type { ActiveOrg } from "../views/activeOrg";
import type { CommandId } from "./ids";

const OPERATIONS: { label: string; operation: IngestOperation; detail: string }[] = [
  { label: "Insert", operation: "insert", detail: "Create a record from each row" },
  { label: "Update", operation: "update", detail: "Change the records an Id column names" },
  { label: "Upsert", operation: "upsert", detail: "Update the record an external ID names, or create it" },
  { label: "Delete", operation: "delete", detail: "Delete the records an Id column names (they go to the Recycle Bin)" },
];

/** Shows the mapping and lets each column be pointed at another field (or at none) until accepted. */
async function confirmMapping(mapping: ColumnMapping[], describe: SObjectDescribe, operation: IngestOperation): Promise<ColumnMapping[]> {
  const fields = loadableFields(describe, operation);
  for (;;) {
    type Item = vscode.QuickPickItem & { index?: number };
    const unmatched = mapping.filter((m) => !m.field).map((m) => m.column);
    const items: Item[] = [
      { label: "$(check) Import with this mapping", detail: unmatched.length ? `Not loaded: ${unmatched.join(", ")}` : "Every column is loaded" },
      { label: "Columns", kind: vscode.QuickPickItemKind.Separator },
      ...mapping.map((m, index) => ({ label: m.column, description: m.field ? `→ ${m.field}` : "→ not loaded", index })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title: `Map the columns to ${describe.name} fields (pick a column to change it)`, matchOnDescription: true, ignoreFocusOut: true });
    if (!picked) throw new UserCancelled();
    if (picked.index === undefined) return mapping;
    const column = mapping[picked.index]!;
    const choice = await vscode.window.showQuickPick(
      [{ label: "Do not load this column", field: undefined as string | undefined }, ...fields.map((f) => ({ label: f.label, description: `${f.name} · ${f.type}`, field: f.name as string | undefined }))],
      { title: `Load '${column.column}' into which field?`, matchOnDescription: true },
    );
    if (choice) mapping = mapping.map((m, i) => (i === picked.index ? { column: m.column, field: choice.field } : m.field === choice.field && choice.field ? { column: m.column } : m));
  }
}

export function importCommands(active: ActiveOrg, log: Log): Record<Extract<CommandId, "crm.data.import">, (...args: unknown[]) => unknown> {
  return {
    "crm.data.import": async (arg: unknown) => {
      const file = arg instanceof vscode.Uri ? arg : (await vscode.window.showOpenDialog({ title: "Import which CSV file?", filters: { CSV: ["csv"] }, canSelectMany: false, openLabel: "Import" }))?.[0];
      if (!file) throw new UserCancelled();
      const name = path.basename(file.fsPath);
      let table: string[][];
      try {
        table = parseCsv(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)).replace(/^\uFEFF/, ""));
      } catch (err) {
        throw new Error(`${name} is not a CSV file that can be read: ${(err as Error).message}`, { cause: err });
      }
      const [header, ...rows] = table;
      if (!header || !rows.length) throw new Error(`${name} has no rows under its header line.`);
      const session = await active.session();
      const objects = (await session.schema.objects()).filter((o) => o.createable || o.updateable);
      const object = await vscode.window.showQuickPick(objects.map((o) => ({ label: o.label, description: o.name, name: o.name })), { title: `Import ${formatCount(rows.length)} rows of ${name} into which object?`, matchOnDescription: true });
      if (!object) throw new UserCancelled();
      const operation = (await vscode.window.showQuickPick(OPERATIONS, { title: `What should each row do to ${object.name}?` }))?.operation;
      if (!operation) throw new UserCancelled();
      const describe = await session.schema.describe(object.name);
      let externalIdFieldName: string | undefined;
      if (operation === "upsert") {
        const keys = describe.fields.filter((f) => f.externalId || f.name === "Id");
        externalIdFieldName = (await vscode.window.showQuickPick(keys.map((f) => ({ label: f.label, description: f.name, name: f.name })), { title: "Match rows to records by which field?" }))?.name;
        if (!externalIdFieldName) throw new UserCancelled();
      }
      const mapping = await confirmMapping(mapColumns(header, describe, operation), describe, operation);

      // The dry run: every row checked against the describe before anything is sent.
      const problems = dryRun(rows, mapping, describe, operation, externalIdFieldName);
      if (problems.length) {
        for (const p of problems) log.warn(`Import of ${name}: line ${p.line}${p.column ? `, ${p.column}` : ""}: ${p.message}`);
        const lines = new Set(problems.map((p) => p.line)).size;
        const shown = problems.slice(0, 8).map((p) => `Line ${p.line}${p.column ? ` (${p.column})` : ""}: ${p.message}`).join("\n");
        const choice = await vscode.window.showWarningMessage(`${formatCount(problems.length)} ${problems.length === 1 ? "problem" : "problems"} on ${formatCount(lines)} ${lines === 1 ? "line" : "lines"} of ${name}`, {
          modal: true,
          detail: `${shown}${problems.length > 8 ? `\n… and ${problems.length - 8} more (all in the CRM Explorer log).` : ""}\n\nImport anyway: the org refuses what it must, row by row, and those rows go to ${name.replace(/\.csv$/i, "")}.failed.csv.`,
        }, "Import Anyway");
        if (choice !== "Import Anyway") throw new UserCancelled();
      }
      if (operation === "delete") {
        const alias = session.record.alias;
        const typed = await vscode.window.showInputBox({
          title: `Delete ${formatCount(rows.length)} ${object.name} records`, prompt: `Type the org's name, ${alias}, to delete them`, ignoreFocusOut: true,
          validateInput: (v) => (v === alias ? undefined : `Type ${alias} exactly`),
        });
        if (typed !== alias) throw new UserCancelled();
      }

      let result: IngestResult;
      try {
        result = await withCancellableProgress(`Importing ${name} into ${object.name}`, (signal, progress) =>
          session.crm.bulk.ingest({ object: object.name, operation, externalIdFieldName }, mappedCsv(rows, mapping), {
            signal,
            onProgress: (p) => progress.report({ message: `Bulk API job ${p.state} · ${formatCount(p.processed ?? 0)} of ${formatCount(rows.length)} rows processed` }),
          }));
      } catch (err) {
        if (err instanceof BulkJobError && err.partial) await writeResults(file, err.partial);
        if (err instanceof CancelledError) {
          void vscode.window.showInformationMessage(`Import of ${name} cancelled: the job was aborted at the org. Rows it had already processed stay.`);
          return;
        }
        throw err;
      }
      const written = await writeResults(file, result);
      const ids = result.successfulRows.map((r) => r.sf__Id).filter((id): id is string => !!id);
      session.announce({ kind: operation === "insert" ? "created" : operation === "delete" ? "deleted" : "updated", area: "records", object: object.name, ids, method: "POST", path: "/jobs/ingest" } satisfies OrgChange);
      const ok = result.successfulRows.length;
      const failed = result.failedRows.length;
      const buttons = [...(failed ? ["Open Failed Rows"] : []), ...(ok ? ["Open Successful Rows"] : [])];
      const summary = `Imported ${formatCount(ok)} of ${formatCount(rows.length)} rows of ${name} into ${object.name}${failed ? `; ${formatCount(failed)} failed` : ""}.`;
      const choice = await (failed ? vscode.window.showWarningMessage(summary, ...buttons) : vscode.window.showInformationMessage(summary, ...buttons));
      if (choice === "Open Failed Rows") await vscode.window.showTextDocument(written.failed);
      if (choice === "Open Successful Rows") await vscode.window.showTextDocument(written.success);
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
