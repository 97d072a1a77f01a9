/** Completion in .soql documents against the active org's cached describes. */
import * as vscode from "vscode";
import type { SoqlCatalogs } from "./catalogCache";
import { completionsAt, type CompletionKind } from "./completion";
import { splitStatements } from "./statements";

/** The item kind (icon) of each completion kind; built on first use, not at activation. */
function itemKind(kind: CompletionKind): vscode.CompletionItemKind {
  const K = vscode.CompletionItemKind;
  return { keyword: K.Keyword, object: K.Class, field: K.Field, relationship: K.Reference, childRelationship: K.Module, value: K.EnumMember, function: K.Function, dateLiteral: K.Constant }[kind];
}

export class SoqlCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly catalogs: SoqlCatalogs) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.CompletionItem[]> {
    const offset = document.offsetAt(position);
    const text = document.getText();
    const statement = splitStatements(text).find((s) => offset >= s.start && offset <= s.start + s.text.length) ?? { text: "", start: offset };
    const relative = offset - statement.start;
    const catalog = this.catalogs.for(document.uri);
    await catalog.prepare();
    let result = completionsAt(statement.text, relative, catalog);
    // Describes are fetched once per object and kept; ask again when some were missing.
    for (let round = 0; result.needs.length && round < 3 && !token.isCancellationRequested; round++) {
      await catalog.load(result.needs);
      result = completionsAt(statement.text, relative, catalog);
    }
    const range = new vscode.Range(document.positionAt(statement.start + result.replaceFrom), position);
    return result.items.map((c, i) => {
      const item = new vscode.CompletionItem(c.label, itemKind(c.kind));
      item.detail = c.detail;
      item.insertText = c.insertText ?? c.label;
      item.range = range;
      item.sortText = String(i).padStart(5, "0");
      if (c.kind === "relationship") item.command = { command: "editor.action.triggerSuggest", title: vscode.l10n.t("Suggest") };
      return item;
    });
  }
}
