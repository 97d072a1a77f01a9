/**
 * CRM: Import Data… — a CSV file loaded into an object through Bulk API 2.0 (or sObject Collections for a
 * small file): columns matched to fields (the match can be changed), a dry run against the describe before
 * anything is sent, a job with progress and cancel, and the org's successful and failed rows written beside
 * the file. The file is read as a stream, twice (the dry run, then the upload), and the results are written as
 * they are read: a file of a million rows keeps the extension host's memory flat.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { SObjectDescribe } from "../client";
import type { IngestOperation, IngestOptions, IngestResult } from "../client/bulk";
import { soqlLiteral } from "../client/soql-text";
// The errors module, not the client's entry: loading the extension must not load the HTTP stack.
import { BulkJobError, CancelledError, NetworkError } from "../client/errors";
import { csvRowStream } from "../client/csv";
import type { OrgChange } from "../connections/changes";
import type { ImportInFlight, ImportsInFlight } from "../connections/importsInFlight";
import type { OrgManager } from "../connections/orgManager";
import type { OrgSession } from "../connections/orgSession";
import { loadableFields, mapColumns, mappedLines, rowChecker, type ColumnMapping, type RowProblem } from "../connections/dataImport";
import type { Log } from "../platform/log";
import { formatCount } from "../platform/numbers";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { withCancellableProgress } from "../platform/progress";
import type { ActiveOrg } from "../views/activeOrg";
import type { CommandId } from "./commandIds";

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

export interface ImportDeps {
  active: ActiveOrg;
  manager: OrgManager;
  log: Log;
  /** Imports under way, recorded before their rows go: what a closed window's import left is found again. */
  flights: ImportsInFlight;
  /** Opens a results panel on a statement (what an import whose answer was lost may have created). */
  openQuery(orgKey: string, soql: string): void;
}

export function importCommands(deps: ImportDeps): Record<Extract<CommandId, "crm.data.import" | "crm.data.checkInterruptedImports">, (...args: unknown[]) => unknown> {
  const { active, log } = deps;
  return {
    "crm.data.checkInterruptedImports": () => checkInterruptedImports(deps),
    "crm.data.import": async (arg: unknown) => {
      const file = arg instanceof vscode.Uri ? arg : (await vscode.window.showOpenDialog({ title: vscode.l10n.t("Import which CSV file?"), filters: { CSV: ["csv"] }, canSelectMany: false, openLabel: vscode.l10n.t("Import") }))?.[0];
      if (!file) throw new UserCancelled();
      const name = path.basename(file.fsPath);
      const rowsOf = () => csvRows(file);
      let header: string[] | undefined;
      let rowCount = 0;
      try {
        for await (const row of rowsOf()) {
          if (!header) header = row;
          else rowCount++;
        }
      } catch (err) {
        throw new CommandRefusal(vscode.l10n.t("{0} is not a CSV file that can be read: {1}", name, (err as Error).message), { cause: err });
      }
      if (!header || !rowCount) throw new CommandRefusal(vscode.l10n.t("{0} has no rows under its header line.", name));
      const session = await active.session();
      const objects = (await session.schema.objects()).filter((o) => o.createable || o.updateable);
      const object = await vscode.window.showQuickPick(objects.map((o) => ({ label: o.label, description: o.name, name: o.name })), { title: rowCount === 1 ? vscode.l10n.t("Import the row of {0} into which object?", name) : vscode.l10n.t("Import {0} rows of {1} into which object?", formatCount(rowCount), name), matchOnDescription: true });
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

      // The dry run: every row checked against the describe before anything is sent (the file read again, a row at a time).
      const { problems, count: problemCount, lines } = await checkRows(rowsOf(), rowChecker(mapping, describe, operation, externalIdFieldName));
      if (problemCount) {
        for (const p of problems) log.warn(`Import of ${name}: line ${p.line}${p.column ? `, ${p.column}` : ""}: ${p.message}`);
        if (problemCount > problems.length) log.warn(`Import of ${name}: ${problemCount - problems.length} more problems not logged`);
        const shown = problems.slice(0, 8).map((p) => (p.column ? vscode.l10n.t("Line {0} ({1}): {2}", p.line, p.column, p.message) : vscode.l10n.t("Line {0}: {1}", p.line, p.message)));
        if (problemCount > 8) shown.push(vscode.l10n.t("… and {0} more (all in the CRM Explorer log).", formatCount(problemCount - 8)));
        const importAnyway = vscode.l10n.t("Import Anyway");
        const choice = await vscode.window.showWarningMessage(problemsText(problemCount, lines, name), {
          modal: true,
          detail: `${shown.join("\n")}\n\n${vscode.l10n.t("Import anyway: the org refuses what it must, row by row, and those rows go to {0}.", `${name.replace(/\.csv$/i, "")}.failed.csv`)}`,
        }, importAnyway);
        if (choice !== importAnyway) throw new UserCancelled();
      }
      if (operation === "delete") {
        const alias = session.record.alias;
        const typed = await vscode.window.showInputBox({
          title: rowCount === 1 ? vscode.l10n.t("Delete 1 {0} record", object.name) : vscode.l10n.t("Delete {0} {1} records", formatCount(rowCount), object.name),
          prompt: vscode.l10n.t("Type the org's name, {0}, to delete them", alias), ignoreFocusOut: true,
          validateInput: (v) => (v === alias ? undefined : vscode.l10n.t("Type {0} exactly", alias)),
        });
        if (typed !== alias) throw new UserCancelled();
      }

      const results = await resultsBeside(file);
      // Written before a row goes, each Bulk job added as the org creates it: if this window closes or crashes
      // while the org goes on, the next one finds the import and reads what the org made of it.
      const recorded = await deps.flights.begin({ orgKey: session.record.key, file: file.toString(), object: object.name, operation, rows: rowCount });
      let result: IngestResult;
      const { ids, onResult } = idCollector();
      try {
        result = await withCancellableProgress(vscode.l10n.t("Importing {0} into {1}", name, object.name), (signal, progress) =>
          session.crm.bulk.ingest({ object: object.name, operation, externalIdFieldName }, mappedLines(skipHeader(rowsOf()), mapping), {
            signal,
            resultFiles: results.base,
            onJob: recorded.noteJob,
            onResult,
            onProgress: (p) => progress.report({
              message: p.via === "collections"
                ? vscode.l10n.t("{0} of {1} rows sent", formatCount(p.processed ?? 0), formatCount(rowCount))
                : vscode.l10n.t("Bulk API job {0} · {1} of {2} rows processed", p.state, formatCount(p.processed ?? 0), formatCount(rowCount)),
            }),
          }));
      } catch (err) {
        // A lost connection leaves the record for Check Interrupted Imports: a job goes on at the org, a request
        // may have been carried out. Any other end is the org's answer (or ours), and the record has served.
        if (!(err instanceof NetworkError)) await recorded.end();
        else recorded.abandon();
        if (err instanceof BulkJobError && err.partial) await results.publish(err.partial);
        else await results.discard();
        if (err instanceof CancelledError) {
          void vscode.window.showInformationMessage(vscode.l10n.t("Import of {0} cancelled: the job was aborted at the org. Rows it had already processed stay.", name));
          return;
        }
        throw err;
      }
      await recorded.end();
      await reportImport(session, { name, object: object.name, operation, rows: rowCount }, result, await results.publish(result), ids);
    },
  };
}

/** Announces what an import wrote (Write History records it) and says how it went, with its result files a click away. */
async function reportImport(session: OrgSession, what: { name: string; object: string; operation: IngestOperation; rows: number }, result: IngestResult, written: { success: vscode.Uri; failed: vscode.Uri }, ids: string[]): Promise<void> {
  const { name, object, operation, rows } = what;
  session.announce({ kind: operation === "insert" ? "created" : operation === "delete" ? "deleted" : "updated", area: "records", object, ids: ids.length > MAX_ANNOUNCED_IDS ? [] : ids, method: "POST", path: "/jobs/ingest" } satisfies OrgChange);
  const ok = result.successful;
  const failed = result.failed;
  const [openFailed, openSuccessful] = [vscode.l10n.t("Open Failed Rows"), vscode.l10n.t("Open Successful Rows")];
  const buttons = [...(failed ? [openFailed] : []), ...(ok ? [openSuccessful] : [])];
  const summary = failed
    ? vscode.l10n.t("Imported {0} of {1} rows of {2} into {3}; {4} failed.", formatCount(ok), formatCount(rows), name, object, formatCount(failed))
    : vscode.l10n.t("Imported {0} of {1} rows of {2} into {3}.", formatCount(ok), formatCount(rows), name, object);
  const choice = await (failed ? vscode.window.showWarningMessage(summary, ...buttons) : vscode.window.showInformationMessage(summary, ...buttons));
  if (choice === openFailed) await vscode.window.showTextDocument(written.failed);
  if (choice === openSuccessful) await vscode.window.showTextDocument(written.success);
}

/** The IDs an import wrote, for the views that show them: past a few thousand the change is the object's as a whole. */
function idCollector(): { ids: string[]; onResult: IngestOptions["onResult"] } {
  const ids: string[] = [];
  return { ids, onResult: (kind, row) => void (kind === "successful" && row.sf__Id && ids.length <= MAX_ANNOUNCED_IDS && ids.push(row.sf__Id)) };
}

/**
 * CRM: Check Interrupted Imports — each import that lost its answer (its window closed or crashed, or its
 * connection dropped) is asked of the org. A Bulk job still running is waited for; its results are written
 * beside the CSV and recorded in Write History like any import's. An import sent as single requests (a small
 * file) has no job to ask for: the records the person changed in that object since it began are shown, to check.
 */
async function checkInterruptedImports(deps: ImportDeps): Promise<void> {
  const interrupted = await deps.flights.interrupted();
  if (!interrupted.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t("No import is waiting for the org's answer."));
    return;
  }
  for (const flight of interrupted) await settleImport(deps, flight);
}

/** At start-up: an import a closed window left without its answer is named, and checked at the org if the person says so. */
export async function offerInterruptedImports(flights: ImportsInFlight): Promise<void> {
  const interrupted = await flights.interrupted();
  if (!interrupted.length) return;
  const check = vscode.l10n.t("Check at the Org");
  const first = interrupted[0]!;
  const message = interrupted.length === 1
    ? vscode.l10n.t("The import of {0} into {1} lost its answer when VS Code closed: the org may have written its rows since.", path.basename(vscode.Uri.parse(first.file).path), first.object)
    : vscode.l10n.t("{0} imports lost their answer when VS Code closed: the org may have written their rows since.", interrupted.length);
  if ((await vscode.window.showWarningMessage(message, check)) === check) await vscode.commands.executeCommand("crm.data.checkInterruptedImports");
}

async function settleImport(deps: ImportDeps, flight: ImportInFlight): Promise<void> {
  const file = vscode.Uri.parse(flight.file);
  const name = path.basename(file.path);
  const session = await deps.manager.session(flight.orgKey);
  if (!flight.jobs.length) {
    const since = flight.startedAt.replace(/\.\d{3}Z$/, "Z");
    deps.openQuery(flight.orgKey, `SELECT Id, LastModifiedDate FROM ${flight.object} WHERE LastModifiedById = ${soqlLiteral(session.crm.userId ?? "")} AND LastModifiedDate >= ${since} ORDER BY LastModifiedDate`);
    await deps.flights.forget(flight.id);
    void vscode.window.showWarningMessage(vscode.l10n.t("The org's answer to the import of {0} into {1} was lost ({2} rows sent as single requests, which leave no job to ask about). The records you changed in {1} since it began are shown: check them before importing the file again.", name, flight.object, formatCount(flight.rows)));
    return;
  }
  const results = await resultsBeside(file);
  const { ids, onResult } = idCollector();
  let result: IngestResult;
  try {
    result = await withCancellableProgress(vscode.l10n.t("Reading what the org made of the import of {0}", name), (signal) =>
      session.crm.bulk.resultsOf(flight.jobs, { signal, resultFiles: results.base, onResult }));
  } catch (err) {
    await results.discard();
    throw err;
  }
  await deps.flights.forget(flight.id);
  await reportImport(session, { name, object: flight.object, operation: flight.operation, rows: flight.rows }, result, await results.publish(result), ids);
}

/** Past this many written IDs a change event names the object, not each record (a million IDs would be held for nothing). */
const MAX_ANNOUNCED_IDS = 2_000;
/** The dry run's problems kept to show and log; more are only counted. */
const MAX_KEPT_PROBLEMS = 500;

/** The rows of a CSV file as they are read: a local file as a stream, any other (a virtual workspace) read whole. */
async function* csvRows(file: vscode.Uri): AsyncGenerator<string[]> {
  const pieces: AsyncIterable<string | Buffer> | Iterable<string | Buffer> = file.scheme === "file" ? createReadStream(file.fsPath) : [Buffer.from(await vscode.workspace.fs.readFile(file))];
  let first = true;
  for await (const row of csvRowStream(pieces)) {
    if (first && row[0]?.startsWith("\uFEFF")) row[0] = row[0].slice(1);
    first = false;
    yield row;
  }
}

async function* skipHeader(rows: AsyncIterable<string[]>): AsyncGenerator<string[]> {
  let header = true;
  for await (const row of rows) {
    if (!header) yield row;
    header = false;
  }
}

async function checkRows(rows: AsyncIterable<string[]>, checker: ReturnType<typeof rowChecker>): Promise<{ problems: RowProblem[]; count: number; lines: number }> {
  const problems = [...checker.header];
  let count = problems.length;
  let lines = problems.length ? 1 : 0;
  if (!checker.checksRows) return { problems, count, lines };
  let line = 1;
  for await (const row of skipHeader(rows)) {
    const found = checker.row(row, ++line);
    if (!found.length) continue;
    count += found.length;
    lines++;
    for (const p of found) if (problems.length < MAX_KEPT_PROBLEMS) problems.push(p);
  }
  return { problems, count, lines };
}

/**
 * `<name>.success.csv` and `<name>.failed.csv` (and `.unprocessed.csv` when the org left rows) beside the input,
 * written by the client as the results are read: straight beside a local file, else in a temporary folder and
 * then copied (a virtual workspace).
 */
async function resultsBeside(input: vscode.Uri): Promise<{ base: string; publish(result: IngestResult): Promise<{ success: vscode.Uri; failed: vscode.Uri }>; discard(): Promise<void> }> {
  const target = (suffix: string) => input.with({ path: `${input.path.replace(/\.csv$/i, "")}.${suffix}.csv` });
  if (input.scheme === "file") {
    return { base: input.fsPath.replace(/\.csv$/i, ""), publish: async () => ({ success: target("success"), failed: target("failed") }), discard: async () => undefined };
  }
  const dir = await mkdtemp(path.join(tmpdir(), "crm-import-"));
  const base = path.join(dir, "results");
  const discard = () => rm(dir, { recursive: true, force: true });
  return {
    base,
    discard,
    publish: async (result) => {
      try {
        for (const [kind, suffix] of [["successful", "success"], ["failed", "failed"], ["unprocessed", "unprocessed"]] as const) {
          const written = result.files?.[kind];
          if (written) await vscode.workspace.fs.copy(vscode.Uri.file(written), target(suffix), { overwrite: true });
        }
      } finally {
        await discard();
      }
      return { success: target("success"), failed: target("failed") };
    },
  };
}
