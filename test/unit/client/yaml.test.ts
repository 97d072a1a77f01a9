import { test } from "node:test";
import assert from "node:assert/strict";
import { dump, load } from "js-yaml";
import { dumpYaml, simpleBlockYaml } from "../../../src/client/yaml";

const jsYaml = (value: unknown) => dump(value, { lineWidth: -1 });

/** A small seeded generator: the same strings on every run, so a failure names a string that fails again. */
function strings(count: number, seed: number): string[] {
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  // Indicators, white space of every kind, escapes, look-alikes of other types, and ordinary text.
  const pieces = ["a", "Z", "0", "1", "9", " ", "  ", ":", ": ", "#", " #", "-", "- ", "?", ",", "[", "]", "{", "}", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`", "~", "=", "<<",
    ".", "e", "E", "x", "_", "+", "\t", "\n", "\r", "\u0085", "\u00a0", "\u2028", "\u2029", "\ufeff", "\u3000", "\u200b", "\u00e9", "\u4e2d", "\ud83d\ude00", "\ud800", "\x7f", "\x00", "\x1b",
    "true", "No", "null", "yes", "y", "on", ".inf", ".NaN", "0x1F", "0o17", "1_000", "1e3", "12:30", "2026-11-29", "2026-11-29T08:00:00Z", "2026-11-29T08:00:00.000+0000", "---", "...", "Title", "How do I"];
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 5) }, () => pieces[Math.floor(next() * pieces.length)]).join(""));
}

test("YAML: an article's file is written without js-yaml's styling, byte for byte what js-yaml writes", () => {
  const article = {
    fields: { Title: "Can't sign in: what now?", UrlName: "cant-sign-in", Summary: "Reset it #1, then - again", Language: "en_US", Rank__c: 3, Internal__c: false, Notes__c: null },
    recordType: "FAQ", dataCategories: ["Products/Laptops", "Regions/Europe"],
    org: { Id: "ka0000000000123AAA", PublishStatus: "Online", VersionNumber: 3, LastModifiedDate: "2026-01-01T00:00:00.000+0000", ArticleNumber: "000200123" },
  };
  const fast = simpleBlockYaml(article);
  assert.ok(fast, "an ordinary article takes the fast path");
  assert.equal(fast, jsYaml(article));
  assert.equal(dumpYaml(article), jsYaml(article));
  assert.deepEqual(load(fast), article);
});

test("YAML: hostile strings as values, list items and nested values come out as js-yaml writes them, or are left to it", () => {
  let fast = 0;
  const all = strings(20_000, 48);
  for (const text of all) {
    const doc = { fields: { Title: text, Both: [text, `x${text}`] }, dataCategories: [], org: { Id: `${text}y` } };
    const mine = simpleBlockYaml(doc);
    if (mine !== undefined) {
      fast++;
      assert.equal(mine, jsYaml(doc), `for ${JSON.stringify(text)}`);
      assert.deepEqual(load(mine), doc, `read back: ${JSON.stringify(text)}`);
    }
    assert.equal(dumpYaml(doc), jsYaml(doc));
  }
  // Most generated strings are one ordinary line: the fast path must take them, or it saves nothing.
  assert.ok(fast > all.length / 4, `fast path taken for ${fast} of ${all.length}`);
});

test("YAML: what the fast path does not take (anchors, skipped values, other numbers, quoted keys) is js-yaml's", () => {
  const shared = { a: 1 };
  const cases: unknown[] = [
    { x: shared, y2: shared }, { a: undefined, b: 1 }, { n: 1.5 }, { n: -0 }, { n: 1e21 }, { n: Number.NaN }, { list: [{ a: 1 }] }, { list: [[1]] },
    { y: 1 }, { null: 1 }, { "two words": 1 }, { "": 1 }, { when: new Date(0) }, {}, { empty: {} }, { nested: { deeper: { deepest: "v" } } }, { text: "two\nlines" }, Object.assign(Object.create(null) as object, { bare: "prototype", list: ["a"] }),
  ];
  for (const doc of cases) assert.equal(dumpYaml(doc), jsYaml(doc), JSON.stringify(doc));
  assert.equal(simpleBlockYaml({ x: shared, y2: shared }), undefined, "an object met twice is js-yaml's (anchor and alias)");
  assert.equal(simpleBlockYaml({ y: 1 }), undefined, "a key read as another type is js-yaml's (quoted)");
  assert.equal(simpleBlockYaml(["a"]), undefined);
  assert.equal(simpleBlockYaml("a"), undefined);
});
