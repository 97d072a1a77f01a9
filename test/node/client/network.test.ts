/**
 * What a real network makes costly: sequential round trips and new connections. Counts, never timings
 * (a little latency is added so that requests sent together overlap at the emulator as on a network).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm } from "../../../src/client";
import { closedAfterTests, demoOptions, sentDuring, sequentialRounds, useEmulator } from "../../helpers/emulator";

const emu = useEmulator();
const track = closedAfterTests();

const withLatency = (work: () => Promise<unknown>) => sentDuring(emu(), work);

test("a first call signs in, then goes out beside the user's info instead of after it: two round trips, not three", async () => {
  const crm = track(new Crm(demoOptions(emu(), { version: "62.0" })));
  const sent = await withLatency(() => crm.soqlQuery("SELECT Id FROM Account LIMIT 1"));
  assert.deepEqual(sent.map((r) => r.path).sort(), ["/services/data/v62.0/query", "/services/oauth2/token", "/services/oauth2/userinfo"]);
  assert.equal(sequentialRounds(sent), 2, sent.map((r) => `${r.path} ${r.receivedAt}-${r.answeredAt}`).join("\n"));
  assert.ok(crm.userId, "the user is still known once connected");
  await crm.connect();
  assert.equal(crm.currentUserInfo?.user_id, emu().seeded.adminId);
});

test("a sign-in the org refuses fails the first call with the org's words, and nothing is left unhandled", async () => {
  const crm = track(new Crm(demoOptions(emu(), { version: "62.0", password: "wrong" })));
  await assert.rejects(crm.soqlQuery("SELECT Id FROM Account"), /authentication failure|invalid_grant/i);
});

test("connections are kept alive: a session's calls, one after another, share one connection; calls at once open at most one each, then reuse them", async () => {
  const crm = track(new Crm(demoOptions(emu(), { version: "62.0" })));
  await crm.connect();
  const sequential = await withLatency(async () => {
    for (let i = 0; i < 8; i++) await crm.getJson(await crm.apiPath(`/sobjects/Account/describe?n=${i}`));
  });
  assert.equal(new Set(sequential.map((r) => r.connection)).size, 1, "eight calls, one connection");
  const parallel = await withLatency(() => Promise.all(["Account", "Contact", "Case", "User"].map(async (o) => crm.describeObject(o))));
  const opened = new Set(parallel.map((r) => r.connection));
  assert.ok(opened.size <= 4);
  const after = await withLatency(() => Promise.all(["Account", "Contact", "Case", "User"].map(async (o) => crm.describeObject(o))));
  assert.ok(after.every((r) => opened.has(r.connection) || sequential[0]!.connection === r.connection), "no new connection for the next calls");
  assert.ok([...sequential, ...parallel].every((r) => /\bgzip\b/.test(String(r.headers["accept-encoding"]))), "every call accepts compressed answers");
});
