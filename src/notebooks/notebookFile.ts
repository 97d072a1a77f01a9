/**
 * The `.crmnb` file: a CRM notebook as YAML text that reads and diffs well in git — each cell's source as a block,
 * its chart as a few keys, its last output as data (one row a line). Read as hostile input (a file from a pull
 * request): anything that is not a notebook is refused with the place and what was expected. No VS Code here.
 */
import * as l10n from "@vscode/l10n";
import { dumpYaml, parseYaml } from "../client/yaml";
import { checkChartSpec, ChartSpecError, type ChartSpec } from "./chartSpec";

export const NOTEBOOK_FORMAT = 1;

export type CellKind = "markdown" | "soql" | "sosl";
const CELL_KINDS: readonly CellKind[] = ["markdown", "soql", "sosl"];

/** A value of an output's row, as the org answered it (dates and times as their text). */
export type OutputValue = string | number | boolean | null;

/** A code cell's last run: where and when, how many rows the org has, and the first of them. */
export interface CellOutput {
  /** The org it ran on (its name in the Orgs view) and when. */
  org: string;
  ranAt: string;
  /** Rows the org has for the statement (its totalSize). */
  rows: number;
  columns: string[];
  /** The first rows, in column order. */
  data: OutputValue[][];
  /** The org's refusal, when the statement did not run. */
  error?: string;
}

export interface NotebookCell {
  kind: CellKind;
  source: string;
  chart?: ChartSpec;
  output?: CellOutput;
}

export interface Notebook {
  /** The org the notebook runs on, by its name in the Orgs view; without it, the active org. */
  org?: string;
  /** Bind variables (`:name` in a statement), defined once for the notebook. */
  binds: Record<string, string>;
  cells: NotebookCell[];
}

export class NotebookFormatError extends Error {
  override name = "NotebookFormatError";
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const BIND_NAME = /^[A-Za-z_]\w{0,79}$/;

function fail(where: string, expected: string, got: unknown): never {
  const shown = got === undefined ? l10n.t("nothing") : JSON.stringify(got)?.slice(0, 60) ?? String(got);
  throw new NotebookFormatError(l10n.t("{0} must be {1} (found {2})", where, expected, shown));
}

/** A chart spec's refusal, said as the file's. */
function asFormatError<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw err instanceof ChartSpecError ? new NotebookFormatError(err.message) : err;
  }
}

function text(value: unknown, where: string): string {
  return typeof value === "string" ? value : fail(where, l10n.t("text"), value);
}

function outputOf(value: unknown, where: string): CellOutput {
  if (!isObject(value)) fail(where, l10n.t("a mapping (org, ranAt, rows, columns, data)"), value);
  const columns = Array.isArray(value.columns) && value.columns.every((c) => typeof c === "string") ? (value.columns as string[]) : fail(`${where}.columns`, l10n.t("a list of column names"), value.columns);
  const data = Array.isArray(value.data) ? value.data : fail(`${where}.data`, l10n.t("a list of rows"), value.data);
  data.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== columns.length) fail(`${where}.data[${i}]`, l10n.t("a row of {0} values", columns.length), row);
    row.forEach((v, j) => {
      if (v !== null && !["string", "number", "boolean"].includes(typeof v)) fail(`${where}.data[${i}][${j}]`, l10n.t("text, a number, true/false or null"), v);
    });
  });
  const rows = Number.isInteger(value.rows) && (value.rows as number) >= 0 ? (value.rows as number) : fail(`${where}.rows`, l10n.t("a whole number of rows"), value.rows);
  return {
    org: text(value.org, `${where}.org`), ranAt: text(value.ranAt, `${where}.ranAt`), rows, columns, data: data as OutputValue[][],
    ...(value.error !== undefined ? { error: text(value.error, `${where}.error`) } : {}),
  };
}

/** What a notebook keeps beside its cells (VS Code's notebook metadata holds the same): its org and its binds. */
export function notebookMetadata(metadata: unknown): Pick<Notebook, "org" | "binds"> {
  const m = (isObject(metadata) ? metadata : {}) as { org?: unknown; binds?: unknown };
  return { ...(typeof m.org === "string" && m.org ? { org: m.org } : {}), binds: isObject(m.binds) ? (m.binds as Record<string, string>) : {} };
}

/** A code cell's kind from its language (a cell of another language runs as SOQL). */
export const codeKind = (languageId: string): Exclude<CellKind, "markdown"> => (languageId === "sosl" ? "sosl" : "soql");

/** A notebook from its file's text; NotebookFormatError names the place that is not as a notebook's. */
export function parseNotebook(source: string): Notebook {
  if (!source.trim()) return { binds: {}, cells: [] };
  let doc: unknown;
  try {
    doc = parseYaml(source, { plainData: true, core: true });
  } catch (err) {
    throw new NotebookFormatError(l10n.t("This is not a CRM notebook: {0}", (err as Error).message.split("\n")[0]!));
  }
  if (!isObject(doc)) fail("A CRM notebook", l10n.t("a mapping with crmnb and cells"), doc);
  if (doc.crmnb !== NOTEBOOK_FORMAT) fail("crmnb", l10n.t("{0} (the notebook format this version reads)", NOTEBOOK_FORMAT), doc.crmnb);
  const binds: Record<string, string> = {};
  if (doc.binds !== undefined) {
    if (!isObject(doc.binds)) fail("binds", l10n.t("a mapping of names to values"), doc.binds);
    for (const [name, value] of Object.entries(doc.binds)) {
      if (!BIND_NAME.test(name)) fail(`binds.${name}`, l10n.t("named with letters, digits and _"), name);
      binds[name] = typeof value === "number" || typeof value === "boolean" ? String(value) : text(value, `binds.${name}`);
    }
  }
  const cells = doc.cells === undefined ? [] : Array.isArray(doc.cells) ? doc.cells : fail("cells", l10n.t("a list of cells"), doc.cells);
  return {
    ...(doc.org !== undefined ? { org: text(doc.org, "org") } : {}),
    binds,
    cells: cells.map((cell: unknown, i) => {
      const where = `cells[${i}]`;
      if (!isObject(cell)) fail(where, l10n.t("a mapping (kind, source)"), cell);
      const kind = CELL_KINDS.includes(cell.kind as CellKind) ? (cell.kind as CellKind) : fail(`${where}.kind`, l10n.t("one of {0}", CELL_KINDS.join(", ")), cell.kind);
      const output = cell.output === undefined ? undefined : outputOf(cell.output, `${where}.output`);
      const chart = cell.chart === undefined ? undefined : asFormatError(() => checkChartSpec(cell.chart, output?.columns, `${where}.chart`));
      return { kind, source: cell.source === undefined ? "" : text(cell.source, `${where}.source`), ...(chart ? { chart } : {}), ...(output ? { output } : {}) };
    }),
  };
}

/**
 * The file's text: stable key order, each source a block, each output row one line. `stripOutputs` leaves the
 * outputs out (charts stay: they are the question's, not the answer's).
 */
export function serializeNotebook(notebook: Notebook, options: { stripOutputs?: boolean } = {}): string {
  const doc = {
    crmnb: NOTEBOOK_FORMAT,
    ...(notebook.org ? { org: notebook.org } : {}),
    ...(Object.keys(notebook.binds).length ? { binds: notebook.binds } : {}),
    cells: notebook.cells.map((c) => ({
      kind: c.kind,
      source: c.source,
      ...(c.chart ? { chart: c.chart } : {}),
      ...(c.output && !options.stripOutputs ? { output: c.output } : {}),
    })),
  };
  // Flow style from the rows down (cells → cell → output → data → row): a row is one line of the file.
  return dumpYaml(doc, { core: true, flowLevel: 5 });
}
