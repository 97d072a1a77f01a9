/** What the Marketplace and an installed VSIX show: the manifest's public fields, the changelog, the notices, the files shipped. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));

test("no placeholder address: repository, bugs and homepage are real https addresses or absent", () => {
  for (const field of ["repository", "bugs", "homepage"]) {
    const value = manifest[field];
    if (value === undefined) continue;
    const url = typeof value === "string" ? value : value.url;
    assert.match(url, /^https:\/\//, field);
    assert.doesNotMatch(url, /example\.(invalid|com|org)|localhost|127\.0\.0\.1/, field);
  }
  assert.match(manifest.galleryBanner?.color ?? "", /^#[0-9A-Fa-f]{6}$/, "a gallery banner colour");
  assert.ok(["dark", "light"].includes(manifest.galleryBanner?.theme), "the banner's text theme");
});

test("the changelog has an entry for the manifest's version", () => {
  const changelog = readFileSync("CHANGELOG.md", "utf8");
  assert.match(changelog, new RegExp(`^## ${manifest.version.replace(/\./g, "\\.")}\\b`, "m"));
});

test("the third-party notices name every package the last production build shipped, with its licence", () => {
  const shipped = JSON.parse(readFileSync("dist/shipped-packages.json", "utf8")) as string[];
  const notices = readFileSync("THIRD-PARTY-NOTICES.md", "utf8");
  for (const named of ["dompurify", "axios", "@vscode/codicons"]) assert.ok(shipped.some((p) => p.startsWith(`${named}@`)), `${named} is shipped`);
  for (const entry of shipped) {
    const at = entry.lastIndexOf("@");
    assert.match(notices, new RegExp(`^## ${entry.slice(0, at).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} ${entry.slice(at + 1).replace(/\./g, "\\.")}\\n\\nLicence: \\S`, "m"), `${entry}: run npm run build`);
  }
});

test("the VSIX holds what a user needs and nothing of the sources, tests or dependencies", () => {
  const listed = execFileSync(process.execPath, [path.resolve("node_modules/@vscode/vsce/vsce"), "ls", "--no-dependencies"], { encoding: "utf8" })
    .split("\n").map((l) => l.trim()).filter(Boolean);
  for (const needed of ["package.json", "package.nls.json", "l10n/bundle.l10n.json", "README.md", "CHANGELOG.md", "LICENSE", "THIRD-PARTY-NOTICES.md", "dist/extension.js", "dist/axios.js", "dist/soql-parser.js", "dist/exceljs.js", "dist/html-markdown.js", "dist/mcp-http.js", "dist/mcp.js", "dist/webview/codicons/codicon.ttf", "media/icon.png"]) {
    assert.ok(listed.includes(needed), `${needed} is shipped`);
  }
  assert.deepEqual(listed.filter((f) => /^(src|test|bench|scripts|examples|node_modules)\//.test(f) || /\.map$|\.ts$/.test(f) || /^dist\/client[.-]/.test(f)), []);
  assert.ok(listed.every((f) => existsSync(f)), "every listed file exists");
});

test("npm pack makes the client library's package: its bundles, declarations and command-line tools, nothing of the extension or the sources", () => {
  // `npm test` builds the bundles; the declarations come from `npm run build` (made here when missing).
  if (!existsSync("dist/types/client/index.d.ts")) execFileSync("npm", ["run", "build:types"], { stdio: "pipe" });
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { files: { path: string }[] }[];
  const files = packed!.files.map((f) => f.path);
  for (const needed of ["package.json", "README.md", "LICENSE", "dist/client.js", "dist/client.mjs", "dist/client-bulk.js", "dist/workflows-knowledge-folder.mjs", "dist/client-yaml.js", "dist/workflows-knowledge-check.js", "dist/workflows-migration.js", "dist/crm-knowledge.js", "dist/crm-knowledge-check.js", "dist/crm-knowledge-folder.js", "dist/crm-data.js", "dist/mcp.js", "dist/jsdom.js", "THIRD-PARTY-NOTICES.md", "dist/types/client/index.d.ts", "dist/types/workflows/migration.d.ts",
    // Source maps beside what people run and import: a stack points into src/.
    "dist/client.js.map", "dist/workflows-migration.js.map", "dist/crm-data.js.map", "dist/mcp.js.map"]) assert.ok(files.includes(needed), needed);
  assert.deepEqual(files.filter((f) => !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|THIRD-PARTY-NOTICES\.md|dist\/jsdom\.js|dist\/(client|workflows)(-[\w-]+)?\.m?js|dist\/((client|workflows)(-[\w-]+)?|crm-(knowledge(-check|-folder)?|data)|mcp)\.js\.map|dist\/crm-(knowledge(-check|-folder)?|data)\.js|dist\/mcp\.js|dist\/types\/.+\.d\.ts)$/.test(f)), []);
});
