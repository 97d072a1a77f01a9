/** Migration plans in the editor: Dry Run and Run above a `*.migration.yaml` plan, and the reports opened beside it. */
import path from "node:path";
import * as vscode from "vscode";

export const MIGRATION_REPORT_SCHEME = "crm-migration";
export const PLAN_PATTERN = /\.migration\.ya?ml$/i;

/** The reports opened beside their plans: read-only documents, replaced when the plan is run again. */
export class MigrationReports implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  async show(plan: vscode.Uri, text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: MIGRATION_REPORT_SCHEME, path: `/${path.basename(plan.path).replace(PLAN_PATTERN, "")} (migration report).md`, query: plan.toString() });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, "markdown");
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Dry Run and Run above a plan's first line. */
export class MigrationCodeLenses implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!PLAN_PATTERN.test(document.uri.path)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, { title: `$(checklist) ${vscode.l10n.t("Dry Run")}`, command: "crm.migration.dryRun", arguments: [document.uri], tooltip: vscode.l10n.t("Read both orgs and report what a run would do; nothing is written") }),
      new vscode.CodeLens(top, { title: `$(play) ${vscode.l10n.t("Run Migration…")}`, command: "crm.migration.run", arguments: [document.uri], tooltip: vscode.l10n.t("Write the plan's records into the target org (asks first)") }),
    ];
  }
}
