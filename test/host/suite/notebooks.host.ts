/**
 * CRM notebooks in the real host: a `.crmnb` file opens in VS Code's notebook editor, its SOQL cell runs on the org
 * its file pins, with the notebook's bind, and the output (org, row count, first rows) is saved back to the file.
 */
import * as assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { parseNotebook } from "../../../src/notebooks/notebookFile";
import { api, demoConnection } from "./env";

/** Resolves when the cell's run has ended (VS Code records its summary), whatever its outcome. */
function ranOnce(cell: vscode.NotebookCell): Promise<void> {
  return new Promise((resolve) => {
    const listener = vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.cellChanges.some((c) => c.cell === cell && c.executionSummary?.timing?.endTime)) {
        listener.dispose();
        resolve();
      }
    });
  });
}

export function registerNotebookTests(): void {
  suite("notebooks", () => {
    test("a notebook's SOQL cell runs on the org its file pins, with its bind, and its output is saved in the file", async () => {
      const { manager } = await api();
      await manager.add({ method: "password", alias: "Notebook org", connection: demoConnection() });
      const file = path.join(mkdtempSync(path.join(tmpdir(), "crm-notebook-")), "cases.crmnb");
      writeFileSync(file, [
        "crmnb: 1", "org: Notebook org", "binds:", "  status: New", "cells:",
        "  - kind: markdown", "    source: '# Open cases'",
        "  - kind: soql", "    source: |-", "      SELECT Status, COUNT(Id) n FROM Case WHERE Status = :status GROUP BY Status",
        "    chart: { type: bar, x: Status, values: [n] }", "",
      ].join("\n"));
      const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
      await vscode.window.showNotebookDocument(notebook);
      // Another org active: the cell still says, and completes and runs on, the org its notebook names.
      const other = await manager.add({ method: "password", alias: "Another org", connection: demoConnection() });
      await vscode.commands.executeCommand("crm.org.setActive", other.key);
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", notebook.cellAt(1).document.uri);
      assert.ok(lenses.some((l) => l.command?.title === "$(cloud) Notebook org"), JSON.stringify(lenses.map((l) => l.command?.title)));
      assert.deepEqual(notebook.getCells().map((c) => [c.kind, c.document.languageId]), [[vscode.NotebookCellKind.Markup, "markdown"], [vscode.NotebookCellKind.Code, "soql"]]);
      await vscode.commands.executeCommand("notebook.selectKernel", { id: "crm-notebook-controller", extension: "crm-explorer.crm-explorer" });
      const cell = notebook.cellAt(1);
      const ran = ranOnce(cell);
      await vscode.commands.executeCommand("notebook.cell.execute", { ranges: [{ start: 1, end: 2 }], document: notebook.uri });
      await ran;
      assert.equal(cell.executionSummary?.success, true);
      await notebook.save();
      const saved = parseNotebook(readFileSync(file, "utf8"));
      const output = saved.cells[1]!.output!;
      assert.equal(output.org, "Notebook org");
      assert.deepEqual(output.columns, ["Status", "n"]);
      assert.equal(output.data.length, 1);
      assert.equal(output.data[0]![0], "New", "the bind filtered the cases");
      assert.deepEqual(saved.cells[1]!.chart, { type: "bar", x: "Status", values: ["n"] }, "the chart kept with its question");
      assert.deepEqual(saved.binds, { status: "New" });

      // Open in Results, from the cell's toolbar: the grid for every row, on the notebook's org.
      const panels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && /crm\.results/.test(t.input.viewType));
      const before = panels().length;
      const opened = new Promise<void>((resolve) => {
        const listener = vscode.window.tabGroups.onDidChangeTabs(() => {
          if (panels().length > before) {
            listener.dispose();
            resolve();
          }
        });
      });
      await vscode.commands.executeCommand("crm.notebook.openInResults", cell);
      await opened;
      assert.equal(panels().length, before + 1, "a results panel for the cell");
    });
  });
}
