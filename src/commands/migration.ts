/**
 * Moving data between orgs by a `*.migration.yaml` plan: Dry Run (a CodeLens, the Explorer's menu, the palette)
 * opens the report beside the plan; Run asks once — the production guard with the whole run's summary, or a
 * confirmation for any other org — writes with progress and Cancel, keeps the run's record in the extension's
 * storage after every chunk (an interrupted run is resumed, never duplicated), and records the whole run as one
 * entry of the write history, from which Revert takes it back.
 */
import { mkdir, readFile, readdir } from "node:fs/promises";
import { writeWhole } from "../connections/wholeFile";
import path from "node:path";
import * as vscode from "vscode";
import type { MigrationReport, MigrationRun, RevertResult } from "../workflows/migration";
import { runEntry } from "../client/writeRecord";
import { MigrationPlanError } from "../workflows/migrationPlan";
import type { OrgManager } from "../connections/orgManager";
import type { OrgRecord } from "../connections/orgRegistry";
import type { OrgSession } from "../connections/orgSession";
import { guardsWrites } from "../connections/writeGuard";
import type { JournalEntry, WriteJournal } from "../connections/writeJournal";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { formatCount, formatTime } from "../platform/numbers";
import { withCancellableProgress } from "../platform/progress";
import type { CommandId } from "./commandIds";
import { PLAN_PATTERN, type MigrationReports } from "../documents/migrationPlans";

/** The migration module (and its YAML reader) loads on first use: activation stays light. */
const loadMigration = () => import("../workflows/migration");

export interface MigrationDeps {
  manager: OrgManager;
  journal: () => Promise<WriteJournal>;
  /** Where run records are kept (the extension's global storage). */
  storage: vscode.Uri;
}

/** The run records kept in the extension's storage, one file each (written whole, then renamed into place). */
class RunStore {
  constructor(private readonly folder: vscode.Uri) {}

  /**
   * `<id>.json` holds the run's record, `<id>.ids` the IDs it inserted (the record vouches for them),
   * `<id>.meta.json` what finding it takes, so a lookup never reads a record.
   */
  private file(id: string, part: "run" | "meta" | "ids"): string {
    if (!/^[\w.-]+$/.test(id)) throw new CommandRefusal(vscode.l10n.t("That migration run's record cannot be found."));
    return path.join(this.folder.fsPath, part === "run" ? `${id}.json` : part === "ids" ? `${id}.ids` : `${id}.meta.json`);
  }

  /** Where a run keeps the IDs it inserted. */
  readonly insertedIdsFile = (id: string) => this.file(id, "ids");

  /** A kept record as a run has them now (one kept by an older version has its IDs moved to `<id>.ids`). */
  private async runOf(id: string): Promise<MigrationRun> {
    const [stored, migration] = await Promise.all([this.read<MigrationRun>(id, "run"), loadMigration()]);
    return migration.upgradedRun(stored, this.insertedIdsFile(id));
  }

  private write(file: string, value: unknown): Promise<void> {
    return writeWhole(file, JSON.stringify(value));
  }

  async save(run: MigrationRun, meta: RunMeta): Promise<void> {
    await mkdir(this.folder.fsPath, { recursive: true });
    await this.write(this.file(run.id, "run"), run);
    await this.write(this.file(run.id, "meta"), { ...meta, planDigest: run.planDigest, state: run.state, startedAt: run.startedAt } satisfies KeptMeta);
  }

  private async read<T>(id: string, part: "run" | "meta"): Promise<T> {
    try {
      return JSON.parse(await readFile(this.file(id, part), "utf8")) as T;
    } catch {
      throw new CommandRefusal(vscode.l10n.t("That migration run's record cannot be found."));
    }
  }

  async load(id: string): Promise<{ meta: RunMeta; run: MigrationRun }> {
    const [meta, run] = await Promise.all([this.read<KeptMeta>(id, "meta"), this.runOf(id)]);
    return { meta, run };
  }

  /** The last run of this plan into this org that stopped before the end (to resume). */
  async unfinished(plan: string, targetKey: string, digest: string): Promise<MigrationRun | undefined> {
    const names = await readdir(this.folder.fsPath).catch(() => [] as string[]);
    const found: (KeptMeta & { id: string })[] = [];
    for (const name of names.filter((n) => n.endsWith(".meta.json"))) {
      const id = name.slice(0, -".meta.json".length);
      const meta = await this.read<KeptMeta>(id, "meta").catch(() => undefined);
      if (meta && meta.plan === plan && meta.targetKey === targetKey && meta.planDigest === digest && meta.state !== "complete" && !meta.reverted) found.push({ ...meta, id });
    }
    const latest = found.sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0];
    return latest ? this.runOf(latest.id) : undefined;
  }

  async markReverted(id: string): Promise<void> {
    const meta = await this.read<KeptMeta>(id, "meta");
    await this.write(this.file(id, "meta"), { ...meta, reverted: new Date().toISOString() });
  }
}

interface RunMeta {
  plan: string;
  sourceKey: string;
  targetKey: string;
  journalEntry?: string;
  reverted?: string;
}

/** What the store keeps beside a run to find it without reading its record. */
interface KeptMeta extends RunMeta {
  planDigest: string;
  state: MigrationRun["state"];
  startedAt: string;
}

interface Prepared {
  plan: vscode.Uri;
  text: string;
  source: OrgSession;
  target: OrgSession;
  digest: string;
}

function planUriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const editor = vscode.window.activeTextEditor?.document.uri;
  return editor && PLAN_PATTERN.test(editor.path) ? editor : undefined;
}

async function pickPlan(arg: unknown): Promise<vscode.Uri> {
  const given = planUriOf(arg);
  if (given) return given;
  const plans = await vscode.workspace.findFiles("**/*.migration.{yaml,yml}", "**/node_modules/**", 200);
  if (!plans.length) throw new CommandRefusal(vscode.l10n.t("No migration plan in this workspace: create a file named like accounts.migration.yaml (the README shows one)."));
  const picked = await vscode.window.showQuickPick(plans.map((uri) => ({ label: path.basename(uri.path), description: vscode.workspace.asRelativePath(uri), uri })), { title: vscode.l10n.t("Migrate data by which plan?") });
  if (!picked) throw new UserCancelled();
  return picked.uri;
}

/** The plan's text as the editor holds it (unsaved edits count), checked before any org is asked. */
async function readPlan(uri: vscode.Uri): Promise<{ text: string; from?: string; to?: string; digest: string }> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  const { parsePlan, planDigest } = await loadMigration();
  try {
    const plan = parsePlan(text, { filename: path.basename(uri.path) });
    return { text, ...(plan.from ? { from: plan.from } : {}), ...(plan.to ? { to: plan.to } : {}), digest: planDigest(plan) };
  } catch (err) {
    if (err instanceof MigrationPlanError) throw new CommandRefusal(vscode.l10n.t("{0}: {1}", path.basename(uri.path), err.message));
    throw err;
  }
}

export function migrationCommands(deps: MigrationDeps, reports: MigrationReports): Record<Extract<CommandId, "crm.migration.migrate" | "crm.migration.dryRun" | "crm.migration.run" | "crm.migration.revert">, (...args: unknown[]) => unknown> {
  const runs = new RunStore(vscode.Uri.joinPath(deps.storage, "migrations"));
  const { manager } = deps;

  /** The org a plan names (by alias), or the one the person picks when it names none. */
  async function orgFor(alias: string | undefined, role: "from" | "to", other?: string): Promise<OrgRecord> {
    const orgs = manager.registry.list();
    if (alias) {
      const named = orgs.find((o) => o.alias === alias);
      if (!named) throw new CommandRefusal(vscode.l10n.t("The plan's {0}: names '{1}', and no org is called that. Add it, or change the plan to one of: {2}.", role, alias, orgs.map((o) => o.alias).join(", ") || "—"));
      return named;
    }
    const items = orgs.filter((o) => o.key !== other).map((o) => ({ label: o.alias, description: o.kind ?? "", detail: o.instanceUrl, org: o }));
    if (!items.length) throw new CommandRefusal(vscode.l10n.t("A migration needs two orgs: add another with 'CRM: Add Org'."));
    const picked = await vscode.window.showQuickPick(items, { title: role === "from" ? vscode.l10n.t("Migrate from which org?") : vscode.l10n.t("Migrate into which org?"), matchOnDetail: true });
    if (!picked) throw new UserCancelled();
    return picked.org;
  }

  async function prepare(arg: unknown): Promise<Prepared> {
    const plan = await pickPlan(arg);
    const read = await readPlan(plan);
    const from = await orgFor(read.from, "from");
    const to = await orgFor(read.to, "to", from.key);
    if (from.key === to.key) throw new CommandRefusal(vscode.l10n.t("The plan moves data from {0} into {0}: name two different orgs in from: and to:.", from.alias));
    const [source, target] = await Promise.all([manager.session(from.key), manager.session(to.key)]);
    return { plan, text: read.text, source, target, digest: read.digest };
  }

  const progressText = (p: { phase: string; object: string; done: number; total: number }) =>
    p.phase === "read" ? vscode.l10n.t("{0}: {1} of {2} rows read", p.object, formatCount(p.done), formatCount(p.total))
      : p.phase === "revert" ? vscode.l10n.t("{0}: {1} of {2} reverted", p.object, formatCount(p.done), formatCount(p.total))
        : vscode.l10n.t("{0}: {1} of {2} rows written", p.object, formatCount(p.done), formatCount(p.total));

  async function dryRun(prepared: Prepared): Promise<MigrationReport> {
    const migration = await loadMigration();
    const report = await withCancellableProgress(vscode.l10n.t("Dry run: {0} → {1}", prepared.source.record.alias, prepared.target.record.alias), (signal, progress) =>
      migration.dryRun(prepared.source.crm, prepared.text, prepared.target.crm, { signal, onProgress: (p) => progress.report({ message: progressText(p) }) }));
    await reports.show(prepared.plan, migration.formatReport(report, { from: prepared.source.record.alias, to: prepared.target.record.alias }));
    return report;
  }

  const totals = (report: MigrationReport) => report.objects.reduce((t, o) => ({ insert: t.insert + o.insert, update: t.update + o.update, refused: t.refused + o.refused }), { insert: 0, update: 0, refused: 0 });

  /** Asks once before a run or a revert: the production guard asks itself (with `summary`); any other org is asked here. */
  async function confirmed(target: OrgSession, question: string, detail: string, button: string): Promise<void> {
    if (guardsWrites(target.record)) return;
    const choice = await vscode.window.showWarningMessage(question, { modal: true, detail }, button);
    if (choice !== button) throw new UserCancelled();
  }

  async function run(arg: unknown): Promise<void> {
    const prepared = await prepare(arg);
    const report = await dryRun(prepared);
    const { source, target } = prepared;
    const sum = totals(report);
    if (!sum.insert && !sum.update) {
      void vscode.window.showInformationMessage(vscode.l10n.t("Nothing to migrate: {0} already holds every record of the plan as it is in {1}.", target.record.alias, source.record.alias));
      return;
    }
    const unfinished = await runs.unfinished(prepared.plan.toString(), target.record.key, prepared.digest);
    let resume: MigrationRun | undefined;
    if (unfinished) {
      const [resumeButton, fresh] = [vscode.l10n.t("Resume"), vscode.l10n.t("Start a New Run")];
      const written = unfinished.objects.reduce((n, o) => n + o.inserted + o.updated.length, 0);
      const choice = await vscode.window.showWarningMessage(vscode.l10n.t("A run of this plan into {0} stopped before the end ({1}, {2} records written).", target.record.alias, formatTime(unfinished.startedAt), formatCount(written)), { modal: true, detail: vscode.l10n.t("Resume goes on with it: what it wrote is found again, not written twice, and one revert takes back both.") }, resumeButton, fresh);
      if (!choice) throw new UserCancelled();
      if (choice === resumeButton) resume = unfinished;
    }
    const summary = vscode.l10n.t("migrate records from {0} into {1}: insert {2}, update {3}", source.record.alias, target.record.alias, formatCount(sum.insert), formatCount(sum.update));
    const runButton = vscode.l10n.t("Run Migration");
    await confirmed(target, vscode.l10n.t("Migrate into {0}: insert {1} and update {2} records?", target.record.alias, formatCount(sum.insert), formatCount(sum.update)),
      sum.refused ? vscode.l10n.t("{0} rows the dry run refused are left out (the report beside the plan names them).", formatCount(sum.refused)) : vscode.l10n.t("The dry run's report is beside the plan. The run can be reverted from Write History."), runButton);
    const meta: RunMeta = { plan: prepared.plan.toString(), sourceKey: source.record.key, targetKey: target.record.key };
    const migration = await loadMigration();
    const record = await withCancellableProgress(vscode.l10n.t("Migrating {0} → {1}", source.record.alias, target.record.alias), (signal, progress) =>
      migration.run(source.crm, prepared.text, target.crm, {
        signal, report, summary, insertedIdsFile: runs.insertedIdsFile, ...(resume ? { resume } : {}),
        onProgress: (p) => progress.report({ message: progressText(p) }),
        onRecord: (r) => runs.save(r, meta),
      }));
    const journal = await deps.journal();
    const inserted = record.objects.reduce((n, o) => n + o.inserted, 0);
    const updated = record.objects.reduce((n, o) => n + o.updated.length, 0);
    const failed = record.objects.reduce((n, o) => n + o.failed, 0);
    const entrySummary = vscode.l10n.t("migrate from {0}: {1} inserted, {2} updated ({3})", source.record.alias, formatCount(inserted), formatCount(updated), record.objects.map((o) => o.object).join(", "));
    const entry = journal.recordMigration({ key: target.record.key, alias: target.record.alias }, await migration.runJournalEntry(record, entrySummary),
      { runId: record.id, plan: vscode.workspace.asRelativePath(prepared.plan), from: source.record.alias });
    await runs.save(record, { ...meta, journalEntry: entry.id });
    await reports.show(prepared.plan, migration.formatRun(record, source.record.alias, target.record.alias));
    const revertButton = vscode.l10n.t("Revert…");
    const said = record.state === "complete"
      ? (failed ? vscode.l10n.t("Migrated into {0}: {1} inserted, {2} updated; {3} rows refused (named in the report).", target.record.alias, formatCount(inserted), formatCount(updated), formatCount(failed))
        : vscode.l10n.t("Migrated into {0}: {1} inserted, {2} updated.", target.record.alias, formatCount(inserted), formatCount(updated)))
      : record.state === "cancelled"
        ? vscode.l10n.t("Migration cancelled: {0} inserted and {1} updated in {2} before it stopped. Run it again to resume.", formatCount(inserted), formatCount(updated), target.record.alias)
        : vscode.l10n.t("Migration stopped: {0}. {1} inserted and {2} updated in {3}; run it again to resume.", record.error ?? "", formatCount(inserted), formatCount(updated), target.record.alias);
    const choice = await (record.state === "complete" && !failed ? vscode.window.showInformationMessage(said, revertButton) : vscode.window.showWarningMessage(said, revertButton));
    if (choice === revertButton) await revert(entry);
  }

  async function revert(arg: unknown): Promise<void> {
    const journal = await deps.journal();
    let entry = typeof arg === "object" && arg && "migration" in arg ? (arg as JournalEntry) : undefined;
    if (!entry) {
      const items = journal.list().filter((e) => e.migration && !e.migration.reverted).map((e) => ({ label: e.summary, description: `${e.alias} · ${formatTime(e.time)}`, detail: e.migration!.plan, entry: e }));
      if (!items.length) throw new CommandRefusal(vscode.l10n.t("No migration run to revert: runs are listed here once made."));
      const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t("Revert which migration run?") });
      if (!picked) throw new UserCancelled();
      entry = picked.entry;
    }
    if (entry.migration?.reverted) throw new CommandRefusal(vscode.l10n.t("That migration run was reverted already ({0}).", formatTime(entry.migration.reverted)));
    const kept = await runs.load(entry.migration!.runId);
    const [target, migration] = await Promise.all([manager.session(entry.orgKey), loadMigration()]);
    const inserted = kept.run.objects.reduce((n, o) => n + o.inserted, 0);
    const updated = kept.run.objects.reduce((n, o) => n + o.updated.length, 0);
    const summary = vscode.l10n.t("revert the migration of {0}: delete {1} records it inserted, restore {2} it updated", formatTime(kept.run.startedAt), formatCount(inserted), formatCount(updated));
    const revertButton = vscode.l10n.t("Revert Migration");
    await confirmed(target, vscode.l10n.t("Revert the migration into {0} of {1}?", target.record.alias, formatTime(kept.run.startedAt)),
      vscode.l10n.t("{0} records it inserted are deleted and {1} it updated get their values back; records changed since the run are left as they are and named.", formatCount(inserted), formatCount(updated)), revertButton);
    const result: RevertResult = await withCancellableProgress(vscode.l10n.t("Reverting the migration into {0}", target.record.alias), (signal, progress) =>
      migration.revert(target.crm, kept.run, { signal, summary, onProgress: (p) => progress.report({ message: progressText(p) }) }));
    const at = new Date().toISOString();
    // A resumed run has an entry per part; the revert took back the whole run.
    for (const e of journal.list(entry.orgKey).filter((e) => e.migration?.runId === kept.run.id)) journal.markReverted(e.id, at);
    await runs.markReverted(kept.run.id);
    journal.recordMigration({ key: target.record.key, alias: target.record.alias }, runEntry(kept.run, vscode.l10n.t("revert the migration of {0}: {1} deleted, {2} restored", formatTime(kept.run.startedAt), formatCount(result.deleted), formatCount(result.restored)), { revert: true }));
    const left = result.conflicts.length ? ` ${vscode.l10n.t("Left as they are, changed since the run: {0}.", result.conflicts.slice(0, 5).map((c) => `${c.object} ${c.id}`).join(", "))}` : "";
    const failed = result.failures.length ? ` ${vscode.l10n.t("Refused by the org: {0}.", result.failures.slice(0, 5).map((f) => `${f.object} ${f.id} (${f.message})`).join(", "))}` : "";
    const unknown = result.unknown.length ? ` ${vscode.l10n.t("May be left in the org: {0}.", result.unknown.slice(0, 3).join("; "))}` : "";
    const said = vscode.l10n.t("Reverted the migration into {0}: {1} deleted, {2} restored.", target.record.alias, formatCount(result.deleted), formatCount(result.restored)) + left + failed + unknown;
    void (left || failed || unknown ? vscode.window.showWarningMessage(said) : vscode.window.showInformationMessage(said));
  }

  /** The dry run, then its totals with a way on to the run. */
  async function dryRunThenOffer(arg: unknown): Promise<void> {
    const prepared = await prepare(arg);
    const sum = totals(await dryRun(prepared));
    const runButton = vscode.l10n.t("Run Migration…");
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t("Dry run: {0} to insert, {1} to update, {2} refused in {3}.", formatCount(sum.insert), formatCount(sum.update), formatCount(sum.refused), prepared.target.record.alias), ...(sum.insert || sum.update ? [runButton] : []));
    if (choice === runButton) await run(prepared.plan);
  }

  return {
    "crm.migration.migrate": dryRunThenOffer,
    "crm.migration.dryRun": dryRunThenOffer,
    "crm.migration.run": run,
    "crm.migration.revert": revert,
  };
}
