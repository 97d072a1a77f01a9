/** The `crm.*` settings, read in one place. No secrets ever live here. */
import * as vscode from "vscode";

/** What a client is made with. */
export interface ClientSettings {
  /** "" for the org's latest. */
  apiVersion: string;
  timeoutMs: number;
  logRequestBodies: boolean;
}

/** What the Add Org flow offers by default. */
export interface FlowSettings {
  productionUrl: string;
  sandboxUrl: string;
  /** Default consumer key (crm.oauth.clientId). */
  clientId: string;
}

export interface ExtensionSettings extends ClientSettings, FlowSettings {
  knowledgeSobject: string;
  knowledgePageSize: number;
  /** Fields the pre-flight before publishing requires beyond the org's own required fields. */
  preflightRequiredFields: string[];
  queryPageSize: number;
  /** Exports of more rows than this run as a Bulk API query job (0: never). */
  exportBulkThreshold: number;
  /** Community (Experience Cloud site) ID for feeds; "" for the internal org. */
  feedSiteId: string;
  /** The loopback port of the browser sign-in's callback URL (http://localhost:<port>/OauthRedirect). */
  callbackPort: number;
  /** Ask the org for a statement's query plan before each run. */
  explainBeforeRun: boolean;
  /** Objects with at least this many rows count as large for the plan warnings. */
  largeObjectRows: number;
  /** A grid commit is all or nothing. */
  gridAllOrNone: boolean;
  /** Orgs unused for this many days are shown as idle. */
  orgsIdleDays: number;
  /** The views show every org at once, not only the active one. */
  showAllOrgs: boolean;
  soqlHistorySize: number;
  /** A notebook's file keeps its cells' last outputs. */
  notebookSaveOutputs: boolean;
  writeHistoryMaxEntries: number;
  /** The workspace folder (relative) that holds the saved-query library. */
  soqlLibraryFolder: string;
  /** What agents may do, by org name (user settings only): off, read or stage; an org not named gets its kind's default. */
  agentAccess: Record<string, string>;
  /** Most characters in one answer of an agent tool. */
  agentResultBudget: number;
  /** Agents are not shown text written by people outside the company (user settings only). */
  agentLockdown: boolean;
  /** Orgs, by name, whose classified fields agents are shown (user settings only). */
  agentRevealClassified: Record<string, boolean>;
}

export function readSettings(): ExtensionSettings {
  const c = vscode.workspace.getConfiguration("crm");
  return {
    apiVersion: c.get<string>("apiVersion", "").trim(),
    timeoutMs: Math.max(1, c.get<number>("timeoutSeconds", 30)) * 1000,
    logRequestBodies: c.get<boolean>("log.requestBodies", false),
    knowledgeSobject: c.get<string>("knowledge.sobject", "Knowledge__kav"),
    knowledgePageSize: Math.min(Math.max(Math.round(c.get<number>("knowledge.pageSize", 20)), 1), 200),
    preflightRequiredFields: c.get<string[]>("knowledge.preflight.requiredFields", ["Summary"]).filter((f) => typeof f === "string" && f.trim()),
    queryPageSize: c.get<number>("query.pageSize", 2000),
    exportBulkThreshold: Math.max(0, Math.round(c.get<number>("export.bulkThreshold", 10_000))),
    explainBeforeRun: c.get<boolean>("soql.explainBeforeRun", false),
    largeObjectRows: Math.max(1, Math.round(c.get<number>("soql.largeObjectRows", 50_000))),
    feedSiteId: c.get<string>("feed.siteId", "").trim(),
    productionUrl: c.get<string>("login.productionUrl", "https://login.salesforce.com"),
    sandboxUrl: c.get<string>("login.sandboxUrl", "https://test.salesforce.com"),
    clientId: c.get<string>("oauth.clientId", ""),
    callbackPort: c.get<number>("signIn.callbackPort", 1717),
    gridAllOrNone: c.get<boolean>("grid.allOrNone", false),
    orgsIdleDays: c.get<number>("orgs.idleDays", 30),
    showAllOrgs: c.get<boolean>("views.showAllOrgs", false),
    soqlHistorySize: c.get<number>("soql.historySize", 500),
    notebookSaveOutputs: c.get<boolean>("notebooks.saveOutputs", true),
    writeHistoryMaxEntries: c.get<number>("writeHistory.maxEntries", 1000),
    soqlLibraryFolder: c.get<string>("soql.libraryFolder", "queries"),
    // Only the user's own settings decide what agents may do: a workspace's .vscode/settings.json cannot grant it.
    agentAccess: c.inspect<Record<string, string>>("agent.access")?.globalValue ?? {},
    agentLockdown: c.inspect<boolean>("agent.lockdown")?.globalValue === true,
    agentRevealClassified: c.inspect<Record<string, boolean>>("agent.revealClassified")?.globalValue ?? {},
    agentResultBudget: Math.min(Math.max(Math.round(c.get<number>("agent.resultBudget", 16_000)), 2_000), 200_000),
  };
}
