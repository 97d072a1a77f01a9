/**
 * The query resource's `explain`: plausible query plans, as the org answers them (REST API "Get Feedback on
 * Query Performance"): one plan per usable index (a positive filter on an indexed field — Id, Name, owner,
 * dates the org indexes, lookups, external IDs and unique fields), plus the table scan, cheapest first, each
 * with its expected rows, the object's rows, and notes on filters that could not use an index. Selectivity
 * follows the documented thresholds: a standard index is selective under 30% of the rows, a custom one under
 * 10% (relative cost below 1); a table scan costs more the larger the object.
 */
import type { Query, WhereClause } from "@jetstreamapp/soql-parser-js";
import type { Ctx } from "./context";
import type { ObjectDef } from "./schema";
import { Evaluator, parseSoql } from "./soql";

const INDEXED_STANDARD = new Set(["id", "name", "ownerid", "createddate", "systemmodstamp", "recordtypeid", "lastmodifieddate"]);
const NEGATIVE = new Set(["!=", "NOT IN", "EXCLUDES"]);

interface Condition {
  field: string;
  operator: string;
  value: unknown;
}

function conditions(where: WhereClause | undefined): Condition[] {
  const out: Condition[] = [];
  for (let node = where as unknown as { left?: Record<string, unknown> | null; right?: unknown } | undefined; node; node = node.right as typeof node) {
    const left = node.left;
    if (left && typeof left.field === "string") out.push({ field: left.field, operator: String(left.operator ?? "="), value: left.value });
  }
  return out;
}

const isIndexed = (def: ObjectDef, name: string) => {
  const field = def.fieldMap.get(name.toLowerCase());
  return !!field && (INDEXED_STANDARD.has(field.name.toLowerCase()) || field.type === "reference" || field.externalId === true || field.unique === true);
};

const round = (n: number) => Math.round(n * 1e4) / 1e4;

export function explainSoql(ctx: Ctx, soql: string) {
  const query: Query = parseSoql(soql);
  const ev = new Evaluator({ store: ctx.store, version: ctx.version, userId: ctx.user.Id, includeDeleted: false, now: Date.now() }, soql);
  const def = ev.resolver.objectNamed(query.sObject ?? "");
  const generated = ctx.store.generated.get(def.name.toLowerCase());
  const total = generated ? generated.count : ctx.store.liveRecords(def.name).length;
  // Rows the whole filter keeps: counted where the table is held, estimated (a tenth) for a generated one.
  const matching = !query.where ? total : generated ? Math.ceil(total / 10) : ctx.store.liveRecords(def.name).filter(ev.where(def, query.where, query.sObjectAlias)).length;
  const limited = query.limit !== undefined ? Math.min(matching, query.limit) : matching;
  const filters = conditions(query.where);
  const usable = filters.filter((c) => isIndexed(def, c.field) && !NEGATIVE.has(c.operator.toUpperCase()) && !(c.operator.toUpperCase() === "LIKE" && String(c.value).startsWith("%")) && c.value !== "null");
  const notes = filters
    .filter((c) => !usable.includes(c))
    .map((c) => ({
      description: isIndexed(def, c.field) ? "Not considering filter for optimization because the operator or value cannot use an index" : "Not considering filter for optimization because unindexed",
      fields: [def.fieldMap.get(c.field.toLowerCase())?.name ?? c.field],
      tableEnumOrId: def.name,
    }));
  const plans = usable.map((c) => {
    const field = def.fieldMap.get(c.field.toLowerCase())!;
    const threshold = Math.max(1, (field.name.endsWith("__c") ? 0.1 : 0.3) * total);
    return { cardinality: limited, fields: [field.name], leadingOperationType: "Index", notes, relativeCost: round(matching / threshold), sobjectCardinality: total, sobjectType: def.name };
  });
  plans.push({ cardinality: limited, fields: [], leadingOperationType: "TableScan", notes, relativeCost: round(0.65 + total / 75_000), sobjectCardinality: total, sobjectType: def.name });
  return { plans: plans.sort((a, b) => a.relativeCost - b.relativeCost) };
}
