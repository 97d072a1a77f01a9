/**
 * `crm-knowledge`: a knowledge folder in a pipeline — pull, status, check, preview, push — on the client's own
 * folder sync, so the extension, this tool and scripts share one implementation. Plain Node, no VS Code.
 * Exit codes: 0 clean, 1 findings (or an article refused or failed), 2 bad usage or no access.
 */
import path from "node:path";
import { type Crm, isRecordId, soqlLiteral } from "../client";
import * as knowledgeFolder from "../workflows/knowledgeFolder";
import { type PullSelection, folderStatus, nodeFolder, articleFolders } from "../workflows/knowledgeFolder";
import { type Finding, checkFolder } from "../workflows/knowledgeCheck";
import { CREDENTIALS_HELP, credentialOptions, signIn } from "./credentials";
import { articlesChangedSince, writePreview } from "./preview";
import { richTextRemovals } from "./richText";
import { checkThreads } from "./checkThreads";
import { folderThread } from "./folderThread";
import { EXIT, UsageError, commandOf, flag, oneOf, parseArgs, value, type CliContext, type ParsedArgs } from "./usage";
import { githubAnnotation, inline, textLines } from "./output";
import { guardedWrites } from "./writeSafety";

const FORMATS = ["text", "json", "github"] as const;
type Format = (typeof FORMATS)[number];

const COMMON = { flags: [] as string[], values: ["helper", "format"] };
export const COMMANDS = {
  pull: { flags: ["all-published"], values: ["out", "article", "category", "where"] },
  status: { flags: [], values: [] },
  check: { flags: ["org", "strict"], values: ["languages", "changed-since"] },
  preview: { flags: [], values: ["out", "changed-since", "languages"] },
  push: { flags: ["apply", "publish", "overwrite-conflicts", "allow-production"], values: ["journal", "changed-since"] },
} as const;

export const USAGE = `Usage: crm-knowledge <command> [options]

  pull --out <folder> [--article <id|number|url-name>]… [--category <Group/Category>] [--where <SOQL condition>] [--all-published]
  status <folder>                      local changes, and the org's with credentials
  check <folder> [--org] [--languages fr,de] [--strict] [--changed-since <git ref>]
                                       the pre-flight; --org asks the org too; --strict fails on warnings
  preview <folder> --out <dir> [--changed-since <git ref>]
                                       sanitized HTML pages and an index with the check's findings
  push <folder> [--apply] [--publish] [--overwrite-conflicts] [--allow-production] [--journal <file>] [--changed-since <git ref>]
                                       a dry run by default; --apply writes drafts; --publish publishes what passes the check;
                                       a production org only with --allow-production

Every command: --format text|json|github, --helper <file>.
${CREDENTIALS_HELP}

Exit codes: 0 clean, 1 findings or a refused article, 2 bad usage or no access.`;

/** Runs one command; resolves to its exit code. Never throws for bad usage or a refused sign-in: it says why and returns 2. */
export async function runKnowledgeCli(ctx: CliContext): Promise<number> {
  const named = commandOf(ctx, "crm-knowledge", COMMANDS, USAGE);
  if (typeof named === "number") return named;
  const { command, rest } = named;
  let crm: Crm | undefined;
  try {
    const spec = COMMANDS[command];
    const args = parseArgs(rest, { flags: [...COMMON.flags, ...spec.flags], values: [...COMMON.values, ...spec.values] }, command);
    const format = oneOf(args, "format", FORMATS, "text");
    const tool = new Tool(ctx, args, format, (client) => (crm = client));
    return await tool[command]();
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.err(textLines(`crm-knowledge ${command}: ${err.message}`));
      return EXIT.usage;
    }
    ctx.err(textLines(`crm-knowledge ${command}: ${crm ? crm.redact(err as Error).message : (err as Error).message}`));
    return EXIT.findings;
  } finally {
    crm?.close();
  }
}

class Tool {
  constructor(private readonly ctx: CliContext, private readonly args: ParsedArgs, private readonly format: Format, private readonly opened: (crm: Crm) => void) {}

  /** The folder named by the one positional argument (or `--out` for a pull). */
  private folder(): string {
    const [folder, ...extra] = this.args.positional;
    if (!folder) throw new UsageError("name the knowledge folder (crm-knowledge <command> <folder>)");
    if (extra.length) throw new UsageError(`takes one folder, got also ${extra.map((e) => `'${e}'`).join(", ")}`);
    return path.resolve(this.ctx.cwd, folder);
  }

  private async connect(extra?: Parameters<typeof signIn>[2]): Promise<Crm> {
    const crm = await signIn(value(this.args, "helper"), this.ctx, extra);
    this.opened(crm);
    return crm;
  }

  private json(data: unknown): void {
    this.say(JSON.stringify(data, null, 2));
  }

  async pull(): Promise<number> {
    if (this.args.positional.length) throw new UsageError(`pull writes into --out <folder>; it takes no other argument (got '${this.args.positional[0]}')`);
    const out = value(this.args, "out");
    if (!out) throw new UsageError("pull needs --out <folder>, the knowledge folder to pull into");
    const selection = this.selection();
    const crm = await this.connect();
    const folder = folderThread(path.resolve(this.ctx.cwd, out));
    const pulled = await knowledgeFolder.pullArticles(crm, folder, selection).finally(() => folder.close());
    const refused = pulled.filter((a) => a.refused);
    if (this.format === "json") this.json({ folder: out, pulled: pulled.filter((a) => !a.refused), refused });
    else {
      for (const a of pulled) {
        if (a.refused) this.annotate({ severity: "error", file: out, message: a.refused });
        else if (this.format === "text") this.say(`pulled ${inline(a.name)} (${a.publishStatus}${a.images ? `, ${a.images} image${a.images === 1 ? "" : "s"}` : ""}${a.translations.length ? `, ${a.translations.join(", ")}` : ""})`);
      }
      this.say(`Pulled ${pulled.length - refused.length} article${pulled.length - refused.length === 1 ? "" : "s"} into ${out}${refused.length ? `; ${refused.length} refused` : ""}.`);
    }
    return refused.length ? EXIT.findings : EXIT.clean;
  }

  private selection(): PullSelection {
    const articles = this.args.options.get("article") ?? [];
    const category = value(this.args, "category");
    const where = value(this.args, "where");
    const chosen = [articles.length && "--article", category && "--category", where && "--where", flag(this.args, "all-published") && "--all-published"].filter(Boolean);
    if (chosen.length > 1) throw new UsageError(`choose the articles one way: ${chosen.join(" and ")} were both given`);
    if (category) {
      const [group, name, ...more] = category.split("/");
      if (!group || !name || more.length) throw new UsageError(`--category takes Group/Category (such as Products/Routers), got '${category}'`);
      return { dataCategory: { group, category: name } };
    }
    if (where !== undefined) {
      if (!where.trim()) throw new UsageError("--where takes a SOQL condition, such as \"LastPublishedDate = LAST_N_DAYS:30\"");
      return { where };
    }
    if (articles.length) {
      const ids = articles.filter((a) => isRecordId(a));
      const others = articles.filter((a) => !isRecordId(a));
      if (!others.length) return { articleIds: ids };
      // Article numbers and URL names, with any IDs, as one condition on the master versions.
      const list = (values: string[]) => values.map(soqlLiteral).join(", ");
      return { where: [ids.length ? `KnowledgeArticleId IN (${list(ids)}) OR Id IN (${list(ids)})` : "", `ArticleNumber IN (${list(others)}) OR UrlName IN (${list(others)})`].filter(Boolean).join(" OR ") };
    }
    return {};
  }

  async status(): Promise<number> {
    const folder = this.folder();
    const hasOrg = !!(await credentialOptions(value(this.args, "helper"), this.ctx));
    const crm = hasOrg ? await this.connect() : undefined;
    const { manifest, articles } = await folderStatus(nodeFolder(folder), { crm });
    const asked = !!crm && !!manifest && crm.orgId === manifest.org.id;
    const changed = articles.filter((a) => a.local !== "unchanged" || a.org !== "unchanged");
    if (this.format === "json") this.json({ folder, org: asked ? "asked" : crm ? "another org" : "not asked", articles });
    else {
      // The letters of the Explorer's decorations: M modified, N new, C conflict, O changed in the org, G gone from the org.
      for (const a of changed) {
        const letter = a.conflict ? "C" : a.local === "new" ? "N" : a.local === "modified" ? "M" : a.org === "gone" ? "G" : a.org === "changed" ? "O" : "";
        if (letter) this.say(`${letter} ${inline(a.name)}${a.local === "modified" && a.org === "changed" && !a.conflict ? " (org changed too)" : ""}`);
      }
      const counts = (test: (a: (typeof articles)[number]) => boolean) => articles.filter(test).length;
      this.say(`${articles.length} articles: ${counts((a) => a.local === "modified")} modified, ${counts((a) => a.local === "new")} new, ${counts((a) => a.org === "changed" || a.org === "gone")} changed in the org, ${counts((a) => a.conflict)} in conflict${asked ? "" : crm ? " (the org is not the one pulled from: its changes are not compared)" : " (the org was not asked: no credentials)"}.`);
    }
    return articles.some((a) => a.conflict) ? EXIT.findings : EXIT.clean;
  }

  private languages(): string[] | undefined {
    const given = value(this.args, "languages");
    if (given === undefined) return undefined;
    const list = given.split(",").map((l) => l.trim()).filter(Boolean);
    if (!list.length || list.some((l) => !/^[a-z]{2,3}(?:_[A-Za-z0-9]{2,8}){0,2}$/.test(l))) throw new UsageError(`--languages takes language codes separated by commas (such as fr,de,pt_BR), got '${given}'`);
    return list;
  }

  private async runCheck(folder: string, crm?: Crm, only?: string[]) {
    const threads = checkThreads(folder);
    try {
      return await checkFolder(nodeFolder(folder), { richTextRemovals, languages: this.languages(), spread: threads.spread, ...(crm ? { crm } : {}), ...(only ? { only } : {}) });
    } finally {
      await threads.close();
    }
  }

  /** The article folders changed since `--changed-since` (undefined: the option was not given). */
  private async changedArticles(folder: string): Promise<string[] | undefined> {
    const since = value(this.args, "changed-since");
    if (since === undefined) return undefined;
    const articles = new Set(await articleFolders(nodeFolder(folder)));
    return [...(await articlesChangedSince(folder, since))].filter((name) => articles.has(name));
  }

  async check(): Promise<number> {
    const folder = this.folder();
    await this.mustBeKnowledgeFolder(folder);
    const only = await this.changedArticles(folder);
    const crm = flag(this.args, "org") ? await this.connect() : undefined;
    // Only what changed is reported on; every article still counts as a link target and for duplicate URL names.
    const { articles, findings } = await this.runCheck(folder, crm, only);
    this.report(folder, findings, articles.length);
    return this.failed(findings) ? EXIT.findings : EXIT.clean;
  }

  async preview(): Promise<number> {
    const folder = this.folder();
    const out = value(this.args, "out");
    if (!out) throw new UsageError("preview needs --out <dir>, where the pages are written");
    await this.mustBeKnowledgeFolder(folder);
    const since = value(this.args, "changed-since");
    const changed = since !== undefined ? await articlesChangedSince(folder, since) : undefined;
    const io = nodeFolder(folder);
    const { findings } = await this.runCheck(folder);
    const outDir = path.resolve(this.ctx.cwd, out);
    const summary = await writePreview(io, await articleFolders(io), findings, outDir, changed);
    if (this.format === "json") this.json({ folder, out: outDir, ...summary });
    else this.say(`Wrote ${summary.pages} article page${summary.pages === 1 ? "" : "s"} and index.html to ${out}${since !== undefined ? ` (articles changed since ${since})` : ""}.`);
    return EXIT.clean;
  }

  async push(): Promise<number> {
    const folder = this.folder();
    await this.mustBeKnowledgeFolder(folder);
    const publish = flag(this.args, "publish");
    const apply = flag(this.args, "apply") || publish;
    const journal = value(this.args, "journal");
    const safety = guardedWrites({ allowProduction: flag(this.args, "allow-production"), tool: "crm-knowledge push", ...(journal ? { journalFile: path.resolve(this.ctx.cwd, journal) } : {}) });
    const crm = await this.connect(safety.clientOptions);
    safety.watch(crm);
    const io = nodeFolder(folder);
    // Into an org the folder was not pulled from every article is written; a pipeline names what a merge changed.
    const only = await this.changedArticles(folder);
    const plan = await knowledgeFolder.planPush(crm, io, only ? { only } : {});
    const writes = plan.entries.filter((e) => e.action !== "nothing" || e.translations.length);
    if (!apply) {
      if (this.format === "json") this.json({ folder, dryRun: true, sameOrg: plan.sameOrg, entries: writes });
      else {
        for (const e of writes) this.say(`${e.conflict ? "CONFLICT " : ""}${inline(e.name)}: ${e.action}${e.translations.length ? ` + ${e.translations.map((t) => `${inline(t.language)} ${t.action}`).join(", ")}` : ""} (${inline(e.reason)}${e.conflict ? `; ${inline(e.conflict)}` : ""})`);
        this.say(`Dry run: ${writes.length} of ${plan.entries.length} articles would be written${plan.sameOrg ? "" : " (into an org other than the one pulled from)"}; nothing was sent. Run again with --apply to write drafts.`);
      }
      return writes.some((e) => e.conflict) && !flag(this.args, "overwrite-conflicts") ? EXIT.findings : EXIT.clean;
    }
    // Publishing follows the gate: an article the check finds an error in is pushed as a draft, not published.
    const results = await knowledgeFolder.pushFolder(crm, io, {
      plan, overwrite: flag(this.args, "overwrite-conflicts"), publish: publish ? writes.map((e) => e.name) : false, check: { richTextRemovals, languages: this.languages() },
    });
    const bad = results.filter((r) => r.outcome === "failed" || r.outcome === "conflict");
    if (this.format === "json") this.json({ folder, results: results.filter((r) => r.outcome !== "unchanged") });
    else {
      for (const r of results.filter((x) => x.outcome !== "unchanged")) {
        const line = `${r.outcome} ${inline(r.name)}${r.published ? " (published)" : ""}${r.message ? `: ${inline(r.message)}` : ""}${r.warnings.map((w) => `; ${inline(w)}`).join("")}`;
        if (r.outcome === "failed" || r.outcome === "conflict") this.annotate({ severity: "error", file: `${path.basename(folder)}/${r.name}/article.yaml`, message: line });
        else this.say(line);
      }
      const pushed = results.filter((r) => r.outcome === "pushed").length;
      this.say(`Pushed ${pushed} of ${results.length} articles (${results.filter((r) => r.published).length} published, ${bad.length} refused or failed).`);
    }
    return bad.length ? EXIT.findings : EXIT.clean;
  }

  private async mustBeKnowledgeFolder(folder: string): Promise<void> {
    if ((await nodeFolder(folder).stat(""))?.type !== "directory") throw new UsageError(`${folder} is not a folder`);
  }

  private failed(findings: Finding[]): boolean {
    return findings.some((f) => f.severity === "error" || flag(this.args, "strict"));
  }

  /** One line a finding: `file:line: error message [rule]`, JSON, or a GitHub annotation on the file's line. */
  private report(folder: string, findings: Finding[], articles: number): void {
    const errors = findings.filter((f) => f.severity === "error").length;
    if (this.format === "json") {
      this.json({ folder, articles, errors, warnings: findings.length - errors, findings });
      return;
    }
    // Annotations name files from the repository's root, where a pipeline runs (the folder is given from there).
    const shown = path.relative(this.ctx.cwd, folder) || ".";
    for (const f of findings) this.annotate({ severity: f.severity, file: path.posix.join(shown.split(path.sep).join("/"), f.file), line: f.line, message: `${f.message} [${f.rule}]` });
    this.say(`${articles} article${articles === 1 ? "" : "s"} checked: ${errors} error${errors === 1 ? "" : "s"}, ${findings.length - errors} warning${findings.length - errors === 1 ? "" : "s"}.`);
  }

  /** A line of the tool's own to stdout, through the text channel's encoder. */
  private say(text: string): void {
    this.ctx.out(textLines(text));
  }

  private annotate(f: { severity: "error" | "warning"; file: string; line?: number; message: string }): void {
    if (this.format === "github") this.ctx.out(githubAnnotation(f));
    else this.say(`${inline(f.file)}${f.line ? `:${f.line}` : ""}: ${f.severity} ${inline(f.message)}`);
  }
}
