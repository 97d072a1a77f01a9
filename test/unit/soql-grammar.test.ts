/** The SOQL TextMate grammar tokenised by VS Code's own engine (vscode-textmate + Oniguruma). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as oniguruma from "vscode-oniguruma";
import { INITIAL, Registry, parseRawGrammar, type IGrammar } from "vscode-textmate";

async function loadGrammar(): Promise<IGrammar> {
  const wasm = readFileSync(createRequire(__filename).resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async () => parseRawGrammar(readFileSync("syntaxes/soql.tmLanguage.json", "utf8"), "soql.tmLanguage.json"),
  });
  return (await registry.loadGrammar("source.soql"))!;
}

function scopesOf(grammar: IGrammar, line: string): Map<string, string> {
  const { tokens } = grammar.tokenizeLine(line, INITIAL);
  return new Map(tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]!]));
}

test("keywords, functions, date literals, strings, numbers, bind variables and comments get their scopes", async () => {
  const grammar = await loadGrammar();
  const scopes = scopesOf(grammar, "SELECT COUNT(Id), Owner.Name FROM Account WHERE Name LIKE 'Ac\\'me%' AND CreatedDate = LAST_N_DAYS:30 AND Amount > 10.5 AND Id = :recordId // why");
  assert.equal(scopes.get("SELECT"), "keyword.other.soql");
  assert.equal(scopes.get("COUNT"), "support.function.soql");
  assert.equal(scopes.get("Owner.Name"), "variable.other.field.soql");
  assert.equal(scopes.get("LIKE"), "keyword.operator.logical.soql");
  assert.equal(scopes.get("\\'"), "constant.character.escape.soql");
  assert.equal(scopes.get("LAST_N_DAYS:30"), "constant.language.date-literal.soql");
  assert.equal(scopes.get("10.5"), "constant.numeric.soql");
  assert.equal(scopes.get(":recordId"), "variable.other.bind.soql");
  assert.equal(scopes.get("// why"), "comment.line.double-slash.soql");
  const dates = scopesOf(grammar, "WHERE CloseDate > 2024-01-31 AND LastModifiedDate < TODAY");
  assert.equal(dates.get("2024-01-31"), "constant.other.date.soql");
  assert.equal(dates.get("TODAY"), "constant.language.date-literal.soql");
});

test("the language configuration is valid JSON with comments, brackets and auto-closing quotes", () => {
  const config = JSON.parse(readFileSync("language-configuration.json", "utf8"));
  assert.deepEqual(config.comments, { lineComment: "//", blockComment: ["/*", "*/"] });
  assert.ok(config.autoClosingPairs.some((p: { open: string }) => p.open === "'"));
  const manifest = JSON.parse(readFileSync("package.json", "utf8"));
  assert.deepEqual(manifest.contributes.languages[0].extensions, [".soql"]);
});
