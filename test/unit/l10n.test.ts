/** Runtime strings go through vscode.l10n.t, and the bundle the ecosystem's tool generates holds every one of them. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Every source file but the client library's, which speaks English like the Node libraries it sits beside, and the
 * demo org's, whose words are the org's own (an org answers in its own language, as the org's data does), and the
 * command-line tools', which speak English in a terminal and a pipeline's log as the client does. Each is
 * read for literal strings shown to the user: a new file is checked from the start.
 */
const ENGLISH_ROOMS = [
  path.join("src", "client"), path.join("src", "workflows"), path.join("src", "demo-org"), path.join("src", "cli"),
  // The agent's tools speak to a model, in English like the client; their VS Code adapter speaks to people (the
  // tools' names and lines for people in VS Code are package.nls.json's, generated from their specs).
  path.join("src", "agent", "tools"),
  ...["catalog", "tools", "changeSets", "mcpServer", "mcpProtocol", "mcpHttp", "articleText", "quoted", "stdioTransport", "inert", "trust"].map((f) => path.join("src", "agent", `${f}.ts`)),
];
function sourceFiles(dir = "src"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (ENGLISH_ROOMS.includes(file)) return [];
    if (entry.isDirectory()) return sourceFiles(file);
    return file.endsWith(".ts") ? [file] : [];
  });
}

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

/** A literal's own words: interpolations (nested ones too), placeholders, icons, command links, addresses and file extensions taken out. */
function ownWords(text: string): string {
  let rest = text;
  for (let before = ""; before !== rest; ) [before, rest] = [rest, rest.replace(/\{[^{}]*\}/g, "")];
  return rest.replace(/\$\{.*$/s, "").replace(/\$\([\w-]+\)/g, "").replace(/\(command:[^)]*\)/g, "").replace(/https?:\/\/\S+|\S+@\S+/g, "").replace(/\.[a-z]+\b/g, "");
}

/**
 * String literals shown to the user (after one of these, as a tree row or tooltip, as an error, or as a panel's
 * button, label or text) with a word of their own (a lowercase run: SOQL such as "SELECT … FROM" is no sentence).
 */
function literalStrings(code: string): string[] {
  return [...code.matchAll(/(?:show(?:Information|Warning|Error)Message\(|setStatusBarMessage\(|with(?:View|Cancellable)Progress\(|\b(?:title|prompt|place[Hh]older|detail|label|message|notice|description|tooltip|reason|markdown|readOnly|openLabel) ?[:=] |new \w*(?:Error|Refusal)\(|(?:Unavailable|NoPermissions)\(|MarkdownString\(|append(?:Markdown|Text)\(|new MessageNode\(|new (?:vscode\.)?TreeItem\(|\bbutton\(|"aria-label": |showMessage\(app, |(?<!\.)\badd\(|\bel\("\w+", \{[^{}]*\}, )\s*(?:"([^"]*)"|`((?:[^`\\]|\\.)*)`)(?!\s+in\b)/g)]
    .filter((m) => /[A-Za-z][a-z]{2}/.test(ownWords(m[1] ?? m[2] ?? "")))
    .map((m) => m[0]);
}

test("outside the client library, every message, title, prompt, placeholder, label, tooltip and error is an l10n.t string", () => {
  const files = sourceFiles();
  assert.ok(files.length > 100 && files.includes(path.join("src", "commands", "knowledge.ts")) && !files.some((f) => f.startsWith(path.join("src", "client"))));
  for (const file of files) assert.deepEqual(literalStrings(readFileSync(file, "utf8")), [], `${file} shows literal strings`);
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
  assert.equal(literalStrings('throw new RangeError(`${field.name} takes a number, got \'${value}\'`)').length, 1, "an error a command shows");
  assert.equal(literalStrings("new vscode.MarkdownString(`**${a.title}**\\n\\n- Version: ${a.versionNumber}`)").length, 1, "a tooltip");
  assert.equal(literalStrings("appendMarkdown(`**${escape(alias)}**${active ? ` ${'(active)'}` : \"\"} is active`)").length, 0, "the words after a nested template are not read (it cannot tell them apart)");
  assert.deepEqual(literalStrings('tip.appendMarkdown(`[$(info) ${vscode.l10n.t("Limits")}](command:crm.org.showInfo)`)'), [], "a command link is no sentence");
  assert.deepEqual(literalStrings("detail: `${vscode.l10n.t(\"- Type: {0}\", type)}`"), [], "placeholders inside a t() call are not the literal's words");
  assert.deepEqual(literalStrings('{ label: "(SELECT … FROM …)" }'), [], "SOQL is no sentence");
  assert.deepEqual(literalStrings('{ reason: "reason" in run.editing ? run.editing.reason : t("x") }'), [], "a property test is no text");
});
