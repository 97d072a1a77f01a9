import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { CrmError } from "../../../src/client/errors";
import { workerCalls, workerOf } from "../../../src/cli/workers";

test("batched worker calls: a turn's calls go as one message, each answered in order, a refused one alone refused", async (t) => {
  const worker = workerOf(path.resolve("test/helpers/turnsWorker.ts"), {});
  t.after(() => worker.terminate());
  const { call } = workerCalls([worker], "The test's worker", { batched: true });
  type Answer = { message: number; order: number };
  const first = Array.from({ length: 10 }, (_, i) => call<Answer>(0, i === 4 ? { fail: "refused: the fifth" } : {}));
  const settled = await Promise.allSettled(first);
  assert.deepEqual(settled.map((s) => (s.status === "fulfilled" ? s.value.message : "refused")), [1, 1, 1, 1, "refused", 1, 1, 1, 1, 1], "ten calls of one turn, one message");
  assert.deepEqual(settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.order] : [])), [0, 1, 2, 3, 4, 5, 6, 7, 8], "answered in the order they were made");
  const refused = (settled[4] as PromiseRejectedResult).reason as Error;
  assert.ok(refused instanceof CrmError, "the error keeps its class across the thread");
  assert.equal(refused.message, "refused: the fifth");
  // A call of a later turn is a message of its own.
  assert.equal((await call<Answer>(0, {})).message, 2);
});
