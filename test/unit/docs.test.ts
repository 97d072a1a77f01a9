/**
 * The documents as a newcomer meets them: a README that is a front page (short, with its contents), a page per
 * audience in docs/, links that lead somewhere, and install lines that never fetch a package by name.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const pages = readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
const examples = ["examples/knowledge-ci/README.md"];
const documents = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "DESIGN.md", ...pages, ...examples];
const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutCode(text.replace(/`/g, "")).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

test("the README is a front page: at most 400 lines, trying it in one command near the top, contents naming every docs page", () => {
  const readme = readFileSync("README.md", "utf8");
  const lines = readme.split("\n");
  assert.ok(lines.length <= 400, `README.md has ${lines.length} lines`);
  assert.ok(lines.findIndex((l) => l.trim() === "npm start") < 40, "npm start within the first 40 lines");
  const contents = readme.slice(readme.indexOf("## Contents"), readme.indexOf("\n## ", readme.indexOf("## Contents") + 1));
  for (const page of pages) assert.ok(contents.includes(`](${page})`), `Contents links ${page}`);
});

test("every docs page has a title and the way back to the README and the other pages", () => {
  for (const page of pages) {
    const text = readFileSync(page, "utf8");
    assert.match(text, /^# \S/, `${page} starts with its title`);
    assert.ok(text.includes("](../README.md)"), `${page} links back to the README`);
    for (const other of pages) assert.ok(text.includes(`](${path.basename(other)})`), `${page} links ${other}`);
  }
});

test("every relative link and picture in the documents leads to a file that exists, and every #anchor to a heading", () => {
  const broken: string[] = [];
  for (const document of documents) {
    const text = readFileSync(document, "utf8");
    for (const [, target] of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [file, anchor] = target!.split("#") as [string, string | undefined];
      const resolved = file ? path.join(path.dirname(document), file) : document;
      if (!existsSync(resolved)) broken.push(`${document}: ${target} (no such file)`);
      else if (anchor && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) broken.push(`${document}: ${target} (no such heading)`);
    }
    for (const [whole] of text.matchAll(/!\[[^\]]*\](?!\()/g)) broken.push(`${document}: ${whole} (a picture without its file)`);
  }
  assert.deepEqual(broken, []);
});

test("install lines run what this repository builds: npx never without --no-install, npm install only of a path", () => {
  // The changelog tells what earlier versions did, in their words: the rule is for what people copy today.
  const lines = [...documents.filter((d) => d !== "CHANGELOG.md"), "examples/knowledge-ci/knowledge.yml"].flatMap((document) =>
    readFileSync(document, "utf8").split("\n").map((line, i) => ({ at: `${document}:${i + 1}`, line })));
  const fetching = lines.filter(({ line }) => /\bnpx (?!--no-install\b)(crm-|--yes|-y\b)/.test(line) || /"command":\s*"npx"/.test(line)
    || /\bnpm (install|i)\b[^\n`]*\s(crm-explorer|crm-knowledge|crm-data)(@|\s|$|`)/.test(line));
  assert.deepEqual(fetching.map(({ at, line }) => `${at}: ${line.trim()}`), []);
});

test("every command the documents name in bold (**CRM: …**) is a command the extension contributes, by its title", () => {
  const titles = new Set(Object.entries(JSON.parse(readFileSync("package.nls.json", "utf8")) as Record<string, string>)
    .filter(([key]) => /^command\..+\.title$/.test(key)).map(([, title]) => `CRM: ${title}`));
  const named = documents.flatMap((document) => [...withoutCode(readFileSync(document, "utf8")).matchAll(/\*\*(CRM: [^*]+)\*\*/g)].map((m) => ({ document, name: m[1]!.replace(/\s+/g, " ").trim() })));
  assert.ok(named.length > 5, "the documents name commands");
  assert.deepEqual(named.filter(({ name }) => !titles.has(name)).map(({ document, name }) => `${document}: ${name}`), []);
});

test("the design document the code cites is in the repository, and every section cited exists", () => {
  const sections = new Set([...readFileSync("DESIGN.md", "utf8").matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
  const citing = ["eslint.config.mjs", "esbuild.mjs", "CONTRIBUTING.md", "README.md", ...pages];
  const cited = citing.flatMap((file) => [...readFileSync(file, "utf8").matchAll(/DESIGN\.md §(\d+)/g)].map((m) => ({ file, section: m[1]! })));
  assert.ok(cited.length >= 5, "the lint rules and the build cite it");
  assert.deepEqual(cited.filter(({ section }) => !sections.has(section)).map(({ file, section }) => `${file}: §${section}`), []);
  for (const room of readdirSync("src", { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    assert.match(readFileSync("DESIGN.md", "utf8"), new RegExp(`\\| \`src/${room}/\` \\|`), `DESIGN.md §2 has a row for src/${room}/`);
  }
});
