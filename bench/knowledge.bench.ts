/**
 * `npm run bench:knowledge`: crm-knowledge against the `large` seed's knowledge base (10,000 published articles,
 * each translated into three languages: 40,000 versions). Pulls of 1,000 and 10,000 articles, a check of the
 * 10,000 and of the 1,000, a push of the unchanged folder (must send nothing), and a push of 500 changed articles;
 * each command the built dist/crm-knowledge.js (what users run) in a process of its own, its peak RSS read at its
 * exit less that of starting it, the emulator in another process. API requests are counted by the emulator, and the big pull's reads are sent again bare (fetch) for its baseline, its files written again bare for the disk's part. Figures go to
 * bench/results/knowledge.json and the README, each goal with met or not met.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { recordResults } from "./readme";
import { startEmulatorProcess } from "./emulator-process";

const run = promisify(execFile);
interface Step { code: number; ms: number; peakRssGrowthMB: number; requests: number; writes: number; last: string[]; /** The emulator's request count before it: where its reads begin in the log. */ from: number }

/** The reads a command sent (as the emulator logged them), sent again one after another with fetch and each answer parsed: the same reads done bare. */
async function bareReads(url: string, from: number): Promise<{ ms: number; reads: number }> {
  const { reads } = (await (await fetch(`${url}/__emulator/requests?from=${from}`)).json()) as { reads: { path: string; query: string; authorization?: string }[] };
  const began = performance.now();
  for (const r of reads) {
    const answer = await fetch(`${url}${r.path}${r.query}`, { headers: r.authorization ? { authorization: r.authorization } : {} });
    const body = await answer.text();
    if ((answer.headers.get("content-type") ?? "").includes("json")) JSON.parse(body);
  }
  return { ms: performance.now() - began, reads: reads.length };
}

/**
 * The files a pull wrote, written again bare (mkdir and writeFileSync, one after another, into a folder beside
 * it; each folder's files read before its clock starts): what the disk alone takes for them, in the same run.
 */
function bareWrites(from: string, to: string): { ms: number; files: number } {
  let ms = 0;
  let files = 0;
  const copy = (rel: string) => {
    const entries = readdirSync(path.join(from, rel), { withFileTypes: true });
    const contents = entries.filter((e) => e.isFile()).map((e) => [e.name, readFileSync(path.join(from, rel, e.name))] as const);
    const began = performance.now();
    mkdirSync(path.join(to, rel));
    for (const [name, bytes] of contents) writeFileSync(path.join(to, rel, name), bytes);
    ms += performance.now() - began;
    files += contents.length;
    for (const e of entries) if (e.isDirectory()) copy(path.join(rel, e.name));
  };
  copy("");
  return { ms, files };
}

async function main() {
  const emu = await startEmulatorProcess("large");
  const dir = mkdtempSync(path.join(tmpdir(), "crm-bench-knowledge-"));
  const served = async () => (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { count: number; total: number; writes: number };
  /** The shipped command (dist/crm-knowledge.js) in a process of its own: exit code, wall time, peak RSS, last lines. */
  const command = async (...argv: string[]) => {
    const began = performance.now();
    const answer = await run(process.execPath, ["--require", path.resolve("bench/peak-rss.cjs"), path.resolve("dist/crm-knowledge.js"), ...argv], { cwd: dir, maxBuffer: 1 << 26, timeout: 900_000 })
      .then((r) => ({ ...r, code: 0 }), (err: { code: number; stdout: string; stderr: string }) => ({ stdout: err.stdout, stderr: err.stderr, code: err.code }));
    const ms = Math.round(performance.now() - began);
    const { peakRssMB } = JSON.parse(answer.stderr.trim().split("\n").at(-1)!) as { peakRssMB: number };
    return { code: answer.code, ms, peakRssMB, last: answer.stdout.trim().split("\n").slice(-3) };
  };
  // What starting the command takes (its code loaded, nothing done): the growth of each step is measured from it.
  const startup = (await command("--help")).peakRssMB;
  const step = async (label: string, ...argv: string[]): Promise<Step> => {
    const before = await served();
    const { peakRssMB, ...ran } = await command(...argv, "--helper", emu.helperFile);
    const after = await served();
    const result = { ...ran, peakRssGrowthMB: peakRssMB - startup, requests: after.total - before.total, writes: after.writes - before.writes, from: before.count };
    console.log(label, JSON.stringify(result));
    return result;
  };
  try {
    const results: Record<string, Step> = {};
    results.pull1k = await step("pull 1,000", "pull", "--out", "kb1k", "--where", "ArticleNumber >= '000200000' AND ArticleNumber < '000201000'");
    results.pull10k = await step("pull 10,000", "pull", "--out", "kb", "--where", "ArticleNumber >= '000200000'");
    const bare = await bareReads(emu.url, results.pull10k.from);
    console.log("the pull's reads, bare", JSON.stringify(bare));
    const bareFiles = bareWrites(path.join(dir, "kb"), path.join(dir, "kb-bare"));
    console.log("the pull's files, written bare", JSON.stringify(bareFiles));
    results.check1k = await step("check 1,000", "check", "kb1k");
    results.check10k = await step("check 10,000", "check", "kb");
    results.pushUnchanged = await step("push unchanged", "push", "kb", "--apply");
    // 500 articles edited: a paragraph added to each master's body.
    for (let i = 1; i <= 500; i++) {
      const file = path.join(dir, "kb", `large-article-${i * 20}`, "Answer__c.html");
      writeFileSync(file, `${readFileSync(file, "utf8").trimEnd()}\n<p>Edited for the benchmark.</p>\n`);
    }
    results.push500 = await step("push 500 changed", "push", "kb", "--apply");
    results.pushAfter = await step("push again", "push", "kb", "--apply");

    const per100 = (s: Step, articles: number) => (s.requests / articles) * 100;
    const meta = { date: new Date().toISOString(), node: process.version };
    const { pull1k, pull10k: pull, check1k, check10k: check, push500: push } = results;
    const met = (ok: boolean) => `**${ok ? "met" : "not met"}**`;
    const ok = (...steps: Step[]) => steps.every((s) => s.code === 0);
    const goals = [
      `a pull of 10,000 articles with their translations in at most 1.2 API requests per 100 articles: ${met(ok(pull) && per100(pull, 10_000) <= 1.2)} (${per100(pull, 10_000).toFixed(2)} per 100)`,
      `its wall time within 1.1× of the same reads done bare: ${met(ok(pull) && pull.ms <= 1.1 * bare.ms)} (${(pull.ms / 1000).toFixed(1)} s against ${(bare.ms / 1000).toFixed(1)} s for its ${bare.reads} reads sent again by fetch, one after another: ${(pull.ms / bare.ms).toFixed(2)}×)`,
      `a pull's peak RSS growth at most 64 MB at 1,000 and at 10,000 articles: ${met(ok(pull1k, pull) && Math.max(pull1k.peakRssGrowthMB, pull.peakRssGrowthMB) <= 64)} (${pull1k.peakRssGrowthMB} MB and ${pull.peakRssGrowthMB} MB)`,
      `a check of 10,000 articles in at most 20 s: ${met(ok(check) && check.ms <= 20_000)} (${(check.ms / 1000).toFixed(1)} s)`,
      `a check's peak RSS growth at most 100 MB, flat from 1,000 to 10,000 articles: ${met(ok(check1k, check) && check.peakRssGrowthMB <= 100 && check.peakRssGrowthMB <= check1k.peakRssGrowthMB + 32)} (${check1k.peakRssGrowthMB} MB and ${check.peakRssGrowthMB} MB)`,
      `a push of 500 changed articles in at most 1.5 requests per article and 60 s: ${met(ok(push) && push.requests / 500 <= 1.5 && push.ms <= 60_000)} (${(push.requests / 500).toFixed(2)} per article, ${(push.ms / 1000).toFixed(1)} s)`,
      `an unchanged folder's push sends 0 writes: ${met(results.pushUnchanged.writes === 0 && results.pushAfter.writes === 0)} (${results.pushUnchanged.writes} before the edits, ${results.pushAfter.writes} after the push of 500)`,
    ];
    const row = (label: string, s: Step, articles: number) => `| ${label} | ${(s.ms / 1000).toFixed(1)} s | ${s.requests.toLocaleString("en-US")} (${per100(s, articles).toFixed(2)} per 100 articles) | ${s.writes.toLocaleString("en-US")} | ${s.peakRssGrowthMB} MB | ${s.code} |`;
    const body = [
      `Written by \`npm run bench:knowledge\` (${meta.date}, Node ${meta.node}); the emulator (\`large\` seed: 10,000 published articles, each translated into French, German and Spanish) in its own process on 127.0.0.1, each command the shipped \`dist/crm-knowledge.js\` in a process of its own, its peak RSS growth measured from that of starting it (\`--help\`, which starts the thread each command runs in: ${startup} MB). Requests include the sign-in (token, versions, user info).`,
      "",
      "| command | wall time | API requests | writes | peak RSS growth | exit code |",
      "|---|---:|---:|---:|---:|---:|",
      row("`pull` 1,000 articles (4,000 versions)", pull1k, 1_000),
      row("`pull` 10,000 articles (40,000 versions)", pull, 10_000),
      `| the 10,000-article pull's reads sent again bare (fetch, one after another) | ${(bare.ms / 1000).toFixed(1)} s | ${bare.reads} | 0 | — | — |`,
      `| its ${bareFiles.files.toLocaleString("en-US")} files written again bare (mkdir, writeFileSync, one after another: the disk alone) | ${(bareFiles.ms / 1000).toFixed(1)} s | — | — | — | — |`,
      row("`check` 1,000 articles (no org)", check1k, 1_000),
      row("`check` 10,000 articles (no org)", check, 10_000),
      row("`push --apply`, folder unchanged", results.pushUnchanged, 10_000),
      row("`push --apply`, 500 articles changed", push, 10_000),
      row("`push --apply` again", results.pushAfter, 10_000),
      "",
      `Goals: ${goals.join("; ")}.`,
    ].join("\n");
    recordResults("knowledge", { meta, startupRssMB: startup, results, bare, bareFiles }, "Knowledge folder at scale", body);
    if (Object.values(results).some((s) => s.code !== 0)) process.exitCode = 1;
  } finally {
    emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
