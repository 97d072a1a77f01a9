/** `crm_propose_notebook_cell`: a notebook cell (statement, note, chart) checked and handed to a person to run. */
import { AggregationError, statementColumns } from "../../notebooks/aggregation";
import { checkChartSpec, ChartSpecError, type ChartSpec } from "../../notebooks/chartSpec";
import { serializeNotebook, type NotebookCell } from "../../notebooks/notebookFile";
import { orgArg, soslArg } from "./schemas";
import { optionalText, readOnly, ToolInputError } from "./input";
import type { AgentHost, AgentOrg, Input, Tool } from "./kit";

/**
 * A notebook cell proposed: its statement read (a SOQL statement must parse, and only read), its chart checked
 * against the statement's columns by the charts' one rule. Nothing runs here: a person runs the cell.
 */
async function proposeNotebookCell(input: Input, org: AgentOrg, host: AgentHost): Promise<string> {
  const [soql, sosl] = [optionalText(input, "soql"), optionalText(input, "sosl")];
  if ((soql === undefined) === (sosl === undefined)) throw new ToolInputError("give exactly one of soql or sosl");
  const note = optionalText(input, "note");
  if (note !== undefined && note.length > 2_000) throw new ToolInputError(`note must be at most 2,000 characters, got ${note.length.toLocaleString("en-US")}`);
  if (sosl !== undefined && input.chart !== undefined) throw new ToolInputError("chart draws a SOQL statement's columns: a SOSL search has none to chart");
  let chart: ChartSpec | undefined;
  if (soql !== undefined) {
    readOnly(soql, "soql");
    try {
      const columns = statementColumns(soql);
      chart = input.chart === undefined ? undefined : checkChartSpec(input.chart, columns);
    } catch (err) {
      if (err instanceof AggregationError || err instanceof ChartSpecError) throw new ToolInputError(err.message);
      throw err;
    }
  }
  const cell: NotebookCell = soql !== undefined ? { kind: "soql", source: soql, ...(chart ? { chart } : {}) } : { kind: "sosl", source: readOnly(sosl!, "sosl") };
  const cells: NotebookCell[] = [...(note !== undefined ? [{ kind: "markdown" as const, source: note }] : []), cell];
  if (host.proposeCell) return host.proposeCell(org, cells);
  return `Nothing was run or sent. Add these cells to a .crmnb notebook (a person runs them in VS Code, or crm-data notebook run runs the file):\n${serializeNotebook({ org: org.name, binds: {}, cells })}`;
}

export const tool: Tool = {
  spec: {
    name: "crm_propose_notebook_cell",
    title: "Propose a notebook cell",
    vscode: { referenceName: "crmProposeNotebookCell", icon: "$(notebook)", userDescription: "Adds a SOQL or SOSL cell, with its chart, to a CRM notebook for you to run. Nothing runs until you do." },
    effect: "stage",
    description: "Proposes a CRM notebook cell: a SOQL (`soql`) or SOSL (`sosl`) statement, with a Markdown `note` above it and, for SOQL, a `chart` of its columns. Nothing runs and nothing is sent: in VS Code the cell is added to the open CRM notebook (or a new one on this org) for a person to run; over MCP the answer is the cell as .crmnb text to add to a notebook file. To chart many rows, propose a GROUP BY with COUNT/SUM (the org aggregates) rather than reading the rows.",
    inputSchema: {
      type: "object",
      properties: {
        soql: { type: "string", description: "A SOQL SELECT statement; bind variables such as :status are the notebook's." },
        sosl: soslArg,
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
        org: orgArg,
      },
      additionalProperties: false,
    },
  },
  run: proposeNotebookCell,
};
