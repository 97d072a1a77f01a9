/** SOQL completion from the org's cached describes: pure, so it is tested in Node. */
import * as l10n from "@vscode/l10n";
import { objectOfScope, walkPath, type SoqlCatalog } from "./catalog";
import { tokenize, type Token } from "./statements";

export type CompletionKind = "keyword" | "object" | "field" | "relationship" | "childRelationship" | "value" | "function" | "dateLiteral";

export interface SoqlCompletion {
  label: string;
  kind: CompletionKind;
  detail?: string;
  insertText?: string;
}

export interface CompletionResult {
  items: SoqlCompletion[];
  /** Objects whose describe is needed for better answers (the caller loads them and asks again). */
  needs: string[];
  /** The text the items replace: from here to the cursor. */
  replaceFrom: number;
}

const DATE_LITERALS = ["TODAY", "YESTERDAY", "TOMORROW", "THIS_WEEK", "LAST_WEEK", "NEXT_WEEK", "THIS_MONTH", "LAST_MONTH", "NEXT_MONTH", "LAST_90_DAYS", "NEXT_90_DAYS", "THIS_QUARTER", "LAST_QUARTER", "THIS_YEAR", "LAST_YEAR", "LAST_N_DAYS:", "NEXT_N_DAYS:", "LAST_N_MONTHS:", "N_DAYS_AGO:"];
const AGGREGATES = ["COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX"];
const CLAUSES = ["SELECT", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "WITH", "FOR", "TYPEOF"];

const upper = (t: Token | undefined) => t?.text.toUpperCase() ?? "";

function keywords(...words: string[]): SoqlCompletion[] {
  return words.map((w) => ({ label: w, kind: "keyword" as const }));
}

/** The clause the cursor is in, within its scope: the last clause keyword before it. */
function clauseOf(tokens: Token[], scope: number): string {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.scope !== scope || t.kind !== "word") continue;
    const word = t.text.toUpperCase();
    if (word === "BY") return `${upper(tokens[i - 1])} BY`;
    if (CLAUSES.includes(word)) return word;
  }
  return "";
}

function fieldItems(catalog: SoqlCatalog, object: string, needs: Set<string>, withRelationships = true): SoqlCompletion[] {
  const fields = catalog.fields(object);
  if (!fields) {
    needs.add(object);
    return [];
  }
  const items: SoqlCompletion[] = fields.map((f) => ({ label: f.name, kind: "field", detail: `${f.label} · ${f.type === "reference" ? `→ ${f.referenceTo.join(" | ")}` : f.type}` }));
  if (withRelationships) {
    for (const f of fields) if (f.relationshipName && f.referenceTo.length) items.push({ label: `${f.relationshipName}.`, kind: "relationship", detail: `→ ${f.referenceTo.join(" | ")}`, insertText: `${f.relationshipName}.` });
  }
  return items;
}

/** The field a value is being compared with: `Status = |` or `Tags__c INCLUDES ('a', |`. */
function comparedField(tokens: Token[]): { field: string; operator: string } | undefined {
  let i = tokens.length - 1;
  // Inside IN ( … ) lists skip back over values and commas to the operator.
  while (i >= 0 && (tokens[i]!.kind === "string" || tokens[i]!.text === "," || tokens[i]!.kind === "number")) i--;
  if (tokens[i]?.text === "(") i--;
  const op = tokens[i];
  const opText = upper(op);
  const isOp = op && (op.kind === "op" || ["IN", "INCLUDES", "EXCLUDES", "LIKE"].includes(opText));
  if (!isOp) return undefined;
  const before = tokens[i - 1];
  const field = upper(before) === "NOT" ? tokens[i - 2] : before;
  return field?.kind === "word" ? { field: field.text, operator: opText } : undefined;
}

export function completionsAt(statement: string, offset: number, catalog: SoqlCatalog): CompletionResult {
  const needs = new Set<string>();
  const { scopes } = tokenize(statement);
  const before = tokenize(statement.slice(0, offset)).tokens;
  const last = before[before.length - 1];
  // The word being typed (if the cursor touches it) is replaced, and is not part of the context.
  const typing = last && last.end === offset && (last.kind === "word") ? last : undefined;
  const context = typing ? before.slice(0, -1) : before;
  const replaceFrom = typing ? typing.start + (typing.text.includes(".") ? typing.text.lastIndexOf(".") + 1 : 0) : offset;
  const scopeIndex = (typing ?? context[context.length - 1])?.scope ?? 0;
  const result = (items: SoqlCompletion[]): CompletionResult => ({ items, needs: [...needs], replaceFrom });

  if (!context.length) return result(keywords("SELECT", "FIND"));
  const clause = clauseOf(context, scopeIndex);
  const prev = context[context.length - 1]!;
  const object = objectOfScope(catalog, scopes, scopeIndex, needs);

  // A relationship path: complete the fields of the object at its end.
  if (typing?.text.includes(".") && object && ["SELECT", "WHERE", "HAVING", "ORDER BY", "GROUP BY"].includes(clause)) {
    const parts = typing.text.split(".").slice(0, -1);
    const walked = walkPath(catalog, object, parts);
    if (walked.needs) needs.add(walked.needs);
    return result(walked.object ? fieldItems(catalog, walked.object, needs) : []);
  }
  if (clause === "FROM" && upper(prev) === "FROM") {
    const scope = scopes[scopeIndex]!;
    if (scope.subquery) {
      const parent = objectOfScope(catalog, scopes, scope.parent, needs);
      const children = parent ? catalog.childRelationships(parent) : undefined;
      if (parent && !children) needs.add(parent);
      return result((children ?? []).map((c) => ({ label: c.relationshipName, kind: "childRelationship" as const, detail: `${c.childSObject} (${c.field})` })));
    }
    return result(catalog.objects().map((o) => ({ label: o.name, kind: "object" as const, detail: o.label })));
  }
  if (clause === "FROM") return result(keywords("WHERE", "ORDER BY", "GROUP BY", "LIMIT", "OFFSET", "WITH"));
  if (clause === "SELECT") {
    if (upper(prev) === "SELECT" || prev.text === ",") {
      const items = object ? fieldItems(catalog, object, needs) : [];
      items.push(...AGGREGATES.map((f) => ({ label: `${f}()`, kind: "function" as const, insertText: `${f}(` })), ...keywords("TYPEOF"));
      if (!scopes[scopeIndex]!.subquery) items.push({ label: "(SELECT … FROM …)", kind: "keyword", detail: l10n.t("child relationship subquery"), insertText: "(SELECT Id FROM " });
      return result(items);
    }
    return result(keywords("FROM"));
  }
  if (clause === "WHERE" || clause === "HAVING") {
    const compared = comparedField(context);
    if (compared && object) {
      const parts = compared.field.split(".");
      const walked = walkPath(catalog, object, parts.slice(0, -1));
      const fields = walked.object ? catalog.fields(walked.object) : undefined;
      if (walked.needs) needs.add(walked.needs);
      const field = fields?.find((f) => f.name.toLowerCase() === parts[parts.length - 1]!.toLowerCase());
      if (field && (field.type === "picklist" || field.type === "multipicklist")) {
        return result(field.picklistValues.map((v) => ({ label: `'${v}'`, kind: "value" as const, detail: field.label })));
      }
      if (field && (field.type === "date" || field.type === "datetime")) return result(DATE_LITERALS.map((d) => ({ label: d, kind: "dateLiteral" as const })));
      if (field?.type === "boolean") return result(keywords("TRUE", "FALSE"));
      return result([]);
    }
    if (["WHERE", "AND", "OR", "NOT", "("].includes(upper(prev))) return result(object ? fieldItems(catalog, object, needs) : []);
    if (prev.kind === "word" && !["AND", "OR"].includes(upper(prev)) && !(context[context.length - 2]?.kind === "op")) {
      return result([...["=", "!=", "<", ">", "LIKE", "IN", "NOT IN", "INCLUDES", "EXCLUDES"].map((o) => ({ label: o, kind: "keyword" as const }))]);
    }
    return result(keywords("AND", "OR", "ORDER BY", "GROUP BY", "LIMIT"));
  }
  if (clause === "ORDER BY" || clause === "GROUP BY") {
    if (upper(prev) === "BY" || prev.text === ",") return result(object ? fieldItems(catalog, object, needs) : []);
    return result(clause === "ORDER BY" ? keywords("ASC", "DESC", "NULLS FIRST", "NULLS LAST", "LIMIT", "OFFSET") : keywords("HAVING", "ORDER BY", "LIMIT"));
  }
  return result([]);
}
