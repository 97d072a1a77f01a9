/**
 * `npm run bench:knowledge`: crm-knowledge against the `large` seed's knowledge base (10,000 published articles,
 * each translated into three languages: 40,000 versions). Pulls of 1,000 and 10,000 articles, a check of the
 * 10,000, a push of the unchanged folder (must send nothing), and a push of 500 changed articles; each command in
 * a process of its own (its peak RSS is its own), the emulator in another. API requests are counted by the
 * emulator. Figures go to bench/results/knowledge.json and the README.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { recordResults } from "./readme";
import { startEmulatorProcess } from "./emulator-process";

const run = promisify(execFile);
interface Step { code: number; ms: number; peakRssGrowthMB: number; requests: number; writes: number; last: string[] }

async function main() {
  const emu = await startEmulatorProcess("large");
  const dir = mkdtempSync(path.join(tmpdir(), "crm-bench-knowledge-"));
  const served = async () => (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { total: number; writes: number };
  const step = async (label: string, ...argv: string[]): Promise<Step> => {
    const before = await served();
    const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/knowledge-worker.ts", dir, ...argv, "--helper", emu.helperFile], { maxBuffer: 1 << 24, timeout: 900_000 });
    const after = await served();
    const result = { ...(JSON.parse(stdout.trim().split("\n").at(-1)!) as Omit<Step, "requests" | "writes">), requests: after.total - before.total, writes: after.writes - before.writes };
    console.log(label, JSON.stringify(result));
    return result;
  };
  try {
    const results: Record<string, Step> = {};
    results.pull1k = await step("pull 1,000", "pull", "--out", "kb1k", "--where", "ArticleNumber >= '000200000' AND ArticleNumber < '000201000'");
    results.pull10k = await step("pull 10,000", "pull", "--out", "kb", "--where", "ArticleNumber >= '000200000'");
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
    const pull = results.pull10k;
    const goals = [
      `a pull of 10,000 articles with their translations in under 2 API requests per 100 articles and under 60 s: **${pull.code === 0 && per100(pull, 10_000) < 2 && pull.ms < 60_000 ? "met" : "not met"}** (${per100(pull, 10_000).toFixed(2)} per 100, ${(pull.ms / 1000).toFixed(1)} s)`,
      `an unchanged folder's push sends 0 writes: **${results.pushUnchanged.writes === 0 && results.pushAfter.writes === 0 ? "met" : "not met"}** (${results.pushUnchanged.writes} before the edits, ${results.pushAfter.writes} after the push of 500)`,
      `memory flat in the article count: **${pull.peakRssGrowthMB <= 2 * Math.max(results.pull1k.peakRssGrowthMB, 32) ? "met" : "not met"}** (a pull's peak RSS growth ${results.pull1k.peakRssGrowthMB} MB for 1,000 articles, ${pull.peakRssGrowthMB} MB for 10,000)`,
    ];
    const row = (label: string, s: Step, articles: number) => `| ${label} | ${(s.ms / 1000).toFixed(1)} s | ${s.requests.toLocaleString("en-US")} (${per100(s, articles).toFixed(2)} per 100 articles) | ${s.writes.toLocaleString("en-US")} | ${s.peakRssGrowthMB} MB | ${s.code} |`;
    const body = [
      `Written by \`npm run bench:knowledge\` (${meta.date}, Node ${meta.node}); the emulator (\`large\` seed: 10,000 published articles, each translated into French, German and Spanish) in its own process on 127.0.0.1, each command in a process of its own. Requests include the sign-in (token, versions, user info).`,
      "",
      "| command | wall time | API requests | writes | peak RSS growth | exit code |",
      "|---|---:|---:|---:|---:|---:|",
      row("`pull` 1,000 articles (4,000 versions)", results.pull1k, 1_000),
      row("`pull` 10,000 articles (40,000 versions)", pull, 10_000),
      row("`check` 10,000 articles (no org)", results.check10k, 10_000),
      row("`push --apply`, folder unchanged", results.pushUnchanged, 10_000),
      row("`push --apply`, 500 articles changed", results.push500, 10_000),
      row("`push --apply` again", results.pushAfter, 10_000),
      "",
      `Goals: ${goals.join("; ")}.`,
    ].join("\n");
    recordResults("knowledge", { meta, results }, "Knowledge folder at scale", body);
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
