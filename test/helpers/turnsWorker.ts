/** A worker of batched calls for test/node/cli/workers.test.ts: each call answered with the message it came in and its place in the worker's order; `fail` refuses it. */
import { parentPort } from "node:worker_threads";
import { CrmError } from "../../src/client/errors";
import { answerInTurn } from "../../src/cli/workers";

let messages = 0;
let handled = 0;
parentPort!.on("message", () => messages++);
answerInTurn<{ id: number; fail?: string }>(parentPort!, async (call) => {
  if (call.fail) throw new CrmError(call.fail);
  return { message: messages, order: handled++ };
});
