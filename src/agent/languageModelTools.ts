/**
 * The agent's tools as VS Code language-model tools (Copilot's agent mode and any chat participant): the same
 * tools as over MCP, less `crm_apply_changes` — here a person commits proposed changes in the results grid.
 * Each call names its org (the active one, or `org`), shows VS Code's own confirmation with the org and the
 * effect, and runs with the org's agent access (crm.agent.access, user settings only). Writes an agent's tool
 * sends (a draft) and commits of its proposals are recorded in the write history as the agent's.
 * Feature-detected: a VS Code without the language-model tool API still runs the extension.
 */
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import type { OrgRecord } from "../connections/orgRegistry";
import { readSettings } from "../platform/settings";
import type { NotebookCell } from "../notebooks/notebookFile";
import { TOOLS, type ToolSpec } from "./catalog";
import { ACCESS_MODES, accessRefusal, defaultAccess, runTool, type AgentAccess, type AgentHost, type AgentOrg, type ProposedChange, type ToolAnswer } from "./tools";

export interface LanguageModelToolDeps {
  manager: OrgManager;
  /** Opens proposed changes as staged edits in results grids; says where, for the agent. */
  stage(orgKey: string, changes: ProposedChange[]): Promise<string>;
  /** Adds proposed notebook cells where a person runs them (the org named by its name); says where. */
  proposeCells(org: string, cells: NotebookCell[]): Promise<string>;
}

type Input = Record<string, unknown> & { org?: unknown };

/** The org's agent access: the user's setting for it (by name), else its kind's default. */
export function agentAccessOf(org: OrgRecord): AgentAccess {
  const set = readSettings().agentAccess;
  const named = Object.entries(set).find(([name]) => name.toLowerCase() === org.alias.toLowerCase())?.[1];
  // "write" is the MCP server's alone: in VS Code a person commits.
  return named && ACCESS_MODES.includes(named as AgentAccess) && named !== "write" ? (named as AgentAccess) : defaultAccess(org.kind ?? "unknown");
}

export function registerLanguageModelTools(deps: LanguageModelToolDeps): vscode.Disposable {
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (typeof lm?.registerTool !== "function") return new vscode.Disposable(() => undefined);
  const registered = TOOLS.filter((t) => !t.mcpOnly).map((spec) => lm.registerTool!<Input>(spec.name, {
    prepareInvocation: (options) => prepare(deps, spec, options.input),
    invoke: async (options) => {
      const { org: named, ...input } = options.input;
      const answer = await runAgentTool(deps, orgNamed(deps.manager, named), spec.name, input);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text)]);
    },
  }));
  return vscode.Disposable.from(...registered);
}

/**
 * Runs a tool on an org as the agent: with the org's access, proposals staged in grids, and every write it
 * sends recorded as the agent's. The caller has had a person confirm the call (VS Code's confirmation).
 */
export function runAgentTool(deps: LanguageModelToolDeps, org: OrgRecord, name: string, input: Record<string, unknown>): Promise<ToolAnswer> {
  const host: AgentHost = { budget: readSettings().agentResultBudget, personConfirms: true, propose: (_o, changes) => deps.stage(org.key, changes), proposeCell: (_o, cells) => deps.proposeCells(org.alias, cells) };
  return agentOrg(deps.manager, org).then((agent) => runTool(name, input, agent, host));
}

async function agentOrg(manager: OrgManager, org: OrgRecord): Promise<AgentOrg> {
  const session = await manager.session(org.key);
  const settings = readSettings();
  const revealClassified = Object.entries(settings.agentRevealClassified).some(([name, reveal]) => reveal === true && name.toLowerCase() === org.alias.toLowerCase());
  return { crm: session.crm, name: org.alias, kind: org.kind ?? "unknown", access: agentAccessOf(org), schema: session.schema, knowledgeSobject: settings.knowledgeSobject, trust: { lockdown: settings.agentLockdown, revealClassified } };
}

/** The org a call names (by name, as in the Orgs view), or the active one. */
function orgNamed(manager: OrgManager, name: unknown): OrgRecord {
  const orgs = manager.registry.list();
  if (name !== undefined) {
    const found = typeof name === "string" ? orgs.find((o) => o.alias.toLowerCase() === name.trim().toLowerCase()) : undefined;
    if (!found) throw new Error(vscode.l10n.t("No org named {0} is connected. Connected orgs: {1}.", JSON.stringify(name), orgs.map((o) => o.alias).join(", ") || vscode.l10n.t("none")));
    return found;
  }
  const active = manager.registry.activeKey ? manager.registry.get(manager.registry.activeKey) : undefined;
  if (!active) throw new Error(vscode.l10n.t("No org is active in CRM Explorer. Add one (CRM: Add Org…) or name one with the org input."));
  return active;
}

/** VS Code's confirmation: the org, its kind and access, and what the call does there. A refused call asks nothing. */
function prepare(deps: LanguageModelToolDeps, spec: ToolSpec, input: Input): vscode.PreparedToolInvocation {
  const org = orgNamed(deps.manager, input.org);
  const access = agentAccessOf(org);
  const where = placeOf(org);
  const invocationMessage = vscode.l10n.t("{0} in {1}", spec.title, org.alias);
  if (accessRefusal(spec, { name: org.alias, kind: org.kind ?? "unknown", access } as AgentOrg, { personConfirms: true })) return { invocationMessage };
  const message = new vscode.MarkdownString();
  message.appendMarkdown(effectOf(spec, input, where));
  const detail = detailOf(spec, input);
  if (detail) message.appendCodeblock(detail, spec.name === "crm_query" || spec.name === "crm_explain" ? "soql" : "json");
  return { invocationMessage, confirmationMessages: { title: vscode.l10n.t("{0} — {1}", spec.title, org.alias), message } };
}

/** An org as a confirmation names it: its name and kind. */
export const placeOf = (org: OrgRecord) => `${org.alias} (${org.kind ?? vscode.l10n.t("kind unknown")})`;

/** What a call does, in words a person confirms. */
export function effectOf(spec: ToolSpec, input: Input, where: string): string {
  switch (spec.name) {
    case "crm_propose_changes": {
      const count = Array.isArray(input.changes) ? input.changes.length : 0;
      return vscode.l10n.t("Open {0} proposed change(s) to {1} as staged edits in a results grid. Nothing is sent until you review and commit them there.", count, where);
    }
    case "crm_propose_notebook_cell":
      return vscode.l10n.t("Add a proposed notebook cell on {0} to the open CRM notebook (or a new one). Nothing runs until you run it.", where);
    case "crm_draft_article":
      return input.id === undefined
        ? vscode.l10n.t("Create a draft knowledge article in {0}. It is not published; the write is recorded as the agent's in Write History.", where)
        : vscode.l10n.t("Edit article {0} in {1} as a draft (a published article gets a new draft version and stays online). It is not published.", String(input.id), where);
    default:
      return vscode.l10n.t("Read from {0} and give the answer to the agent. Nothing in the org changes.", where);
  }
}

export function detailOf(spec: ToolSpec, input: Input): string | undefined {
  const { org: _org, ...rest } = input;
  if (typeof rest.soql === "string") return rest.soql;
  if (typeof rest.sosl === "string") return rest.sosl;
  return Object.keys(rest).length ? JSON.stringify(rest, null, 2).slice(0, 4_000) : undefined;
}
