/** What a statement from a scratch file becomes when it runs: which API, the text sent, the columns expected. */
import * as l10n from "@vscode/l10n";
import type { QueryApiName } from "../shared/runSpec";
import { soqlParser } from "./parser";
import { tokenize } from "./statements";

export type QueryApi = QueryApiName;

/** FIND statements are searches; other statements are queries, on the Tooling API when the document says so. */
export function apiOf(text: string, tooling: boolean): QueryApi {
  return /^\s*FIND\b/i.test(stripComments(text)) ? "sosl" : tooling ? "tooling" : "soql";
}

/** The statement without `//` and `--` line comments (the API accepts none) or a trailing semicolon; literals are kept whole. */
export function stripComments(text: string): string {
  return text.replace(/'(?:[^'\\]|\\.)*'?|\/\/[^\n]*|--[^\n]*/g, (m) => (m.startsWith("'") ? m : "")).trim().replace(/;$/, "").trim();
}

/**
 * The columns a query's rows have, in SELECT order: `Owner.Name` for parent paths, the relationship name
 * for a subquery, the alias or the inner field for functions such as toLabel(). Undefined when the rows
 * decide (aggregate queries, TYPEOF, text the parser refuses); searches get the object's type first.
 */
export function selectColumns(text: string, api: QueryApi): { path: string; label?: string }[] | undefined {
  if (api === "sosl") return [{ path: "attributes.type", label: l10n.t("Type") }];
  let fields;
  try {
    fields = soqlParser().parseQuery(text).fields ?? [];
  } catch {
    return undefined;
  }
  const columns: { path: string }[] = [];
  for (const field of fields) {
    switch (field.type) {
      case "Field": columns.push({ path: field.field }); break;
      case "FieldRelationship": columns.push({ path: [...field.relationships, field.field].join(".") }); break;
      case "FieldSubquery": columns.push({ path: field.subquery.relationshipName }); break;
      case "FieldFunctionExpression": {
        if (field.isAggregateFn) return undefined;
        const inner = field.parameters?.[0];
        const path = field.alias ?? (typeof inner === "string" ? inner : undefined);
        if (!path) return undefined;
        columns.push({ path });
        break;
      }
      default: return undefined; // TYPEOF: the rows say which fields each object has
    }
  }
  return columns;
}

/**
 * Whether a statement can run as a Bulk API 2.0 query job, which takes no GROUP BY, OFFSET, TYPEOF, aggregate
 * functions or parent-to-child subqueries; the reason when it cannot.
 */
export function bulkRefusal(text: string): string | undefined {
  let query;
  try {
    query = soqlParser().parseQuery(text);
  } catch {
    return "the statement does not parse";
  }
  if (query.groupBy) return "it groups rows (GROUP BY)";
  if (query.offset !== undefined) return "it uses OFFSET";
  for (const field of query.fields ?? []) {
    if (field.type === "FieldSubquery") return "it has a child subquery";
    if (field.type === "FieldTypeof") return "it uses TYPEOF";
    if (field.type === "FieldFunctionExpression" && field.isAggregateFn) return "it aggregates rows";
  }
  return undefined;
}

/**
 * What an editing grid runs for a statement: the same query with the SystemModstamp of each row added to the
 * outer SELECT and to each child subquery (where the statement does not read it), so a commit can tell which
 * rows changed in the org since. A reason instead when the rows cannot be edited (aggregates, GROUP BY,
 * FIELDS(), text the parser refuses). `added` and `addedToChildren` say where the stamp was added (it is then
 * not shown).
 */
export function editableQuery(text: string, stampField: string): { text: string; object: string; added: boolean; addedToChildren: boolean } | { reason: string } {
  let query;
  try {
    query = soqlParser().parseQuery(text);
  } catch {
    return { reason: l10n.t("The statement could not be read, so its rows cannot be edited here.") };
  }
  if (query.groupBy) return { reason: l10n.t("Grouped rows (GROUP BY) are not records: they cannot be edited.") };
  const fields = query.fields ?? [];
  if (fields.some((f) => f.type === "FieldFunctionExpression" && f.isAggregateFn)) return { reason: l10n.t("Aggregate results are not records: they cannot be edited.") };
  if (fields.some((f) => f.type === "FieldFunctionExpression" && /^FIELDS$/i.test(f.functionName))) return { reason: l10n.t("Rows read with FIELDS() cannot be edited here; name the fields in the SELECT.") };
  const object = query.sObject;
  if (!object) return { reason: l10n.t("The statement names no object.") };
  const { tokens, scopes } = tokenize(text);
  const fromOf = (scope: number) => tokens.find((t) => t.scope === scope && t.kind === "word" && t.text.toUpperCase() === "FROM");
  const outerFrom = fromOf(0);
  if (!outerFrom) return { reason: l10n.t("The statement has no FROM.") };
  // The outer SELECT and its child subqueries (those in a SELECT list, before their parent's FROM; not semi-joins in WHERE).
  const selects = scopes.map((_, i) => i).filter((i) => {
    if (i === 0) return true;
    const first = tokens.find((t) => t.scope === i);
    const parentFrom = fromOf(scopes[i]!.parent);
    return scopes[i]!.subquery && !!first && !!parentFrom && first.start < parentFrom.start;
  });
  const inserts = selects
    .map((i) => ({ from: fromOf(i), reads: tokens.some((t) => t.scope === i && t.kind === "word" && t.text.toLowerCase() === stampField.toLowerCase() && t.start < (fromOf(i)?.start ?? 0)) }))
    .filter((x): x is { from: NonNullable<typeof x.from>; reads: boolean } => !!x.from && !x.reads)
    .map((x) => x.from.start)
    .sort((a, b) => b - a);
  let edited = text;
  for (const at of inserts) edited = `${edited.slice(0, at).trimEnd()}, ${stampField} ${edited.slice(at)}`;
  return { text: edited, object, added: inserts.includes(outerFrom.start), addedToChildren: inserts.some((at) => at !== outerFrom.start) };
}
