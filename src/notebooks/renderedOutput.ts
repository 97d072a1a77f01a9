/**
 * What passes between the extension and the notebook renderer: an output's data with the cell's chart, and the
 * renderer's one message (a chart chosen on the output's toolbar). Both ends read the other as untrusted: the
 * extension checks a chosen chart against the output's columns before keeping it. No VS Code, no DOM here.
 */
import type { StatementShape } from "./chartOption";
import type { ChartSpec } from "./chartSpec";
import type { CellOutput } from "./notebookFile";

/** The output item's MIME type: the renderer draws it; VS Code shows the Markdown item beside it without us. */
export const OUTPUT_MIME = "application/vnd.crm-explorer.notebook-output+json";
export const RENDERER_ID = "crm-explorer.notebook-output";

export interface RenderedOutput {
  /** Made for each output shown (VS Code's own output IDs are not in its extension API): the renderer's message names it. */
  id: string;
  output: CellOutput;
  chart?: ChartSpec;
  /** What the statement says of its rows: subtotals, periods within a year. */
  shape?: StatementShape;
}

/** A chart chosen on an output's toolbar (`chart` absent: the table alone). */
export interface ChartChosen {
  type: "chart";
  outputId: string;
  chart?: unknown;
}

export function isChartChosen(message: unknown): message is ChartChosen {
  const m = message as Partial<ChartChosen> | null;
  return !!m && typeof m === "object" && m.type === "chart" && typeof m.outputId === "string";
}

/** The extension's answer to the renderer's "l10n?": VS Code's strings in its display language (empty for English). */
export interface L10nBundle {
  type: "l10n";
  contents: Record<string, string>;
}

export function isL10nBundle(message: unknown): message is L10nBundle {
  const m = message as Partial<L10nBundle> | null;
  return !!m && typeof m === "object" && m.type === "l10n" && !!m.contents && typeof m.contents === "object";
}
