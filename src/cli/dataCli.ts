/**
 * `crm-data`: moving records between orgs from plain Node — a migration plan's dry run (the default), its run
 * (`--apply`, through the production guard), a resumed run and a revert, on the client's own migration module.
 * Exit codes: 0 clean, 1 a row refused or failed (or a run that did not complete), 2 bad usage or no access.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { copyFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Crm } from "../client";
import * as migration from "../workflows/migration";
import { formatReport, type MigrationReport, type MigrationRun, type RevertResult } from "../workflows/migration";
import { MigrationPlanError, parsePlan, type MigrationPlan } from "../workflows/migrationPlan";
import { runEntry } from "../client/writeRecord";
import { CREDENTIALS_HELP, credentialOptions, signIn } from "./credentials";
import { EXIT, UsageError, commandOf, flag, oneOf, parseArgs, value, type CliContext, type ParsedArgs } from "./usage";
import { inline, textLines } from "./output";
import { insertedIdsFileOf, signedRunText, verifiedRun } from "./runFiles";
import { guardedWrites } from "./writeSafety";
import { NotebookFormatError, parseNotebook } from "../notebooks/notebookFile";
import { runCell } from "../notebooks/runCell";
import { notebookReport, REPORT_FORMATS } from "../notebooks/notebookReport";

const FORMATS = ["text", "json"] as const;
type Format = (typeof FORMATS)[number];

const COMMANDS = {
  migrate: { flags: ["apply", "allow-production"], values: ["plan", "from", "to", "resume", "run", "journal", "format", "bulk-threshold"] },
  revert: { flags: ["allow-production"], values: ["run", "to", "journal", "format"] },
  notebook: { flags: [], values: ["org", "out", "format"] },
} as const;

export const USAGE = `Usage: crm-data <command> [options]

  migrate --plan <file.migration.yaml> --from <helper> --to <helper> [--apply] [--allow-production]
          [--resume <run file>] [--run <run file>] [--journal <file>] [--bulk-threshold <rows>]
                       a dry run by default (both orgs read, nothing written); --apply runs it, keeping the
                       run's record in --run (by default beside the plan) to resume or revert; a production
                       target only with --allow-production
  revert --run <run file> --to <helper> [--allow-production] [--journal <file>]
                       deletes what the run inserted and restores what it updated (records changed since are named, left as they are)
  notebook run <file.crmnb> [--org <helper>] [--out <report>] [--format md|html|json]
                       runs the notebook's SOQL and SOSL cells on the org (reads only) and writes a report:
                       Markdown by default, a self-contained HTML page (no script) or JSON; to stdout without --out

migrate and revert: --format text|json. --from, --to and --org are helper files (JSON or YAML: { connection: { … } }).
${CREDENTIALS_HELP.replace(/^Credentials \(one of\):/, "Credentials of the target, when --to (or --org) is not given (one of):").split("\n").filter((line) => !line.includes("--helper")).join("\n")}

Exit codes: 0 clean, 1 a row refused or failed (or a run not complete), 2 bad usage or no access.`;

export async function runDataCli(ctx: CliContext): Promise<number> {
  const named = commandOf(ctx, "crm-data", COMMANDS, USAGE);
  if (typeof named === "number") return named;
  const { command, rest } = named;
  const opened: Crm[] = [];
  try {
    const spec = COMMANDS[command];
    const args = parseArgs(rest, { flags: [...spec.flags], values: [...spec.values] }, command);
    if (command === "notebook") return await runNotebook(ctx, args, (crm) => opened.push(crm));
    if (args.positional.length) throw new UsageError(`takes no positional argument (got '${args.positional[0]}')`);
    const tool = new Tool(ctx, args, oneOf(args, "format", FORMATS, "text"), (crm) => opened.push(crm));
    return await tool[command]();
  } catch (err) {
    // A plan, a notebook or a run's file that cannot be taken as written is bad usage, like a wrong option: it names its place, and nothing was sent.
    if (err instanceof UsageError || err instanceof MigrationPlanError || err instanceof NotebookFormatError || err instanceof migration.InsertedIdsError) {
      ctx.err(textLines(`crm-data ${command}: ${err.message}`));
      return EXIT.usage;
    }
    const message = opened.reduce((e, crm) => crm.redact(e), err as Error).message;
    ctx.err(textLines(`crm-data ${command}: ${message}`));
    return EXIT.findings;
  } finally {
    for (const crm of opened) crm.close();
  }
}

class Tool {
  constructor(private readonly ctx: CliContext, private readonly args: ParsedArgs, private readonly format: Format, private readonly opened: (crm: Crm) => void) {}

  /** A line of the tool's own to stdout, through the text channel's encoder. */
  private say(text: string): void {
    this.ctx.out(textLines(text));
  }

  private resolve(file: string): string {
    return path.resolve(this.ctx.cwd, file);
  }

  private required(name: string, what: string): string {
    const given = value(this.args, name);
    if (!given) throw new UsageError(`needs --${name} <${what}>`);
    return given;
  }

  private async connect(helper: string | undefined, extra?: Parameters<typeof signIn>[2]): Promise<Crm> {
    const crm = await signIn(helper, this.ctx, extra);
    this.opened(crm);
    return crm;
  }

  /** The plan's text, checked first so that a mistake is bad usage (exit code 2) before any sign-in. */
  private readPlan(file: string): { text: string; plan: MigrationPlan } {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      throw new UsageError(`--plan names ${file}, which cannot be read`);
    }
    try {
      return { text, plan: parsePlan(text, { filename: path.basename(file) }) };
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }

  private readRun(file: string, option: string): MigrationRun {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new UsageError(`--${option} names ${file}, which is not a run's record that can be read (${(err as Error).message})`);
    }
    return verifiedRun(text, this.ctx.env, file, option);
  }

  private guarded(tool: string) {
    return guardedWrites({ allowProduction: flag(this.args, "allow-production"), tool });
  }

  /** One journal line for the whole run or revert (the run's record holds every record it names). */
  private journal(line: Record<string, unknown>): void {
    const file = value(this.args, "journal");
    if (file) appendFileSync(this.resolve(file), `${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
  }

  async migrate(): Promise<number> {
    const planFile = this.resolve(this.required("plan", "file.migration.yaml"));
    const { text, plan } = this.readPlan(planFile);
    const apply = flag(this.args, "apply");
    const threshold = value(this.args, "bulk-threshold");
    if (threshold !== undefined && !/^\d+$/.test(threshold)) throw new UsageError(`--bulk-threshold takes a whole number of rows, got '${threshold}'`);
    const resume = value(this.args, "resume");
    if (resume && !apply) throw new UsageError("--resume goes on with a run: give --apply too");
    const previous = resume ? this.readRun(this.resolve(resume), "resume") : undefined;
    // Resuming is asked again when unsure whether the last attempt finished: a finished run is the answer, not a mistake.
    if (previous?.state === "complete") {
      this.say(`Run ${previous.id} is complete: there is nothing to resume. Revert it: crm-data revert --run ${this.resolve(resume!)} --to <helper>`);
      return EXIT.clean;
    }
    const safety = this.guarded("crm-data migrate");
    const source = await this.connect(this.required("from", "helper file of the source org"));
    const target = await this.connect(value(this.args, "to"), safety.clientOptions);
    safety.watch(target);
    const options = { ...(threshold ? { bulkThreshold: Number(threshold) } : {}) };
    const report = await migration.dryRun(source, text, target, options);
    if (!apply) {
      if (this.format === "json") this.say(JSON.stringify(report, null, 2));
      else this.say(formatReport(report, { from: plan.from, to: plan.to }));
      return report.objects.some((o) => o.refused) ? EXIT.findings : EXIT.clean;
    }
    const runFile = this.resolve(value(this.args, "run") ?? resume ?? planFile.replace(/(\.migration)?\.ya?ml$/i, "") + `.run-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    const keep = async (run: MigrationRun) => {
      await writeFile(`${runFile}.tmp`, signedRunText(run, this.ctx.env), { mode: 0o600 });
      await rename(`${runFile}.tmp`, runFile);
    };
    // A run resumed into another record file takes its file of inserted IDs along (a record of an earlier version has none).
    const resumedFrom = resume && this.resolve(resume);
    if (previous?.insertedIds?.bytes && resumedFrom !== runFile) {
      const from = insertedIdsFileOf(resumedFrom!);
      await copyFile(from, insertedIdsFileOf(runFile)).catch(() => {
        throw new UsageError(`--resume names ${resumedFrom}, whose file of inserted IDs ${from} cannot be read: keep it beside the record. Nothing was written`);
      });
    }
    const run = await migration.run(source, text, target, { ...options, report, onRecord: keep, insertedIdsFile: insertedIdsFileOf(runFile), ...(previous ? { resume: previous } : {}) });
    this.journal({ tool: "crm-data migrate", org: target.orgId, instanceUrl: target.instanceUrl, ...(await migration.runJournalEntry(run, `migrate: ${runCounts(run)}`)), migration: { runId: run.id, plan: planFile, runFile, state: run.state } });
    if (this.format === "json") this.say(JSON.stringify({ runFile, ...run }, null, 2));
    else this.printRun(run, runFile, report);
    const failed = run.objects.some((o) => o.failed) || run.state !== "complete";
    return failed ? EXIT.findings : EXIT.clean;
  }

  /** A list of at most LISTED lines, indented, then how many more and where they all are. */
  private sayCapped(lines: string[], whereAll: string, total = lines.length): void {
    for (const line of lines.slice(0, LISTED)) this.say(`  ${line}`);
    if (total > LISTED) this.say(`  … and ${total - LISTED} more (${whereAll})`);
  }

  private printRun(run: MigrationRun, runFile: string, report: MigrationReport): void {
    for (const o of run.objects) {
      this.say(`${o.object}: ${o.inserted} inserted, ${o.updated.length} updated, ${o.unchanged} unchanged, ${o.failed} failed${o.via.length ? ` (${o.via.join(" and ")})` : ""}`);
      this.sayCapped(o.failures.map((f) => `${inline(f.sourceId)}: ${inline(f.message)}`), "all in the run's record", o.failed);
    }
    const pending = report.objects.filter((o) => !run.objects.some((r) => r.object === o.object)).map((o) => o.object);
    const state = run.state === "complete" ? "Run complete" : run.state === "cancelled" ? "Run cancelled" : `Run failed: ${run.error ?? ""}`;
    this.say(`${state}${pending.length ? ` before ${pending.join(", ")}` : ""}; ${run.requests} requests to the target. Its record: ${runFile}`);
    if (run.state !== "complete") this.say(`Resume it: crm-data migrate … --apply --resume ${runFile}`);
    this.say(`Revert it: crm-data revert --run ${runFile} --to <helper>`);
  }

  async revert(): Promise<number> {
    const runFile = this.resolve(this.required("run", "run file"));
    const run = this.readRun(runFile, "run");
    const safety = this.guarded("crm-data revert");
    const target = await this.connect(value(this.args, "to"), safety.clientOptions);
    safety.watch(target);
    const result: RevertResult = await migration.revert(target, run, { insertedIdsFile: insertedIdsFileOf(runFile) });
    const summary = `revert the migration of ${run.startedAt}: ${result.deleted} deleted, ${result.restored} restored, ${result.conflicts.length} left as changed since, ${result.failures.length} refused`;
    this.journal({ tool: "crm-data revert", org: target.orgId, instanceUrl: target.instanceUrl, ...runEntry(run, summary, { revert: true }), migration: { runId: run.id, runFile } });
    if (this.format === "json") this.say(JSON.stringify(result, null, 2));
    else {
      const nothingLeft = !result.deleted && !result.restored && !result.conflicts.length && !result.failures.length && !result.unknown.length;
      if (nothingLeft && result.alreadyReverted) this.say(`Run ${run.id} is already reverted: its ${result.alreadyReverted} records are as they were before it.`);
      else this.say(`Reverted run ${run.id}: ${result.deleted} deleted, ${result.restored} restored${result.alreadyReverted ? ` (${result.alreadyReverted} were already as before)` : ""}.`);
      const { inserted, updated } = result.reconciled;
      if (inserted || updated) this.say(`Of these, ${inserted} inserted and ${updated} updated records were found in the org from a chunk the run never heard back about.`);
      this.sayCapped(result.unknown.map((u) => `${inline(u)}: may be left in the target`), "--format json lists them all");
      this.sayCapped(result.conflicts.map((c) => `${inline(c.object)} ${inline(c.id)} ${c.why ?? `changed since the run${c.fields.length ? ` (${c.fields.join(", ")})` : " (deleted)"}`}: left as it is`), "--format json lists them all");
      this.sayCapped(result.failures.map((f) => `${inline(f.object)} ${inline(f.id)}: ${inline(f.message)}`), "--format json lists them all");
    }
    return result.conflicts.length || result.failures.length || result.unknown.length ? EXIT.findings : EXIT.clean;
  }
}

/** How many refused rows, conflicts or failures a text report lists before it counts the rest. */
const LISTED = 20;

const runCounts = (run: MigrationRun) => run.objects.map((o) => `${o.object}: ${o.inserted} inserted, ${o.updated.length} updated, ${o.failed} failed`).join("; ");


/**
 * `crm-data notebook run <file.crmnb>`: each SOQL and SOSL cell run on the org, one after another, and the notebook
 * with its fresh outputs written as a report. Exit 1 when the org refused a cell's statement (the report says
 * which and why), 2 when the file is not a notebook.
 */
async function runNotebook(ctx: CliContext, args: ParsedArgs, opened: (crm: Crm) => void): Promise<number> {
  const [verb, file, ...extra] = args.positional;
  if (verb !== "run" || !file || extra.length) throw new UsageError("takes 'run <file.crmnb>'");
  const format = oneOf(args, "format", REPORT_FORMATS, "md");
  const source = path.resolve(ctx.cwd, file);
  let text: string;
  try {
    text = readFileSync(source, "utf8");
  } catch {
    throw new UsageError(`${file} cannot be read`);
  }
  const notebook = parseNotebook(text);
  if (!(await credentialOptions(value(args, "org"), ctx))) throw new UsageError(`needs an org: --org <helper>, or credentials in the environment.\n${CREDENTIALS_HELP.replace("--helper <file> ", "--org <helper>  ")}`);
  const crm = await signIn(value(args, "org"), ctx);
  opened(crm);
  const org = notebook.org ?? new URL(crm.instanceUrl!).host;
  const cells = [];
  for (const cell of notebook.cells) cells.push(cell.kind === "markdown" ? cell : { ...cell, output: await runCell(crm, cell, notebook.binds, { org }) });
  // Through the text channel's encoder, in a file too: a value's control or bidi characters show as escapes.
  const report = textLines(notebookReport({ ...notebook, cells }, format, path.basename(file, path.extname(file))));
  const out = value(args, "out");
  if (out) await writeFile(path.resolve(ctx.cwd, out), report);
  else ctx.out(report.trimEnd());
  const refused = cells.filter((c) => c.output?.error).length;
  if (refused) ctx.err(textLines(`crm-data notebook: the org refused ${refused} of the notebook's ${cells.filter((c) => c.output).length} statements (the report says why)`));
  return refused ? EXIT.findings : EXIT.clean;
}
