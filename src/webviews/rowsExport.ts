/**
 * Export every row of a statement to a file the person picks (CSV, Excel, JSON, NDJSON), streamed with progress and
 * Cancel; above a threshold the org's Bulk API query job reads the rows. Called by the results panels and the
 * Objects view.
 */
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import type { OrgSession } from "../connections/orgSession";
import { UserCancelled } from "../platform/errorMessages";
import { formatCount, rowsText } from "../platform/numbers";
import { readSettings } from "../platform/settings";
import { bulkRefusal, selectColumns, stripComments } from "../soql/runText";
import { tokenize } from "../soql/statements";
import type { ExportFormatName } from "./protocol/results";
import type { RunSpec } from "./queryRun";
import { subjectOf } from "./resultsPanel";
import { bulkRecords, exportPages, inPages } from "./resultsExport";
import { EXCEL_MAX_CELL_TEXT, EXCEL_MAX_ROWS, exportXlsx } from "./xlsxExport";

/** Streams every row of `spec` to a file the person picks, with progress and cancel. */
export async function exportRows(manager: OrgManager, orgKey: string, spec: RunSpec, format?: ExportFormatName): Promise<void> {
  format ??= (await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t("CSV"), format: "csv" as const, detail: vscode.l10n.t("One line per row; parent fields as columns, child rows as JSON") },
      { label: vscode.l10n.t("Excel"), format: "xlsx" as const, detail: vscode.l10n.t("A workbook, columns as in CSV; numbers stay numbers ({0} rows a sheet)", formatCount(EXCEL_MAX_ROWS)) },
      { label: vscode.l10n.t("JSON"), format: "json" as const, detail: vscode.l10n.t("An array of the records as the org returns them") },
      { label: vscode.l10n.t("NDJSON"), format: "ndjson" as const, detail: vscode.l10n.t("One record per line") },
    ],
    { title: vscode.l10n.t("Export every row as") },
  ))?.format;
  if (!format) throw new UserCancelled();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t("Export every row"),
    defaultUri: vscode.Uri.joinPath(folder, `${subjectOf(spec)}-${stamp}.${format}`),
    filters: { [format.toUpperCase()]: [format] },
  });
  if (!target) throw new UserCancelled();
  const text = stripComments(spec.text);
  const session = await manager.session(orgKey);
  const crm = session.crm;
  const settings = readSettings();
  const exported = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Exporting {0} to {1}", subjectOf(spec), path.basename(target.fsPath)), cancellable: true }, async (progress, token): Promise<{ rows: number; sheets?: number; cutCells?: number } | undefined> => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    let total = 0;
    /** Set once the export runs as a Bulk API query job: the job's state, shown with the rows written. */
    let bulkState: string | undefined;
    const report = (rows?: number) => {
      const counts = rows === undefined ? rowsText(total) : vscode.l10n.t("{0} of {1} rows", formatCount(rows), formatCount(total));
      progress.report({ message: bulkState ? vscode.l10n.t("Bulk API job {0} · {1}", bulkState, counts) : counts });
    };
    async function* pages(): AsyncGenerator<Record<string, unknown>[]> {
      if (spec.api === "sosl") {
        const found = (await crm.search(text, { signal: controller.signal })).searchRecords;
        total = found.length;
        yield found;
        return;
      }
      const rest = crm.queryPages(text, { tooling: spec.api === "tooling", completeChildren: true, batchSize: settings.queryPageSize, signal: controller.signal });
      const first = await rest.next();
      if (first.done) return;
      total = first.value.totalSize;
      // The first page tells how many rows there are: above the threshold the org's Bulk engine does the work.
      if (useBulk(spec, text, total, first.value.records.length, settings.exportBulkThreshold)) {
        await rest.return(undefined);
        bulkState = "starting";
        report();
        const types = await fieldTypes(session, text);
        const csv = crm.bulk.queryCsv(text, { signal: controller.signal, onProgress: (p) => { bulkState = p.state; if (!p.rows) report(); } });
        yield* inPages(bulkRecords(csv, types), settings.queryPageSize);
        return;
      }
      yield first.value.records;
      for await (const page of rest) {
        total = page.totalSize;
        yield page.records;
      }
    }
    const options = { columns: selectColumns(text, spec.api), signal: controller.signal, onProgress: report };
    try {
      return format === "xlsx" ? await exportXlsx(pages(), target.fsPath, options) : await exportPages(pages(), target.fsPath, { ...options, format: format! });
    } catch (err) {
      if (controller.signal.aborted) return undefined;
      throw err;
    }
  });
  if (!exported) {
    void vscode.window.showInformationMessage(vscode.l10n.t("Export cancelled; no file was written."));
    return;
  }
  // Excel's limits, when the rows met them: said, not silently applied.
  const file = path.basename(target.fsPath);
  const written = (exported.sheets ?? 1) > 1
    ? vscode.l10n.t("Exported {0} to {1} on {2} sheets (Excel holds {3} rows a sheet).", rowsText(exported.rows), file, formatCount(exported.sheets!), formatCount(EXCEL_MAX_ROWS))
    : vscode.l10n.t("Exported {0} to {1}.", rowsText(exported.rows), file);
  const cut = !exported.cutCells ? "" : exported.cutCells === 1
    ? vscode.l10n.t("1 cell was cut to Excel's {0} characters.", formatCount(EXCEL_MAX_CELL_TEXT))
    : vscode.l10n.t("{0} cells were cut to Excel's {1} characters.", formatCount(exported.cutCells), formatCount(EXCEL_MAX_CELL_TEXT));
  const message = cut ? `${written} ${cut}` : written;
  if (format === "xlsx") {
    const reveal = await vscode.window.showInformationMessage(message, vscode.l10n.t("Reveal in File Explorer"));
    if (reveal) await vscode.commands.executeCommand("revealFileInOS", target);
    return;
  }
  const open = await vscode.window.showInformationMessage(message, vscode.l10n.t("Open File"));
  if (open) await vscode.window.showTextDocument(target);
}

/** Whether an export runs as a Bulk API query job: a SOQL query Bulk can run, with more rows than the threshold (0: never). */
function useBulk(spec: RunSpec, text: string, total: number, firstPage: number, threshold: number): boolean {
  return spec.api === "soql" && threshold > 0 && total > threshold && firstPage < total && !bulkRefusal(text);
}

/** The field types of the object a statement reads, so Bulk's text values are typed as REST's are. */
async function fieldTypes(session: OrgSession, text: string): Promise<Map<string, string>> {
  const object = tokenize(text).scopes[0]?.from;
  const details = object ? await session.schema.details(object).catch(() => undefined) : undefined;
  return new Map((details?.fields ?? []).map((f) => [f.name.toLowerCase(), f.type]));
}
