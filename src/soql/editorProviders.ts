/** Hover and Format Document for .soql documents. */
import * as vscode from "vscode";
import type { SoqlCatalogCache } from "./catalogCache";
import { diagnose } from "./diagnostics";
import { formatDocument, hoverAt } from "./hoverFormat";
import { splitStatements } from "./statements";

export class SoqlHoverProvider implements vscode.HoverProvider {
  constructor(private readonly catalog: SoqlCatalogCache) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const offset = document.offsetAt(position);
    const statement = splitStatements(document.getText()).find((s) => offset >= s.start && offset <= s.start + s.text.length);
    if (!statement || !(await this.catalog.prepare())) return undefined;
    // The describes the statement needs (the same ones diagnostics fetch), then the facts.
    await this.catalog.load(diagnose(statement.text, this.catalog).needs);
    const info = hoverAt(statement.text, offset - statement.start, this.catalog);
    if (!info) return undefined;
    return new vscode.Hover(new vscode.MarkdownString(info.markdown), new vscode.Range(document.positionAt(statement.start + info.start), document.positionAt(statement.start + info.end)));
  }
}

export class SoqlFormatter implements vscode.DocumentFormattingEditProvider {
  provideDocumentFormattingEdits(document: vscode.TextDocument): vscode.TextEdit[] {
    return formatDocument(document.getText()).map((e) => vscode.TextEdit.replace(new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.text));
  }
}
