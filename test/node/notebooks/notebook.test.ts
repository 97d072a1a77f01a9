/**
 * CRM notebooks' pure parts: the `.crmnb` file (round trip, stripped outputs, a hostile file refused with its
 * place), the chart spec's one rule, and the aggregation rewrite — run against the emulator, the org's groups
 * must add up to the rows themselves.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregatedStatement, AggregationError, statementColumns, statementShape } from "../../../src/notebooks/aggregation";
import { chartSvg } from "../../../src/notebooks/chartLibrary";
import { defaultSpec, drawnChart, REPORT_COLORS } from "../../../src/notebooks/chartOption";
import { CHART_TYPES, checkChartSpec, ChartSpecError } from "../../../src/notebooks/chartSpec";
import { NotebookFormatError, parseNotebook, serializeNotebook, type Notebook } from "../../../src/notebooks/notebookFile";
import { demoClient, useEmulator } from "../../helpers/emulator";

const emu = useEmulator();

const NOTEBOOK: Notebook = {
  org: "Sandbox",
  binds: { since: "2026-01-01" },
  cells: [
    { kind: "markdown", source: "# Cases this quarter\nBy status.\n" },
    {
      kind: "soql",
      source: "SELECT Status, COUNT(Id) n\nFROM Case\nWHERE CreatedDate >= :since\nGROUP BY Status",
      chart: { type: "bar", x: "Status", values: ["n"], title: "Cases by status" },
      output: { org: "Sandbox", ranAt: "2026-11-27T10:00:00.000Z", rows: 3, columns: ["Status", "n"], data: [["New", 12], ["Closed: \"won't fix\"\n<script>", 30], [null, 0]] },
    },
    { kind: "sosl", source: "FIND {router} RETURNING Knowledge__kav(Title)" },
  ],
};

test("a notebook survives its file: the same notebook read back, each output row one line, a stable text", () => {
  const text = serializeNotebook(NOTEBOOK);
  assert.deepEqual(parseNotebook(text), NOTEBOOK);
  assert.equal(serializeNotebook(parseNotebook(text)), text, "written again, byte for byte the same");
  assert.match(text, /^crmnb: 1$/m);
  assert.match(text, /^ {6}SELECT Status, COUNT\(Id\) n$/m, "the source is a block, as typed");
  assert.match(text, /^ {8}- \[New, 12\]$/m, "an output row is one line");
});

test("outputs stripped on save: the question and its chart stay, the answers go", () => {
  const stripped = parseNotebook(serializeNotebook(NOTEBOOK, { stripOutputs: true }));
  assert.equal(stripped.cells.filter((c) => c.output).length, 0);
  assert.deepEqual(stripped.cells[1]!.chart, NOTEBOOK.cells[1]!.chart);
  assert.deepEqual(stripped.cells.map((c) => c.source), NOTEBOOK.cells.map((c) => c.source));
});

test("a file that is not a notebook is refused with the place and what was expected", () => {
  const refused = (text: string, message: RegExp) => assert.throws(() => parseNotebook(text), (err: Error) => err instanceof NotebookFormatError && message.test(err.message), text);
  refused("cells: []\n", /^crmnb must be 1/);
  refused("crmnb: 2\ncells: []\n", /^crmnb must be 1 .*found 2/);
  refused("crmnb: 1\ncells:\n  - kind: apex\n    source: System.debug(1);\n", /^cells\[0\]\.kind must be one of markdown, soql, sosl/);
  refused("crmnb: 1\ncells:\n  - kind: soql\n    source: SELECT Id FROM Account\n    output: { org: o, ranAt: t, rows: 1, columns: [Id], data: [[a, b]] }\n", /^cells\[0\]\.output\.data\[0\] must be a row of 1 values/);
  refused("crmnb: 1\ncells:\n  - kind: soql\n    source: SELECT Id FROM Account\n    chart: { type: bar, x: Id, values: [Id], colors: [red] }\n", /^cells\[0\]\.chart\.colors must be one of type, x, values, series, title/);
  refused("crmnb: 1\nbinds: { 'a b': 1 }\n", /^binds\.a b must be named/);
  refused("crmnb: 1\ncells: [ {kind: soql\n", /^This is not a CRM notebook/);
  assert.deepEqual(parseNotebook(""), { binds: {}, cells: [] }, "a new, empty file is an empty notebook");
});

test("a chart spec names the output's columns and as many values as its type draws", () => {
  const columns = ["Status", "Priority", "n", "m"];
  assert.deepEqual(checkChartSpec({ type: "stackedBar", x: "Status", values: ["n"], series: "Priority" }, columns), { type: "stackedBar", x: "Status", values: ["n"], series: "Priority" });
  const refused = (spec: unknown, message: RegExp) => assert.throws(() => checkChartSpec(spec, columns), (err: Error) => err instanceof ChartSpecError && message.test(err.message), JSON.stringify(spec));
  refused({ type: "bar", x: "Owner", values: ["n"] }, /^chart\.x must be one of the output's columns \(Status, Priority, n, m\)/);
  refused({ type: "pie", x: "Status", values: ["n", "m"] }, /^chart\.values must be one column and no series/);
  refused({ type: "number", x: "Status", values: ["n"] }, /^chart\.x must be absent/);
  refused({ type: "line", values: ["n"] }, /^chart\.x must be a column/);
  refused({ type: "stackedBar", x: "Status", values: ["n"] }, /^chart\.series must be a column, or two or more values/);
  refused({ type: "bar", x: "Status", values: ["n", "m"], series: "Priority" }, /^chart\.values must be one column when a series splits it/);
  refused({ type: "radar", x: "Status", values: ["n"] }, /^chart\.type must be one of bar, stackedBar/);
});

test("a plain query charted by the org's aggregate: its filter kept, its groups add up to its rows, months labelled with their year", async () => {
  const crm = await demoClient(emu());
  const statement = "SELECT Id, Subject FROM Case WHERE Status != 'Closed' ORDER BY CreatedDate DESC LIMIT 5";
  const aggregated = aggregatedStatement(statement, { type: "stackedBar", x: "CreatedDate", bucket: "CALENDAR_MONTH", series: "Status", measure: "COUNT" });
  assert.equal(aggregated.soql, "SELECT CALENDAR_YEAR(CreatedDate) year, CALENDAR_MONTH(CreatedDate) x, Status series, COUNT(Id) value FROM Case WHERE Status != 'Closed' GROUP BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate), Status ORDER BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate), Status LIMIT 2000");
  assert.deepEqual(aggregated.chart, { type: "stackedBar", x: "x", values: ["value"], series: "series" });
  const groups = (await crm.soqlQuery<Record<string, string | number>>(aggregated.soql)).records;
  const rows = (await crm.queryAll<{ Status: string; CreatedDate: string }>("SELECT Status, CreatedDate FROM Case WHERE Status != 'Closed'")).records;
  assert.ok(rows.length > 0, "the demo org has open cases");
  assert.equal(groups.reduce((sum, g) => sum + Number(g.value), 0), rows.length, "every row in one group");
  const shape = statementShape(aggregated.soql);
  assert.deepEqual(shape, { periods: [{ column: "x", year: "year", bucket: "CALENDAR_MONTH" }] });
  const output = { columns: ["year", "x", "series", "value"], data: groups.map((g) => [g.year!, g.x!, g.series!, g.value!]) };
  const months = (drawnChart(aggregated.chart, output, { colors: REPORT_COLORS, shape }).option as { xAxis: { data: string[] } }).xAxis.data;
  const seen = [...new Set(rows.map((r) => r.CreatedDate.slice(0, 7)))].sort();
  assert.deepEqual(months, seen, "one bar per month the rows fall in, labelled with its year, in order");
});

test("a single number is one aggregate, no group; a statement that groups already or reads child rows is charted as it is", () => {
  assert.equal(aggregatedStatement("SELECT Id FROM Case WHERE IsClosed = false", { type: "number", measure: "COUNT" }).soql, "SELECT COUNT(Id) value FROM Case WHERE IsClosed = FALSE");
  assert.throws(() => aggregatedStatement("SELECT Status, COUNT(Id) FROM Case GROUP BY Status", { type: "bar", x: "Status", measure: "COUNT" }), AggregationError);
  assert.throws(() => aggregatedStatement("SELECT Id, (SELECT Id FROM Contacts) FROM Account", { type: "bar", x: "Industry", measure: "COUNT" }), /reads child rows/);
  assert.throws(() => aggregatedStatement("SELECT Id FROM Case", { type: "bar", x: "Status; DELETE", measure: "COUNT" }), /x must be a field's API name/);
  assert.throws(() => aggregatedStatement("SELECT Id FROM Opportunity", { type: "bar", x: "StageName", measure: "SUM" }), /of \(the field SUM measures\) must be/);
});

test("a chart drawn from an output: categories in the org's order, one series per value or per series column, ROLLUP subtotals kept apart by GROUPING()", async () => {
  const output = {
    columns: ["Status", "Priority", "gs", "gp", "n"],
    data: [["New", "High", 0, 0, 4], ["New", null, 0, 0, 1], ["New", null, 0, 1, 5], ["Closed", "High", 0, 0, 2], ["Closed", null, 0, 1, 2], [null, null, 1, 1, 7]] as (string | number | null)[][],
  };
  const shape = statementShape("SELECT Status, Priority, GROUPING(Status) gs, GROUPING(Priority) gp, COUNT(Id) n FROM Case GROUP BY ROLLUP(Status, Priority)");
  assert.deepEqual(shape, { subtotals: { grouping: ["gs", "gp"] } });
  const stacked = drawnChart({ type: "stackedBar", x: "Status", values: ["n"], series: "Priority" }, output, { colors: REPORT_COLORS, shape });
  const option = stacked.option as { xAxis: { data: string[] }; series: { name: string; data: number[]; stack?: string }[] };
  assert.deepEqual(option.xAxis.data, ["New", "Closed"], "categories in the order the org returned them");
  assert.deepEqual(option.series.map((s) => [s.name, s.data, s.stack]), [["High", [4, 2], "total"], ["(none)", [1, 0], "total"]], "a group whose priority is empty stays a bar; the subtotals do not");
  assert.deepEqual(stacked.subtotals, ["New: 5", "Closed: 2", "Total: 7"]);
  assert.equal(drawnChart({ type: "bar", x: "Status", values: ["n"] }, output, { colors: REPORT_COLORS }).subtotals.length, 0, "no ROLLUP, no subtotals");
  assert.deepEqual(statementShape("SELECT Status, COUNT(Id) FROM Case GROUP BY Status"), {});
  assert.deepEqual(statementShape("SELECT CALENDAR_YEAR(CreatedDate), FISCAL_QUARTER(CreatedDate), FISCAL_YEAR(CreatedDate) fy, COUNT(Id) FROM Case GROUP BY CALENDAR_YEAR(CreatedDate), FISCAL_YEAR(CreatedDate), FISCAL_QUARTER(CreatedDate)"),
    { periods: [{ column: "expr1", year: "fy", bucket: "FISCAL_QUARTER" }] }, "a column without alias is named as the org names it (exprN)");
  assert.deepEqual(statementShape("not SOQL"), {});
  assert.deepEqual(statementColumns("SELECT toLabel(StageName), FORMAT(Amount) amt, COUNT(Id), Account.Industry FROM Opportunity GROUP BY StageName, Amount, Account.Industry"),
    ["StageName", "amt", "expr0", "Account.Industry", "Industry"], "toLabel keeps its field's name; a parent's field is also known by its own");

  const pie = drawnChart({ type: "donut", x: "Status", values: ["n"] }, { columns: ["Status", "n"], data: [["<b>x</b>".repeat(30), 3], ["Closed", "2"]] }, { colors: REPORT_COLORS });
  const slices = (pie.option as { series: { radius: string[]; data: { name: string; value: number }[] }[] }).series[0]!;
  assert.deepEqual(slices.radius, ["45%", "70%"]);
  assert.equal(slices.data[0]!.name.length, 80, "a long label is cut to 80 characters (the table has it whole)");
  assert.equal(slices.data[1]!.value, 2, "a number the org sent as text is a number");
  assert.deepEqual(drawnChart({ type: "number", values: ["n"], title: "Open cases" }, { columns: ["n"], data: [[12345]] }, { colors: REPORT_COLORS }).tile, { label: "Open cases", value: "12,345" });
  assert.match(drawnChart({ type: "bar", x: "Status", values: ["n"] }, { columns: ["Status", "n"], data: [["New", "many"]] }, { colors: REPORT_COLORS }).empty ?? "", /No numbers in n/);
  const scatter = drawnChart({ type: "scatter", x: "a", values: ["b"] }, { columns: ["a", "b"], data: [[1, 2], [3, null], [5, 6]] }, { colors: REPORT_COLORS });
  assert.deepEqual((scatter.option as { series: { data: number[][] }[] }).series[0]!.data, [[1, 2], [5, 6]], "a point needs both numbers");
});

test("a chart type chosen on an output gets axes that fit it: the first text column along the axis, the first column of numbers measured", () => {
  const output = { columns: ["Status", "Origin", "n", "hours"], data: [["New", "Web", 3, 1.5]] };
  assert.deepEqual(defaultSpec("bar", output), { type: "bar", x: "Status", values: ["n"] });
  assert.deepEqual(defaultSpec("stackedBar", output), { type: "stackedBar", x: "Status", values: ["n"], series: "Origin" });
  assert.deepEqual(defaultSpec("scatter", output), { type: "scatter", x: "n", values: ["hours"] });
  assert.deepEqual(defaultSpec("number", output), { type: "number", values: ["n"] });
  assert.equal(defaultSpec("bar", { columns: ["Name"], data: [["Acme"]] }), undefined, "nothing to measure");
  for (const type of CHART_TYPES) {
    const spec = defaultSpec(type, output);
    if (spec) assert.deepEqual(checkChartSpec(spec, output.columns), spec, `${type}'s default passes the chart spec's rule`);
  }
});

test("a chart as SVG with no DOM, for reports: the org's text escaped inside it", () => {
  const { option } = drawnChart({ type: "bar", x: "Name", values: ["n"] }, { columns: ["Name", "n"], data: [["<script>alert(1)</script>", 2], ["A & \"B\"", 3]] }, { colors: REPORT_COLORS });
  const svg = chartSvg(option!, { width: 600, height: 300 });
  assert.match(svg, /^<svg [^>]*width="600" height="300"/);
  assert.match(svg, /&lt;script&gt;alert\(1\)/);
  assert.match(svg, /A &amp; &quot;B&quot;/);
  assert.doesNotMatch(svg, /<script|<foreignObject/);
});
