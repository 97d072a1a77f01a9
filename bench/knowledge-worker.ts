/**
 * One `crm-knowledge` command in a process of its own, for bench/knowledge.bench.ts: prints its exit code, wall
 * time and peak RSS growth (sampled every 10 ms over the command, from just before it starts) as one JSON line.
 */
import { runKnowledgeCli } from "../src/cli/knowledgeCli";

async function main() {
  const [cwd, ...argv] = process.argv.slice(2);
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const out: string[] = [];
  const started = performance.now();
  const code = await runKnowledgeCli({ argv, env: {}, cwd: cwd!, out: (t) => out.push(t), err: (t) => out.push(t) });
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ code, ms: Math.round(ms), peakRssGrowthMB: Math.round((peak - base) / 1048576), last: out.slice(-3) }));
}

void main();
