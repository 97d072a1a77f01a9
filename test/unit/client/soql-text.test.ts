import { test } from "node:test";
import assert from "node:assert/strict";
import { soqlLiteral, escapeSoslTerm } from "../../../src/client";
import { replaceDoubleQuotes } from "../../../src/client/soql-text";
import { parseQuery } from "@jetstreamapp/soql-parser-js";

test("soqlLiteral escapes quotes and backslashes so a title cannot break out of the literal", () => {
  const hostile = "O'Brien\\' OR Name != '";
  const soql = `SELECT Id FROM Account WHERE Name = ${soqlLiteral(hostile)}`;
  const parsed = parseQuery(soql);
  const where = parsed.where?.left as { value: string } | undefined;
  assert.equal(parsed.where && "right" in parsed.where ? parsed.where.right : undefined, undefined, "a single condition, no injected OR");
  assert.equal(where?.value, `'O\\'Brien\\\\\\' OR Name != \\''`);
});

test("replaceDoubleQuotes leaves double quotes inside single-quoted literals alone", () => {
  assert.equal(replaceDoubleQuotes(`SELECT Id FROM Account WHERE Name = "Acme"`), `SELECT Id FROM Account WHERE Name = 'Acme'`);
  assert.equal(replaceDoubleQuotes(`SELECT Id FROM Account WHERE Name = 'say "hi"' AND Type = "X"`), `SELECT Id FROM Account WHERE Name = 'say "hi"' AND Type = 'X'`);
  assert.equal(replaceDoubleQuotes(`WHERE Name = 'it\\'s "ok"'`), `WHERE Name = 'it\\'s "ok"'`);
});

test("escapeSoslTerm escapes every reserved character", () => {
  assert.equal(escapeSoslTerm("a-b (c) {d} *e?"), "a\\-b \\(c\\) \\{d\\} \\*e\\?");
  assert.throws(() => escapeSoslTerm("  "), TypeError);
});
