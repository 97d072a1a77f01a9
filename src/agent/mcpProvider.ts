/**
 * The agent's tools as an MCP server VS Code lists for the active org (VS Code 1.101+: an MCP server definition
 * provider; feature-detected, so an older VS Code runs the extension without it). The server runs inside the
 * extension host on loopback HTTP (mcpHttp.ts) and calls the tools with the extension's own session: the agent
 * is handed no token — VS Code alone holds a random key, sent as a header, that reaches the tools and nothing
 * else. Each definition is pinned to the org that was active when VS Code listed it; calls run with that org's
 * agent access, and a call that would change something waits for the person's yes in a dialog of ours,
 * whatever VS Code's own approval of MCP tools says.
 */
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { OrgRecord } from "../connections/orgRegistry";
import { instructionsFor, TOOLS, toolSpec } from "./catalog";
import { agentAccessOf, detailOf, effectOf, placeOf, runAgentTool, type LanguageModelToolDeps } from "./languageModelTools";
import type { LoopbackMcp } from "./mcpHttp";
import type { ToolAnswerText, ToolServerSpec } from "./mcpProtocol";

export const MCP_PROVIDER_ID = "crm-explorer.activeOrg";

/** The part of a VS Code 1.101+ API this needs (@types/vscode stays at the 1.95 the rest needs). */
export interface McpDefinition {
  readonly label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
  version?: string;
}

export interface McpDefinitionProvider {
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  /** The same event under the name VS Code 1.100's proposal listened to (code-server's VS Code, which tests this). */
  onDidChangeServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(): McpDefinition[];
  resolveMcpServerDefinition(definition: McpDefinition): Promise<McpDefinition | undefined>;
}

export interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpDefinitionProvider): vscode.Disposable;
  McpHttpServerDefinition: new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => McpDefinition;
}

/** The running VS Code's MCP server definition API, where it has one. */
export function runningMcpApi(): McpApi | undefined {
  const lm = vscode.lm as unknown as Partial<McpApi> | undefined;
  const Definition = (vscode as unknown as Partial<McpApi>).McpHttpServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== "function" || typeof Definition !== "function") return undefined;
  return { registerMcpServerDefinitionProvider: lm.registerMcpServerDefinitionProvider.bind(lm), McpHttpServerDefinition: Definition };
}

export interface McpProviderDeps extends LanguageModelToolDeps {
  version: string;
  /** Says why the running VS Code refused the provider. */
  warn(message: string): void;
}

export function registerMcpServerProvider(deps: McpProviderDeps, api: McpApi | undefined = runningMcpApi()): vscode.Disposable {
  if (!api) return new vscode.Disposable(() => undefined);
  const { registry } = deps.manager;
  const key = randomBytes(32).toString("base64url");
  // A random path segment per org: the org's key (its user and host) never appears in a URL.
  const handles = new Map<string, string>();
  const handleOf = (orgKey: string) => {
    for (const [handle, keyOfOrg] of handles) if (keyOfOrg === orgKey) return handle;
    const handle = randomBytes(12).toString("base64url");
    handles.set(handle, orgKey);
    return handle;
  };
  const orgOf = (handle: string | undefined): OrgRecord | undefined => {
    const orgKey = handle === undefined ? undefined : handles.get(handle);
    const org = orgKey === undefined ? undefined : registry.get(orgKey);
    return org && agentAccessOf(org) !== "off" ? org : undefined;
  };
  let loopback: Promise<LoopbackMcp> | undefined;
  const changed = new vscode.EventEmitter<void>();

  const serverFor = (handle: string): ToolServerSpec | undefined => {
    const org = orgOf(handle);
    if (!org) return undefined;
    return {
      orgName: org.alias,
      version: deps.version,
      instructions: instructionsFor(org.alias, org.kind ?? "unknown", agentAccessOf(org)),
      tools: TOOLS.filter((t) => !t.mcpOnly),
      call: (name, input) => callConfirmed(deps, org, name, input),
    };
  };

  const provider: McpDefinitionProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    onDidChangeServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const active = registry.activeKey ? registry.get(registry.activeKey) : undefined;
      if (!active || agentAccessOf(active) === "off") return [];
      // The address is filled in when VS Code starts the server: listing starts nothing.
      return [new api.McpHttpServerDefinition(vscode.l10n.t("CRM Explorer: {0}", active.alias), vscode.Uri.parse(`http://127.0.0.1/mcp/${handleOf(active.key)}`), {}, deps.version)];
    },
    resolveMcpServerDefinition: async (definition) => {
      const handle = /\/mcp\/([\w-]+)$/.exec(definition.uri.path)?.[1];
      if (!orgOf(handle)) return undefined;
      // A server that could not listen is tried again at the next start, not remembered.
      loopback ??= loadLoopback().serveMcpOnLoopback({ key, serverFor }).catch((err: unknown) => {
        loopback = undefined;
        throw err;
      });
      definition.uri = vscode.Uri.parse(`${(await loopback).origin}/mcp/${handle}`);
      definition.headers = { Authorization: `Bearer ${key}` };
      return definition;
    },
  };
  let registration: vscode.Disposable;
  try {
    registration = api.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
  } catch (err) {
    // A VS Code that has the API but refuses it (a release where it was still a proposal): no MCP server, all else as usual.
    deps.warn(`The MCP server definition for agents is not offered: ${(err as Error).message}`);
    changed.dispose();
    return new vscode.Disposable(() => undefined);
  }
  return vscode.Disposable.from(
    registration,
    registry.onDidChange(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("crm.agent.access")) changed.fire();
    }),
    changed,
    new vscode.Disposable(() => void loopback?.then((served) => served.close())),
  );
}

/** A call over MCP: one that would change something first asks the person, in our own dialog. */
async function callConfirmed(deps: LanguageModelToolDeps, org: OrgRecord, name: string, input: Record<string, unknown>): Promise<ToolAnswerText> {
  const spec = toolSpec(name);
  if (spec && spec.effect !== "read" && agentAccessOf(org) !== "read") {
    const detail = detailOf(spec, input);
    const allow = vscode.l10n.t("Allow");
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t("An agent (over MCP) asks: {0}", effectOf(spec, input, placeOf(org))), { modal: true, ...(detail ? { detail } : {}) }, allow);
    if (answer !== allow) return { text: `The person declined ${name} in ${org.alias}: nothing was sent.`, isError: true };
  }
  return runAgentTool(deps, org, name, input);
}

function loadLoopback(): typeof import("./mcpHttp") {
  // dist/mcp-http.js in the extension (with the SDK, loaded only now); the source under Node.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./mcpHttp") as typeof import("./mcpHttp");
}
