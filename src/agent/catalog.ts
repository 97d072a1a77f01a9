/**
 * The agent's tools, one file each under tools/: the list VS Code registers (its package.json
 * `languageModelTools` is generated from these specs by `npm run manifest`, and a test holds the two equal) and
 * the MCP server offers. Names and inputs are stable: agents and people's prompts depend on them.
 */
import type { Tool, ToolSpec } from "./tools/kit";
import { tool as describe } from "./tools/describe";
import { tool as query } from "./tools/query";
import { tool as explain } from "./tools/explain";
import { tool as searchKnowledge } from "./tools/searchKnowledge";
import { tool as getArticle } from "./tools/getArticle";
import { tool as getRecord } from "./tools/getRecord";
import { tool as proposeChanges } from "./tools/proposeChanges";
import { tool as applyChanges } from "./tools/applyChanges";
import { tool as draftArticle } from "./tools/draftArticle";
import { tool as proposeNotebookCell } from "./tools/proposeNotebookCell";

export type { ToolName, ToolSpec } from "./tools/kit";

const ALL: Tool[] = [describe, query, explain, searchKnowledge, getArticle, getRecord, proposeChanges, applyChanges, draftArticle, proposeNotebookCell];

export const TOOLS: ToolSpec[] = ALL.map((t) => t.spec);

export const toolNamed = (name: string): Tool | undefined => ALL.find((t) => t.spec.name === name);
export const toolSpec = (name: string): ToolSpec | undefined => toolNamed(name)?.spec;

/** What an MCP server of these tools tells the agent about itself as it connects. */
export const instructionsFor = (name: string, kind: string, access: string) =>
  `Tools over the CRM org ${name} (${kind}); agent access: ${access}. Describe objects before querying; propose changes rather than writing them.`;
