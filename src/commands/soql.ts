/**
 * SOQL commands: run the statement under the cursor (or the selection) into the results panel, pin a
 * document to an org, the Tooling API toggle, history, exports streamed to a file, and opening what an ID names.
 */
import { formatCount, formatTime, rowsText } from "../platform/numbers";
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { readSettings } from "../platform/settings";
import type { QueryHistory } from "../soql/runHistory";
import type { KeyValueStore } from "../connections/orgRegistry";
import { applyBinds, bindNames, libraryFileName, libraryHeader } from "../soql/library";
import { askBindValues } from "../soql/bindPrompt";
import { statementAt, type SoqlDocumentOrgs } from "../soql/runProviders";
import { apiOf, stripComments } from "../soql/runText";
import type { PanelTarget } from "../webviews/panels";
import type { RunSpec } from "../webviews/queryRun";
import { resultsTarget, specOf, type ResultsPanels } from "../webviews/resultsPanel";
import { exportRows } from "../webviews/rowsExport";
import { sobjectOfId } from "./documents";
import type { CommandId } from "./commandIds";

export interface SoqlCommandDeps {
  manager: OrgManager;
  orgs: SoqlDocumentOrgs;
  history: QueryHistory;
  results: ResultsPanels;
  /** The last value given to each bind variable (kept with the workspace). */
  binds: KeyValueStore;
  articles: { show(target: PanelTarget, options?: { preserveFocus?: boolean }): unknown };
}

/** Opens what an ID names: the article details for a knowledge article version, else the record in an editor. */
export async function openId(deps: Pick<SoqlCommandDeps, "manager" | "articles">, orgKey: string, id: string): Promise<void> {
  const sobject = await sobjectOfId(deps.manager, orgKey, id);
  if (sobject === readSettings().knowledgeSobject) deps.articles.show({ orgKey, id });
  else await vscode.commands.executeCommand("crm.document.openRecord", orgKey, id);
}

type SoqlCommandId = Exclude<Extract<CommandId, `crm.soql.${string}`>, "crm.soql.clearDescribeCache">;

const BINDS_KEY = "crm.soql.binds";

/** Writes a statement into the workspace's query library with a header the person fills in, and opens it. */
export async function saveToLibrary(statement: string, org: string | undefined): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new CommandRefusal(vscode.l10n.t("Saved queries live in the workspace: open a folder first (File → Open Folder), then save the query to its library."));
  const name = await vscode.window.showInputBox({ title: vscode.l10n.t("Save Query to Library (1/3): name"), prompt: vscode.l10n.t("What the query is called in the library"), ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t("Give the query a name.")) });
  if (name === undefined) throw new UserCancelled();
  const tags = await vscode.window.showInputBox({ title: vscode.l10n.t("Save Query to Library (2/3): tags"), prompt: vscode.l10n.t("Tags, separated by commas (optional)"), ignoreFocusOut: true });
  if (tags === undefined) throw new UserCancelled();
  const description = await vscode.window.showInputBox({ title: vscode.l10n.t("Save Query to Library (3/3): description"), prompt: vscode.l10n.t("What the query is for (optional)"), ignoreFocusOut: true });
  if (description === undefined) throw new UserCancelled();
  const header = libraryHeader({ name: name.trim(), ...(org ? { org } : {}), tags: tags.split(",").map((t) => t.trim()).filter(Boolean), ...(description.trim() ? { description: description.trim() } : {}) });
  const dir = vscode.Uri.joinPath(folder.uri, readSettings().soqlLibraryFolder);
  let file = vscode.Uri.joinPath(dir, libraryFileName(name));
  for (let n = 2; await vscode.workspace.fs.stat(file).then(() => true, () => false); n++) file = vscode.Uri.joinPath(dir, libraryFileName(`${name} ${n}`));
  await vscode.workspace.fs.createDirectory(dir);
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(`${header}${stripComments(statement)}\n`));
  await vscode.window.showTextDocument(file);
  return file;
}

export function soqlCommands(deps: SoqlCommandDeps): Record<SoqlCommandId, (...args: unknown[]) => unknown> {
  const { orgs, history, results, manager, binds } = deps;

  /** The SOQL document a command is about: the one a CodeLens passed, else the active editor's. */
  function documentOf(arg: unknown): vscode.TextDocument {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const document = uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!document || document.languageId !== "soql") throw new CommandRefusal(vscode.l10n.t("Open a SOQL document (a .soql file, or CRM: New SOQL Query) and put the cursor in a statement."));
    return document;
  }

  /** The statement with its bind variables (`:name`) replaced by values the person gives, the last ones offered again. */
  async function bound(spec: RunSpec): Promise<RunSpec> {
    const names = bindNames(spec.text);
    if (!names.length) return spec;
    const remembered = binds.get<Record<string, string>>(BINDS_KEY, {});
    const values = await askBindValues(names, remembered);
    if (!values) throw new UserCancelled();
    await binds.update(BINDS_KEY, { ...remembered, ...values });
    return { ...spec, text: applyBinds(spec.text, values) };
  }

  /**
   * What to run from a SOQL document: the statement at `offset` (a CodeLens), else the selection, else the
   * statement under the cursor — on the API the document and the statement call for.
   */
  function specAt(document: vscode.TextDocument, offset?: number): RunSpec {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
    let text: string | undefined;
    if (offset !== undefined) text = statementAt(document.getText(), offset)?.text;
    else if (editor && !editor.selection.isEmpty) text = document.getText(editor.selection);
    else text = statementAt(document.getText(), document.offsetAt(editor?.selection.active ?? new vscode.Position(0, 0)))?.text;
    if (!text || !stripComments(text)) throw new CommandRefusal(vscode.l10n.t("There is no statement here. Write a SELECT or FIND statement first."));
    return { api: apiOf(text, !!orgs.pin(document.uri).tooling), text };
  }

  /**
   * Where a run's results open: beside the document's own group, read when the Run starts (a bind value asked
   * for, or a click in another group meanwhile, moves the active group; the results still belong beside their
   * query). Beside the active group when the document is in none.
   */
  function columnOf(document: vscode.TextDocument): vscode.ViewColumn | true {
    const shown = vscode.window.activeTextEditor?.document === document ? vscode.window.activeTextEditor : vscode.window.visibleTextEditors.find((e) => e.document === document);
    return shown?.viewColumn ?? true;
  }

  function orgKeyOf(document: vscode.TextDocument): string {
    const key = orgs.orgKeyFor(document.uri);
    if (!key) throw new CommandRefusal(vscode.l10n.t("There is no org to run on. Add one with 'CRM: Add Org', or pick one from the CodeLens above the statement."));
    return key;
  }

  return {
    "crm.soql.newQuery": async () => {
      // A complete statement (nothing to mark as an error before the user has typed), its object selected to type over.
      const document = await vscode.workspace.openTextDocument({ language: "soql", content: "" });
      const editor = await vscode.window.showTextDocument(document);
      await editor.insertSnippet(new vscode.SnippetString("SELECT Id, Name\nFROM ${1:Account}\nLIMIT ${2:200}\n"));
    },
    "crm.soql.run": async (uriArg: unknown, offsetArg: unknown) => {
      const document = documentOf(uriArg);
      const orgKey = orgKeyOf(document);
      const beside = columnOf(document);
      results.open(resultsTarget(orgKey, document.uri.toString(), await bound(specAt(document, typeof offsetArg === "number" ? offsetArg : undefined))), { beside });
    },
    "crm.soql.saveToLibrary": async (uriArg: unknown, offsetArg: unknown) => {
      const document = documentOf(uriArg);
      await saveToLibrary(specAt(document, typeof offsetArg === "number" ? offsetArg : undefined).text, orgs.aliasFor(document.uri));
    },
    "crm.soql.explain": async (uriArg: unknown, offsetArg: unknown) => {
      const document = documentOf(uriArg);
      const beside = columnOf(document);
      const spec = await bound(specAt(document, typeof offsetArg === "number" ? offsetArg : undefined));
      if (spec.api === "sosl") throw new CommandRefusal(vscode.l10n.t("A search has no query plan: put the cursor in a SELECT statement to explain it."));
      results.open(resultsTarget(orgKeyOf(document), document.uri.toString(), { ...spec, explain: true }), { beside });
    },
    "crm.soql.pickOrg": async (uriArg: unknown) => {
      const document = documentOf(uriArg);
      const current = orgs.orgKeyFor(document.uri);
      const items = manager.registry.list().map((o) => ({ label: o.alias, description: o.key === current ? vscode.l10n.t("current") : o.signedIn ? "" : vscode.l10n.t("signed out"), detail: o.instanceUrl, key: o.key }));
      if (!items.length) throw new CommandRefusal(vscode.l10n.t("There is no org yet. Add one with 'CRM: Add Org'."));
      const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Run this SOQL document on which org?"), matchOnDetail: true });
      if (!picked) throw new UserCancelled();
      await orgs.setPin(document.uri, { orgKey: picked.key });
    },
    "crm.soql.toggleTooling": async (uriArg: unknown) => {
      const document = documentOf(uriArg);
      const tooling = !orgs.pin(document.uri).tooling;
      await orgs.setPin(document.uri, { tooling });
      vscode.window.setStatusBarMessage(tooling ? vscode.l10n.t("This document now queries the Tooling API") : vscode.l10n.t("This document now queries the data API"), 3000);
    },
    "crm.soql.history": async () => {
      const editorDocument = vscode.window.activeTextEditor?.document;
      const orgKey = editorDocument?.languageId === "soql" ? orgs.orgKeyFor(editorDocument.uri) : manager.registry.activeKey;
      if (!orgKey) throw new CommandRefusal(vscode.l10n.t("There is no org yet. Add one with 'CRM: Add Org'."));
      const alias = manager.registry.get(orgKey)?.alias ?? orgKey;
      const entries = history.list(orgKey);
      if (!entries.length) return void vscode.window.showInformationMessage(vscode.l10n.t("No query has been run on {0} yet.", alias));
      const openButton = { iconPath: new vscode.ThemeIcon("new-file"), tooltip: vscode.l10n.t("Open in a new scratch document") };
      const items = entries.map((e) => ({
        label: e.text.replace(/\s+/g, " ").slice(0, 120),
        description: [rowsText(e.rows), vscode.l10n.t("{0} ms", formatCount(Math.round(e.durationMs))), ...(e.api === "soql" ? [] : [e.api === "sosl" ? vscode.l10n.t("search") : vscode.l10n.t("Tooling API")])].join(" · "),
        detail: formatTime(e.ranAt),
        buttons: [openButton],
        entry: e,
      }));
      const openScratch = async (text: string) => vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: "soql", content: text }));
      const quickPick = vscode.window.createQuickPick<(typeof items)[number]>();
      quickPick.title = vscode.l10n.t("Query history of {0} — Enter runs again, the button opens a scratch", alias);
      quickPick.placeholder = vscode.l10n.t("Search the statements");
      quickPick.matchOnDescription = true;
      quickPick.matchOnDetail = true;
      quickPick.items = items;
      const done = new Promise<void>((resolve) => {
        quickPick.onDidTriggerItemButton(async (e) => (quickPick.hide(), await openScratch(e.item.entry.text)));
        quickPick.onDidAccept(() => {
          const picked = quickPick.selectedItems[0];
          quickPick.hide();
          if (picked) results.open(resultsTarget(orgKey, "history", { api: picked.entry.api, text: picked.entry.text }));
        });
        quickPick.onDidHide(() => (quickPick.dispose(), resolve()));
      });
      quickPick.show();
      await done;
    },
    "crm.soql.exportResults": async () => {
      const document = vscode.window.activeTextEditor?.document;
      if (document?.languageId === "soql") return exportRows(manager, orgKeyOf(document), specAt(document));
      const panel = results.activePanel();
      if (!panel) throw new CommandRefusal(vscode.l10n.t("Run a query first: export works on the active results panel or the statement under the cursor in a SOQL document."));
      return exportRows(manager, panel.target.orgKey, specOf(panel.target));
    },
  };
}
