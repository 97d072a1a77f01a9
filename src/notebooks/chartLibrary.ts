/**
 * The chart library, as much of it as notebooks draw (bar, line, pie, scatter; SVG only): loaded by the notebook
 * renderer and by reports, never by the extension's activation. A chart is described to screen readers by its
 * container's label and the data table beside it (the library's own generated description is not used).
 */
import * as echarts from "echarts/core";
import { BarChart, LineChart, PieChart, ScatterChart } from "echarts/charts";
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from "echarts/components";
import { SVGRenderer } from "echarts/renderers";
import type { EChartsOption } from "echarts";

echarts.use([BarChart, LineChart, PieChart, ScatterChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

export { echarts };

/** A chart as an SVG document's text, drawn without a DOM (server-side rendering): for reports with no script. */
export function chartSvg(option: EChartsOption, size: { width: number; height: number }): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, ...size });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
