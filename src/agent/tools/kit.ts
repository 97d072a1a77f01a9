/**
 * What every tool is made of: its spec (what a model and a person are told, its input schema, what it may do to
 * the org) and its run over one org in one host. One file per tool beside this one; catalog.ts lists them, and
 * package.json's \`languageModelTools\` is generated from their specs (\`npm run manifest\`).
 */
import type { Crm, SObjectDescribe } from "../../client";
import type { OrgKind } from "../../client/orgKind";
import type { NotebookCell } from "../../notebooks/notebookFile";
import type { TrustSettings } from "../trust";

export type ToolName =
  | "crm_describe" | "crm_query" | "crm_explain" | "crm_search_knowledge" | "crm_get_article" | "crm_get_record"
  | "crm_propose_changes" | "crm_apply_changes" | "crm_draft_article" | "crm_propose_notebook_cell";

/** What a tool may do to the org: read it, stage a change a person commits, or write. */
export type ToolEffect = "read" | "stage" | "write";

export interface ToolSpec {
  name: ToolName;
  /** Shown to people (VS Code's tool picker, the MCP tool's title). */
  title: string;
  /** How VS Code offers it: the name a prompt references it by (#crmQuery), its icon, a line for people. Absent: MCP only. */
  vscode?: { referenceName: string; icon: string; userDescription: string };
  /** Written for the model: what it does, when to use it, what it returns. */
  description: string;
  effect: ToolEffect;
  /** MCP only: VS Code commits staged changes in the grid, by a person. */
  mcpOnly?: boolean;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
}

export type AgentAccess = "off" | "read" | "stage" | "write";

export type Input = Record<string, unknown>;
export type Row = Record<string, unknown>;

export interface Tool {
  spec: ToolSpec;
  run(input: Input, org: AgentOrg, host: AgentHost): Promise<ToolRun>;
}

export interface AgentSchema {
  objects(): Promise<{ name: string; label: string; custom: boolean; queryable: boolean }[]>;
  describe(object: string): Promise<SObjectDescribe>;
}

/** One org as an agent reaches it. */
export interface AgentOrg {
  crm: Crm;
  /** The name people know it by (the Orgs view's alias, or the instance host). */
  name: string;
  kind: OrgKind | "unknown";
  access: AgentAccess;
  schema: AgentSchema;
  knowledgeSobject: string;
  /** Lockdown and classified fields (trust.ts); both off when left out. */
  trust?: Partial<TrustSettings>;
}

export type Scalar = string | number | boolean | null;

export interface ProposedChange {
  operation: "create" | "update" | "delete";
  object: string;
  id?: string;
  fields: Record<string, Scalar>;
}

/** Where the tools run. */
export interface AgentHost {
  /** Most characters in one answer. */
  budget: number;
  /** A person confirms each call before it runs (VS Code): drafting an article then needs only `stage` access. */
  personConfirms: boolean;
  /** Over MCP: --allow-production. */
  allowProduction?: boolean;
  /** Stages proposed changes (nothing sent) and says in words where they wait. */
  propose(org: AgentOrg, changes: ProposedChange[]): Promise<string>;
  /** Applies a proposal (MCP with write access). */
  apply?(org: AgentOrg, changeSetId: string): Promise<string>;
  /** Adds a proposed notebook cell where a person runs it (VS Code) and says where; without it the answer holds the cell as file text. */
  proposeCell?(org: AgentOrg, cells: NotebookCell[]): Promise<string>;
}

export interface ToolAnswer {
  text: string;
  /** The call was refused (access, production) or failed: nothing was written. */
  isError?: boolean;
  /** The rows shown in `text`, as data, for clients that read MCP's structuredContent (the same rows, no more). */
  structured?: { org: string; totalSize: number; rows: Row[] };
}

/** A tool's own answer: its words, and — for rows — the same rows as data; notes are the server's words on what was withheld. */
export type ToolRun = string | { body: string; structured?: NonNullable<ToolAnswer["structured"]>; notes?: string[] };

/** The fields an article is found and named by. */
export const ARTICLE_FIELDS = ["Id", "KnowledgeArticleId", "ArticleNumber", "Title", "UrlName", "Summary"];
