/**
 * Read-only texts shown in a diff editor (a grid's fetched ↔ staged values, the org ↔ an edit): kept in
 * memory under `crm-review:` URIs until their tab closes.
 */
import * as vscode from "vscode";

export const REVIEW_SCHEME = "crm-review";

export class ReviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private sequence = 0;
  private readonly closing = vscode.workspace.onDidCloseTextDocument((doc) => {
    if (doc.uri.scheme === REVIEW_SCHEME) this.texts.delete(doc.uri.toString());
  });

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t("This review has closed. Open Review Changes again from the results panel.");
  }

  /** Opens two texts side by side, left as it was and right as it would be; or a text beside a document that edits. */
  async showDiff(left: { label: string; text: string }, right: { label: string; text: string } | vscode.Uri, title: string): Promise<void> {
    const n = ++this.sequence;
    const uriOf = (side: { label: string; text: string }) => {
      const uri = vscode.Uri.from({ scheme: REVIEW_SCHEME, path: `/${n}/${side.label}` });
      this.texts.set(uri.toString(), side.text);
      this.changed.fire(uri);
      return uri;
    };
    await vscode.commands.executeCommand("vscode.diff", uriOf(left), right instanceof vscode.Uri ? right : uriOf(right), title, { preview: false });
  }

  dispose(): void {
    this.closing.dispose();
    this.changed.dispose();
  }
}
