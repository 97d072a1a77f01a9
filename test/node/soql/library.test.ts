import { test } from "node:test";
import assert from "node:assert/strict";
import { applyBinds, bindNames, libraryFileName, libraryHeader, parseLibraryHeader } from "../../../src/soql/library";
import { queriesMatching, savedQuery } from "../../../src/views/queriesModel";

test("library header: name, org, tags and description from the leading comment block; the statement ends it", () => {
  const text = "// name: Open cases of an account\n-- org: Production\n\n// tags: support; weekly,\n// a plain comment\n// description: What an account still waits for.\nSELECT Id FROM Case // name: not this\n";
  assert.deepEqual(parseLibraryHeader(text), { name: "Open cases of an account", org: "Production", tags: ["support", "weekly"], description: "What an account still waits for." });
  assert.deepEqual(parseLibraryHeader("SELECT Id FROM Account"), { tags: [] });
  const written = libraryHeader({ name: "Big deals", org: "Sandbox", tags: ["sales"], description: "Two\nlines" });
  assert.equal(written, "// name: Big deals\n// org: Sandbox\n// tags: sales\n// description: Two lines\n");
  assert.deepEqual(parseLibraryHeader(`${written}SELECT Id FROM Opportunity`), { name: "Big deals", org: "Sandbox", tags: ["sales"], description: "Two lines" });
  assert.equal(libraryFileName("Open cases — of an Account!"), "open-cases-of-an-account.soql");
});

test("binds: :name outside literals and comments, never a date literal's number; values become literals", () => {
  const text = "SELECT Id FROM Case WHERE AccountId = :accountId AND Subject != ':notABind' AND CreatedDate = LAST_N_DAYS:7 AND Status IN :statuses // :commented\nAND Priority = :priority AND AccountId = :accountId";
  assert.deepEqual(bindNames(text), ["accountId", "statuses", "priority"]);
  assert.equal(
    applyBinds(text, { accountId: "001000000000001AAA", statuses: "New, Working", priority: "O'Brien" }),
    "SELECT Id FROM Case WHERE AccountId = '001000000000001AAA' AND Subject != ':notABind' AND CreatedDate = LAST_N_DAYS:7 AND Status IN ('New', 'Working') // :commented\nAND Priority = 'O\\'Brien' AND AccountId = '001000000000001AAA'",
  );
  assert.equal(applyBinds("SELECT Id FROM Account WHERE NumberOfEmployees > :n AND CreatedDate > :since AND IsDeleted = :flag", { n: "50", since: "LAST_N_DAYS:30", flag: "false" }),
    "SELECT Id FROM Account WHERE NumberOfEmployees > 50 AND CreatedDate > LAST_N_DAYS:30 AND IsDeleted = false");
  assert.throws(() => applyBinds("SELECT Id FROM Account WHERE Name = :name", {}), /No value for the bind variable :name/);
});

test("Queries view model: saved queries by name with their header, histories per org, one search over both", () => {
  const library = [
    savedQuery("file:///ws/queries/big-deals.soql", "// name: Big deals\n// org: Production\n// tags: sales, weekly\nSELECT Id FROM Opportunity\n  WHERE Amount > :min"),
    savedQuery("file:///ws/queries/open%20cases.soql", "// a note, no header\nSELECT Id FROM Case WHERE IsClosed = false"),
  ];
  assert.deepEqual(library[0], { uri: "file:///ws/queries/big-deals.soql", name: "Big deals", org: "Production", tags: ["sales", "weekly"], statement: "SELECT Id FROM Opportunity WHERE Amount > :min" });
  assert.equal(library[1]!.name, "open cases", "no header: the file's name");
  const histories = [{ orgKey: "a", alias: "Sandbox", entries: [{ text: "SELECT Id FROM Account", api: "soql" as const, ranAt: "2026-01-01T00:00:00Z", rows: 3, durationMs: 10 }] }];
  assert.deepEqual(queriesMatching(library, histories, "").library.map((q) => q.name), ["Big deals", "open cases"]);
  assert.deepEqual(queriesMatching(library, histories, "WEEKLY opportunity").library.map((q) => q.name), ["Big deals"]);
  const cases = queriesMatching(library, histories, "case");
  assert.deepEqual([cases.library.map((q) => q.name), cases.histories], [["open cases"], []], "a history with no match is left out while searching");
  assert.equal(queriesMatching(library, histories, "sandbox account").histories[0]!.entries.length, 1, "the org's name is searched too");
});
