/**
 * A chart of a plain query over many rows is drawn from the org's aggregate, never from the rows: the statement's
 * object and filter are kept, and the chosen axes become a GROUP BY the org computes (a million Tasks by status per
 * month is a few dozen rows back). An aggregate's results cannot be paged (queryMore does not serve GROUP BY), so
 * at most MAX_GROUPS groups are asked for and a chart with more says so. No VS Code here.
 */
import type { Field, FieldFunctionExpression, Query } from "@jetstreamapp/soql-parser-js";
import * as l10n from "@vscode/l10n";
import { soqlParser } from "../soql/parser";
import { isPeriodBucket, type PeriodBucket, type StatementShape } from "./chartOption";
import { checkChartSpec, type ChartSpec, type ChartType } from "./chartSpec";

/** SOQL's date functions an axis may group by: whole periods, or a period within a year (shown with its year). */
export const DATE_BUCKETS = ["CALENDAR_YEAR", "CALENDAR_QUARTER", "CALENDAR_MONTH", "FISCAL_YEAR", "FISCAL_QUARTER", "FISCAL_MONTH", "DAY_ONLY", "WEEK_IN_YEAR"] as const;
export type DateBucket = (typeof DATE_BUCKETS)[number];
export const MEASURES = ["COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX"] as const;
export type Measure = (typeof MEASURES)[number];

/** Groups an aggregate may return: the org's limit on rows of a query it cannot page. */
export const MAX_GROUPS = 2_000;

/** The year a period within a year belongs to: grouped by too, so March 2025 and March 2026 stay apart. */
const YEAR_OF: Partial<Record<DateBucket, "CALENDAR_YEAR" | "FISCAL_YEAR">> = {
  CALENDAR_QUARTER: "CALENDAR_YEAR", CALENDAR_MONTH: "CALENDAR_YEAR", WEEK_IN_YEAR: "CALENDAR_YEAR", FISCAL_QUARTER: "FISCAL_YEAR", FISCAL_MONTH: "FISCAL_YEAR",
};
/**
 * What a statement says about its rows that a chart needs and the rows do not: its subtotal rows (GROUP BY ROLLUP
 * or CUBE, told apart by its GROUPING() columns) and its periods within a year (a CALENDAR_MONTH column beside
 * the CALENDAR_YEAR of the same field, labelled `2026-03`). Read with the SOQL parser by the extension and the
 * CLI, and handed to the chart; a statement that cannot be read has neither.
 */
export function statementShape(statement: string): StatementShape {
  let query: Query;
  try {
    query = parsed(statement);
  } catch {
    return {};
  }
  const groups = query.groupBy ? (Array.isArray(query.groupBy) ? query.groupBy : [query.groupBy]) : [];
  const rolled = groups.some((g) => /^(ROLLUP|CUBE)$/i.test((g as { fn?: { functionName?: string } }).fn?.functionName ?? ""));
  const functions = selectColumns(query).filter((c) => c.fn !== undefined) as Required<SelectColumn>[];
  const periods = functions.flatMap((f) => {
    const yearFn = YEAR_OF[f.fn as DateBucket];
    const year = yearFn && isPeriodBucket(f.fn) ? functions.find((g) => g.fn === yearFn && g.of === f.of) : undefined;
    return year ? [{ column: f.name, year: year.name, bucket: f.fn as PeriodBucket }] : [];
  });
  return {
    ...(rolled ? { subtotals: { grouping: functions.filter((f) => f.fn === "GROUPING").map((f) => f.name) } } : {}),
    ...(periods.length ? { periods } : {}),
  };
}

/** A statement read by the SOQL parser; AggregationError says why it cannot be. */
function parsed(statement: string): Query {
  try {
    return soqlParser().parseQuery(statement) as Query;
  } catch (err) {
    throw new AggregationError(l10n.t("The statement cannot be read as SOQL: {0}", (err as Error).message));
  }
}

/** Functions whose column the org names after the field they take. */
const FIELD_NAMED = new Set(["TOLABEL", "FORMAT", "CONVERTCURRENCY", "CONVERTTIMEZONE"]);

interface SelectColumn {
  name: string;
  /** A function's name (upper case) and the field it takes (lower case). */
  fn?: string;
  of?: string;
}

/**
 * A statement's columns as the org names them in its answer: a field's alias or path, a function's alias or
 * exprN (counting the unaliased functions before it), a child relationship's name.
 */
function selectColumns(query: Query): SelectColumn[] {
  let expr = 0;
  return (query.fields ?? []).flatMap((f): SelectColumn[] => {
    switch (f.type) {
      case "Field": return [{ name: f.alias ?? f.field }];
      case "FieldRelationship": return [{ name: ("alias" in f ? f.alias : undefined) ?? f.rawValue ?? f.field }];
      case "FieldFunctionExpression": {
        const fn = (f.functionName ?? "").toUpperCase();
        const of = String(f.parameters?.[0] ?? "");
        // toLabel(), FORMAT(), convertCurrency() and convertTimezone() keep their field's name; other functions are exprN.
        const name = f.alias ?? (FIELD_NAMED.has(fn) ? of.split(".").at(-1)! : `expr${expr++}`);
        return [{ name, fn, of: of.toLowerCase() }];
      }
      case "FieldSubquery": return [{ name: f.subquery.relationshipName }];
      default: return [];
    }
  });
}

/**
 * The columns a SOQL statement's answer has (a chart may name them; a parent's field also by its own name, as an
 * aggregate's group names it). AggregationError when the statement cannot be read as SOQL.
 */
export function statementColumns(statement: string): string[] {
  return selectColumns(parsed(statement)).flatMap((c) => (c.fn === undefined && c.name.includes(".") ? [c.name, c.name.split(".").at(-1)!] : [c.name]));
}

export interface ChartAxes {
  type: ChartType;
  /** The field along the axis (a path such as `Account.Industry` is allowed), grouped by `bucket` when it is a date; none for a single number. */
  x?: string;
  bucket?: DateBucket;
  /** A field whose values split the measure into series. */
  series?: string;
  measure: Measure;
  /** The field measured (COUNT counts Id when none is named). */
  of?: string;
}

export interface AggregatedStatement {
  soql: string;
  chart: ChartSpec;
}

export class AggregationError extends Error {
  override name = "AggregationError";
}

const FIELD_PATH = /^[A-Za-z]\w*(\.[A-Za-z]\w*){0,4}$/;

function fieldPath(value: string | undefined, what: string): string {
  if (!value || !FIELD_PATH.test(value)) throw new AggregationError(l10n.t("{0} must be a field's API name or a relationship path (found {1})", what, JSON.stringify(value) ?? "nothing"));
  return value;
}

const fn = (functionName: string, field: string, alias: string): FieldFunctionExpression => ({
  type: "FieldFunctionExpression", functionName, parameters: [field], isAggregateFn: true, rawValue: `${functionName}(${field})`, alias,
});
const plain = (field: string, alias: string): Field => ({ type: "Field", field, alias });

/** A statement whose rows the org can aggregate for a chart: one that does not group already nor read child rows. */
function chartableQuery(statement: string): Query {
  const query = parsed(statement);
  if (query.groupBy || query.having) throw new AggregationError(l10n.t("The statement groups already: it is charted from its own rows"));
  if (query.fields?.some((f) => f.type === "FieldSubquery")) throw new AggregationError(l10n.t("The statement reads child rows (a subquery): take them out to chart it by the org's aggregate"));
  return query;
}

/** The object a statement's chart would aggregate (its fields are the axes to choose from); AggregationError when it cannot be charted so. */
export const aggregatedObject = (statement: string): string => chartableQuery(statement).sObject ?? "";

/**
 * The statement's object and filter, grouped by the axes: `SELECT <x> x, [<series> series,] <measure> value FROM …
 * WHERE … GROUP BY … ORDER BY … LIMIT 2000`. A statement that already groups, reads child rows or reads
 * nothing but a count is refused: it is charted as it is.
 */
export function aggregatedStatement(statement: string, axes: ChartAxes): AggregatedStatement {
  const query = chartableQuery(statement);
  if (axes.bucket !== undefined && !DATE_BUCKETS.includes(axes.bucket)) throw new AggregationError(l10n.t("bucket must be one of {0} (found {1})", DATE_BUCKETS.join(", "), JSON.stringify(axes.bucket)));
  if (!MEASURES.includes(axes.measure)) throw new AggregationError(l10n.t("measure must be one of {0} (found {1})", MEASURES.join(", "), JSON.stringify(axes.measure) ?? "nothing"));
  const measured = axes.of === undefined ? (axes.measure === "COUNT" ? "Id" : fieldPath(undefined, l10n.t("of (the field {0} measures)", axes.measure))) : fieldPath(axes.of, "of");
  const kept = { sObject: query.sObject, ...(query.where ? { where: query.where } : {}), ...(query.usingScope ? { usingScope: query.usingScope } : {}), ...(query.withSecurityEnforced ? { withSecurityEnforced: query.withSecurityEnforced } : {}) };
  if (axes.type === "number") {
    if (axes.x !== undefined || axes.series !== undefined) throw new AggregationError(l10n.t("A single number has no axis and no series"));
    const soql = soqlParser().composeQuery({ fields: [fn(axes.measure, measured, "value")], ...kept } as Query);
    return { soql, chart: checkChartSpec({ type: "number", values: ["value"] }, undefined) };
  }
  const x = fieldPath(axes.x, "x");
  const series = axes.series === undefined ? undefined : fieldPath(axes.series, "series");
  const year = axes.bucket ? YEAR_OF[axes.bucket] : undefined;

  const xField = axes.bucket ? fn(axes.bucket, x, "x") : plain(x, "x");
  const groupKeys = [...(year ? [{ fn: { functionName: year, parameters: [x], rawValue: `${year}(${x})` } }] : []), axes.bucket ? { fn: { functionName: axes.bucket, parameters: [x], rawValue: `${axes.bucket}(${x})` } } : { field: x }];
  const aggregate: Query = {
    fields: [...(year ? [fn(year, x, "year")] : []), xField, ...(series ? [plain(series, "series")] : []), fn(axes.measure, measured, "value")],
    ...kept,
    groupBy: [...groupKeys, ...(series ? [{ field: series }] : [])],
    orderBy: [...groupKeys, ...(series ? [{ field: series }] : [])],
    limit: MAX_GROUPS,
  } as Query;
  const soql = soqlParser().composeQuery(aggregate);
  const chart = checkChartSpec({ type: axes.type, x: "x", values: ["value"], ...(series ? { series: "series" } : {}) }, undefined);
  return { soql, chart };
}
