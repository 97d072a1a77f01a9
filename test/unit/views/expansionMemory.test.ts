import { test } from "node:test";
import assert from "node:assert/strict";
import { ExpansionMemory, REMEMBERED_ROWS, type StateStore } from "../../../src/views/expansionMemory";

/** A workspace state that outlives the memory reading it, as VS Code's does across a window reload. */
function workspaceState(): StateStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return { values, get: <T>(key: string, fallback: T) => (values.has(key) ? (values.get(key) as T) : fallback), update: async (key, value) => void values.set(key, value) };
}
const COLLAPSED = 1, EXPANDED = 2, NONE = 0;

test("after a reload, the groups a person opened open again and the ones they closed stay closed", () => {
  const state = workspaceState();
  const before = new ExpansionMemory(state, "knowledge");
  before.set("kgroup:acme:Online", true);
  before.set("kgroup:acme:Draft", false);

  const after = new ExpansionMemory(state, "knowledge"); // the new window's view
  assert.equal(after.apply({ id: "kgroup:acme:Online", collapsibleState: COLLAPSED }).collapsibleState, EXPANDED);
  assert.equal(after.apply({ id: "kgroup:acme:Draft", collapsibleState: EXPANDED }).collapsibleState, COLLAPSED, "a group open by default that was closed stays closed");
  assert.equal(after.apply({ id: "kgroup:acme:Archived", collapsibleState: COLLAPSED }).collapsibleState, COLLAPSED, "untouched rows keep their default");
  assert.equal(after.apply({ id: "kgroup:acme:Online", collapsibleState: NONE }).collapsibleState, NONE, "a row with nothing under it never becomes expandable");
  assert.equal(new ExpansionMemory(state, "feeds").apply({ id: "kgroup:acme:Online", collapsibleState: COLLAPSED }).collapsibleState, COLLAPSED, "each view remembers its own rows");
});

test("the memory is bounded: the oldest choices are forgotten first, a choice made again is kept as new", () => {
  const state = workspaceState();
  const memory = new ExpansionMemory(state, "feeds");
  memory.set("feed:first", true);
  for (let i = 0; i < REMEMBERED_ROWS - 1; i++) memory.set(`feed:${i}`, true);
  memory.set("feed:first", true); // opened again: now the newest
  memory.set("feed:last", true);
  const kept = state.values.get("crm.feeds.expanded") as Record<string, boolean>;
  assert.equal(Object.keys(kept).length, REMEMBERED_ROWS);
  assert.equal(kept["feed:first"], true);
  assert.equal(kept["feed:0"], undefined, "the oldest went");
});
