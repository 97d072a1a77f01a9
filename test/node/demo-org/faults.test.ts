import { test } from "node:test";
import assert from "node:assert/strict";
import { useEmulator, demoToken, api } from "../../helpers/emulator";

const emu = useEmulator();

test("expireTokens: every token gets 401 INVALID_SESSION_ID at once", async () => {
  const token = await demoToken(emu());
  emu().setFault("expireTokens", true);
  const res = await api(emu(), token, "/limits");
  assert.equal(res.status, 401);
  assert.equal(res.json[0].errorCode, "INVALID_SESSION_ID");
});

test("unavailable: the next N responses are 503 SERVER_UNAVAILABLE, then normal", async () => {
  const token = await demoToken(emu());
  emu().setFault("unavailable", 2);
  assert.equal((await api(emu(), token, "/limits")).status, 503);
  const second = await api(emu(), token, "/limits");
  assert.deepEqual([second.status, second.json[0].errorCode], [503, "SERVER_UNAVAILABLE"]);
  assert.equal((await api(emu(), token, "/limits")).status, 200);
});

test("latency: responses wait the given time", async () => {
  const token = await demoToken(emu());
  emu().setFault("latencyMs", 150);
  const started = performance.now();
  await api(emu(), token, "/limits");
  const waited = performance.now() - started;
  emu().setFault("latencyMs", 0);
  assert.ok(waited >= 140, `waited ${waited} ms`);
});

test("drop: the connection closes without an answer", async () => {
  const token = await demoToken(emu());
  emu().setFault("drop", 1);
  await assert.rejects(api(emu(), token, "/limits"), /fetch failed|socket|terminated/i);
  assert.equal((await api(emu(), token, "/limits")).status, 200);
});

test("malformedJson: the next body is cut short", async () => {
  const token = await demoToken(emu());
  emu().setFault("malformedJson", 1);
  const res = await api(emu(), token, "/limits");
  assert.equal(res.status, 200);
  assert.throws(() => JSON.parse(res.text));
});

test("requestLimitExceeded: 403 REQUEST_LIMIT_EXCEEDED while on", async () => {
  const token = await demoToken(emu());
  emu().setFault("requestLimitExceeded", true);
  const res = await api(emu(), token, "/limits");
  emu().setFault("requestLimitExceeded", false);
  assert.deepEqual([res.status, res.json[0].errorCode, res.json[0].message], [403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."]);
});

test("faults can be switched over HTTP by another process; unknown ones are refused", async () => {
  const token = await demoToken(emu());
  const res = await fetch(`${emu().url}/__emulator/faults`, { method: "POST", body: JSON.stringify({ name: "unavailable", value: 1 }) });
  assert.equal(res.status, 204);
  assert.equal((await api(emu(), token, "/limits")).status, 503);
  const unknown = await fetch(`${emu().url}/__emulator/faults`, { method: "POST", body: JSON.stringify({ name: "meteor", value: 1 }) });
  assert.equal(unknown.status, 400);
  assert.throws(() => emu().setFault("meteor" as "drop", 1), /unknown fault 'meteor'/);
});
