/**
 * README figures are written, never typed: each lives between `<!-- figures:NAME -->` and
 * `<!-- /figures:NAME -->` and is replaced by the build, the packager or a bench of the current commit
 * (`npm run figures` for the build's and the packager's; each bench writes its own).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const README = "README.md";
/** The documents holding figure blocks: the user's (README and the pages in docs/) and the contributor's. */
export const FIGURE_DOCS = [README, ...readdirSync("docs").filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`), "CONTRIBUTING.md"];

/** Every figure document's text, joined (block names are unique across them). */
export const figureText = (): string => FIGURE_DOCS.map((f) => readFileSync(f, "utf8")).join("\n");
/** Written by every production build: each bundle's bytes and budget. */
export const SIZES_FILE = "dist/sizes.json";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const blockPattern = (name: string) => new RegExp(`(<!-- figures:${escape(name)} -->)[\\s\\S]*?(<!-- /figures:${escape(name)} -->)`);

/** The text of a figure block, or undefined when the README has none by that name. */
export function readBlock(text: string, name: string): string | undefined {
  const match = blockPattern(name).exec(text);
  return match ? match[0].slice(match[1]!.length, match[0].length - match[2]!.length) : undefined;
}

/** The README with one block's content replaced (unchanged when it has no such block). */
export function replaceBlock(text: string, name: string, body: string): string {
  return text.replace(blockPattern(name), (_m, open: string, close: string) => `${open}${body}${close}`);
}

/** Every block's name, in order. */
export function blockNames(text: string): string[] {
  return [...text.matchAll(/<!-- figures:([\w:.-]+) -->/g)].map((m) => m[1]!);
}

/** Rewrites one block in place, in whichever figure document holds it. */
export function writeBlock(name: string, body: string): void {
  const file = FIGURE_DOCS.find((f) => readBlock(readFileSync(f, "utf8"), name) !== undefined);
  if (!file) throw new Error(`no figures block '${name}' in ${FIGURE_DOCS.join(" or ")}`);
  writeFileSync(file, replaceBlock(readFileSync(file, "utf8"), name, body));
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export type BundleSizes = Record<string, { bytes: number; budget?: number }>;

/** The bundle table from a build's sizes. */
export function bundleFigures(sizes: BundleSizes): string {
  const rows = Object.entries(sizes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, { bytes, budget }]) => `| \`${file}\` | ${kb(bytes)} | ${budget ? `< ${(budget / 1000).toFixed(0)} KB` : "—"} |`);
  return `\n\n| bundle (production build) | size | budget |\n|---|---:|---:|\n${rows.join("\n")}\n\n`;
}

/** The VSIX's size, to the kilobyte (the README is inside it, so a finer figure would chase itself). */
export const vsixFigure = (bytes: number): string => `${Math.round(bytes / 1000)} KB`;

/** Packages the extension (production build in dist/) to a temporary VSIX and returns its size in bytes. */
export function packagedSize(): number {
  const dir = mkdtempSync(path.join(tmpdir(), "crm-vsix-"));
  try {
    const file = path.join(dir, "crm-explorer.vsix");
    execFileSync(process.execPath, [path.resolve("node_modules/@vscode/vsce/vsce"), "package", "--no-dependencies", "--no-rewrite-relative-links", "--allow-missing-repository", "-o", file], { stdio: "pipe" });
    return statSync(file).size;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bench's block: its section of bench/results/README.md, between blank lines. */
export const benchBlock = (body: string): string => `\n\n${body.trim()}\n\n`;

/** The sections of bench/results/README.md by heading. */
export function resultSections(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of text.split(/\n## /).slice(1)) {
    const newline = part.indexOf("\n");
    sections.set(part.slice(0, newline).trim(), part.slice(newline + 1).trim());
  }
  return sections;
}

/** Which results section each bench block shows. */
export const BENCH_SECTIONS: Record<string, string> = {
  "bench:client": "Client",
  "bench:host": "Extension activation and tree paint",
  "bench:soql": "SOQL editor",
  "bench:results": "Query results",
  "bench:bulk": "Bulk API 2.0",
  "bench:latency": "Latency: round trips per action",
  "bench:knowledge": "Knowledge folder at scale",
  "bench:agent": "Agent tools: twenty tasks",
  "bench:migrate": "Migration: 600,000 records between two orgs",
  "bench:notebooks": "CRM notebooks",
};
