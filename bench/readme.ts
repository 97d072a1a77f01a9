/** bench/results/README.md is one section per bench; each bench rewrites its own and keeps the others. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

const FILE = "bench/results/README.md";

/** Writes `bench/results/<name>.json` and replaces (or appends) the README section `## heading`. */
export function recordResults(name: string, result: unknown, heading: string, body: string): void {
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(result, null, 2) + "\n");
  const readme = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmark results\n";
  const section = `## ${heading}\n\n${body.trim()}\n`;
  const existing = new RegExp(`\\n## ${heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n[\\s\\S]*?(?=\\n## |$)`);
  writeFileSync(FILE, existing.test(readme) ? readme.replace(existing, `\n${section}`) : `${readme.trimEnd()}\n\n${section}`);
}
