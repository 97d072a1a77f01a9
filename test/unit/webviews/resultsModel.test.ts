/** The results grid's state, apart from drawing: when a summary patches the grid and what a new one keeps. */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ResultsSummary } from "../../../src/webviews/protocol/results";
import { gridFor, patchable, sameRow } from "../../../src/webviews/ui/results/model";

const summary = (over: Partial<ResultsSummary> = {}): ResultsSummary => ({
  alias: "Acme", api: "soql", query: "SELECT Id, Name FROM Account", columns: [{ path: "Id", kind: "value", ids: true }, { path: "Name", kind: "value", ids: false }],
  fetched: 2000, totalSize: 10000, more: true, fetching: true, viewSize: 2000, viewVersion: 1, filter: "", elapsedMs: 120, ranAt: "2026-11-25T10:00:00.000Z",
  staged: { cells: 0, rows: 0 }, layout: { order: [], hidden: [], frozen: 0 }, ...over,
});

test("rows streaming in, edits staged and a fetch ending patch the grid; a new run, sort, filter, layout or columns build it again", () => {
  const shown = summary();
  for (const figures of [{ fetched: 4000, viewSize: 4000, viewVersion: 2 }, { staged: { cells: 1, rows: 1 } }, { fetching: false, more: false, fetched: 10000, viewSize: 10000 }, { notice: "Stopped" }, { elapsedMs: 150 }]) {
    assert.ok(patchable(shown, summary(figures)), `patched for ${JSON.stringify(figures)}`);
  }
  for (const frame of [{ ranAt: "2026-11-25T10:00:05.000Z" }, { query: "SELECT Id FROM Account" }, { sort: { column: 1, descending: false } }, { filter: "acme" },
    { layout: { order: [], hidden: ["Name"], frozen: 0 } }, { columns: [...shown.columns, { path: "Phone", kind: "value" as const, ids: false }] }, { editObject: "Account" }, { explainOnly: true }]) {
    assert.ok(!patchable(shown, summary(frame)), `built again for ${JSON.stringify(frame)}`);
  }
  assert.ok(!patchable(summary({ fetched: 0, viewSize: 0 }), summary()), "the first rows of an empty grid build the grid");
});

test("a new summary of the same run keeps widths, selections and expansions; another run starts afresh", () => {
  const first = gridFor(summary(), undefined);
  first.widths[1] = 250;
  first.selections = [{ anchor: { row: 3, pos: 1 }, active: { row: 9, pos: 1 } }];
  first.expanded.set(4, { column: 1, path: [4, "Contacts"], open: new Set(), tables: new Map() });

  const more = gridFor(summary({ fetched: 4000, viewSize: 4000 }), first);
  assert.equal(more.widths[1], 250);
  assert.deepEqual(more.selections, first.selections);
  assert.equal(more.expanded.size, 1);
  assert.equal(more.autoWidths, false, "widths a person set are not fitted again");

  const sorted = gridFor(summary({ sort: { column: 1, descending: true } }), first);
  assert.equal(sorted.expanded.size, 0, "expansions belong to view rows: a new sort drops them");
  assert.deepEqual(sorted.selections, first.selections);

  const narrower = gridFor(summary({ layout: { order: [], hidden: ["Name"], frozen: 0 } }), first);
  assert.deepEqual(narrower.selections, [{ anchor: { row: 3, pos: 0 }, active: { row: 9, pos: 0 } }], "a selection never points past the columns shown");

  const other = gridFor(summary({ ranAt: "2026-11-25T11:00:00.000Z" }), first);
  assert.deepEqual(other.selections, [{ anchor: { row: 0, pos: 0 }, active: { row: 0, pos: 0 } }]);
  assert.equal(other.autoWidths, true);
});

test("a row that comes back unchanged keeps its node; a staged mark or a new value redraws it", () => {
  const row = { index: 7, cells: ["001A", "Acme"] };
  assert.ok(sameRow(row, { index: 7, cells: ["001A", "Acme"] }));
  assert.ok(!sameRow(row, { index: 7, cells: ["001A", "Acme Ltd"] }));
  assert.ok(!sameRow(row, { ...row, marks: { 1: { state: "staged" } } }));
  assert.ok(!sameRow(undefined, row), "a row drawn while it was still pending is drawn again");
});
