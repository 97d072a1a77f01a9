/** The panels draw only in the theme's colours: light, dark and both high-contrast themes then hold by themselves. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const KEYWORDS = new Set(["inherit", "initial", "unset", "transparent", "currentcolor", "none"]);
const COLOR_PROPERTY = /^(color|background(-color)?|border(-[a-z]+)*(-color)?|outline(-color)?|box-shadow|fill|stroke|caret-color|text-decoration(-color)?|accent-color)$/;

/** The literal colours a declaration's value uses outside theme variables (a fallback inside var() aside). */
function literalColors(value: string): string[] {
  let bare = value;
  // Remove var(...) calls, innermost first, fallbacks included.
  for (let before = ""; before !== bare; ) {
    before = bare;
    bare = bare.replace(/var\([^()]*\)/g, "");
  }
  const found = [...bare.matchAll(/#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|color-mix)\(|\b[a-z]+\b/gi)].map((m) => m[0]);
  return found.filter((word) => /^#|\($/.test(word) || (!KEYWORDS.has(word.toLowerCase()) && CSS_NAMED.has(word.toLowerCase())));
}
const CSS_NAMED = new Set(["black", "white", "red", "green", "blue", "gray", "grey", "yellow", "orange", "purple", "silver", "navy", "teal", "maroon", "olive", "lime", "aqua", "fuchsia", "pink", "brown"]);

test("every colour in the panels' stylesheets is a theme variable", () => {
  const dir = "media/webview";
  const offenders: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".css"))) {
    const css = readFileSync(path.join(dir, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    for (const [, property, value] of css.matchAll(/([a-z-]+)\s*:\s*([^;{}]+)/g)) {
      if (COLOR_PROPERTY.test(property!) && literalColors(value!).length) offenders.push(`${file}: ${property}: ${value!.trim()}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test("the panels' scripts set no colour of their own", () => {
  const dir = "src/webviews/ui";
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const code = readFileSync(path.join(dir, file), "utf8");
    assert.doesNotMatch(code, /\.style\.(color|background|backgroundColor|borderColor|outlineColor)\s*=/, file);
    assert.doesNotMatch(code, /#[0-9a-f]{6}\b/i, `${file} holds a literal colour`);
  }
});

test("the check itself finds literal colours (it can fail)", () => {
  assert.deepEqual(literalColors("1px solid #f00"), ["#f00"]);
  assert.deepEqual(literalColors("rgba(0, 0, 0, 0.5)"), ["rgba("]);
  assert.deepEqual(literalColors("1px solid red"), ["red"]);
  assert.deepEqual(literalColors("var(--vscode-focusBorder, #007fd4)"), [], "a fallback inside var() is the theme's");
  assert.deepEqual(literalColors("inset 3px 0 0 var(--vscode-editorGutter-modifiedBackground, var(--vscode-focusBorder))"), []);
});
