/** SOQL diagnostics: syntax errors from the parser, unknown objects and fields from cached describes. Pure. */
import * as l10n from "@vscode/l10n";
import { objectOfScope, walkPath, type SoqlCatalog } from "./catalog";
import { soqlParser } from "./parser";
import { splitStatements, tokenize, type Token } from "./statements";

export interface SoqlDiagnostic {
  start: number;
  end: number;
  message: string;
  severity: "error" | "warning";
}

const NOT_FIELDS = new Set([
  "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "LIKE", "INCLUDES", "EXCLUDES", "NULL", "TRUE", "FALSE", "ORDER", "GROUP", "BY", "ASC", "DESC",
  "NULLS", "FIRST", "LAST", "LIMIT", "OFFSET", "HAVING", "WITH", "DATA", "CATEGORY", "AT", "ABOVE", "BELOW", "ABOVE_OR_BELOW", "FOR", "VIEW", "REFERENCE",
  "UPDATE", "TRACKING", "VIEWSTAT", "USING", "SCOPE", "SECURITY_ENFORCED", "USER_MODE", "SYSTEM_MODE", "ROLLUP", "CUBE", "TYPEOF", "WHEN", "THEN", "ELSE", "END",
]);
const DATE_LITERAL = /^(YESTERDAY|TODAY|TOMORROW|(LAST|THIS|NEXT)_(WEEK|MONTH|QUARTER|YEAR|FISCAL_QUARTER|FISCAL_YEAR)|LAST_90_DAYS|NEXT_90_DAYS|(LAST|NEXT)_N_\w+|N_\w+_AGO)$/i;
const FIELD_CLAUSES = new Set(["SELECT", "WHERE", "HAVING", "ORDER", "GROUP", "BY"]);

function syntaxError(statement: string, start: number, err: unknown): SoqlDiagnostic {
  const message = String((err as Error)?.message ?? err);
  const found = /found --> '(.*?)' <--/.exec(message)?.[1];
  const at = found ? statement.indexOf(found) : -1;
  const expecting = /Expecting (?:token of type )?--> (.*?) <--/.exec(message)?.[1];
  const text = found !== undefined ? `Unexpected '${found || "end of statement"}'${expecting ? `; expected ${expecting}` : ""}` : message.split("\n")[0]!;
  return at >= 0 && found
    ? { start: start + at, end: start + at + found.length, message: text, severity: "error" }
    : { start: start + Math.max(statement.length - 1, 0), end: start + statement.length, message: text, severity: "error" };
}

/** Field words of a scope: words in field clauses that are not keywords, literals, functions, aliases or bind variables. */
function fieldTokens(text: string, tokens: Token[], scope: number): Token[] {
  const out: Token[] = [];
  let clause = "";
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.scope !== scope) continue;
    const word = t.text.toUpperCase();
    if (t.kind === "word" && ["SELECT", "FROM", "WHERE", "HAVING", "ORDER", "GROUP", "LIMIT", "OFFSET", "WITH", "FOR", "USING"].includes(word)) clause = word;
    if (t.kind !== "word" || !FIELD_CLAUSES.has(clause) || NOT_FIELDS.has(word) || DATE_LITERAL.test(t.text)) continue;
    const next = tokens[i + 1];
    const prev = tokens[i - 1];
    if (next?.text === "(") continue; // a function
    if (text[t.start - 1] === ":") continue; // a bind variable, given a value when the statement runs
    if (prev?.text === ")" && clause === "SELECT") continue; // an alias of an aggregate
    if (prev && prev.kind === "word" && !NOT_FIELDS.has(prev.text.toUpperCase()) && clause === "SELECT") continue; // an alias
    out.push(t);
  }
  return out;
}

const blankComments = (text: string) => text.replace(/'(?:[^'\\]|\\.)*'?|\/\/[^\n]*|--[^\n]*/g, (m) => (m.startsWith("'") ? m : " ".repeat(m.length)));

export function diagnose(doc: string, catalog: SoqlCatalog): { diagnostics: SoqlDiagnostic[]; needs: string[] } {
  const diagnostics: SoqlDiagnostic[] = [];
  const needs = new Set<string>();
  for (const { text, start } of splitStatements(doc)) {
    if (/^FIND\b/i.test(text)) continue;
    try {
      // Comments are removed before sending (blanked here, so positions stay); bind variables (:name) are asked
      // for when the statement runs: neither is a mistake.
      soqlParser().parseQuery(blankComments(text), { allowApexBindVariables: true });
    } catch (err) {
      diagnostics.push(syntaxError(text, start, err));
      continue;
    }
    if (!catalog.objects().length) continue;
    const { tokens, scopes } = tokenize(text);
    scopes.forEach((scope, index) => {
      if (!scope.from || !scope.fromToken) return;
      if (tokens.some((t) => t.scope === index && t.text.toUpperCase() === "TYPEOF")) return;
      const object = objectOfScope(catalog, scopes, index, needs);
      if (!object) {
        if (!scope.subquery || !needs.size) {
          const message = scope.subquery ? l10n.t("Unknown relationship or object '{0}' in this org", scope.from) : l10n.t("Unknown object '{0}' in this org", scope.from);
          diagnostics.push({ start: start + scope.fromToken.start, end: start + scope.fromToken.end, message, severity: "warning" });
        }
        return;
      }
      for (const t of fieldTokens(text, tokens, index)) {
        const parts = t.text.replace(/\.$/, "").split(".");
        const walked = walkPath(catalog, object, parts.slice(0, -1));
        if (walked.needs) needs.add(walked.needs);
        if (walked.unknown) {
          diagnostics.push({ start: start + t.start, end: start + t.end, message: l10n.t("No relationship '{0}' on the path {1}", walked.unknown, t.text), severity: "warning" });
          continue;
        }
        if (!walked.object) continue;
        const fields = catalog.fields(walked.object);
        if (!fields) {
          needs.add(walked.object);
          continue;
        }
        const name = parts[parts.length - 1]!;
        if (!fields.some((f) => f.name.toLowerCase() === name.toLowerCase())) {
          diagnostics.push({ start: start + t.start, end: start + t.end, message: l10n.t("No field '{0}' on {1}", name, walked.object), severity: "warning" });
        }
      }
    });
  }
  return { diagnostics, needs: [...needs] };
}
