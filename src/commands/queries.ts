/** The Queries view's commands: refresh, filter, and what a history entry does (open, run again, save to the library). */
import * as vscode from "vscode";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import type { QueriesTreeProvider, QueryNode } from "../views/queriesView";
import { resultsTarget, type ResultsPanels } from "../webviews/resultsPanel";
import type { SoqlDocumentOrgs } from "../soql/runProviders";
import { saveToLibrary } from "./soql";

type RunNode = Extract<QueryNode, { kind: "run" }>;
const isRun = (n: unknown): n is RunNode => !!n && typeof n === "object" && (n as QueryNode).kind === "run";

function runOf(arg: unknown): RunNode {
  if (!isRun(arg)) throw new CommandRefusal(vscode.l10n.t("Pick a query from the history in the Queries view."));
  return arg;
}

export function queryCommands(queries: QueriesTreeProvider, results: ResultsPanels, orgs: SoqlDocumentOrgs) {
  return {
    "crm.queries.refresh": () => queries.refresh(),
    "crm.queries.filter": async () => {
      const text = await vscode.window.showInputBox({ title: vscode.l10n.t("Filter Queries"), prompt: vscode.l10n.t("Words to find in names, tags, descriptions, orgs and statements"), value: queries.filter });
      if (text === undefined) throw new UserCancelled();
      queries.setFilter(text);
      await vscode.commands.executeCommand("setContext", "crm.queriesFiltered", Boolean(text.trim()));
    },
    "crm.queries.clearFilter": async () => {
      queries.setFilter("");
      await vscode.commands.executeCommand("setContext", "crm.queriesFiltered", false);
    },
    /** A history entry as a new SOQL document, pinned to the org it ran on. */
    "crm.queries.openRun": async (arg: unknown) => {
      const run = runOf(arg);
      const document = await vscode.workspace.openTextDocument({ language: "soql", content: `${run.entry.text}\n` });
      await orgs.setPin(document.uri, { orgKey: run.orgKey, tooling: run.entry.api === "tooling" });
      await vscode.window.showTextDocument(document);
    },
    "crm.queries.runAgain": (arg: unknown) => {
      const run = runOf(arg);
      results.open(resultsTarget(run.orgKey, "history", { api: run.entry.api, text: run.entry.text }));
    },
    "crm.queries.saveToLibrary": async (arg: unknown) => {
      const run = runOf(arg);
      await saveToLibrary(run.entry.text, run.alias);
      queries.refresh();
    },
  };
}
