/** Hover and Format Document for .soql documents. */
import * as vscode from "vscode";
import type { SoqlCatalogs } from "./catalogCache";
import { diagnose } from "./diagnostics";
import { formatDocument, hoverAt } from "./hoverFormat";
import { splitStatements } from "./statements";

export class SoqlHoverProvider implements vscode.HoverProvider {
  constructor(private readonly catalogs: SoqlCatalogs) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const offset = document.offsetAt(position);
    const statement = splitStatements(document.getText()).find((s) => offset >= s.start && offset <= s.start + s.text.length);
    const catalog = this.catalogs.for(document.uri);
    if (!statement || !(await catalog.prepare())) return undefined;
    // The describes the statement needs (the same ones diagnostics fetch), then the facts.
    await catalog.load(diagnose(statement.text, catalog).needs);
    const info = hoverAt(statement.text, offset - statement.start, catalog);
    if (!info) return undefined;
    return new vscode.Hover(new vscode.MarkdownString(info.markdown), new vscode.Range(document.positionAt(statement.start + info.start), document.positionAt(statement.start + info.end)));
  }
}

export class SoqlFormatter implements vscode.DocumentFormattingEditProvider {
  provideDocumentFormattingEdits(document: vscode.TextDocument): vscode.TextEdit[] {
    return formatDocument(document.getText()).map((e) => vscode.TextEdit.replace(new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.text));
  }
}
