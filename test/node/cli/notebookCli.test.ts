/**
 * `crm-data notebook run`: a notebook re-run on the org and written as a report — Markdown, a self-contained HTML
 * page, JSON — in which a hostile value from the org is text; exit 1 when the org refuses a statement, 2 when the
 * file is not a notebook.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runDataCli } from "../../../src/cli/dataCli";
import { useEmulator } from "../../helpers/emulator";

const emu = useEmulator();
const dir = mkdtempSync(path.join(tmpdir(), "crm-notebook-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function helper(): string {
  const c = emu().credentials;
  const file = path.join(dir, "org.json");
  writeFileSync(file, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }));
  return file;
}

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDataCli({ argv, env: {}, cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const HOSTILE = `<img src=x onerror=alert(1)> | **bold** \u202Egnp.exe`;

test("a notebook re-run as a Markdown report, an HTML page and JSON: the org's rows, each value as text", async () => {
  const account = emu().seeded.store.insert("Account", { Name: HOSTILE }, emu().seeded.adminId);
  writeFileSync(path.join(dir, "accounts.crmnb"), [
    "crmnb: 1", "binds:", `  id: ${account.Id}`, "cells:",
    "  - kind: markdown", "    source: '# The account'",
    "  - kind: soql", "    source: SELECT Name FROM Account WHERE Id = :id", "",
  ].join("\n"));
  const md = await cli(["notebook", "run", "accounts.crmnb", "--org", helper()]);
  assert.equal(md.code, 0, md.err);
  assert.match(md.out, /^# The account$/m);
  assert.match(md.out, /^```sql\nSELECT Name FROM Account WHERE Id = :id\n```$/m);
  assert.match(md.out, /^\| \\<img src=x onerror=alert\\\(1\\\)\\> \\\| \\\*\\\*bold\\\*\\\* \\u202egnp\\\.exe \|$/m, "markup, pipes and a bidi override shown as text");

  const html = await cli(["notebook", "run", "accounts.crmnb", "--org", helper(), "--format", "html", "--out", "report.html"]);
  assert.equal(html.code, 0, html.err);
  const page = readFileSync(path.join(dir, "report.html"), "utf8");
  assert.match(page, /<td>&#60;img src=x onerror=alert\(1\)&#62; \| \*\*bold\*\* \\u202egnp\.exe<\/td>/);
  assert.doesNotMatch(page, /<script|<img/, "no script and no markup from the org");
  assert.match(page, /Content-Security-Policy" content="default-src 'none'/);

  const json = JSON.parse((await cli(["notebook", "run", "accounts.crmnb", "--org", helper(), "--format", "json"])).out) as { cells: { output?: { rows: number; data: unknown[][] } }[] };
  assert.deepEqual(json.cells[1]!.output!.data, [[HOSTILE]]);
});

test("the HTML report draws each cell's chart as SVG from the re-run rows (no script), a single number as a tile", async () => {
  for (const n of [1, 2]) emu().seeded.store.insert("Account", { Name: `Charted ${n}`, Industry: HOSTILE }, emu().seeded.adminId);
  writeFileSync(path.join(dir, "charts.crmnb"), [
    "crmnb: 1", "cells:",
    "  - kind: soql", "    source: SELECT Industry, COUNT(Id) n FROM Account WHERE Industry != null GROUP BY Industry",
    "    chart: { type: bar, x: Industry, values: [n], title: Accounts by industry }",
    "  - kind: soql", "    source: SELECT COUNT(Id) n FROM Account",
    "    chart: { type: number, values: [n], title: Accounts }", "",
  ].join("\n"));
  const run = await cli(["notebook", "run", "charts.crmnb", "--org", helper(), "--format", "html", "--out", "charts.html"]);
  assert.equal(run.code, 0, run.err);
  const page = readFileSync(path.join(dir, "charts.html"), "utf8");
  assert.equal(page.match(/<svg /g)?.length, 1, "one chart drawn");
  assert.match(page, /<figure role="img" aria-label="bar chart of n by Industry"><svg /);
  assert.match(page, /<text [^>]*>&lt;img src=x on[^<]*<\/text>/, "the hostile industry is SVG text (cut to its label's width)");
  assert.doesNotMatch(page, /<script|<img|<foreignObject/);
  const accounts = emu().seeded.store.liveRecords("Account").length;
  assert.match(page, new RegExp(`<p class="tile">${accounts.toLocaleString("en-US")}</p><figcaption>Accounts</figcaption>`));
});

test("a statement the org refuses: the report says why and the exit code is 1; a file that is not a notebook: exit 2", async () => {
  writeFileSync(path.join(dir, "bad.crmnb"), "crmnb: 1\ncells:\n  - kind: soql\n    source: SELECT Nope FROM Account\n");
  const refused = await cli(["notebook", "run", "bad.crmnb", "--org", helper()]);
  assert.equal(refused.code, 1);
  assert.match(refused.out, /No such column 'Nope'|INVALID_FIELD/);
  assert.match(refused.err, /the org refused 1 of the notebook's 1 statements/);
  writeFileSync(path.join(dir, "not.crmnb"), "crmnb: 1\ncells:\n  - kind: apex\n");
  const notNotebook = await cli(["notebook", "run", "not.crmnb", "--org", helper()]);
  assert.equal(notNotebook.code, 2);
  assert.match(notNotebook.err, /cells\[0\]\.kind must be one of markdown, soql, sosl/);
  assert.equal((await cli(["notebook", "open", "not.crmnb"])).code, 2, "only 'run'");
  writeFileSync(path.join(dir, "ok.crmnb"), "crmnb: 1\ncells: []\n");
  const noOrg = await cli(["notebook", "run", "ok.crmnb"]);
  assert.equal(noOrg.code, 2);
  assert.match(noOrg.err, /needs an org: --org <helper>[\s\S]*\n {2}--org <helper> +a helper file/);
});

test("the example notebook (a knowledge manager's and an admin's questions) runs on the demo org: every statement answered", async () => {
  const run = await cli(["notebook", "run", path.resolve(__dirname, "../../../examples/org-questions.crmnb"), "--org", helper(), "--format", "json"]);
  assert.equal(run.code, 0, run.err);
  const cells = (JSON.parse(run.out) as { cells: { kind: string; output?: { rows: number; error?: string } }[] }).cells.filter((c) => c.kind !== "markdown");
  assert.equal(cells.length, 6);
  for (const cell of cells) assert.ok(cell.output && !cell.output.error && cell.output.rows > 0, JSON.stringify(cell.output));
  // Its report draws every chart: a pie, bars, months as a line (labelled with their year), stacked bars with the
  // ROLLUP's subtotals set apart, and a single number.
  const html = await cli(["notebook", "run", path.resolve(__dirname, "../../../examples/org-questions.crmnb"), "--org", helper(), "--format", "html", "--out", "questions.html"]);
  assert.equal(html.code, 0, html.err);
  const page = readFileSync(path.join(dir, "questions.html"), "utf8");
  assert.equal(page.match(/<svg /g)?.length, 4);
  assert.match(page, /<text [^>]*>20\d\d-\d\d<\/text>/, "a month on the axis with its year");
  assert.match(page, /<p class="meta">Subtotals: [^<]*Total: \d+<\/p>/);
  assert.match(page, /<p class="tile">\d+<\/p><figcaption>Drafts<\/figcaption>/);
});
