/**
 * How the command-line tools write what they were given — folder and file names, the org's words, values —
 * one encoder per channel, so no name can forge a line, a colour, a workflow command or markup:
 *   - text (a terminal, a pipeline's log; JSON output too): `textLines`
 *   - GitHub workflow commands (annotations): `githubAnnotation`
 *   - HTML pages (the preview): `escapeHtml`
 */
import { ACTING } from "../agent/inert";

/**
 * Characters that would act rather than show — the agent's set (controls but tab and line feed, bidi overrides
 * and isolates, zero-width ones) and the line breaks other than `\n` (CR rewrites the line) — each written as
 * a JSON-style `\uXXXX` escape: visible in a terminal, and still valid inside JSON strings.
 */
const ACTING_HERE = new RegExp(`${ACTING.source}|[\\r\\u000b\\u000c\\u0085\\u2028\\u2029]`, "g");
const visible = (text: string) => text.replace(ACTING_HERE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** A value inside one line of text: its line breaks are shown as escapes too, so it never starts a line of its own. */
export function inline(value: unknown): string {
  return visible(String(value ?? "")).replace(/\n/g, "\\u000a");
}

/**
 * Lines of the tool's own making, as they go to stdout or stderr: acting characters made visible, and a line
 * that would begin a workflow command (a runner reads any output line whose trimmed start is `::`) starts
 * with a backslash instead. Workflow commands are written by `githubAnnotation` alone.
 */
export function textLines(text: string): string {
  return text.split("\n").map((line) => {
    const shown = visible(line);
    return /^\s*::/.test(shown) ? `\\${shown.trimStart()}` : shown;
  }).join("\n");
}

/** A workflow command GitHub shows on the file's line; its data and properties escaped as the runner reads them. */
export function githubAnnotation(f: { severity: "error" | "warning"; file: string; line?: number; message: string }): string {
  const data = (s: string) => visible(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
  return `::${f.severity} file=${property(f.file)}${f.line ? `,line=${f.line}` : ""},title=${property("crm-knowledge")}::${data(f.message)}`;
}

/** Text in HTML (the shared encoder), for the tools' HTML pages. */
export { escapeHtml } from "../shared/html";
