/**
 * The notebook renderer: a CRM notebook cell's output drawn in VS Code's notebook webview — where and when it ran,
 * a toolbar of charts, the chart in the theme's colours, and the rows as an accessible table behind it. Every
 * value from the org is text (elements built from parts, the chart library's SVG text and rich-text tooltip).
 * A chart chosen here is drawn at once and sent to the extension, which checks it and keeps it in the cell.
 */
import * as l10n from "@vscode/l10n";
import type { ActivationFunction, OutputItem, RendererContext } from "vscode-notebook-renderer";
import { el } from "../../shared/element";
import { defaultSpec, drawnChart, REPORT_COLORS, type ChartColors } from "../chartOption";
import { CHART_TYPES, checkChartSpec, type ChartSpec, type ChartType } from "../chartSpec";
import { isL10nBundle, type ChartChosen, type RenderedOutput } from "../renderedOutput";

/** A chart type's name on the toolbar, in VS Code's display language once the extension has sent its strings. */
const typeLabel = (type: ChartType): string => ({
  bar: l10n.t("Bar"), stackedBar: l10n.t("Stacked bar"), line: l10n.t("Line"), area: l10n.t("Area"), pie: l10n.t("Pie"), donut: l10n.t("Donut"), scatter: l10n.t("Scatter"), number: l10n.t("Number"),
})[type];

const STYLE = `
.crm-output { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); }
.crm-output .meta { color: var(--vscode-descriptionForeground); margin: 0 0 4px; }
.crm-output .error { color: var(--vscode-errorForeground); white-space: pre-wrap; }
.crm-output [role=toolbar] { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 4px 0; }
.crm-output button { font: inherit; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; padding: 2px 8px; cursor: pointer; }
.crm-output button[aria-pressed=true] { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
.crm-output button:focus-visible, .crm-output select:focus-visible, .crm-output summary:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.crm-output label { margin-left: 8px; }
.crm-output select { font: inherit; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border); margin-left: 4px; }
.crm-output .chart { width: 100%; height: 320px; }
.crm-output .tile { font-size: 2.5em; font-weight: 600; margin: 8px 0 0; }
.crm-output .notice { color: var(--vscode-descriptionForeground); }
.crm-output table { border-collapse: collapse; margin: 4px 0; }
.crm-output th, .crm-output td { border: 1px solid var(--vscode-editorWidget-border, var(--vscode-panel-border)); padding: 2px 6px; text-align: left; vertical-align: top; max-width: 40em; overflow-wrap: anywhere; }
/* The caption repeats the line above the table for screen readers, which read a table by its caption. */
.crm-output caption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

/** VS Code's chart colours for the current theme (light, dark, high contrast), read from the webview's CSS. */
function themeColors(): ChartColors {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => css.getPropertyValue(`--vscode-${name}`).trim() || fallback;
  const series = ["blue", "red", "green", "yellow", "orange", "purple"].map((c, i) => read(`charts-${c}`, REPORT_COLORS.series[i]!));
  return { text: read("charts-foreground", read("foreground", REPORT_COLORS.text)), lines: read("charts-lines", REPORT_COLORS.lines), series };
}

function dataTable(data: RenderedOutput["output"], caption: string): HTMLTableElement {
  return el("table", {},
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ...data.columns.map((c) => el("th", { scope: "col" }, c)))),
    el("tbody", {}, ...data.data.map((row) => el("tr", {}, ...row.map((v) => el("td", {}, v === null ? "" : String(v)))))));
}

/**
 * Arrow keys, Home and End move between a toolbar's buttons; Tab leaves it (one stop in the tab order). The keys
 * the toolbar uses stay in it: the notebook would otherwise act on them too (and move the focus to the output's
 * first control).
 */
function rovingToolbar(toolbar: HTMLElement): void {
  const buttons = () => [...toolbar.querySelectorAll("button")];
  toolbar.addEventListener("keydown", (event) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    if (["Enter", " ", "ArrowRight", "ArrowLeft", "Home", "End"].includes(event.key)) event.stopPropagation();
    const next = event.key === "ArrowRight" ? at + 1 : event.key === "ArrowLeft" ? at - 1 : event.key === "Home" ? 0 : event.key === "End" ? all.length - 1 : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const target = all[(next + all.length) % all.length]!;
    for (const b of all) b.tabIndex = b === target ? 0 : -1;
    target.focus();
  });
}

/** The chart library, fetched with the first chart an output draws (a table needs none of it). */
let library: Promise<typeof import("../chartLibrary")> | undefined;
const chartLibrary = () => (library ??= import("../chartLibrary"));

interface Shown {
  chart?: { resize(): void; dispose(): void };
  /** Counts the draws: a chart whose library arrives after a newer draw is not drawn. */
  drawing: number;
  resize?: ResizeObserver;
  redraw(): void;
}

export const activate: ActivationFunction = (context: RendererContext<unknown>) => {
  const style = el("style", {}, STYLE);
  document.head.append(style);
  const shown = new Map<string, Shown>();
  // A chart chosen in this window, by output: drawn again as chosen if VS Code renders the output anew.
  const chosen = new Map<string, ChartSpec | undefined>();
  const redrawAll = () => { for (const s of shown.values()) s.redraw(); };
  // A theme change switches the body's class: the charts take its colours.
  new MutationObserver(redrawAll).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  // The strings in VS Code's display language, asked of the extension once (English until they come).
  context.onDidReceiveMessage?.((message: unknown) => {
    if (!isL10nBundle(message)) return;
    l10n.config({ contents: message.contents });
    redrawAll();
  });
  context.postMessage?.({ type: "l10n?" });

  function dispose(id: string): void {
    const s = shown.get(id);
    s?.resize?.disconnect();
    s?.chart?.dispose();
    shown.delete(id);
  }

  function render(item: OutputItem, element: HTMLElement): void {
    dispose(item.id);
    const rendered = item.json() as RenderedOutput;
    const { output } = rendered;
    const root = el("div", { class: "crm-output" });
    element.replaceChildren(root);
    const meta = () => {
      const said = output.rows === 1 ? l10n.t("{0} · 1 row · {1}", output.org, output.ranAt) : l10n.t("{0} · {1} rows · {2}", output.org, output.rows.toLocaleString(), output.ranAt);
      return output.data.length < output.rows ? `${said} · ${l10n.t("the first {0} shown", output.data.length)}` : said;
    };
    if (output.error) {
      root.append(el("p", { class: "meta" }, meta()), el("p", { class: "error", role: "alert" }, output.error));
      return;
    }
    let spec = chosen.has(item.id) ? chosen.get(item.id) : rendered.chart;
    const state: Shown = { drawing: 0, redraw: () => draw() };
    shown.set(item.id, state);

    const choose = (next: ChartSpec | undefined) => {
      spec = next;
      chosen.set(item.id, next);
      const message: ChartChosen = { type: "chart", outputId: rendered.id, ...(next ? { chart: next } : {}) };
      context.postMessage?.(message);
      // The output is drawn anew: the keyboard's place goes to the same control in it (a select, else the pressed button).
      const focused = root.contains(document.activeElement) ? document.activeElement : undefined;
      const select = focused instanceof HTMLSelectElement ? focused.getAttribute("aria-label") : undefined;
      draw();
      if (!focused) return;
      const again = [...root.querySelectorAll<HTMLElement>(select ? "select" : "[role=toolbar] button[aria-pressed=true]")].find((e) => !select || e.getAttribute("aria-label") === select);
      again?.focus();
    };

    function toolbar(): HTMLElement {
      const bar = el("div", { role: "toolbar", "aria-label": l10n.t("Chart") });
      const typeButton = (label: string, type: ChartType | undefined) => {
        const pressed = spec?.type === type;
        const b = el("button", { type: "button", "aria-pressed": String(pressed), tabindex: pressed ? "0" : "-1" }, label);
        b.addEventListener("click", () => {
          if (type === undefined) return choose(undefined);
          const next = spec && spec.type !== "number" && type !== "number" && type !== "scatter" ? reshaped(spec, type) : defaultSpec(type, output);
          if (next) choose(next);
          else notice.textContent = type === "scatter" ? l10n.t("No scatter chart in these columns: it needs a column of numbers on each axis") : l10n.t("No {0} chart in these columns: it needs a column of numbers", typeLabel(type).toLowerCase());
        });
        return b;
      };
      bar.append(typeButton(l10n.t("Table"), undefined), ...CHART_TYPES.map((t) => typeButton(typeLabel(t), t)));
      rovingToolbar(bar);
      return bar;
    }

    /** The same axes under another chart type, when they fit it; else that type's defaults. */
    function reshaped(current: ChartSpec, type: ChartType): ChartSpec | undefined {
      try {
        return checkChartSpec({ ...current, type, ...(type === "pie" || type === "donut" ? { values: current.values.slice(0, 1), series: undefined } : {}) }, output.columns);
      } catch {
        return defaultSpec(type, output);
      }
    }

    /** Selects for the axes of the chart shown: changing one draws at once (a spec the chart cannot draw is said, not kept). */
    function axes(current: ChartSpec): HTMLElement {
      const pick = (label: string, value: string | undefined, optional: boolean, apply: (v: string | undefined) => Record<string, unknown>) => {
        const select = el("select", { "aria-label": label },
          ...(optional ? [el("option", { value: "" }, l10n.t("(none)"))] : []),
          ...output.columns.map((c) => el("option", { value: c }, c)));
        select.value = value ?? "";
        select.addEventListener("change", () => {
          try {
            choose(checkChartSpec({ ...current, ...apply(select.value || undefined) }, output.columns));
          } catch (err) {
            notice.textContent = (err as Error).message;
          }
        });
        return el("label", {}, label, select);
      };
      const parts = el("div", { role: "group", "aria-label": l10n.t("Axes") });
      if (current.type !== "number") parts.append(pick(l10n.t("Axis"), current.x, false, (x) => ({ x })));
      parts.append(pick(l10n.t("Value"), current.values[0], false, (v) => ({ values: [v, ...current.values.slice(1)] })));
      if (current.type !== "number" && current.type !== "pie" && current.type !== "donut" && current.type !== "scatter") parts.append(pick(l10n.t("Series"), current.series, true, (series) => ({ series, ...(series ? { values: current.values.slice(0, 1) } : {}) })));
      return parts;
    }

    const notice = el("p", { class: "notice", role: "status" });

    function draw(): void {
      state.resize?.disconnect();
      state.chart?.dispose();
      state.chart = undefined;
      notice.textContent = "";
      const table = dataTable(output, meta());
      root.replaceChildren(el("p", { class: "meta" }, meta()));
      if (!output.columns.length) return;
      root.append(toolbar());
      if (!spec) {
        root.append(notice, table);
        return;
      }
      let drawn;
      try {
        drawn = drawnChart(checkChartSpec(spec, output.columns), output, { colors: themeColors(), shape: rendered.shape });
      } catch (err) {
        notice.textContent = (err as Error).message;
        root.append(notice, table);
        return;
      }
      root.append(axes(spec), notice);
      if (drawn.tile) root.append(el("p", { class: "tile", "aria-label": `${drawn.tile.label}: ${drawn.tile.value}` }, drawn.tile.value), el("p", { class: "meta" }, drawn.tile.label));
      if (drawn.empty) notice.textContent = drawn.empty;
      if (drawn.option) {
        const option = drawn.option;
        const area = el("div", { class: "chart", role: "img", "aria-label": spec.x ? l10n.t("{0} chart of {1} by {2}; the data table follows", typeLabel(spec.type), spec.values.join(", "), spec.x) : l10n.t("{0} chart of {1}; the data table follows", typeLabel(spec.type), spec.values.join(", ")) });
        root.append(area);
        const drawing = ++state.drawing;
        void chartLibrary().then(({ echarts }) => {
          // Drawn again meanwhile (another choice, the theme): this chart is no longer shown.
          if (drawing !== state.drawing || !area.isConnected) return;
          const chart = echarts.init(area, undefined, { renderer: "svg" });
          chart.setOption(option);
          state.chart = chart;
          state.resize = new ResizeObserver(() => chart.resize());
          state.resize.observe(area);
        });
      }
      if (drawn.subtotals.length) root.append(el("p", { class: "meta" }, l10n.t("Subtotals: {0}", drawn.subtotals.join(" · "))));
      root.append(el("details", {}, el("summary", {}, l10n.t("Data table")), table));
    }
    draw();
  }

  return {
    renderOutputItem: (item, element) => render(item, element),
    disposeOutputItem: (id) => (id === undefined ? [...shown.keys()].forEach(dispose) : dispose(id)),
  };
};
