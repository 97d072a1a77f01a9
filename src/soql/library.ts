/**
 * Saved queries as files: a `.soql` file whose leading comment block names the query and says which org (by
 * alias) it targets, its tags and a description; the library travels with the repository. Bind variables
 * (`:name`) are asked for when the query runs. No VS Code here: tested in Node.
 *
 *   // name: Open cases of an account
 *   // org: Production
 *   // tags: support, weekly
 *   // description: What an account still waits for.
 *   SELECT CaseNumber, Subject FROM Case WHERE AccountId = :accountId AND IsClosed = false
 */
import * as l10n from "@vscode/l10n";
import { soqlLiteral } from "../client/soql-text";

export interface LibraryHeader {
  name?: string;
  org?: string;
  tags: string[];
  description?: string;
}

const HEADER_LINE = /^\s*(?:\/\/|--)\s*(name|org|tags|description)\s*:\s*(.*?)\s*$/i;

/** The header of a saved query: the `key: value` comment lines it starts with (blank and other comment lines between are kept out). */
export function parseLibraryHeader(text: string): LibraryHeader {
  const header: LibraryHeader = { tags: [] };
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    if (!/^\s*(?:\/\/|--)/.test(line)) break; // the statement starts: the header is over
    const m = HEADER_LINE.exec(line);
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    const k = key.toLowerCase();
    if (k === "tags") header.tags = value.split(/[,;]/).map((t) => t.trim()).filter(Boolean);
    else if (value) header[k as "name" | "org" | "description"] = value;
  }
  return header;
}

/** A header block for a query saved to the library. */
export function libraryHeader(header: LibraryHeader): string {
  const lines = [`// name: ${header.name ?? "Untitled query"}`];
  if (header.org) lines.push(`// org: ${header.org}`);
  if (header.tags.length) lines.push(`// tags: ${header.tags.join(", ")}`);
  if (header.description) lines.push(`// description: ${header.description.replace(/\s*\n\s*/g, " ")}`);
  return `${lines.join("\n")}\n`;
}

/** A file name for a saved query: its name, lower case, words joined by dashes. */
export function libraryFileName(name: string): string {
  const slug = name.toLowerCase().normalize("NFKD").replace(/[^\w\s-]/g, "").trim().replace(/[\s_]+/g, "-").replace(/-+/g, "-").slice(0, 60);
  return `${slug || "query"}.soql`;
}

// Bind variables: `:name` outside string literals and comments, not a date literal's `:n` (LAST_N_DAYS:7).
const TOKENS = /'(?:[^'\\]|\\.)*'?|\/\/[^\n]*|--[^\n]*|(?<![\w:]):([A-Za-z_]\w*)/g;

/** The bind variables of a statement, each once, in order. */
export function bindNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(TOKENS)) if (m[1] && !names.includes(m[1])) names.push(m[1]);
  return names;
}

/**
 * The statement with its binds replaced by literals: numbers, true/false/null, dates, datetimes and date
 * literals (TODAY, LAST_N_DAYS:7) as written, anything else as a quoted string; after IN, a comma-separated list.
 */
export function applyBinds(text: string, values: Record<string, string>): string {
  return text.replace(TOKENS, (match, name: string | undefined, offset: number) => {
    if (!name) return match;
    const value = values[name];
    if (value === undefined) throw new RangeError(l10n.t("No value for the bind variable :{0}.", name));
    const afterIn = /\bIN\s*\(?\s*$/i.test(text.slice(0, offset));
    if (afterIn) {
      const list = value.split(",").map((v) => literalOf(v.trim())).join(", ");
      return /\(\s*$/.test(text.slice(0, offset)) ? list : `(${list})`;
    }
    return literalOf(value);
  });
}

function literalOf(value: string): string {
  if (/^-?\d+(\.\d+)?$/.test(value) || /^(true|false|null)$/i.test(value)) return value;
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(value)) return value;
  if (/^(YESTERDAY|TODAY|TOMORROW|(LAST|THIS|NEXT)_(WEEK|MONTH|QUARTER|YEAR|90_DAYS)|(LAST|NEXT)_N_(DAYS|WEEKS|MONTHS|QUARTERS|YEARS):\d+)$/i.test(value)) return value;
  return soqlLiteral(value.replace(/^'(.*)'$/s, "$1"));
}
