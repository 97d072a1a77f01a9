/**
 * A notebook cell's chart: a small spec the product owns — what to draw and from which columns — never a chart
 * library's options. Checked wherever it comes from (a file, the output's toolbar, an agent's proposal): one rule.
 */
import * as l10n from "@vscode/l10n";

export const CHART_TYPES = ["bar", "stackedBar", "line", "area", "pie", "donut", "scatter", "number"] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface ChartSpec {
  type: ChartType;
  /** The column along the axis (the slices of a pie); none for a single number. */
  x?: string;
  /** The measured columns: one bar, line or slice per value. */
  values: string[];
  /** A column whose values split each bar or line into series (stacked, for a stacked bar). */
  series?: string;
  title?: string;
}

const KEYS = new Set(["type", "x", "values", "series", "title"]);
const MAX_TITLE = 200;

export class ChartSpecError extends Error {
  override name = "ChartSpecError";
}

const shown = (v: unknown) => (v === undefined ? l10n.t("nothing") : JSON.stringify(v)?.slice(0, 60) ?? String(v));

/**
 * The spec, checked: known keys only, the columns it names present in `columns` (the output's, when there is
 * one), and as many values as the chart type draws. ChartSpecError says which key and what was expected.
 */
export function checkChartSpec(value: unknown, columns: readonly string[] | undefined, where = "chart"): ChartSpec {
  const fail = (key: string, expected: string, got: unknown): never => {
    throw new ChartSpecError(l10n.t("{0} must be {1} (found {2})", `${where}${key ? `.${key}` : ""}`, expected, shown(got)));
  };
  if (!value || typeof value !== "object" || Array.isArray(value)) fail("", l10n.t("a mapping (type, x, values, series, title)"), value);
  const spec = value as Record<string, unknown>;
  const unknown = Object.keys(spec).filter((k) => !KEYS.has(k));
  if (unknown.length) fail(unknown[0]!, l10n.t("one of {0}: a chart is described by these alone", [...KEYS].join(", ")), unknown[0]);
  const type = CHART_TYPES.includes(spec.type as ChartType) ? (spec.type as ChartType) : fail("type", l10n.t("one of {0}", CHART_TYPES.join(", ")), spec.type);
  const column = (key: string, v: unknown): string => {
    if (typeof v !== "string" || !v) fail(key, l10n.t("a column's name"), v);
    if (columns && !columns.includes(v as string)) fail(key, l10n.t("one of the output's columns ({0})", columns.join(", ")), v);
    return v as string;
  };
  const values = Array.isArray(spec.values) && spec.values.length ? spec.values.map((v, i) => column(`values[${i}]`, v)) : fail("values", l10n.t("a list of one or more columns"), spec.values);
  const x = spec.x === undefined ? undefined : column("x", spec.x);
  const series = spec.series === undefined ? undefined : column("series", spec.series);
  const title = spec.title === undefined ? undefined : typeof spec.title === "string" && spec.title.length <= MAX_TITLE ? spec.title : fail("title", l10n.t("text of at most {0} characters", MAX_TITLE), spec.title);
  if (type === "number") {
    if (x !== undefined || series !== undefined) fail(x !== undefined ? "x" : "series", l10n.t("absent: a single number has no axis"), x ?? series);
    if (values.length !== 1) fail("values", l10n.t("one column: a tile shows one number"), values);
  } else {
    if (x === undefined) fail("x", l10n.t("a column: a {0} chart needs an axis", type), x);
    if ((type === "pie" || type === "donut") && (values.length !== 1 || series !== undefined)) fail(series !== undefined ? "series" : "values", l10n.t("one column and no series: a pie has one slice per value of x"), series ?? values);
    if (series !== undefined && values.length !== 1) fail("values", l10n.t("one column when a series splits it"), values);
    if (type === "stackedBar" && series === undefined && values.length < 2) fail("series", l10n.t("a column, or two or more values: a stacked bar stacks something"), series);
  }
  return { type, ...(x !== undefined ? { x } : {}), values, ...(series !== undefined ? { series } : {}), ...(title !== undefined ? { title } : {}) };
}
