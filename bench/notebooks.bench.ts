/**
 * `npm run bench:notebooks`: CRM notebooks against the issue's goals, in a real VS Code (code-server) where the
 * goal is a person's wait, in plain Node where it is the file.
 * - A chart of a million-row object (Tasks by status per month, the `large` seed): from a click on the cell's
 *   Run to the chart drawn in its output, through the org's aggregate (goal < 3 s).
 * - A notebook of 20 cells with their outputs: from choosing it in Go to File to its first output drawn (goal < 1 s).
 * - Re-running a saved notebook on the same data: the file byte for byte (goal: identical but for each output's
 *   time of run), and its parse in Node.
 * Writes bench/results/notebooks.json and the notebooks figures block.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { recordResults } from "./readme";
import { Crm } from "../src/client";
import { startEmulator, type Emulator } from "../src/demo-org";
import { aggregatedStatement } from "../src/notebooks/aggregation";
import { parseNotebook, serializeNotebook, type Notebook } from "../src/notebooks/notebookFile";
import { runCell } from "../src/notebooks/runCell";
import { ensureHost, openWorkbench, startCodeServer } from "../test/host/harness";
import { Driver } from "../test/host/workbench";

const ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The question of the goal: Tasks by status per month, as Chart All Rows writes it. */
const TASKS = aggregatedStatement("SELECT Id FROM Task", { type: "stackedBar", x: "CreatedDate", bucket: "CALENDAR_MONTH", series: "Status", measure: "COUNT" });

/** Twenty cells: ten questions, each with its note and a saved output of 50 rows; every other one charted. */
function twentyCells(): Notebook {
  const data = Array.from({ length: 50 }, (_, i) => [`Group ${i + 1}`, i % 7, (i * 37) % 101, `2026-${String((i % 12) + 1).padStart(2, "0")}`]);
  return {
    binds: {},
    cells: Array.from({ length: 10 }, (_, q) => [
      { kind: "markdown" as const, source: `## Question ${q + 1}\nWhat the team asks every week.` },
      {
        kind: "soql" as const,
        source: `SELECT Name, Priority__c p, Amount__c n, Month__c m FROM Thing${q}__c`,
        ...(q % 2 ? { chart: { type: "bar" as const, x: "Name", values: ["n"] } } : {}),
        output: { org: "Demo org", ranAt: "2026-11-27T10:00:00.000Z", rows: 50, columns: ["Name", "p", "n", "m"], data },
      },
    ]).flat(),
  };
}

async function inTheHost(large: Emulator) {
  const host = ensureHost();
  if (!host.ok) throw new Error(`the host cannot be set up: ${host.reason}`);
  execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "inherit" });
  const workspace = mkdtempSync("/tmp/crmw-");
  writeFileSync(path.join(workspace, "tasks.crmnb"), serializeNotebook({ binds: {}, cells: [{ kind: "soql", source: TASKS.soql, chart: TASKS.chart }] }));
  writeFileSync(path.join(workspace, "twenty.crmnb"), serializeNotebook(twentyCells()));
  // The same shape in VS Code's own Jupyter notebook, text outputs only: what opening a notebook costs without us.
  const jupyter = Array.from({ length: 20 }, (_, i) => (i % 2
    ? { cell_type: "code", execution_count: i, metadata: {}, source: ["print(1)"], outputs: [{ output_type: "stream", name: "stdout", text: [`Plain output ${i}\n`] }] }
    : { cell_type: "markdown", metadata: {}, source: [`## Question ${i}`] }));
  writeFileSync(path.join(workspace, "twenty.ipynb"), JSON.stringify({ cells: jupyter, metadata: {}, nbformat: 4, nbformat_minor: 5 }));
  const server = await startCodeServer(host.codeServer!, { workspace });
  const workbench = await openWorkbench(server, { extensionPath: process.cwd() });
  const page = workbench.page;
  const ui = new Driver(page);
  try {
    await ui.addDemoOrg(large.url);
    /** Go to File's Enter on `file` to `drawn` (an output shown), then closed: the milliseconds, and to the notebook editor's cells. */
    const opening = async (file: string, drawn: () => Promise<unknown>) => {
      await ui.runCommand("Go to File...");
      const input = page.locator(".quick-input-widget:visible .quick-input-box input");
      await ui.eventually("Go to File", async () => (await input.isVisible()) && !(await input.inputValue()).startsWith(">"));
      await input.fill(file);
      // Its row clicked: Enter would open the focused row, the file opened last (Go to File lists recent files first).
      const row = page.locator(".quick-input-widget:visible .monaco-list-row", { hasText: file }).first();
      await row.waitFor();
      const started = Date.now();
      await row.click();
      await page.locator(".notebook-editor .cell-list-container").waitFor({ timeout: 30_000 });
      const editor = Date.now() - started;
      await drawn();
      const output = Date.now() - started;
      await ui.runCommand("View: Close Editor");
      await page.locator(".notebook-editor").waitFor({ state: "detached", timeout: 15_000 });
      return { editor, output };
    };
    const openMs: number[] = [];
    const editorMs: number[] = [];
    const jupyterMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const ours = await opening("twenty.crmnb", () => ui.notebookOutput("Demo org · 50 rows", 30_000)).catch(async (err) => {
        await ui.screenshot("bench-notebook-open");
        throw err;
      });
      openMs.push(ours.output);
      editorMs.push(ours.editor);
      const theirs = await opening("twenty.ipynb", () => ui.eventually("a plain output", async () => {
        for (const frame of page.frames()) if (await frame.getByText("Plain output 1").count().catch(() => 0)) return true;
        return false;
      }, 30_000)).catch(async (err) => {
        await ui.screenshot("bench-jupyter-open");
        throw err;
      });
      jupyterMs.push(theirs.output);
    }

    // A million Tasks by status per month: the cell's Run to the chart drawn.
    await ui.openFile("tasks.crmnb");
    const run = page.locator(".notebook-editor .code-cell-row").first().locator(".run-button-container .action-label").first();
    await run.waitFor({ timeout: 30_000 });
    // The notebook's kernel chosen first (VS Code may ask on a first run), so no sample counts a person's pick.
    await ui.runCommand("Notebook: Select Notebook Kernel");
    const kernel = page.locator(".quick-input-widget:visible .monaco-list-row", { hasText: /CRM/ }).first();
    if (await kernel.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await kernel.click();
    const chartMs: number[] = [];
    let lastMeta = "";
    for (let i = 0; i < ROUNDS; i++) {
      const runs = large.requests.filter((r) => r.path.endsWith("/query")).length;
      const started = Date.now();
      await run.click();
      await ui.eventually("the aggregate sent", () => large.requests.filter((r) => r.path.endsWith("/query")).length > runs, 30_000);
      const output = await ui.notebookOutput(/Demo org · \d+ rows/, 30_000);
      await ui.eventually("a new chart", async () => (await output.locator(".chart svg").count()) > 0 && (await output.locator(".meta").first().innerText()) !== (i ? lastMeta : ""), 30_000);
      chartMs.push(Date.now() - started);
      lastMeta = await output.locator(".meta").first().innerText();
    }
    return { openMs, editorMs, jupyterMs, chartMs, groups: Number(/· (\d+) rows?/.exec(lastMeta)?.[1]) };
  } finally {
    await workbench.close();
    await server.stop();
  }
}

/** The example notebook run twice on the demo org: the two files compared byte for byte. */
async function reruns() {
  const demo = await startEmulator({ port: 0, seed: "demo" });
  try {
    const c = demo.credentials;
    const crm = await Crm.create({ connectionInfo: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } });
    const { readFileSync } = await import("node:fs");
    const notebook = parseNotebook(readFileSync("examples/org-questions.crmnb", "utf8"));
    const run = async () => serializeNotebook({ ...notebook, cells: await Promise.all(notebook.cells.map(async (cell) => (cell.kind === "markdown" ? cell : { ...cell, output: await runCell(crm, cell, notebook.binds, { org: "Demo org" }) }))) });
    const first = await run();
    const second = await run();
    crm.close();
    const a = first.split("\n");
    const b = second.split("\n");
    const differing = a.filter((line, i) => line !== b[i]);
    const outputs = notebook.cells.filter((cell) => cell.kind !== "markdown").length;
    const parseStarted = performance.now();
    for (let i = 0; i < 20; i++) parseNotebook(serializeNotebook(twentyCells()));
    return { bytes: first.length, identical: first === second, differingLines: differing.length, onlyRanAt: differing.every((l) => /^\s*ranAt: /.test(l)), outputs, twentyCellParseMs: (performance.now() - parseStarted) / 20 };
  } finally {
    await demo.close();
  }
}

async function main() {
  const files = await reruns();
  const large = await startEmulator({ port: 0, seed: "large" });
  let host: { openMs: number[]; editorMs: number[]; jupyterMs: number[]; chartMs: number[]; groups: number };
  try {
    host = await inTheHost(large);
  } finally {
    await large.close();
  }
  const chart = median(host.chartMs);
  const open = median(host.openMs);
  const result = { date: new Date().toISOString(), statement: TASKS.soql, chartMs: host.chartMs, openMs: host.openMs, editorMs: host.editorMs, jupyterMs: host.jupyterMs, files };
  const met = (ok: boolean) => (ok ? "met" : "not met");
  const body = `Written by \`npm run bench:notebooks\` (${result.date}), in code-server (VS Code 1.100) on the emulator, ${ROUNDS} rounds each, medians:

| Goal | Measured | |
|---|---:|---|
| A chart of a 1,000,000-row object appears < 3 s after Run (Tasks by status per month, aggregated by the org) | ${(chart / 1000).toFixed(2)} s | ${met(chart < 3000)} |
| A notebook of 20 cells opens (Go to File to its first output drawn) < 1 s | ${(open / 1000).toFixed(2)} s (VS Code's own Jupyter notebook of 20 cells with text outputs, same machine and run: ${(median(host.jupyterMs) / 1000).toFixed(2)} s) | ${met(open < 1000)} |
| Re-running a saved notebook on the same data yields the same file, but for each output's time of run | ${files.differingLines} of ${files.bytes.toLocaleString("en")} bytes' lines differ, ${files.onlyRanAt ? "each a ranAt" : "not only ranAt"} (${files.outputs} outputs) | ${met(files.onlyRanAt && files.differingLines <= files.outputs)} |

Runs: chart ${host.chartMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")}; open ${host.openMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")}, of which VS Code's notebook editor showing its cells (before any output) ${host.editorMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")}. The chart's statement, as **Chart All Rows** writes it: \`${TASKS.soql}\` — the org scans the million rows and answers ${host.groups} groups; nothing but the groups crosses the network. Parsing the 20-cell file in Node takes ${files.twentyCellParseMs.toFixed(1)} ms. The VSIX (with the chart library in the renderer and the report) is in the bundle figures above.`;
  recordResults("notebooks", result, "CRM notebooks", body);
  console.log(body);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
