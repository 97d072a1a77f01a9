/** Runtime strings go through vscode.l10n.t, and the bundle the ecosystem's tool generates holds every one of them. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The files whose user-facing strings are all localized so far (the rest of src/ follows: see the README). */
const LOCALIZED = ["src/commands/orgs.ts", "src/commands/feeds.ts", "src/commands/records.ts", "src/commands/objects.ts", "src/commands/queries.ts", "src/commands/compare.ts",
  "src/views/knowledgeView.ts", "src/views/feedsView.ts", "src/views/orgsView.ts", "src/views/queriesView.ts", "src/views/activeOrg.ts", "src/views/perOrgTree.ts", "src/views/objectsView.ts",
  "src/commands/documents.ts", "src/commands/history.ts", "src/platform/statusText.ts", "src/connections/addOrgFlow.ts", "src/connections/quickInputFlow.ts", "src/soql/runProviders.ts", "src/shared/cellInput.ts",
  "src/webviews/resultsPanel.ts", "src/webviews/orgInfoPanel.ts", "src/webviews/articlePanel.ts", "src/webviews/previewPanel.ts", "src/webviews/gridEdits.ts", "src/webviews/queryRun.ts",
  "src/webviews/ui/dom.ts", "src/webviews/ui/results.main.ts", "src/webviews/ui/article.main.ts", "src/webviews/ui/orgInfo.main.ts", "src/webviews/ui/preview.main.ts"];

test("l10n/bundle.l10n.json is what @vscode/l10n-dev extracts from the sources now: no t() string is missing from it", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "crm-l10n-"));
  try {
    execFileSync(process.execPath, [path.resolve("node_modules/@vscode/l10n-dev/dist/cli.js"), "export", "--outDir", dir, "./src"], { stdio: "pipe" });
    const extracted = JSON.parse(readFileSync(path.join(dir, "bundle.l10n.json"), "utf8")) as Record<string, unknown>;
    const committed = JSON.parse(readFileSync("l10n/bundle.l10n.json", "utf8")) as Record<string, unknown>;
    assert.deepEqual(Object.keys(extracted).filter((k) => !(k in committed)), [], "run `npm run l10n` and commit l10n/bundle.l10n.json");
    assert.deepEqual(Object.keys(committed).filter((k) => !(k in extracted)), [], "strings no longer used: run `npm run l10n`");
    assert.ok(Object.keys(committed).length >= 40);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** String literals shown to the user (after one of these, as a tree row, or as a panel's button, label or text), with words of their own once interpolations, icons and file extensions are taken out. */
function literalStrings(code: string): string[] {
  return [...code.matchAll(/(?:show(?:Information|Warning|Error)Message\(|\b(?:title|prompt|place[Hh]older|detail|label|message|notice|description|tooltip) ?[:=] |new Error\(|new MessageNode\(|new (?:vscode\.)?TreeItem\(|\bbutton\(|"aria-label": |showMessage\(app, |(?<!\.)\badd\(|\bel\("\w+", \{[^{}]*\}, )\s*(?:"([^"]*)"|`((?:[^`\\]|\\.)*)`)/g)]
    .filter((m) => /[A-Za-z]{3}/.test((m[1] ?? m[2] ?? "").replace(/\$\{[^}]*\}/g, "").replace(/\$\([\w-]+\)/g, "").replace(/https?:\/\/\S+|\S+@\S+/g, "").replace(/\.[a-z]+\b/g, "")))
    .map((m) => m[0]);
}

test("in the localized files, every message, title, prompt, placeholder, label and detail is a vscode.l10n.t string", () => {
  for (const file of LOCALIZED) assert.deepEqual(literalStrings(readFileSync(file, "utf8")), [], `${file} shows literal strings`);
});

test("the literal check finds literal strings (it can fail)", () => {
  assert.equal(literalStrings('showInformationMessage("No org is signed in.")').length, 1);
  assert.equal(literalStrings("{ title: `Rename ${org.alias}` }").length, 1);
  assert.equal(literalStrings('{ label: "$(add) Add Org…" }').length, 1);
  assert.deepEqual(literalStrings('{ label: `${o.key === active ? "$(check) " : ""}${o.alias}` }'), [], "no words of its own");
  assert.deepEqual(literalStrings('showInformationMessage(vscode.l10n.t("Added {0}.", a))'), []);
  assert.deepEqual(literalStrings("{ label: `${name}.json` }"), [], "a file name is no sentence");
  assert.deepEqual(literalStrings('{ placeholder: "https://acme.my.salesforce.com" }'), [], "an example address is no sentence");
  assert.equal(literalStrings('new MessageNode("No posts yet", undefined, "info")').length, 1, "a tree's message row");
  assert.equal(literalStrings('new vscode.TreeItem("Load more…")').length, 1, "a tree row's own label");
  assert.deepEqual(literalStrings("new vscode.TreeItem(`${c.author}: ${firstLine(c.text)}`)"), [], "a row of the org's data");
  assert.equal(literalStrings('button("Fetch All", "cloud-download", fetchAll)').length, 1, "a panel's button");
  assert.equal(literalStrings('el("p", { class: "message" }, "No rows.")').length, 1, "a panel's text");
  assert.equal(literalStrings('el("td", { scope: "col", "aria-label": "Rows fetched" })').length, 1, "a panel's label for screen readers");
});
