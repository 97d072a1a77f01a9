/**
 * A SOSL subset: FIND {term} [IN … FIELDS] [RETURNING Obj[(fields [WHERE …] [ORDER BY …] [LIMIT n])], …]
 * [WITH SNIPPET[(target_length=n)]] [LIMIT n]. A snippet is, as documented for article searches, the text
 * around the first match in a text field, the matching words in <mark> tags, in each record's "snippet.text".
 */
import type { Ctx } from "./context";
import type { ObjectDef } from "./schema";
import { ApiError, executeSoql } from "./soql";
import type { Rec } from "./store";

const TEXT_TYPES = new Set(["string", "textarea", "email", "phone", "url", "picklist"]);

function termMatcher(term: string): (text: string) => boolean {
  const words = term.replace(/\\(.)/g, "$1").split(/\s+(?:AND\s+)?/i).filter(Boolean).map((w) => w.replace(/^"|"$/g, ""));
  const patterns = words.map((w) => new RegExp(`^${w.toLowerCase().replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`));
  return (text) => {
    const tokens = text.toLowerCase().split(/[^a-z0-9@._-]+/).flatMap((t) => [t, ...t.split(/[@._-]/)]).filter(Boolean);
    return patterns.every((p) => tokens.some((t) => p.test(t)));
  };
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

export function runSosl(ctx: Ctx, sosl: string): Record<string, unknown>[] {
  const find = /^\s*FIND\s+(?:\{((?:[^}\\]|\\.)*)\}|'((?:[^'\\]|\\.)*)')\s*(.*)$/is.exec(sosl);
  if (!find) throw new ApiError(400, "MALFORMED_SEARCH", "No search term found. The search term must be enclosed in braces.");
  const term = (find[1] ?? find[2] ?? "").trim();
  if (term.replace(/[*?]/g, "").length < 2) throw new ApiError(400, "MALFORMED_SEARCH", "search term must be longer than one character");
  let rest = find[3] ?? "";
  const snippetClause = /\s*\bWITH\s+SNIPPET\b(?:\s*\(\s*target_length\s*=\s*(\d+)\s*\))?/i.exec(rest);
  const snippetLength = snippetClause ? Number(snippetClause[1] ?? 120) : undefined;
  if (snippetLength !== undefined && (snippetLength < 100 || snippetLength > 500)) throw new ApiError(400, "MALFORMED_SEARCH", "target_length must be between 100 and 500");
  if (snippetClause) rest = rest.slice(0, snippetClause.index) + rest.slice(snippetClause.index + snippetClause[0].length);
  const scope = /^IN\s+(ALL|NAME|EMAIL|PHONE)\s+FIELDS\s*/i.exec(rest);
  if (scope) rest = rest.slice(scope[0].length);
  let overallLimit = 2000;
  const trailingLimit = /^(.*?)\s*\bLIMIT\s+(\d+)\s*$/is;
  const returning = /^RETURNING\s+(.*)$/is.exec(rest.trim());
  const items = returning
    ? splitTopLevel(returning[1]!)
    : [...ctx.store.objects.values()].filter((d) => d.searchable && d.queryable && d.name !== "UserRecordAccess").map((d) => d.name);
  // A LIMIT after the last RETURNING item (outside its parentheses) caps the whole result.
  const lastItem = returning ? items[items.length - 1]! : rest.trim();
  const outside = trailingLimit.exec(lastItem);
  if (outside && !/\([^)]*$/.test(outside[1]!)) {
    overallLimit = Number(outside[2]);
    if (returning) items[items.length - 1] = outside[1]!;
  }
  const matches = termMatcher(term);
  const which = (scope?.[1] ?? "ALL").toUpperCase();
  const results: Record<string, unknown>[] = [];
  for (const item of items) {
    const m = /^(\w+)\s*(?:\((.*)\))?$/s.exec(item);
    if (!m) throw new ApiError(400, "MALFORMED_SEARCH", `unexpected token in RETURNING: ${item}`);
    const def = ctx.store.object(m[1]!);
    if (!def || !def.searchable) throw new ApiError(400, "INVALID_TYPE", `sObject type '${m[1]}' is not supported.`);
    const inner = m[2]?.trim() ?? "Id";
    const clauseAt = inner.search(/\s(WHERE|ORDER\s+BY|LIMIT)\s/i);
    const fields = clauseAt >= 0 ? inner.slice(0, clauseAt) : inner;
    const clauses = clauseAt >= 0 ? inner.slice(clauseAt) : "";
    const searchFields = def.fields.filter((f) => TEXT_TYPES.has(f.type) && fieldInScope(def, f.name, f.type, f.nameField ?? false, which));
    const hit = (rec: Rec) => searchFields.some((f) => rec[f.name] !== null && rec[f.name] !== undefined && matches(String(rec[f.name])));
    const { records } = executeSoql(
      { store: ctx.store, version: ctx.version, userId: ctx.user.Id, includeDeleted: false, now: Date.now(), rowFilter: hit },
      `SELECT ${fields} FROM ${def.name} ${clauses}`,
      { childBatchSize: ctx.org.childBatchSize, registerChildCursor: () => "" },
    );
    if (snippetLength !== undefined) {
      const byId = new Map(ctx.store.liveRecords(def.name).map((r) => [r.Id, r]));
      for (const record of records) {
        const source = byId.get(String(record.Id));
        const text = source && searchFields.map((f) => source[f.name]).find((v) => v !== null && v !== undefined && matches(String(v)));
        if (text !== undefined) record["snippet.text"] = snippetOf(String(text), term, snippetLength);
      }
    }
    results.push(...records);
  }
  return results.slice(0, overallLimit);
}

function fieldInScope(_def: ObjectDef, name: string, type: string, nameField: boolean, scope: string): boolean {
  switch (scope) {
    case "NAME": return nameField;
    case "EMAIL": return type === "email";
    case "PHONE": return type === "phone";
    default: return name !== "Id";
  }
}

/** The text around the first matching word (markup dropped), each matching word in <mark> tags. */
function snippetOf(text: string, term: string, length: number): string {
  const plain = text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  const words = term.replace(/\\(.)/g, "$1").split(/\s+(?:AND\s+)?/i).map((w) => w.replace(/^"|"$/g, "").replace(/[*?]/g, "").toLowerCase()).filter(Boolean);
  const lower = plain.toLowerCase();
  const first = Math.min(...words.map((w) => lower.indexOf(w)).filter((i) => i >= 0), plain.length);
  const start = Math.max(0, first - Math.floor(length / 3));
  let window = plain.slice(start, start + length);
  window = window.replace(new RegExp(`(${words.map((w) => w.replace(/[.+^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi"), "<mark>$1</mark>");
  return `${start > 0 ? "..." : ""}${window}${start + length < plain.length ? "..." : ""}`;
}
