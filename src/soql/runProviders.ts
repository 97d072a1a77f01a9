/**
 * Where and how a SOQL document runs: the org it is pinned to (else the active org), the Tooling API
 * toggle, the CodeLens above each statement and a status bar item while a SOQL editor is in front.
 */
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import { DocumentPins, type DocumentPin } from "./runHistory";
import { apiOf } from "./runText";
import { parseLibraryHeader } from "./library";
import { splitStatements, type Statement } from "./statements";
import { notebookMetadata } from "../notebooks/notebookFile";

export class SoqlDocumentOrgs implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** A pin or an org changed: CodeLenses, the status bar and the describes in use follow. */
  readonly onDidChange = this.changed.event;
  private readonly pins: DocumentPins;
  private readonly subscriptions: { dispose(): void }[];

  private readonly closed = new vscode.EventEmitter<vscode.Uri>();
  /**
   * An untitled document closed. "Untitled-1" is named again for the next new document: what belonged to
   * the closed one (its pin, its results panel) must not carry over to it.
   */
  readonly onDidCloseUntitled = this.closed.event;

  constructor(private readonly manager: OrgManager, store: vscode.Memento) {
    this.pins = new DocumentPins(store);
    let orgs = manager.registry.shownState();
    this.subscriptions = [
      // The lenses, the status bar and the describes follow the orgs and the active one, not the "last used"
      // time a query's answer renews: a lens rebuilt while a person clicks it loses the click.
      manager.registry.onDidChange(() => {
        const now = manager.registry.shownState();
        if (now === orgs) return;
        orgs = now;
        this.changed.fire();
      }),
      vscode.workspace.onDidCloseTextDocument(async (d) => {
        if (d.uri.scheme !== "untitled") return;
        await this.pins.forget(d.uri.toString());
        this.closed.fire(d.uri);
      }),
      this.closed,
    ];
  }

  pin(uri: vscode.Uri): DocumentPin {
    return this.pins.get(uri.toString());
  }

  /**
   * The org the document runs on: its pin while that org exists, else the org its notebook (for a notebook's
   * cell) or its library header names, else the active org.
   */
  orgKeyFor(uri: vscode.Uri): string | undefined {
    const pinned = this.pin(uri).orgKey;
    if (pinned && this.manager.registry.get(pinned)) return pinned;
    const text = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText();
    const named = notebookOrgOf(uri) ?? (text ? parseLibraryHeader(text).org : undefined);
    const org = named ? this.manager.registry.list().find((o) => o.alias === named) : undefined;
    return org?.key ?? this.manager.registry.activeKey;
  }

  aliasFor(uri: vscode.Uri): string | undefined {
    const key = this.orgKeyFor(uri);
    return key ? this.manager.registry.get(key)?.alias : undefined;
  }

  async setPin(uri: vscode.Uri, pin: DocumentPin): Promise<void> {
    await this.pins.set(uri.toString(), pin);
    this.changed.fire();
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

/** The org a notebook names (`org:` in its file), for one of its cells: completion, lenses and checks follow it. */
function notebookOrgOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== "vscode-notebook-cell") return undefined;
  const notebook = vscode.workspace.notebookDocuments.find((n) => n.getCells().some((c) => c.document.uri.toString() === uri.toString()));
  return notebook ? notebookMetadata(notebook.metadata).org : undefined;
}

/** The statement at an offset, or the one nearest before it (the cursor sits on a blank line after it). */
export function statementAt(text: string, offset: number): Statement | undefined {
  const statements = splitStatements(text);
  return statements.find((s) => offset >= s.start && offset <= s.start + s.text.length) ?? statements.filter((s) => s.start <= offset).pop() ?? statements[0];
}

export class SoqlCodeLenses implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;
  constructor(private readonly orgs: SoqlDocumentOrgs) {
    this.onDidChangeCodeLenses = orgs.onDidChange;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const uri = document.uri;
    const alias = this.orgs.aliasFor(uri);
    const tooling = !!this.orgs.pin(uri).tooling;
    return splitStatements(document.getText()).flatMap((statement) => {
      const range = new vscode.Range(document.positionAt(statement.start), document.positionAt(statement.start));
      const api = apiOf(statement.text, tooling);
      const run = api === "sosl" ? `$(search) ${vscode.l10n.t("Run Search")}` : api === "tooling" ? `$(play) ${vscode.l10n.t("Run on Tooling API")}` : `$(play) ${vscode.l10n.t("Run")}`;
      const explain = new vscode.CodeLens(range, { title: `$(pulse) ${vscode.l10n.t("Explain")}`, command: "crm.soql.explain", arguments: [uri, statement.start], tooltip: vscode.l10n.t("Ask the org how it would run this statement (its query plan), without running it") });
      // A notebook cell runs from its own run button on the notebook's org, through the data API: its lenses are the org (the notebook's) and Explain.
      if (uri.scheme === "vscode-notebook-cell") {
        return [
          new vscode.CodeLens(range, { title: `$(cloud) ${alias ?? vscode.l10n.t("Pick an org")}`, command: "crm.notebook.chooseOrg", arguments: [uri], tooltip: vscode.l10n.t("The org this notebook runs on — click to change") }),
          ...(api === "sosl" ? [] : [explain]),
        ];
      }
      const lenses = [
        new vscode.CodeLens(range, { title: run, command: "crm.soql.run", arguments: [uri, statement.start], tooltip: vscode.l10n.t("Run this statement (Ctrl+Enter)") }),
        new vscode.CodeLens(range, { title: `$(cloud) ${alias ?? vscode.l10n.t("Pick an org")}`, command: "crm.soql.pickOrg", arguments: [uri], tooltip: vscode.l10n.t("The org this document runs on — click to change") }),
      ];
      if (api !== "sosl") {
        lenses.push(
          explain,
          new vscode.CodeLens(range, { title: tooling ? vscode.l10n.t("Tooling API") : vscode.l10n.t("Data API"), command: "crm.soql.toggleTooling", arguments: [uri], tooltip: vscode.l10n.t("Switch between the data and the Tooling API for this document") }),
        );
      }
      return lenses;
    });
  }
}

/** "SOQL: alias" in the status bar while a SOQL editor is active; click to pin another org. */
export class SoqlOrgStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("crm.soqlOrg", vscode.StatusBarAlignment.Left, 49);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly orgs: SoqlDocumentOrgs, private readonly restricted: (uri: vscode.Uri) => boolean) {
    this.item.name = "CRM: SOQL Document Org";
    this.item.command = "crm.soql.pickOrg";
    // (A document whose language is set to SOQL after opening is opened again under that language.)
    this.subscriptions = [
      orgs.onDidChange(() => this.update()), vscode.window.onDidChangeActiveTextEditor(() => this.update()), vscode.workspace.onDidOpenTextDocument(() => this.update()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
    ];
    this.update();
  }

  private update(): void {
    const document = vscode.window.activeTextEditor?.document;
    if (document?.languageId !== "soql") return this.item.hide();
    const alias = this.orgs.aliasFor(document.uri);
    const tooling = this.orgs.pin(document.uri).tooling ? ` · ${vscode.l10n.t("Tooling API")}` : "";
    const restricted = this.restricted(document.uri);
    this.item.text = `$(${restricted ? "shield" : "database"}) ${alias ?? vscode.l10n.t("no org")}${tooling}`;
    const runsOn = vscode.l10n.t("This SOQL document runs on {0}. Click to pick another org.", `${alias ?? vscode.l10n.t("no org yet")}${tooling}`);
    this.item.tooltip = restricted ? `${runsOn}\n${vscode.l10n.t("Restricted Mode: this workspace is not trusted, so its files do not make CRM Explorer contact the org by themselves — completion and checks use the syntax only. Run still sends the statement when you click it. Trust the workspace to complete from the org.")}` : runsOn;
    const label = vscode.l10n.t("SOQL document org: {0}", `${alias ?? vscode.l10n.t("none")}${tooling}`);
    this.item.accessibilityInformation = { label: restricted ? `${label}. ${vscode.l10n.t("Restricted Mode: checked from the syntax only until the workspace is trusted")}` : label };
    this.item.show();
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.item.dispose();
  }
}
