/**
 * The agent surface's commands: an agent's proposed changes opened as staged edits in results grids (one per
 * object, read afresh: updates staged on their rows, creates as new rows, deletes named for the person to
 * make); "CRM: Run Agent Tool…" (call a tool as an agent would and read its answer, through VS Code's own
 * confirmation); "CRM: Agent Access…" (what agents may do in an org, kept in the user's settings).
 */
import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import { TOOLS } from "../agent/catalog";
import { agentAccessOf } from "../agent/languageModelTools";
import { HELPER_PLACEHOLDER, mcpServerConfiguration } from "../agent/mcpConfiguration";
import type { ProposedChange } from "../agent/tools";
import { sameRecordId } from "../client/ids";
import { soqlLiteral } from "../client/soql-text";
import type { OrgManager } from "../connections/orgManager";
import { CommandRefusal } from "../platform/errorMessages";
import { formatCount } from "../platform/numbers";
import { AGENT_SOURCE, resultsTarget, type ResultsPanels } from "../webviews/resultsPanel";
import type { QueryRun } from "../webviews/queryRun";

export interface AgentCommandDeps {
  manager: OrgManager;
  results: ResultsPanels;
}

/** Opens proposed changes as staged edits, a grid per object; what the agent is told (nothing is sent). */
export async function stageProposal(deps: AgentCommandDeps, orgKey: string, changes: ProposedChange[]): Promise<string> {
  const alias = deps.manager.registry.get(orgKey)?.alias ?? orgKey;
  const byObject = new Map<string, ProposedChange[]>();
  for (const c of changes) byObject.set(c.object, [...(byObject.get(c.object) ?? []), c]);
  const said: string[] = [];
  const proposal = randomUUID().slice(0, 8);
  for (const [object, list] of byObject) {
    const fields = [...new Set(list.flatMap((c) => Object.keys(c.fields)))];
    const ids = list.filter((c) => c.id).map((c) => c.id!);
    const text = `SELECT Id${fields.length ? `, ${fields.join(", ")}` : ""} FROM ${object} WHERE ${ids.length ? `Id IN (${ids.map(soqlLiteral).join(", ")})` : "Id = null"}`;
    const source = `${AGENT_SOURCE}${proposal}:${object}`;
    const counts = { update: 0, create: 0, delete: 0 };
    for (const c of list) counts[c.operation]++;
    deps.results.open(resultsTarget(orgKey, source, { api: "soql", text }), { onFirstRun: (run) => stageOnRun(run, object, list) });
    said.push(`${object}: ${counts.update} update(s), ${counts.create} create(s), ${counts.delete} delete(s)`);
  }
  return `Opened the proposal in ${alias} as staged edits in ${byObject.size} results grid(s) — ${said.join("; ")}. Nothing has been sent: the person reviews the changes (a diff per field) and commits or discards them. Committed changes appear in Write History as the agent's and can be reverted there.`;
}

/** Stages a proposal on the grid's fresh rows; the notice the person reads. */
function stageOnRun(run: QueryRun, object: string, list: ProposedChange[]): string {
  let staged = 0;
  const missing: string[] = [];
  const refused: string[] = [];
  for (const change of list.filter((c) => c.operation === "update")) {
    const index = rowOf(run, change.id!);
    if (index < 0) {
      missing.push(change.id!);
      continue;
    }
    for (const [field, value] of Object.entries(change.fields)) {
      const column = run.table.columns.findIndex((c) => c.editor && c.editor.field.toLowerCase() === field.toLowerCase());
      if (column < 0) refused.push(`${change.id} ${field}`);
      else {
        run.edits.stageValue(index, column, value);
        staged++;
      }
    }
  }
  const creates = list.filter((c) => c.operation === "create");
  for (const change of creates) run.edits.insert(object, change.fields);
  const deletes: number[] = [];
  for (const change of list.filter((c) => c.operation === "delete")) {
    const index = rowOf(run, change.id!);
    if (index < 0) missing.push(change.id!);
    else deletes.push(index);
  }
  const doomed = run.edits.stageDelete(deletes);
  const parts = [vscode.l10n.t("An agent proposes these changes: {0} value(s) staged on existing records, {1} new record(s), {2} record(s) to delete. Review Changes, then Commit — or Discard.", formatCount(staged), formatCount(creates.length), formatCount(doomed))];
  if (missing.length) parts.push(vscode.l10n.t("Not found in the org (deleted, or not visible to you): {0}.", missing.join(", ")));
  if (refused.length) parts.push(vscode.l10n.t("Not editable here, left out: {0}.", refused.join(", ")));
  return parts.join(" ");
}

const rowOf = (run: QueryRun, id: string) => run.table.records.findIndex((r) => sameRecordId(String(r.Id), id));

interface ToolItem extends vscode.QuickPickItem {
  name: string;
}

interface AccessItem extends vscode.QuickPickItem {
  access: string;
}

interface ServerAccessItem extends vscode.QuickPickItem {
  access: "read" | "stage" | "write";
}

/** The agent commands; `serverFile` is this installation's `dist/mcp.js` (the stdio server other MCP hosts start). */
export function agentCommands(deps: AgentCommandDeps, serverFile: string) {
  return {
    "crm.agent.runTool": async () => {
      const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
      if (typeof lm?.invokeTool !== "function") throw new CommandRefusal(vscode.l10n.t("This VS Code has no language-model tools: CRM Explorer's agent tools need VS Code 1.95 or later."));
      const tool = await vscode.window.showQuickPick<ToolItem>(TOOLS.filter((t) => !t.mcpOnly).map((t) => ({ name: t.name, label: t.name, description: t.title, detail: t.description })), {
        title: vscode.l10n.t("Run Agent Tool"), placeHolder: vscode.l10n.t("Call a tool as an agent would, and read its answer"), matchOnDescription: true,
      });
      if (!tool) return;
      const text = await vscode.window.showInputBox({
        title: vscode.l10n.t("Run Agent Tool: {0}", tool.name), prompt: vscode.l10n.t("The tool's input, as JSON"), value: "{}",
        validateInput: (value) => {
          try {
            const parsed: unknown = JSON.parse(value);
            return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? undefined : vscode.l10n.t("The input is a JSON object: { \"name\": value, … }");
          } catch (err) {
            return vscode.l10n.t("Not JSON: {0}", (err as Error).message);
          }
        },
      });
      if (text === undefined) return;
      let result: vscode.LanguageModelToolResult;
      try {
        result = await lm.invokeTool(tool.name, { input: JSON.parse(text) as object, toolInvocationToken: undefined });
      } catch (err) {
        // The person said Cancel to VS Code's confirmation: nothing was sent, nothing to tell.
        if (err instanceof vscode.CancellationError || (err as Error).name === "Canceled") return;
        throw err;
      }
      const answer = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : "")).join("\n");
      const doc = await vscode.workspace.openTextDocument({ language: "markdown", content: `<!-- ${tool.name} ${text.replace(/--/g, "- -")} -->\n${answer}\n` });
      // Beside, without focus: what the tool opened (a grid of a proposal) stays in front.
      await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
    },
    "crm.agent.copyMcpConfiguration": async () => {
      const access = await vscode.window.showQuickPick<ServerAccessItem>([
        { access: "read", label: vscode.l10n.t("Read"), description: vscode.l10n.t("describe, query, search and read; every change is refused") },
        { access: "stage", label: vscode.l10n.t("Stage"), description: vscode.l10n.t("also propose change sets; nothing is written") },
        { access: "write", label: vscode.l10n.t("Write"), description: vscode.l10n.t("also apply change sets and draft articles (never in production without --allow-production)") },
      ], { title: vscode.l10n.t("Copy MCP Server Configuration (1/2): what may the agent do?") });
      if (!access) return;
      // The server signs in by itself from a helper file: the extension's own sign-ins stay in its secret storage.
      const helper = await vscode.window.showOpenDialog({
        title: vscode.l10n.t("Copy MCP Server Configuration (2/2): the helper file with the org's credentials (Cancel leaves a placeholder)"),
        openLabel: vscode.l10n.t("Use This Helper File"), canSelectMany: false, filters: { [vscode.l10n.t("Helper files")]: ["yaml", "yml", "json"] },
      });
      await vscode.env.clipboard.writeText(mcpServerConfiguration({ serverFile, helperFile: helper?.[0]?.fsPath, access: access.access }));
      const message = vscode.l10n.t("Copied. Paste it into Claude Desktop's claude_desktop_config.json or Cursor's mcp.json (under \"mcpServers\"). It starts this installation's server with Node 20.19 or later; copy it again after CRM Explorer updates.");
      void vscode.window.showInformationMessage(helper?.[0] ? message : `${message} ${vscode.l10n.t("Replace {0} with your helper file's path.", HELPER_PLACEHOLDER)}`);
    },
    "crm.agent.setAccess": async (orgKey?: unknown) => {
      const orgs = deps.manager.registry.list();
      if (!orgs.length) throw new CommandRefusal(vscode.l10n.t("No org is connected yet. Add one first (CRM: Add Org…)."));
      const org = typeof orgKey === "string" ? deps.manager.registry.get(orgKey) : (await vscode.window.showQuickPick(orgs.map((o) => ({ label: o.alias, description: `${o.kind ?? vscode.l10n.t("kind unknown")} · ${vscode.l10n.t("agents: {0}", agentAccessOf(o))}`, org: o })), { title: vscode.l10n.t("Agent Access: choose an org") }))?.org;
      if (!org) return;
      const current = agentAccessOf(org);
      const items: AccessItem[] = [
        { access: "off", label: vscode.l10n.t("Off"), description: vscode.l10n.t("agents cannot read or change this org") },
        { access: "read", label: vscode.l10n.t("Read"), description: vscode.l10n.t("agents describe, query, search and read; every change is refused") },
        { access: "stage", label: vscode.l10n.t("Stage"), description: vscode.l10n.t("agents may also propose changes (staged in a grid for you to commit) and draft articles you confirm") },
      ].map((i) => ({ ...i, ...(i.access === current ? { detail: vscode.l10n.t("current") } : {}) }));
      const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Agent Access for {0}", org.alias) });
      if (!chosen) return;
      const config = vscode.workspace.getConfiguration("crm");
      const map = { ...(config.inspect<Record<string, string>>("agent.access")?.globalValue ?? {}), [org.alias]: chosen.access };
      await config.update("agent.access", map, vscode.ConfigurationTarget.Global);
      vscode.window.setStatusBarMessage(vscode.l10n.t("Agents: {0} in {1}", chosen.label, org.alias), 4000);
    },
  };
}
