/**
 * A CRM notebook's own commands and its org in the status bar: the org it runs on (pinned in its file, or the
 * active org), its bind values (asked once for a run and kept in the file), and a plain query charted by the
 * org's aggregate — a new cell whose GROUP BY the org computes, so a million rows are never fetched.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { FieldDescribe } from "../client/describe";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { askBindValues } from "../soql/bindPrompt";
import { aggregatedObject, aggregatedStatement, DATE_BUCKETS, type ChartAxes, type DateBucket, type Measure } from "./aggregation";
import type { ChartType } from "./chartSpec";
import { codeKind, notebookMetadata, type NotebookCell } from "./notebookFile";
import { bindsUsed, cellData, NOTEBOOK_TYPE, notebookFromCells, notebookSession, updateNotebook, type NotebookDeps } from "./notebookProvider";
import type { ReportFormat } from "./notebookReport";

export interface NotebookUiDeps extends NotebookDeps {
  /** The active org's name, read without signing in (the status bar shows it). */
  activeAlias(): string | undefined;
  onDidChangeActive: vscode.Event<unknown>;
}

/**
 * The notebook a command is about: the one it was run from (the toolbar passes its editor, a cell's CodeLens the
 * cell's document), else the active notebook editor's.
 */
function notebookDocumentOf(arg: unknown): vscode.NotebookDocument {
  const given = arg instanceof vscode.Uri ? arg : (arg as { notebookEditor?: { notebookUri?: vscode.Uri } } | undefined)?.notebookEditor?.notebookUri;
  const named = given && vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === given.toString() || n.getCells().some((c) => c.document.uri.toString() === given.toString()));
  const notebook = given ? named : vscode.window.activeNotebookEditor?.notebook;
  if (!notebook || notebook.notebookType !== NOTEBOOK_TYPE) throw new CommandRefusal(vscode.l10n.t("Open a CRM notebook (.crmnb, or CRM: New Notebook) first."));
  return notebook;
}

/** Set Notebook Bind Values…: each bind the notebook uses, its value offered again to change. */
async function setBinds(arg: unknown): Promise<void> {
  const notebook = notebookDocumentOf(arg);
  const { binds } = notebookMetadata(notebook.metadata);
  const names = bindsUsed(notebook.getCells());
  if (!names.length) throw new CommandRefusal(vscode.l10n.t("This notebook's statements use no bind variables (:name)."));
  const given = await askBindValues(names, binds);
  if (given) await updateNotebook(notebook, { binds: { ...binds, ...given } });
}

/** Choose Notebook Org…: an org pinned in the file by its name in the Orgs view, or none (the active org). */
async function chooseOrg(deps: NotebookUiDeps, arg: unknown): Promise<void> {
  const notebook = notebookDocumentOf(arg);
  const { org } = notebookMetadata(notebook.metadata);
  const active = deps.activeAlias();
  const items: (vscode.QuickPickItem & { pinned?: string })[] = [
    { label: vscode.l10n.t("The active org"), description: active ?? vscode.l10n.t("none chosen"), detail: vscode.l10n.t("Not pinned: the notebook runs on whichever org is active") },
    ...deps.manager.registry.list().map((o) => ({ label: o.alias, description: o.kind ?? "", detail: o.instanceUrl, pinned: o.alias })),
  ];
  const current = items.find((i) => i.pinned === org) ?? items[0]!;
  const picked = await vscode.window.showQuickPick(items.map((i) => (i === current ? { ...i, description: `${i.description} · ${vscode.l10n.t("current")}` } : i)), {
    title: vscode.l10n.t("Run this notebook on"), placeHolder: vscode.l10n.t("The org is kept in the notebook's file by its name in the Orgs view"),
  });
  if (picked) await updateNotebook(notebook, { org: picked.pinned });
}

const chartChoices = (): { type: ChartType; label: string }[] => [
  { type: "bar", label: vscode.l10n.t("Bar") }, { type: "stackedBar", label: vscode.l10n.t("Stacked bar") }, { type: "line", label: vscode.l10n.t("Line") },
  { type: "area", label: vscode.l10n.t("Area") }, { type: "pie", label: vscode.l10n.t("Pie") }, { type: "donut", label: vscode.l10n.t("Donut") },
  { type: "number", label: vscode.l10n.t("Single number") },
];
const NUMERIC = new Set(["double", "currency", "int", "long", "percent"]);
const DATED = new Set(["date", "datetime"]);
const fieldItem = (f: FieldDescribe) => ({ label: f.label, description: f.name, field: f });

async function pick<T extends vscode.QuickPickItem>(items: T[], title: string): Promise<T> {
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true });
  if (!picked) throw new UserCancelled();
  return picked;
}

/**
 * Chart All Rows…: the cell's statement grouped by the axes chosen (from the object's fields), as a new cell
 * below with its chart, run at once. The org computes the groups; the cell keeps the statement for git and CI.
 */
async function chartByAggregate(deps: NotebookUiDeps, arg: unknown): Promise<void> {
  const cell = (arg as vscode.NotebookCell | undefined)?.notebook ? (arg as vscode.NotebookCell) : vscode.window.activeNotebookEditor?.notebook.cellAt(vscode.window.activeNotebookEditor.selection.start);
  if (!cell || cell.notebook.notebookType !== NOTEBOOK_TYPE || cell.kind !== vscode.NotebookCellKind.Code || codeKind(cell.document.languageId) !== "soql") {
    throw new CommandRefusal(vscode.l10n.t("Chart All Rows works on a SOQL cell of a CRM notebook: select one first."));
  }
  const source = cell.document.getText();
  const objectName = aggregatedObject(source);
  const session = await notebookSession(deps, cell.notebook);
  const fields = (await session.schema.describe(objectName)).fields;
  const type = (await pick(chartChoices(), vscode.l10n.t("Chart {0} as", objectName))).type;
  const axes: ChartAxes = { type, measure: "COUNT" };
  if (type !== "number") {
    const x = (await pick(fields.filter((f) => f.groupable || DATED.has(f.type)).map(fieldItem), vscode.l10n.t("Along the axis (grouped by the org)"))).field;
    axes.x = x.name;
    if (DATED.has(x.type)) axes.bucket = (await pick(DATE_BUCKETS.map((b) => ({ label: b })), vscode.l10n.t("{0} by", x.label))).label as DateBucket;
    if (type === "stackedBar" || type === "bar" || type === "line" || type === "area") {
      const none = { label: vscode.l10n.t("No series"), field: undefined };
      const candidates = [...(type === "stackedBar" ? [] : [none]), ...fields.filter((f) => f.groupable && f.name !== x.name).map(fieldItem)];
      axes.series = (await pick<vscode.QuickPickItem & { field?: FieldDescribe }>(candidates, vscode.l10n.t("Split into series by"))).field?.name;
    }
  }
  const measures = [
    { label: vscode.l10n.t("Count of records"), measure: "COUNT" as Measure, of: undefined as string | undefined },
    ...fields.filter((f) => NUMERIC.has(f.type) && f.aggregatable !== false).flatMap((f) => (["SUM", "AVG", "MIN", "MAX"] as const).map((m) => ({ label: `${m}(${f.name})`, description: f.label, measure: m as Measure, of: f.name }))),
  ];
  const measure = await pick(measures, vscode.l10n.t("Measure"));
  Object.assign(axes, { measure: measure.measure, ...(measure.of ? { of: measure.of } : {}) });
  const { soql, chart } = aggregatedStatement(source, axes);
  const added = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, soql, "soql");
  added.metadata = { chart };
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [vscode.NotebookEdit.insertCells(cell.index + 1, [added])]);
  await vscode.workspace.applyEdit(edit);
  await vscode.commands.executeCommand("notebook.cell.execute", { ranges: [{ start: cell.index + 1, end: cell.index + 2 }], document: cell.notebook.uri });
}

/** The report's module, with the chart library: loaded from beside the extension's bundle on the first export, never at activation. */
function loadReport(): typeof import("./notebookReport") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./notebookReport") as typeof import("./notebookReport");
}

/**
 * Export Notebook Report…: the notebook as it stands — its last outputs, not run again — as a self-contained HTML
 * page (each chart as SVG, no script) or Markdown, the same report `crm-data notebook run` writes.
 */
async function exportReport(arg: unknown): Promise<void> {
  const notebook = notebookDocumentOf(arg);
  const formats: (vscode.QuickPickItem & { format: ReportFormat })[] = [
    { label: vscode.l10n.t("HTML page"), description: vscode.l10n.t("charts as SVG, no script: for e-mail or a CI artifact"), format: "html" },
    { label: vscode.l10n.t("Markdown"), description: vscode.l10n.t("the statements and their rows as tables"), format: "md" },
  ];
  const { format } = await pick(formats, vscode.l10n.t("Export the notebook's report as"));
  const name = path.posix.basename(notebook.uri.path).replace(/\.crmnb$/i, "") || "notebook";
  const folder = notebook.isUntitled ? vscode.workspace.workspaceFolders?.[0]?.uri : vscode.Uri.joinPath(notebook.uri, "..");
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t("Export Notebook Report"), ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `${name}.${format}`) } : {}),
    filters: format === "html" ? { [vscode.l10n.t("HTML page")]: ["html"] } : { Markdown: ["md"] },
  });
  if (!target) return;
  const report = loadReport().notebookReport(documentNotebook(notebook), format, name);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(report));
  vscode.window.setStatusBarMessage(vscode.l10n.t("Report written to {0}", vscode.workspace.asRelativePath(target)), 5000);
}

const documentNotebook = (notebook: vscode.NotebookDocument) => notebookFromCells(notebook.getCells().map((c) => ({ kind: c.kind, languageId: c.document.languageId, value: c.document.getText(), metadata: c.metadata, outputs: [...c.outputs] })), notebook.metadata);

/**
 * An agent's proposed cells, added where a person runs them: at the end of the open CRM notebook when it runs on
 * that org, else in a new notebook pinned to it. Nothing runs; the answer says where they wait.
 */
export async function addProposedCells(deps: Pick<NotebookUiDeps, "activeAlias">, org: string, cells: NotebookCell[]): Promise<string> {
  const editor = vscode.window.activeNotebookEditor;
  const open = editor?.notebook.notebookType === NOTEBOOK_TYPE ? editor.notebook : undefined;
  if (open && (notebookMetadata(open.metadata).org ?? deps.activeAlias()) === org) {
    const at = open.cellCount;
    const edit = new vscode.WorkspaceEdit();
    edit.set(open.uri, [vscode.NotebookEdit.insertCells(at, cells.map(cellData))]);
    await vscode.workspace.applyEdit(edit);
    editor!.revealRange(new vscode.NotebookRange(at, at + cells.length));
    return `Added ${cells.length === 1 ? "the cell" : `${cells.length} cells`} at the end of the notebook ${path.posix.basename(open.uri.path)} (on ${org}). Nothing was run: a person runs it.`;
  }
  const data = new vscode.NotebookData(cells.map(cellData));
  data.metadata = { org, binds: {} };
  await vscode.window.showNotebookDocument(await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data));
  return `Opened a new CRM notebook on ${org} with the proposed ${cells.length === 1 ? "cell" : "cells"}. Nothing was run: a person runs it.`;
}

/** The active notebook's org in the status bar (its pinned org, or the active org); a click chooses another. */
export function notebookOrgStatus(deps: NotebookUiDeps): vscode.Disposable {
  const item = vscode.window.createStatusBarItem("crm.notebookOrg", vscode.StatusBarAlignment.Left, 99);
  item.name = vscode.l10n.t("CRM notebook org");
  item.command = "crm.notebook.chooseOrg";
  const update = () => {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    if (notebook?.notebookType !== NOTEBOOK_TYPE) return item.hide();
    const { org } = notebookMetadata(notebook.metadata);
    const runsOn = org ?? deps.activeAlias();
    item.text = `$(notebook) ${runsOn ?? vscode.l10n.t("no org")}`;
    item.tooltip = org ? vscode.l10n.t("This notebook runs on {0} (pinned in its file). Click to choose another org.", org) : vscode.l10n.t("This notebook runs on the active org. Click to pin an org in its file.");
    item.show();
  };
  update();
  return vscode.Disposable.from(item,
    vscode.window.onDidChangeActiveNotebookEditor(update),
    vscode.workspace.onDidChangeNotebookDocument((e) => { if (e.metadata) update(); }),
    deps.onDidChangeActive(update));
}

export function notebookCommands(deps: NotebookUiDeps): Record<"crm.notebook.chooseOrg" | "crm.notebook.setBinds" | "crm.notebook.chartByAggregate" | "crm.notebook.exportReport", (arg?: unknown) => Promise<void>> {
  return {
    "crm.notebook.exportReport": (arg) => exportReport(arg),
    "crm.notebook.chooseOrg": (arg) => chooseOrg(deps, arg),
    "crm.notebook.setBinds": (arg) => setBinds(arg),
    "crm.notebook.chartByAggregate": (arg) => chartByAggregate(deps, arg),
  };
}
