import { test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { compileConnectionInfo, defineConnectionInfo, strategyFromConnection, MissingRequiredDataError } from "../../../src/client";

const fields = ["https://acme.my.salesforce.com", "00D5g000004Xyz1EAC", "ada@example.com", "s3cret-pass", "https://login.salesforce.com", "key", "consumer-secret", "TOKEN"] as const;

test("compileConnectionInfo packs all eight fields and names a missing one", () => {
  const info = compileConnectionInfo(...fields);
  assert.deepEqual(Object.keys(info), ["base_url", "org_id", "username", "password", "endpoint_url", "client_id", "client_secret", "security_token"]);
  assert.equal(info.client_id, "key");
  const missing = [...fields] as unknown[];
  missing[4] = undefined;
  assert.throws(() => compileConnectionInfo(...(missing as [string, string, string, string, string, string, string, string])), (e: unknown) => e instanceof MissingRequiredDataError && e.parameter === "endpoint_url");
  const wrongType = [...fields] as unknown[];
  wrongType[2] = 42;
  assert.throws(() => compileConnectionInfo(...(wrongType as [string, string, string, string, string, string, string, string])), { name: "TypeError", message: /'username' must be a string/ });
  assert.equal(compileConnectionInfo(...fields.slice(0, 7) as [string, string, string, string, string, string, string], "").security_token, "", "trusted IPs need no token");
});

test("defineConnectionInfo asks in order and does not echo the password, secret or token", async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (d: Buffer) => (shown += d.toString()));
  const answer = defineConnectionInfo({ input, output });
  input.end(fields.join("\n") + "\n");
  const info = await answer;
  assert.deepEqual(info, compileConnectionInfo(...fields));
  for (const prompt of ["Instance URL:", "Org ID:", "Username:", "Password:", "Endpoint URL:", "Client ID:", "Client Secret:", "Security Token:"]) assert.ok(shown.includes(`${prompt} [] `), prompt);
  for (const secret of ["s3cret-pass", "consumer-secret", "TOKEN"]) assert.ok(!shown.includes(secret), `${secret} is not shown`);
});

test("defineConnectionInfo reports input that ends early", async () => {
  const input = new PassThrough();
  const answer = defineConnectionInfo({ input, output: new PassThrough() });
  input.end("https://acme.my.salesforce.com\n");
  await assert.rejects(answer, /input ended before 'Org ID:' was answered/);
});

test("strategyFromConnection picks the flow from the fields present or grant_type", () => {
  assert.equal(strategyFromConnection({ endpoint_url: "https://login.salesforce.com", client_key: "k", client_secret: "s", username: "u", password: "p" }).kind, "password");
  assert.equal(strategyFromConnection({ endpoint_url: "https://acme.my.salesforce.com", client_id: "k", client_secret: "s" }).kind, "clientCredentials");
  assert.equal(strategyFromConnection({ endpoint_url: "https://login.salesforce.com", client_id: "k", refresh_token: "r" }).kind, "refreshToken");
  assert.equal(strategyFromConnection({ access_token: "t", instance_url: "https://acme.my.salesforce.com" }).kind, "accessToken");
  assert.throws(() => strategyFromConnection({ grant_type: "magic" as never, endpoint_url: "https://x.example" }), /grant_type must be/);
  assert.throws(() => strategyFromConnection({ client_id: "k", client_secret: "s" }), (e: unknown) => e instanceof MissingRequiredDataError && e.parameter === "endpoint_url");
});
