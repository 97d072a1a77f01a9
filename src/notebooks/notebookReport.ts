/**
 * A notebook's report (`crm-data notebook run`, and Export Notebook Report in VS Code): as Markdown, a self-contained HTML page (no script, no
 * request: a page to attach to an e-mail or keep as a CI artifact; each cell's chart drawn as SVG) or JSON. Every
 * value from the org goes through its channel's one encoder (outputText's for Markdown, escapeHtml for HTML, the
 * chart library's SVG text for a chart).
 */
import { escapeHtml } from "../shared/html";
import { statementShape } from "./aggregation";
import { chartSvg } from "./chartLibrary";
import { drawnChart, REPORT_COLORS } from "./chartOption";
import { checkChartSpec } from "./chartSpec";
import type { CellOutput, Notebook, NotebookCell } from "./notebookFile";
import { outputMarkdown } from "./outputText";

export const REPORT_FORMATS = ["md", "html", "json"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A fence longer than any run of backticks in the text, so a statement cannot close it. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function htmlOutput(output: CellOutput): string {
  const caption = `${escapeHtml(output.org)} · ${output.rows === 1 ? "1 row" : `${output.rows} rows`} · ${escapeHtml(output.ranAt)}${output.data.length < output.rows ? ` · the first ${output.data.length} shown` : ""}`;
  if (output.error) return `<p class="meta">${caption}</p>\n<p class="error">${escapeHtml(output.error)}</p>`;
  if (!output.columns.length) return `<p class="meta">${caption}</p>`;
  const head = `<tr>${output.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join("")}</tr>`;
  const rows = output.data.map((row) => `<tr>${row.map((v) => `<td>${escapeHtml(v)}</td>`).join("")}</tr>`).join("\n");
  return `<table>\n<caption>${caption}</caption>\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table>`;
}

/** A cell's chart as SVG (or its single number), drawn from the output it has now; a chart its columns no longer fit is said. */
function htmlChart(cell: NotebookCell): string {
  const { chart, output } = cell;
  if (!chart || !output || output.error || !output.columns.length) return "";
  try {
    const drawn = drawnChart(checkChartSpec(chart, output.columns), output, { colors: REPORT_COLORS, shape: statementShape(cell.source) });
    const subtotals = drawn.subtotals.length ? `<p class="meta">Subtotals: ${escapeHtml(drawn.subtotals.join(" · "))}</p>` : "";
    if (drawn.tile) return `<figure><p class="tile">${escapeHtml(drawn.tile.value)}</p><figcaption>${escapeHtml(drawn.tile.label)}</figcaption></figure>${subtotals}`;
    if (!drawn.option) return `<p class="meta">${escapeHtml(drawn.empty ?? "")}</p>`;
    return `<figure role="img" aria-label="${escapeHtml(`${chart.type} chart of ${chart.values.join(", ")}${chart.x ? ` by ${chart.x}` : ""}`)}">${chartSvg(drawn.option, { width: 720, height: 320 })}</figure>${subtotals}`;
  } catch (err) {
    return `<p class="error">${escapeHtml((err as Error).message)}</p>`;
  }
}

export function notebookReport(notebook: Notebook, format: ReportFormat, title: string): string {
  if (format === "json") return `${JSON.stringify(notebook, null, 2)}\n`;
  if (format === "md") {
    return `${notebook.cells.map((cell) => cell.kind === "markdown" ? cell.source.trimEnd() : [fenced(cell.source.trimEnd(), cell.kind === "sosl" ? "" : "sql"), ...(cell.output ? [outputMarkdown(cell.output)] : [])].join("\n\n")).join("\n\n")}\n`;
  }
  const body = notebook.cells.map((cell) => cell.kind === "markdown"
    ? `<section class="note"><pre>${escapeHtml(cell.source.trimEnd())}</pre></section>`
    : `<section class="cell"><pre><code>${escapeHtml(cell.source.trimEnd())}</code></pre>\n${htmlChart(cell)}${cell.output ? htmlOutput(cell.output) : ""}</section>`).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2328; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .75rem; border-radius: 6px; }
.note pre { background: none; padding: 0; font: inherit; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; }
caption, .meta { text-align: left; color: #59636e; }
.error { color: #d1242f; }
figure { margin: .5rem 0; }
.tile { font-size: 2.5rem; font-weight: 600; margin: 0; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}
