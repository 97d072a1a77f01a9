/**
 * What a query plan says a person should know before running a statement on a real org: a full table scan
 * of a large object, a plan whose relative cost is above 1 (not selective), a query of a large object with
 * neither LIMIT nor a selective filter. The object's size comes from the plan (its sObject cardinality).
 * No VS Code here: tested in Node; the editor shows these as warnings on the statement.
 */
import * as l10n from "@vscode/l10n";
import { formatCount } from "../platform/numbers";
import type { QueryExplain, QueryPlan } from "../client";
import { soqlParser } from "./parser";

/** Objects with at least this many rows are large (where a scan or an unbounded read hurts). */
export const LARGE_OBJECT_ROWS = 50_000;

export interface PlanAdvice {
  severity: "warning" | "info";
  message: string;
}

const count = formatCount;

/** The plan the org would use: the first (plans come cheapest first). */
export const chosenPlan = (explain: QueryExplain): QueryPlan | undefined => explain.plans[0];

export function planAdvice(explain: QueryExplain, statement: string, largeRows = LARGE_OBJECT_ROWS): PlanAdvice[] {
  const plan = chosenPlan(explain);
  if (!plan) return [];
  const advice: PlanAdvice[] = [];
  const large = plan.sobjectCardinality >= largeRows;
  const object = plan.sobjectType;
  if (plan.leadingOperationType === "TableScan" && large) {
    advice.push({ severity: "warning", message: l10n.t("Full table scan of {0} ({1} rows): no filter uses an index. Filter on an indexed field (Id, Name, a lookup, CreatedDate, an external ID) to read less.", object, count(plan.sobjectCardinality)) });
  }
  if (plan.relativeCost > 1) {
    advice.push({ severity: "warning", message: l10n.t("The query is not selective: the plan's relative cost is {0} (above 1). On a large object it can time out; make a filter more selective.", plan.relativeCost) });
  }
  if (large && !hasLimit(statement) && plan.cardinality >= largeRows) {
    advice.push({ severity: "warning", message: l10n.t("{0} holds {1} rows and this query may return {2} of them: add LIMIT or a selective filter.", object, count(plan.sobjectCardinality), count(plan.cardinality)) });
  }
  for (const note of plan.notes ?? []) advice.push({ severity: "info", message: `${note.description}: ${note.fields.join(", ")}.` });
  return advice;
}

function hasLimit(statement: string): boolean {
  try {
    return soqlParser().parseQuery(statement).limit !== undefined;
  } catch {
    return /\bLIMIT\s+\d+/i.test(statement);
  }
}

/** One line per plan for a hover or a log: "Index on Id · cost 0.0003 · 1 of 320 rows". */
export function planLine(plan: QueryPlan): string {
  const how = plan.leadingOperationType === "Index" ? `Index on ${plan.fields.join(", ")}` : plan.leadingOperationType;
  return `${how} · relative cost ${plan.relativeCost} · ${count(plan.cardinality)} of ${count(plan.sobjectCardinality)} ${plan.sobjectType} rows`;
}
