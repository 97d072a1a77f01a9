/**
 * A cell's output as Markdown — the compact table VS Code shows without our renderer, and the Markdown report of
 * `crm-data notebook run`: one encoder, in which every value from the org is text (markup, pipes and line
 * breaks escaped), never Markdown or HTML of its own. No VS Code here.
 */
import * as l10n from "@vscode/l10n";
import type { CellOutput } from "./notebookFile";

/** A value shown in a Markdown table as the text it is: markup, table pipes and line breaks escaped. */
export function markdownText(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>&~]/g, (c) => `\\${c}`).replace(/\r?\n/g, " ");
}

/** The output as a compact table: what VS Code shows with no renderer of ours, and what a screen reader reads. */
export function outputMarkdown(output: CellOutput): string {
  const said = output.rows === 1 ? l10n.t("{0} · 1 row · {1}", output.org, output.ranAt) : l10n.t("{0} · {1} rows · {2}", output.org, output.rows, output.ranAt);
  if (output.error) return `${markdownText(said)}\n\n${markdownText(output.error)}`;
  if (!output.columns.length) return markdownText(said);
  const lines = [`| ${output.columns.map(markdownText).join(" | ")} |`, `|${output.columns.map(() => " --- |").join("")}`, ...output.data.map((row) => `| ${row.map(markdownText).join(" | ")} |`)];
  const shown = output.data.length < output.rows ? l10n.t("the first {0} shown", output.data.length) : "";
  return `${markdownText(said)}${shown ? ` · ${markdownText(shown)}` : ""}\n\n${lines.join("\n")}`;
}

