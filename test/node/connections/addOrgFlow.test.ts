import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { addOrgSteps, BACK, newOrgFromAnswers, runFlow, type Answers, type FlowIO, type Step } from "../../../src/connections/addOrgFlow";
import { UserCancelled } from "../../../src/platform/errorMessages";

const settings = { productionUrl: "https://login.salesforce.com", sandboxUrl: "https://test.salesforce.com", clientId: "DefaultKey" };
const steps = addOrgSteps(settings, async () => [{ label: "prod", value: "ada@acme.com" }]);

/** Answers from a script: each entry answers the next prompt (BACK goes back); records what was shown. */
function scripted(script: (string | typeof BACK)[]) {
  const shown: { key: string; value: string | undefined; step: number; total: number }[] = [];
  const next = (step: Step, value: string | undefined, pos: { step: number; total: number }) => {
    shown.push({ key: step.key, value, step: pos.step, total: pos.total });
    if (!script.length) throw new Error(`no answer scripted for ${step.key}`);
    return Promise.resolve(script.shift()!);
  };
  const io: FlowIO = { input: next, file: next, pick: (step, _items, value, pos) => next(step, value, pos) };
  return { io, shown };
}

test("username-password asks its steps in order, with the consumer key prefilled from settings", async () => {
  const { io, shown } = scripted(["password", "production", "ada@acme.com", "pw", "", "key", "secret", "Acme"]);
  const answers = await runFlow(steps, io, {}, settings);
  assert.deepEqual(shown.map((s) => s.key), ["method", "loginKind", "username", "password", "securityToken", "clientId", "clientSecret", "alias"]);
  assert.equal(shown.find((s) => s.key === "clientId")!.value, "DefaultKey");
  assert.deepEqual(shown.slice(1).map((s) => s.total), Array(7).fill(8), "once the method is known, so is the number of steps");
  const org = await newOrgFromAnswers(answers, settings);
  assert.deepEqual(org.connection, { grant_type: "password", endpoint_url: "https://login.salesforce.com", username: "ada@acme.com", password: "pw", security_token: "", client_id: "key", client_secret: "secret" });
  assert.equal(org.alias, "Acme");
});

test("Back returns to the previous step showing what was typed; a custom login URL adds a step", async () => {
  // Back at the password prompt, Back again at the username: then choose a custom URL and go forward.
  const { io, shown } = scripted(["password", "production", "ada@acme.com", BACK, BACK, "custom", "https://acme.my.salesforce.com", "ada@acme.com", "pw", "tok", "key", "secret", ""]);
  const answers = await runFlow(steps, io, {}, settings);
  assert.deepEqual(shown.filter((s) => s.key === "loginKind").map((s) => s.value), [undefined, "production"], "the earlier choice is shown again");
  assert.deepEqual(shown.filter((s) => s.key === "username").map((s) => s.value), [undefined, "ada@acme.com", "ada@acme.com"], "the typed username is kept");
  assert.equal((await newOrgFromAnswers(answers, settings)).connection.endpoint_url, "https://acme.my.salesforce.com");
});

test("a failed verification restarts at the last step with every answer kept", async () => {
  const answers: Answers = { method: "clientCredentials", loginUrl: "https://acme.my.salesforce.com", clientId: "k", clientSecret: "s", alias: "A" };
  const notices: (string | undefined)[] = [];
  const { io, shown } = scripted(["B"]);
  const input = io.input;
  io.input = (step, value, position) => (notices.push(position.notice), input(step, value, position));
  await runFlow(steps, io, answers, settings, "alias", "invalid client credentials");
  assert.deepEqual(notices, ["invalid client credentials"], "the reason is shown on the step the wizard returns to");
  assert.deepEqual(shown.map((s) => [s.key, s.value]), [["alias", "A"]]);
  assert.equal(answers.alias, "B");
  assert.equal(answers.clientSecret, "s");
});

test("Back on the first step cancels; invalid URLs are refused with the reason", async () => {
  await assert.rejects(runFlow(steps, scripted([BACK]).io, {}, settings), UserCancelled);
  await assert.rejects(runFlow(steps, scripted(["clientCredentials", "http://acme.example.com"]).io, {}, settings), /must use https/);
});

test("access token, helper file and JWT answers become connections", async () => {
  assert.deepEqual((await newOrgFromAnswers({ method: "accessToken", instanceUrl: "https://acme.my.salesforce.com", accessToken: " t0k " }, settings)).connection, { grant_type: "access_token", access_token: "t0k", instance_url: "https://acme.my.salesforce.com" });
  const dir = mkdtempSync(path.join(tmpdir(), "flow-"));
  const helper = path.join(dir, "h.yaml");
  writeFileSync(helper, "connection:\n  endpoint_url: https://login.salesforce.com\n  client_key: k\n  client_secret: s\n  username: u\n  password: p\n");
  assert.equal((await newOrgFromAnswers({ method: "helper", helperFile: helper }, settings)).connection.client_key, "k");
  const key = path.join(dir, "key.pem");
  writeFileSync(key, "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n");
  const jwt = await newOrgFromAnswers({ method: "jwt", loginKind: "sandbox", username: "u", clientId: "k", privateKeyFile: key }, settings);
  assert.equal(jwt.connection.endpoint_url, "https://test.salesforce.com");
  assert.match(jwt.connection.private_key!, /BEGIN PRIVATE KEY/);
});
