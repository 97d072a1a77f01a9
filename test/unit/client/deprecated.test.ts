import { test } from "node:test";
import assert from "node:assert/strict";
import { deprecated } from "../../../src/client";

async function warningsDuring(fn: () => void): Promise<Error[]> {
  const seen: Error[] = [];
  const listener = (w: Error) => seen.push(w);
  process.on("warning", listener);
  fn();
  await new Promise((r) => setImmediate(r));
  process.off("warning", listener);
  return seen;
}

test("as a function wrapper: the message names since, replacement and removal; once per call site", async () => {
  const old = deprecated({ since: "0.2.0", replacement: "newThing", removal: "1.0.0" })(function oldThing(x: number) { return x * 2; });
  const seen = await warningsDuring(() => {
    for (let i = 0; i < 3; i++) assert.equal(old(i), i * 2);
    old(5);
  });
  assert.equal(seen.length, 2, "the loop is one call site, the last line another");
  assert.equal(seen[0]!.name, "DeprecationWarning");
  assert.equal(seen[0]!.message, "oldThing is deprecated since 0.2.0. Use newThing instead. It will be removed in 1.0.0.");
});

test("as a TypeScript method decorator, with a custom category", async () => {
  class Service {
    @deprecated({ since: "0.3.0", category: "CrmDeprecation" })
    legacy(): string {
      return "still works";
    }
  }
  const seen = await warningsDuring(() => assert.equal(new Service().legacy(), "still works"));
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.name, "CrmDeprecation");
  assert.equal(seen[0]!.message, "legacy is deprecated since 0.3.0.");
});

test("since is required", () => {
  assert.throws(() => deprecated({} as never)(() => 1), /needs \{ since/);
});
