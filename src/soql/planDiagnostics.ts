/**
 * The editor's warnings from query plans: after a statement is explained (Explain, or before a run when
 * `crm.soql.explainBeforeRun` is on) its plan's advice marks the statement — a table scan of a large object,
 * a cost above 1, a large object read without LIMIT or a selective filter. A statement edited since loses them.
 */
import * as vscode from "vscode";
import type { QueryExplain } from "../client";
import type { RunSpec } from "../shared/runSpec";
import { planAdvice } from "./planAdvice";
import { stripComments } from "./runText";
import { splitStatements } from "./statements";

export class PlanDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection("soql-plan");
  /** Per document: the explained statements (as sent) and their advice. */
  private readonly explained = new Map<string, Map<string, ReturnType<typeof planAdvice>>>();
  private readonly subscriptions = [
    vscode.workspace.onDidChangeTextDocument((e) => this.explained.has(e.document.uri.toString()) && this.show(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      this.explained.delete(doc.uri.toString());
      this.collection.delete(doc.uri);
    }),
  ];

  constructor(private readonly largeRows: () => number) {}

  /** Marks a document's statement with what its plan advises. */
  set(uri: string, spec: RunSpec, explain: QueryExplain): void {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    if (!document) return;
    const text = stripComments(spec.text);
    const statements = this.explained.get(uri) ?? new Map();
    statements.set(text, planAdvice(explain, text, this.largeRows()));
    this.explained.set(uri, statements);
    this.show(document);
  }

  private show(document: vscode.TextDocument): void {
    const uri = document.uri.toString();
    const statements = this.explained.get(uri)!;
    const present = new Set<string>();
    const diagnostics: vscode.Diagnostic[] = [];
    for (const statement of splitStatements(document.getText())) {
      const text = stripComments(statement.text);
      const advice = statements.get(text);
      if (!advice) continue;
      present.add(text);
      const range = new vscode.Range(document.positionAt(statement.start), document.positionAt(statement.start + statement.text.length));
      for (const a of advice) {
        const diagnostic = new vscode.Diagnostic(range, a.message, a.severity === "warning" ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information);
        diagnostic.source = "SOQL query plan";
        diagnostics.push(diagnostic);
      }
    }
    // A statement edited since its plan was read no longer has that plan.
    for (const text of [...statements.keys()]) if (!present.has(text)) statements.delete(text);
    this.collection.set(document.uri, diagnostics);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.collection.dispose();
  }
}
