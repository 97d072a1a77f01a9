/**
 * CRM notebooks in VS Code's notebook editor: `.crmnb` files read and written by the notebook file format
 * (notebookFile.ts), and a controller that runs SOQL and SOSL cells on the notebook's org — the one its file pins
 * by name, else the active org — with the notebook's binds. Each output keeps the org, the time, the org's row
 * count and the first rows: as data for the chart renderer, and as a compact table any VS Code shows, every
 * value as text (a value from the org never becomes markup). Writes stay out: a notebook only reads.
 */
import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import type { OrgSession } from "../connections/orgSession";
import { CancelledError } from "../client/errors";
import { codeKind, notebookMetadata, parseNotebook, serializeNotebook, type CellOutput, type Notebook, type NotebookCell } from "./notebookFile";
import { runCell } from "./runCell";
import { outputMarkdown } from "./outputText";
import { applyBinds, bindNames } from "../soql/library";
import { askBindValues } from "../soql/bindPrompt";
import type { RunSpec } from "../shared/runSpec";
import { checkChartSpec, ChartSpecError, type ChartSpec } from "./chartSpec";
import { statementShape } from "./aggregation";
import { isChartChosen, OUTPUT_MIME, RENDERER_ID, type L10nBundle, type RenderedOutput } from "./renderedOutput";

export const NOTEBOOK_TYPE = "crm-notebook";

/** A cell's output: its data and chart for our renderer, and the same rows as Markdown for any other view. */
function outputOf(output: CellOutput, cell: { source: string; chart?: ChartSpec }): vscode.NotebookCellOutput {
  const rendered: RenderedOutput = { id: randomUUID(), output, ...(cell.chart ? { chart: cell.chart } : {}), shape: statementShape(cell.source) };
  return new vscode.NotebookCellOutput([
    vscode.NotebookCellOutputItem.json(rendered, OUTPUT_MIME),
    vscode.NotebookCellOutputItem.text(outputMarkdown(output), "text/markdown"),
  ]);
}

export class CrmNotebookSerializer implements vscode.NotebookSerializer {
  constructor(private readonly saveOutputs: () => boolean) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    // A file that is not a notebook throws: VS Code says so and opens nothing, and the file is left as it is.
    const notebook = parseNotebook(new TextDecoder().decode(content));
    const data = new vscode.NotebookData(notebook.cells.map(cellData));
    data.metadata = { ...(notebook.org ? { org: notebook.org } : {}), binds: notebook.binds };
    return data;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return new TextEncoder().encode(serializeNotebook(notebookFromCells(data.cells, data.metadata), { stripOutputs: !this.saveOutputs() }));
  }
}

/** A cell of the file format as VS Code's cell data: its kind is its language's id (markdown, soql, sosl). */
export function cellData(cell: NotebookCell): vscode.NotebookCellData {
  const item = new vscode.NotebookCellData(cell.kind === "markdown" ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code, cell.source, cell.kind);
  if (cell.chart) item.metadata = { chart: cell.chart };
  if (cell.output) item.outputs = [outputOf(cell.output, cell)];
  return item;
}

/** A notebook as the file format holds it, from VS Code's cells (as saved, or as an open notebook has them) and metadata. */
export function notebookFromCells(cells: readonly Pick<vscode.NotebookCellData, "kind" | "languageId" | "value" | "metadata" | "outputs">[], metadata: unknown): Notebook {
  return {
    ...notebookMetadata(metadata),
    cells: cells.map((cell) => {
      const kind = cell.kind === vscode.NotebookCellKind.Markup ? "markdown" : codeKind(cell.languageId);
      const [shown] = renderedIn(cell.outputs);
      const chart = chartOf(cell.metadata);
      return { kind, source: cell.value, ...(chart ? { chart } : {}), ...(shown ? { output: shown.output } : {}) };
    }),
  };
}

/** The outputs of ours among a cell's outputs, as the renderer receives them. */
const renderedIn = (outputs: readonly vscode.NotebookCellOutput[] | undefined): RenderedOutput[] =>
  (outputs ?? []).flatMap((o) => o.items).filter((i) => i.mime === OUTPUT_MIME).map((i) => JSON.parse(new TextDecoder().decode(i.data)) as RenderedOutput);

const chartOf = (metadata: unknown): ChartSpec | undefined => (metadata as { chart?: ChartSpec } | undefined)?.chart;

/** The org a notebook runs on: the one its file names, else the active org. */
export function notebookSession(deps: NotebookDeps, notebook: vscode.NotebookDocument): Promise<OrgSession> {
  const { org } = notebookMetadata(notebook.metadata);
  return org ? deps.manager.sessionByAlias(org) : deps.activeSession();
}

export interface NotebookDeps {
  manager: OrgManager;
  activeSession(): Promise<OrgSession>;
}

/** The notebook's org and binds changed as one edit (saved with the file, undone with Ctrl+Z). */
export async function updateNotebook(notebook: vscode.NotebookDocument, change: Partial<Pick<Notebook, "org" | "binds">>): Promise<void> {
  const next: Record<string, unknown> = { ...notebook.metadata, ...change };
  if (next.org === undefined) delete next.org;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata(next)]);
  await vscode.workspace.applyEdit(edit);
}

/** Every bind variable the notebook's SOQL cells use, each once, in order. */
export const bindsUsed = (cells: readonly vscode.NotebookCell[]): string[] =>
  [...new Set(cells.filter((c) => c.kind === vscode.NotebookCellKind.Code && codeKind(c.document.languageId) === "soql").flatMap((c) => bindNames(c.document.getText())))];

/**
 * The bind values a run of `cells` needs: those the notebook defines, and any it does not yet asked now and kept
 * in the notebook (defined once). Undefined when the person cancels: nothing runs.
 */
export async function bindsForRun(notebook: vscode.NotebookDocument, cells: readonly vscode.NotebookCell[]): Promise<Record<string, string> | undefined> {
  const { binds } = notebookMetadata(notebook.metadata);
  const missing = bindsUsed(cells).filter((name) => !Object.hasOwn(binds, name));
  if (!missing.length) return binds;
  const given = await askBindValues(missing, {});
  if (!given) return undefined;
  const all = { ...binds, ...given };
  await updateNotebook(notebook, { binds: all });
  return all;
}

/** A code cell as a results panel runs it (Open in Results: every row, in the grid): its org and its statement, binds filled in. */
export async function cellRunSpec(deps: NotebookDeps, cell: vscode.NotebookCell): Promise<{ orgKey: string; spec: RunSpec }> {
  const session = await notebookSession(deps, cell.notebook);
  const text = cell.document.getText().trim();
  return { orgKey: session.record.key, spec: codeKind(cell.document.languageId) === "sosl" ? { api: "sosl", text } : { api: "soql", text: applyBinds(text, notebookMetadata(cell.notebook.metadata).binds) } };
}

/** The controller that runs a notebook's code cells, one after another, on its org. */
export function crmNotebookController(deps: NotebookDeps): vscode.NotebookController {
  const controller = vscode.notebooks.createNotebookController("crm-notebook-controller", NOTEBOOK_TYPE, vscode.l10n.t("CRM"));
  controller.supportedLanguages = ["soql", "sosl"];
  controller.supportsExecutionOrder = true;
  controller.description = vscode.l10n.t("Runs SOQL and SOSL cells on the notebook's org");
  let order = 0;
  controller.executeHandler = async (cells, notebook) => {
    const binds = await bindsForRun(notebook, cells);
    if (!binds) return;
    for (const cell of cells) {
      const execution = controller.createNotebookCellExecution(cell);
      execution.executionOrder = ++order;
      execution.start(Date.now());
      const stop = new AbortController();
      execution.token.onCancellationRequested(() => stop.abort());
      try {
        const session = await notebookSession(deps, notebook);
        const output = await runCell(session.crm, { kind: codeKind(cell.document.languageId), source: cell.document.getText() }, binds, { org: session.record.alias, signal: stop.signal });
        await execution.replaceOutput([outputOf(output, { source: cell.document.getText(), chart: chartOf(cell.metadata) })]);
        execution.end(!output.error, Date.now());
      } catch (err) {
        if (stop.signal.aborted || err instanceof CancelledError) {
          execution.end(undefined, Date.now());
          continue;
        }
        await execution.replaceOutput([new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error(err as Error)])]);
        execution.end(false, Date.now());
      }
    }
  };
  return controller;
}

/** CRM: New Notebook — an untitled notebook with a note and a first query, on the active org until pinned. */
export async function newNotebook(): Promise<void> {
  const note = new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, vscode.l10n.t("# Questions about the org\nEach SOQL cell runs on the active org; its output keeps the rows it found."), "markdown");
  const query = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, "SELECT Status, COUNT(Id) n\nFROM Case\nGROUP BY Status", "soql");
  const data = new vscode.NotebookData([note, query]);
  data.metadata = { binds: {} };
  await vscode.window.showNotebookDocument(await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data));
}

/**
 * A chart chosen on an output's toolbar, kept in its cell's metadata (saved with the file, undone with Ctrl+Z) once
 * it is checked against the output's columns: the renderer's message is read as any other input. The renderer's
 * other question is for VS Code's strings in the display language.
 */
export function keepChosenCharts(): vscode.Disposable {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  return messaging.onDidReceiveMessage(async ({ editor, message }) => {
    if ((message as { type?: unknown } | null)?.type === "l10n?") {
      const answer: L10nBundle = { type: "l10n", contents: vscode.l10n.bundle ?? {} };
      return void messaging.postMessage(answer, editor);
    }
    if (!isChartChosen(message) || editor.notebook.notebookType !== NOTEBOOK_TYPE) return;
    const cell = editor.notebook.getCells().find((c) => renderedIn(c.outputs).some((r) => r.id === message.outputId));
    const output = cell && renderedIn(cell.outputs).find((r) => r.id === message.outputId)!.output;
    if (!cell || !output) return;
    let chart: ChartSpec | undefined;
    try {
      chart = message.chart === undefined ? undefined : checkChartSpec(message.chart, output.columns);
    } catch (err) {
      if (err instanceof ChartSpecError) return void vscode.window.showWarningMessage(err.message);
      throw err;
    }
    const metadata: Record<string, unknown> = { ...cell.metadata };
    delete metadata.chart;
    const edit = new vscode.WorkspaceEdit();
    edit.set(editor.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...metadata, ...(chart ? { chart } : {}) })]);
    await vscode.workspace.applyEdit(edit);
  });
}
