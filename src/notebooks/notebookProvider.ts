/**
 * CRM notebooks in VS Code's notebook editor: `.crmnb` files read and written by the notebook file format
 * (notebookFile.ts), and a controller that runs SOQL and SOSL cells on the notebook's org — the one its file pins
 * by name, else the active org — with the notebook's binds. Each output keeps the org, the time, the org's row
 * count and the first rows: as data for the chart renderer, and as a compact table any VS Code shows, every
 * value as text (a value from the org never becomes markup). Writes stay out: a notebook only reads.
 */
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import type { OrgSession } from "../connections/orgSession";
import { CancelledError } from "../client/errors";
import { codeKind, notebookMetadata, parseNotebook, serializeNotebook, type CellOutput, type NotebookCell } from "./notebookFile";
import { runCell } from "./runCell";
import { outputMarkdown } from "./outputText";
import { applyBinds } from "../soql/library";
import type { RunSpec } from "../shared/runSpec";
import type { ChartSpec } from "./chartSpec";

export const NOTEBOOK_TYPE = "crm-notebook";
/** The output's data, for the chart renderer and for the file. */
export const OUTPUT_MIME = "application/vnd.crm-explorer.notebook-output+json";

function outputOf(output: CellOutput): vscode.NotebookCellOutput {
  return new vscode.NotebookCellOutput([
    vscode.NotebookCellOutputItem.json(output, OUTPUT_MIME),
    vscode.NotebookCellOutputItem.text(outputMarkdown(output), "text/markdown"),
  ]);
}

export class CrmNotebookSerializer implements vscode.NotebookSerializer {
  constructor(private readonly saveOutputs: () => boolean) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    // A file that is not a notebook throws: VS Code says so and opens nothing, and the file is left as it is.
    const notebook = parseNotebook(new TextDecoder().decode(content));
    const data = new vscode.NotebookData(notebook.cells.map((cell) => {
      const kind = cell.kind === "markdown" ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
      // A cell's kind is its language's id: markdown, soql, sosl.
      const item = new vscode.NotebookCellData(kind, cell.source, cell.kind);
      if (cell.chart) item.metadata = { chart: cell.chart };
      if (cell.output) item.outputs = [outputOf(cell.output)];
      return item;
    }));
    data.metadata = { ...(notebook.org ? { org: notebook.org } : {}), binds: notebook.binds };
    return data;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const cells: NotebookCell[] = data.cells.map((cell) => {
      const kind = cell.kind === vscode.NotebookCellKind.Markup ? "markdown" : codeKind(cell.languageId);
      const item = cell.outputs?.flatMap((o) => o.items).find((i) => i.mime === OUTPUT_MIME);
      const chart = (cell.metadata as { chart?: ChartSpec } | undefined)?.chart;
      return { kind, source: cell.value, ...(chart ? { chart } : {}), ...(item ? { output: JSON.parse(new TextDecoder().decode(item.data)) as CellOutput } : {}) };
    });
    return new TextEncoder().encode(serializeNotebook({ ...notebookMetadata(data.metadata), cells }, { stripOutputs: !this.saveOutputs() }));
  }
}

/** The org a notebook runs on: the one its file names, else the active org. */
function notebookSession(deps: NotebookDeps, notebook: vscode.NotebookDocument): Promise<OrgSession> {
  const { org } = notebookMetadata(notebook.metadata);
  return org ? deps.manager.sessionByAlias(org) : deps.activeSession();
}

export interface NotebookDeps {
  manager: OrgManager;
  activeSession(): Promise<OrgSession>;
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
    const { binds } = notebookMetadata(notebook.metadata);
    for (const cell of cells) {
      const execution = controller.createNotebookCellExecution(cell);
      execution.executionOrder = ++order;
      execution.start(Date.now());
      const stop = new AbortController();
      execution.token.onCancellationRequested(() => stop.abort());
      try {
        const session = await notebookSession(deps, notebook);
        const output = await runCell(session.crm, { kind: codeKind(cell.document.languageId), source: cell.document.getText() }, binds, { org: session.record.alias, signal: stop.signal });
        await execution.replaceOutput([outputOf(output)]);
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
