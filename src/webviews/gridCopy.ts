/**
 * What the grid copies and sums: the selected ranges (as shown, staged edits included) as TSV, CSV, JSON or a
 * Markdown table, and the count, sum, average, minimum and maximum of the numbers selected. No VS Code here.
 */
import { csvField } from "../client/csv";
import type { CopyFormat } from "./protocol/results";
import { cellText, childJson, type Cell, type CellRange, type ResultTable } from "../shared/resultTable";
import type { GridEdits } from "./gridEdits";

interface Block {
  headers: string[];
  rows: Cell[][];
  /** Child results as their JSON, by row and column of the block. */
  json: (row: number, col: number) => string;
}

function blocks(table: ResultTable, edits: GridEdits, ranges: CellRange[]): Block[] {
  return ranges.map((range) => {
    const picked = range.columns.filter((c) => c < table.columns.length);
    const top = Math.max(0, range.top), bottom = Math.min(table.viewSize - 1, range.bottom);
    const columns = picked.map((c) => table.columns[c]!);
    const rows = bottom >= top ? edits.decorate(table.window(top, bottom - top + 1)) : [];
    return {
      headers: columns.map((c) => c.path),
      rows: rows.map((r) => picked.map((c) => r.cells[c]!)),
      json: (row, col) => childJson(table.records[rows[row]!.index]!, columns[col]!.path),
    };
  });
}

const text = (block: Block, r: number, c: number) => {
  const cell = block.rows[r]![c]!;
  return cell !== null && typeof cell === "object" ? block.json(r, c) : cellText(cell);
};
const tsvField = (t: string) => (/[\t\n\r"]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
const markdownField = (t: string) => t.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");

/** The selected ranges in a format, with a header line; several ranges one after another. */
export function copyText(table: ResultTable, edits: GridEdits, ranges: CellRange[], format: CopyFormat): { text: string; rows: number } {
  const parts: string[] = [];
  let rows = 0;
  const objects: Record<string, unknown>[] = [];
  for (const block of blocks(table, edits, ranges)) {
    rows += block.rows.length;
    const lines = (field: (t: string) => string, sep: string) => [block.headers.map(field).join(sep), ...block.rows.map((_, r) => block.headers.map((__, c) => field(text(block, r, c))).join(sep))];
    if (format === "tsv") parts.push(lines(tsvField, "\t").join("\n"));
    else if (format === "csv") parts.push(lines(csvField, ",").join("\r\n"));
    else if (format === "markdown") {
      const [head, ...body] = lines(markdownField, " | ").map((l) => `| ${l} |`);
      parts.push([head, `|${block.headers.map(() => " --- ").join("|")}|`, ...body].join("\n"));
    } else {
      block.rows.forEach((cells, r) => objects.push(Object.fromEntries(block.headers.map((h, c) => {
        const cell = cells[c]!;
        return [h, cell !== null && typeof cell === "object" ? JSON.parse(block.json(r, c) || "[]") : cell];
      }))));
    }
  }
  return { text: format === "json" ? JSON.stringify(objects, null, 2) : parts.join(format === "csv" ? "\r\n\r\n" : "\n\n"), rows };
}

const figure = new Intl.NumberFormat(undefined, { maximumFractionDigits: 4 });

/** "12 cells · 10 numbers · sum 1,234 · average 123.4 · min 1 · max 500" for the status line. */
export function selectionStats(table: ResultTable, edits: GridEdits, ranges: CellRange[]): string {
  let cells = 0;
  const numbers: number[] = [];
  const seen = new Set<string>();
  for (const [b, block] of blocks(table, edits, ranges).entries()) {
    const range = ranges[b]!;
    block.rows.forEach((row, r) => row.forEach((cell, c) => {
      const key = `${range.top + r}:${range.columns[c]}`; // overlapping ranges count a cell once
      if (seen.has(key)) return;
      seen.add(key);
      cells++;
      if (typeof cell === "number") numbers.push(cell);
    }));
  }
  const parts = [`${figure.format(cells)} ${cells === 1 ? "cell" : "cells"}`];
  if (numbers.length) {
    const sum = numbers.reduce((a, n) => a + n, 0);
    parts.push(`${figure.format(numbers.length)} ${numbers.length === 1 ? "number" : "numbers"}`, `sum ${figure.format(sum)}`, `average ${figure.format(sum / numbers.length)}`,
      `min ${figure.format(numbers.reduce((a, n) => Math.min(a, n)))}`, `max ${figure.format(numbers.reduce((a, n) => Math.max(a, n)))}`);
  }
  return parts.join(" · ");
}
