/**
 * bench/results/README.md is one section per bench; each bench rewrites its own and keeps the others,
 * and writes the same text into its figures block of the project README (scripts/figures.mjs).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { benchBlock, writeBlock } from "../scripts/figures";

const FILE = "bench/results/README.md";

/** Writes `bench/results/<name>.json`, replaces (or appends) the results section `## heading`, and the README's `bench:<name>` block. */
export function recordResults(name: string, result: unknown, heading: string, body: string): void {
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(result, null, 2) + "\n");
  const readme = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmark results\n";
  const section = `## ${heading}\n\n${body.trim()}\n`;
  const existing = new RegExp(`\\n## ${heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n[\\s\\S]*?(?=\\n## |$)`);
  writeFileSync(FILE, existing.test(readme) ? readme.replace(existing, `\n${section}`) : `${readme.trimEnd()}\n\n${section}`);
  writeBlock(`bench:${name}`, benchBlock(body));
}
