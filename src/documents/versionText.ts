/**
 * Article versions as texts the diff editor compares well: each field under its label, rich text one block
 * per line. No VS Code here: tested in Node.
 */
import type { VersionComparison } from "../client";

/** Rich text with a line break after each block (paragraph, heading, list item, row, line break). */
export function formatHtml(html: string): string {
  return html.replace(/\s*(<\/(?:p|h[1-6]|li|ol|ul|div|table|tr|blockquote|pre|figure)>|<br\s*\/?>)\s*/gi, "$1\n").replace(/(<(?:ol|ul|table)\b[^>]*>)\s*/gi, "$1\n").trim();
}

const valueText = (value: unknown, richText: boolean) => (value === null || value === undefined || value === "" ? "(empty)" : richText ? formatHtml(String(value)) : typeof value === "string" ? value : JSON.stringify(value));

/** Both sides of a comparison, field for field in the same order (differing fields first), so their lines align. */
export function comparisonTexts(c: VersionComparison): { left: string; right: string; differing: number } {
  const side = (pick: "left" | "right") => c.fields.map((f) => `## ${f.label} (${f.name})\n${valueText(f[pick], f.richText)}\n`).join("\n");
  return { left: side("left"), right: side("right"), differing: c.fields.filter((f) => !f.same).length };
}
