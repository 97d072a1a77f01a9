/**
 * A chart spec drawn from an output's rows: the chart library's options, made here and nowhere else — for the
 * notebook renderer (in VS Code's theme) and for `crm-data notebook run`'s SVG. Subtotal rows of a ROLLUP or CUBE
 * are kept apart from the bars; a date period stays in the order the org returned it; every value from the org
 * is drawn as text by the library (SVG text, its tooltip as rich text, never HTML). No VS Code, no DOM here.
 */
import type { EChartsOption, SeriesOption } from "echarts";
import type { ChartSpec } from "./chartSpec";
import type { CellOutput, OutputValue } from "./notebookFile";

export interface ChartColors {
  text: string;
  lines: string;
  series: string[];
}

/** Colours for a report on a white page (the renderer reads VS Code's theme instead). */
export const REPORT_COLORS: ChartColors = { text: "#1f2328", lines: "#d0d7de", series: ["#0969da", "#cf222e", "#1a7f37", "#9a6700", "#8250df", "#bc4c00", "#1b7c83", "#bf3989"] };

/** What a chart shows: the library's options, or a single number; and the subtotal rows set apart. */
export interface DrawnChart {
  option?: EChartsOption;
  tile?: { label: string; value: string };
  /** ROLLUP/CUBE subtotal rows (a grouped column empty), each as "label: value". */
  subtotals: string[];
  /** Why nothing is drawn (no numbers in the measured column), when nothing is. */
  empty?: string;
}

/** How a statement's subtotal rows are told apart: the columns of its GROUPING() functions. */
export interface Subtotals {
  grouping: string[];
}

/** What a statement says of its rows (aggregation.ts reads it): subtotals, and periods within a year with the column of their year. */
export interface StatementShape {
  subtotals?: Subtotals;
  periods?: { column: string; year: string; bucket: PeriodBucket }[];
}

/** A period within a year as the chart labels it, from its year's and its own values (undefined when either is not a number). */
function periodLabel(bucket: PeriodBucket, year: OutputValue, part: OutputValue): string | undefined {
  return typeof year === "number" && typeof part === "number" ? PERIOD_LABEL[bucket](String(year), part) : undefined;
}

/** Periods within a year, labelled with it so that March 2025 and March 2026 stay apart and in order. */
const PERIOD_LABEL = {
  CALENDAR_MONTH: (y: string, m: number) => `${y}-${String(m).padStart(2, "0")}`, FISCAL_MONTH: (y: string, m: number) => `FY${y}-${String(m).padStart(2, "0")}`,
  CALENDAR_QUARTER: (y: string, q: number) => `${y} Q${q}`, FISCAL_QUARTER: (y: string, q: number) => `FY${y} Q${q}`, WEEK_IN_YEAR: (y: string, w: number) => `${y} W${String(w).padStart(2, "0")}`,
};
export type PeriodBucket = keyof typeof PERIOD_LABEL;
export const isPeriodBucket = (name: string): name is PeriodBucket => Object.hasOwn(PERIOD_LABEL, name);

/** An axis label: text as the org wrote it, at most 80 characters (the rest is in the data table). */
const label = (value: OutputValue): string => {
  const text = value === null ? "(none)" : String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

const numberOf = (value: OutputValue): number | null => {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
};

export function drawnChart(spec: ChartSpec, output: Pick<CellOutput, "columns" | "data">, options: { colors: ChartColors; shape?: StatementShape }): DrawnChart {
  const at = (column: string | undefined) => (column === undefined ? -1 : output.columns.findIndex((c) => c.toLowerCase() === column.toLowerCase()));
  const [xAt, seriesAt] = [at(spec.x), at(spec.series)];
  const valueAt = spec.values.map(at);
  const rolled = options.shape?.subtotals;
  const groupingAt = (rolled?.grouping ?? []).map(at).filter((i) => i >= 0);
  const period = options.shape?.periods?.find((p) => at(p.column) === xAt);
  const yearAt = period ? at(period.year) : -1;
  /** The x axis's label of a row: a period within a year with its year (`2026-03`), else the value. */
  const xLabel = (row: OutputValue[]) => (period && yearAt >= 0 ? periodLabel(period.bucket, row[yearAt]!, row[xAt]!) : undefined) ?? label(row[xAt]!);
  const isSubtotal = (row: OutputValue[]) => !!rolled && (groupingAt.length
    ? groupingAt.some((i) => row[i] === 1)
    : (xAt >= 0 && row[xAt] === null) || (seriesAt >= 0 && row[seriesAt] === null));
  const rows = output.data.filter((row) => !isSubtotal(row));
  const subtotals = output.data.filter(isSubtotal).map((row) => {
    const grouped = [xAt, seriesAt].filter((i) => i >= 0 && row[i] !== null).map((i) => (i === xAt ? xLabel(row) : label(row[i]!)));
    return `${grouped.length ? grouped.join(" · ") : "Total"}: ${valueAt.map((i) => label(row[i] ?? null)).join(", ")}`;
  });

  if (spec.type === "number") {
    const value = rows[0]?.[valueAt[0]!] ?? null;
    return { tile: { label: spec.title ?? spec.values[0]!, value: numberOf(value)?.toLocaleString("en-US") ?? label(value) }, subtotals };
  }
  if (!rows.some((row) => valueAt.some((i) => numberOf(row[i]!) !== null))) return { subtotals, empty: `No numbers in ${spec.values.join(", ")} to chart` };

  const { colors } = options;
  const axisText = { color: colors.text };
  const common: EChartsOption = {
    animation: false,
    color: colors.series,
    textStyle: { color: colors.text },
    tooltip: { renderMode: "richText", trigger: spec.type === "pie" || spec.type === "donut" || spec.type === "scatter" ? "item" : "axis" },
    ...(spec.title ? { title: { text: label(spec.title), textStyle: { color: colors.text, fontSize: 14 } } } : {}),
  };

  if (spec.type === "pie" || spec.type === "donut") {
    const slices = rows.map((row) => ({ name: xLabel(row), value: numberOf(row[valueAt[0]!]!) ?? 0 }));
    return {
      subtotals,
      option: {
        ...common,
        legend: { type: "scroll", bottom: 0, textStyle: axisText },
        series: [{ type: "pie", name: spec.values[0], radius: spec.type === "donut" ? ["45%", "70%"] : "70%", center: ["50%", "45%"], data: slices, label: { color: colors.text, overflow: "truncate", width: 160 } }],
      },
    };
  }

  const grid = { left: 8, right: 16, top: spec.title ? 40 : 16, bottom: 40 };
  const valueAxis = { type: "value" as const, axisLabel: axisText, splitLine: { lineStyle: { color: colors.lines } } };
  if (spec.type === "scatter") {
    return {
      subtotals,
      option: {
        ...common, grid, legend: { bottom: 0, textStyle: axisText },
        xAxis: { ...valueAxis, name: spec.x, nameLocation: "middle", nameGap: 24, scale: true },
        yAxis: { ...valueAxis, scale: true },
        series: valueAt.map((i, n) => ({ type: "scatter", name: spec.values[n], data: rows.flatMap((row) => {
          const [x, y] = [numberOf(row[xAt]!), numberOf(row[i]!)];
          return x === null || y === null ? [] : [[x, y]];
        }) })),
      },
    };
  }

  // Categories in the order the org returned them: a GROUP BY's ORDER BY, a date period's sequence.
  const categories = [...new Set(rows.map(xLabel))];
  const stacked = spec.type === "stackedBar" || (spec.type === "area" && spec.series !== undefined);
  const seriesOf = (name: string, data: (number | null)[]): SeriesOption => ({
    type: spec.type === "line" || spec.type === "area" ? "line" : "bar",
    name,
    data,
    ...(stacked ? { stack: "total" } : {}),
    ...(spec.type === "area" ? { areaStyle: {} } : {}),
    ...(spec.type === "line" || spec.type === "area" ? { connectNulls: false } : {}),
  });
  const byCategory = (pick: (row: OutputValue[]) => boolean, i: number) => categories.map((c) => {
    const row = rows.find((r) => xLabel(r) === c && pick(r));
    return row ? numberOf(row[i]!) : stacked ? 0 : null;
  });
  const series = seriesAt >= 0
    ? [...new Set(rows.map((row) => label(row[seriesAt]!)))].map((name) => seriesOf(name, byCategory((r) => label(r[seriesAt]!) === name, valueAt[0]!)))
    : valueAt.map((i, n) => seriesOf(spec.values[n]!, byCategory(() => true, i)));
  return {
    subtotals,
    option: {
      ...common, grid,
      legend: { type: "scroll", bottom: 0, textStyle: axisText, show: series.length > 1 },
      // Every label while they fit (slanted past six), cut to 120 pixels; past thirty the library picks which to show.
      xAxis: { type: "category", data: categories, axisLabel: { ...axisText, overflow: "truncate", width: 120, interval: categories.length > 30 ? "auto" : 0, rotate: categories.length > 6 ? 30 : 0 }, axisLine: { lineStyle: { color: colors.lines } } },
      yAxis: valueAxis,
      series,
    },
  };
}

/** Default axes for a chart type chosen on an output: the first text column along the axis, the first column of numbers measured. */
export function defaultSpec(type: ChartSpec["type"], output: Pick<CellOutput, "columns" | "data">): ChartSpec | undefined {
  const numeric = output.columns.filter((_, i) => output.data.some((row) => typeof row[i] === "number"));
  const text = output.columns.filter((c) => !numeric.includes(c));
  const value = numeric.find((c) => c !== text[0]) ?? numeric[0];
  if (value === undefined) return undefined;
  if (type === "number") return { type, values: [value] };
  if (type === "scatter") return numeric.length >= 2 ? { type, x: numeric[0]!, values: [numeric[1]!] } : undefined;
  const x = text[0] ?? output.columns.find((c) => c !== value);
  if (x === undefined) return undefined;
  const series = type === "stackedBar" ? text[1] : undefined;
  if (type === "stackedBar" && series === undefined) {
    const others = numeric.filter((c) => c !== x);
    return others.length >= 2 ? { type, x, values: others } : undefined;
  }
  return { type, x, values: [value], ...(series !== undefined ? { series } : {}) };
}
