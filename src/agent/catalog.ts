/**
 * The agent's tools as a model sees them: names, descriptions and input schemas. One list for VS Code (its
 * package.json `languageModelTools`, checked against this list by a test) and for the MCP server. Names and
 * inputs are stable: agents and people's prompts depend on them.
 */

export type ToolName =
  | "crm_describe" | "crm_query" | "crm_explain" | "crm_search_knowledge" | "crm_get_article" | "crm_get_record"
  | "crm_propose_changes" | "crm_apply_changes" | "crm_draft_article" | "crm_propose_notebook_cell";

/** What a tool may do to the org: read it, stage a change a person commits, or write. */
export type ToolEffect = "read" | "stage" | "write";

export interface ToolSpec {
  name: ToolName;
  /** Shown to people (VS Code's tool picker, the MCP tool's title). */
  title: string;
  /** Written for the model: what it does, when to use it, what it returns. */
  description: string;
  effect: ToolEffect;
  /** MCP only: VS Code commits staged changes in the grid, by a person. */
  mcpOnly?: boolean;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
}

const org = { type: "string", description: "In VS Code: the name of another connected org (as in the Orgs view); the active org when left out. An MCP server serves one org and refuses any other name." };
const sosl = { type: "string", description: "A SOSL FIND statement (instead of soql)." };
const language = { type: "string", description: "Knowledge language code (en_US, fr, de …); the signed-in user's language when left out." };
const fieldValues = { type: "object", description: "Field API names and their new values (strings, numbers, booleans or null).", additionalProperties: { type: ["string", "number", "boolean", "null"] } };

export const TOOLS: ToolSpec[] = [
  {
    name: "crm_describe",
    title: "Describe CRM objects",
    effect: "read",
    description: "Lists the org's objects (API name, label), or with `object` one object's fields: API name, type, label, whether required, picklist values, and relationships (lookups and child relationships). Use before writing SOQL or proposing changes, to get field names right.",
    inputSchema: { type: "object", properties: { object: { type: "string", description: "An object's API name (Account, Case, Knowledge__kav). Leave out to list objects." }, org }, additionalProperties: false },
  },
  {
    name: "crm_query",
    title: "Query CRM records",
    effect: "read",
    description: "Runs a read-only SOQL query (`soql`) or SOSL search (`sosl`) and returns rows as a compact table with the total size. Results are capped: a note says how many more rows there are and how to narrow the query. Select only the fields you need and filter with WHERE.",
    inputSchema: {
      type: "object",
      properties: {
        soql: { type: "string", description: "A SOQL SELECT statement." },
        sosl,
        limit: { type: "integer", minimum: 1, maximum: 2000, description: "Most rows to return (default 50)." },
        org,
      },
      additionalProperties: false,
    },
  },
  {
    name: "crm_explain",
    title: "Explain a SOQL query",
    effect: "read",
    description: "Asks the org how it would run a SOQL query (its query plans: index or table scan, relative cost, rows) without running it, with advice on making it selective.",
    inputSchema: { type: "object", properties: { soql: { type: "string", description: "A SOQL SELECT statement." }, org }, required: ["soql"], additionalProperties: false },
  },
  {
    name: "crm_search_knowledge",
    title: "Search knowledge articles",
    effect: "read",
    description: "Full-text search of published knowledge articles in one language. Each hit has its version ID, article number, title, URL name, a snippet of the matching text and a link to the article. Use to find the article that answers a question or a case.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "Words to search for." }, language, limit: { type: "integer", minimum: 1, maximum: 50, description: "Most articles to return (default 10)." }, org },
      required: ["text"],
      additionalProperties: false,
    },
  },
  {
    name: "crm_get_article",
    title: "Read a knowledge article",
    effect: "read",
    description: "Reads one knowledge article's fields (title, summary, body …) as Markdown, sanitized, naming its status and version. Give exactly one of `id` (version or article ID), `articleNumber` or `urlName`. The published version when there is one, else the latest draft.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "A version ID (ka…) or knowledge article ID (kA…)." },
        articleNumber: { type: "string", description: "The article number (000001001)." },
        urlName: { type: "string", description: "The article's URL name." },
        language,
        org,
      },
      additionalProperties: false,
    },
  },
  {
    name: "crm_get_record",
    title: "Read a CRM record",
    effect: "read",
    description: "Reads one record by object and ID: the given fields, or its populated fields when `fields` is left out.",
    inputSchema: {
      type: "object",
      properties: { object: { type: "string", description: "The object's API name." }, id: { type: "string", description: "The record's 15- or 18-character ID." }, fields: { type: "array", items: { type: "string" }, maxItems: 100, description: "Field API names to read." }, org },
      required: ["object", "id"],
      additionalProperties: false,
    },
  },
  {
    name: "crm_propose_changes",
    title: "Propose record changes",
    effect: "stage",
    description: "Proposes creates, updates and deletes of records. Nothing is written: in VS Code the changes open as staged edits in a results grid that a person reviews (a diff per field, conflicts checked) and commits or discards; over MCP the answer is a change set (its ID and every field's before and after) that `crm_apply_changes` can apply where the server allows writes. At most 200 changes.",
    inputSchema: {
      type: "object",
      properties: {
        changes: {
          type: "array",
          minItems: 1,
          maxItems: 200,
          items: {
            type: "object",
            properties: {
              operation: { type: "string", enum: ["create", "update", "delete"] },
              object: { type: "string", description: "The object's API name." },
              id: { type: "string", description: "The record's ID (update, delete)." },
              fields: fieldValues,
            },
            required: ["operation", "object"],
            additionalProperties: false,
          },
        },
        org,
      },
      required: ["changes"],
      additionalProperties: false,
    },
  },
  {
    name: "crm_apply_changes",
    title: "Apply a proposed change set",
    effect: "write",
    mcpOnly: true,
    description: "Applies a change set from `crm_propose_changes`. Records changed in the org since the proposal are not written (a conflict) and are named. Only where the server was started with write access; a production org also needs the server's --allow-production.",
    inputSchema: { type: "object", properties: { changeSetId: { type: "string", description: "The ID crm_propose_changes answered." }, org }, required: ["changeSetId"], additionalProperties: false },
  },
  {
    name: "crm_draft_article",
    title: "Draft a knowledge article",
    effect: "stage",
    description: "Creates a new knowledge article as a draft (`title`, `urlName`, other `fields`), or with `id` edits an article as a draft (a published article gets a new draft version; the published one stays online). Never publishes: publishing stays a person's action. In VS Code a person confirms it first.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "An existing article's version or article ID, to edit it as a draft." },
        title: { type: "string" },
        urlName: { type: "string", description: "Letters, digits and hyphens; unique among articles." },
        fields: fieldValues,
        org,
      },
      additionalProperties: false,
    },
  },
  {
    name: "crm_propose_notebook_cell",
    title: "Propose a notebook cell",
    effect: "stage",
    description: "Proposes a CRM notebook cell: a SOQL (`soql`) or SOSL (`sosl`) statement, with a Markdown `note` above it and, for SOQL, a `chart` of its columns. Nothing runs and nothing is sent: in VS Code the cell is added to the open CRM notebook (or a new one on this org) for a person to run; over MCP the answer is the cell as .crmnb text to add to a notebook file. To chart many rows, propose a GROUP BY with COUNT/SUM (the org aggregates) rather than reading the rows.",
    inputSchema: {
      type: "object",
      properties: {
        soql: { type: "string", description: "A SOQL SELECT statement; bind variables such as :status are the notebook's." },
        sosl,
        note: { type: "string", maxLength: 2000, description: "Markdown shown above the cell: the question it answers." },
        chart: {
          type: "object",
          description: "How to draw the cell's output, naming the statement's columns (aliases such as n in COUNT(Id) n).",
          properties: {
            type: { type: "string", enum: ["bar", "stackedBar", "line", "area", "pie", "donut", "scatter", "number"] },
            x: { type: "string", description: "The column along the axis (the slices of a pie); none for a number." },
            values: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 8, description: "The measured columns." },
            series: { type: "string", description: "A column whose values split the measure into series." },
            title: { type: "string", maxLength: 200 },
          },
          required: ["type", "values"],
          additionalProperties: false,
        },
        org,
      },
      additionalProperties: false,
    },
  },
];

export const toolSpec = (name: string): ToolSpec | undefined => TOOLS.find((t) => t.name === name);

/** What an MCP server of these tools tells the agent about itself as it connects. */
export const instructionsFor = (name: string, kind: string, access: string) =>
  `Tools over the CRM org ${name} (${kind}); agent access: ${access}. Describe objects before querying; propose changes rather than writing them.`;
