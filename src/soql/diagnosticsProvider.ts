/**
 * Diagnostics as you type in .soql documents: syntax and unknown objects/fields, computed from the cached
 * describes (a missing describe is fetched once, then kept), debounced, never a network call per keystroke.
 */
import * as vscode from "vscode";
import type { SoqlCatalogs } from "./catalogCache";
import { diagnose } from "./diagnostics";

export class SoqlDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection("soql");
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly catalogs: SoqlCatalogs) {
    const schedule = (doc: vscode.TextDocument) => doc.languageId === "soql" && this.schedule(doc);
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument(schedule),
      vscode.workspace.onDidChangeTextDocument((e) => schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.collection.delete(doc.uri)),
    );
    vscode.workspace.textDocuments.forEach(schedule);
  }

  /** Re-checks every open SOQL document (after the org or its describes changed). */
  refreshAll(): void {
    vscode.workspace.textDocuments.filter((d) => d.languageId === "soql").forEach((d) => this.schedule(d));
  }

  private schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => void this.check(doc), 250));
  }

  private async check(doc: vscode.TextDocument): Promise<void> {
    const text = doc.getText();
    const catalog = this.catalogs.for(doc.uri);
    await catalog.prepare();
    if (doc.getText() !== text) return;
    let result = diagnose(text, catalog);
    if (result.needs.length) {
      await catalog.load(result.needs);
      if (doc.getText() !== text) return; // typed on meanwhile: a newer check is scheduled
      result = diagnose(text, catalog);
    }
    this.collection.set(doc.uri, result.diagnostics.map((d) => {
      const diagnostic = new vscode.Diagnostic(new vscode.Range(doc.positionAt(d.start), doc.positionAt(d.end)), d.message, d.severity === "error" ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      diagnostic.source = "SOQL";
      return diagnostic;
    }));
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.subscriptions.forEach((s) => s.dispose());
    this.collection.dispose();
  }
}
