import { test } from "node:test";
import assert from "node:assert/strict";
import { APIRequestError, AuthenticationError, CancelledError, InvalidURLError, NetworkError } from "../../../src/client";
import { Redactor } from "../../../src/platform/redact";
import { CommandRefusal, describeError, UserCancelled } from "../../../src/platform/errorMessages";
import { statusText } from "../../../src/platform/statusText";

test("redaction masks bearer tokens, session IDs, secrets in forms and JSON, private keys, and remembered values", () => {
  const r = new Redactor();
  r.remember("hunter2-password");
  const text = [
    "Authorization: Bearer 00D5g0000000001!AQ4AQFakeTokenValue",
    "token 00D5g000004Xyz1!AbC.def-ghi used",
    "grant_type=password&password=s3cret&client_secret=abc123&code_verifier=xyz",
    '{"access_token":"tok","refresh_token":"r\\"x","clientSecret":"cs","name":"Ada"}',
    "-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----",
    "typed hunter2-password by mistake",
  ].join("\n");
  const out = r.redact(text);
  for (const secret of ["AQ4AQFakeTokenValue", "AbC.def-ghi", "s3cret", "abc123", "xyz", '"tok"', 'r\\"x', '"cs"', "MIIEv", "hunter2-password"]) {
    assert.ok(!out.includes(secret), `${secret} leaked: ${out}`);
  }
  assert.match(out, /"name":"Ada"/, "ordinary data stays");
});

test("errors map to actionable messages; cancellation stays silent", () => {
  const expired = describeError(new APIRequestError({ status: 401, errorCode: "INVALID_SESSION_ID", message: "Session expired or invalid", method: "GET", path: "/x" }), { orgAlias: "acme" });
  assert.deepEqual(expired.actions, ["Sign In Again", "Show Log"]);
  assert.match(expired.message!, /acme/);
  assert.deepEqual(describeError(new AuthenticationError("x", 400, "invalid_grant", "expired access/refresh token")).actions, ["Sign In Again", "Show Log"]);
  assert.deepEqual(describeError(new InvalidURLError("The URL 'x' is invalid")).actions, ["Open Settings"]);
  const offline = describeError(new NetworkError("GET /x could not reach the org", "ECONNREFUSED", "GET", "/x"));
  assert.deepEqual(offline.actions, ["Retry", "Show Log"]);
  assert.match(describeError(new NetworkError("GET /x timed out after 30 s", "ETIMEDOUT", "GET", "/x")).message!, /did not answer in time/);
  const refused = describeError(new APIRequestError({ status: 400, errorCode: "REQUIRED_FIELD_MISSING", message: "m", fields: ["LastName"], method: "POST", path: "/x", errors: [{ errorCode: "REQUIRED_FIELD_MISSING", message: "Required fields are missing: [LastName]" }] }));
  assert.match(refused.message!, /REQUIRED_FIELD_MISSING: Required fields are missing: \[LastName\] \(fields: LastName\)/);
  assert.equal(describeError(new UserCancelled()).message, null);
  assert.equal(describeError(new CancelledError("x")).message, null);
});

test("a command's refusal is shown as it says, with the log to hand; an unexpected error says something went wrong", () => {
  const refusal = describeError(new CommandRefusal("There is no org yet. Add one with 'CRM: Add Org'."));
  assert.deepEqual(refusal, { message: "There is no org yet. Add one with 'CRM: Add Org'.", actions: ["Show Log"], severity: "error" });
  assert.equal(describeError(new Error("socket hang up")).message, "Something went wrong: socket hang up");
});

test("error messages pass through the redactor", () => {
  const r = new Redactor();
  r.remember("supersecret-token");
  assert.ok(!describeError(new Error("failed with supersecret-token"), { redactor: r }).message!.includes("supersecret-token"));
});

test("status text: alias and API usage, warning above 80 %, signed-out state", () => {
  assert.deepEqual(statusText("acme", { used: 1204, max: 15000 }, true), {
    text: "$(cloud) acme · API 1,204/15,000",
    tooltip: "acme: 1,204 of 15,000 daily API requests used (8 %). Click to switch org or show org info.",
    warning: false,
  });
  assert.equal(statusText("acme", { used: 12_001, max: 15_000 }, true).warning, true);
  assert.equal(statusText("acme", { used: 12_000, max: 15_000 }, true).warning, false, "exactly 80 % is not above");
  assert.equal(statusText("acme", undefined, true).text, "$(cloud) acme");
  assert.match(statusText("acme", undefined, false).text, /signed out/);
});

test("status text says when writes ask first — production, or a kind that could not be read — and not when the guard is off", () => {
  const production = statusText("acme", undefined, true, { kind: "production", guarded: true });
  assert.equal(production.text, "$(warning) acme (production)");
  assert.match(production.tooltip, /Every write asks for confirmation first/);
  const unknown = statusText("acme", undefined, true, { kind: "unknown", guarded: true });
  assert.deepEqual([unknown.text, unknown.warning], ["$(warning) acme (kind unknown)", true]);
  assert.match(unknown.tooltip, /Every write asks for confirmation first/);
  const off = statusText("acme", { used: 1, max: 100 }, true, { kind: "production", guarded: false });
  assert.doesNotMatch(off.tooltip, /asks for confirmation/, "the guard turned off for this org: no promise it keeps");
  assert.equal(statusText("acme", undefined, true, { kind: "sandbox", guarded: false }).text, "$(cloud) acme");
});
