import { test } from "node:test";
import assert from "node:assert/strict";
import { TreeChangeQueue } from "../../../src/views/treeChanges";

const tick = () => new Promise((r) => setTimeout(r, 5));

test("changes fired while getChildren is pending wait until every pending answer is in, then go out once each", async () => {
  const fired: (string | undefined)[] = [];
  const queue = new TreeChangeQueue<string>((n) => fired.push(n));
  let finish!: () => void;
  const pending = queue.track(() => new Promise<string[]>((resolve) => (finish = () => resolve(["a"]))));
  queue.fire("drafts");
  queue.fire("published");
  queue.fire("drafts");
  await tick();
  assert.deepEqual(fired, [], "nothing reaches VS Code while an answer is pending");
  finish();
  assert.deepEqual(await pending, ["a"]);
  await tick();
  assert.deepEqual(fired, ["drafts", "published"], "each node once, after the answer");
});

test("a whole-tree change swallows node changes gathered with it; idle changes go out on the next turn", async () => {
  const fired: (string | undefined)[] = [];
  const queue = new TreeChangeQueue<string>((n) => fired.push(n));
  queue.fire("drafts");
  queue.fire(undefined);
  queue.fire("feeds");
  await tick();
  assert.deepEqual(fired, [undefined]);
  queue.fire("drafts");
  await tick();
  assert.deepEqual(fired, [undefined, "drafts"]);
});

test("a getChildren that fails still releases the held changes", async () => {
  const fired: (string | undefined)[] = [];
  const queue = new TreeChangeQueue<string>((n) => fired.push(n));
  const failing = queue.track(async () => {
    queue.fire("drafts");
    throw new Error("offline");
  });
  await assert.rejects(failing, /offline/);
  await tick();
  assert.deepEqual(fired, ["drafts"]);
  queue.dispose();
});
