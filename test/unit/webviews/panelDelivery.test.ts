import { test } from "node:test";
import assert from "node:assert/strict";
import { PanelDelivery } from "../../../src/webviews/panelDelivery";

/** A webview's side: what it received, in order. */
function webview() {
  const got: string[] = [];
  return { got, delivery: new PanelDelivery<string>((m) => void got.push(m)) };
}

test("what a panel posts before its webview is ready waits, and arrives in order at ready: nothing is lost", () => {
  const { got, delivery } = webview();
  // The load starts at the click, before the webview's script runs.
  delivery.show("loading");
  delivery.show("results");
  delivery.post("progress 1");
  delivery.post("progress 2");
  assert.deepEqual(got, [], "nothing is sent to a webview that cannot take it");
  delivery.ready();
  assert.deepEqual(got, ["results", "progress 1", "progress 2"], "the state (which supersedes loading), then what followed it, in order");
  delivery.post("notice");
  assert.deepEqual(got.at(-1), "notice", "once ready, messages go straight out");
});

test("a webview hidden and shown again starts over: it is given the current state, then what came after", () => {
  const { got, delivery } = webview();
  delivery.ready();
  delivery.show("run 1");
  delivery.hidden();
  delivery.post("progress while hidden");
  delivery.show("run 2");
  delivery.post("notice after run 2");
  got.length = 0;
  delivery.ready();
  assert.deepEqual(got, ["run 2", "notice after run 2"], "what was posted before the newer state is superseded");
  delivery.hidden();
  got.length = 0;
  delivery.ready();
  assert.deepEqual(got, ["run 2"], "nothing new: the state again, so the panel is never blank");
  delivery.keep("run 2 with staged edits");
  delivery.hidden();
  got.length = 0;
  delivery.ready();
  assert.deepEqual(got, ["run 2 with staged edits"], "a kept state is what a restarted webview gets");
});
