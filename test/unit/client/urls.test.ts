import { test } from "node:test";
import assert from "node:assert/strict";
import { checkOrgUrl, resolveEndpoint, tokenEndpoint, pathOnly } from "../../../src/client/urls";
import { InvalidURLError } from "../../../src/client";

test("org URLs: https anywhere, http only on loopback", () => {
  assert.equal(checkOrgUrl("https://acme.my.salesforce.com/", "loginUrl"), "https://acme.my.salesforce.com");
  assert.equal(checkOrgUrl("https://acme.lightning.force.com", "x"), "https://acme.lightning.force.com");
  assert.equal(checkOrgUrl("http://127.0.0.1:8787", "x"), "http://127.0.0.1:8787");
  assert.equal(checkOrgUrl("http://localhost:1", "x"), "http://localhost:1");
  assert.throws(() => checkOrgUrl("http://acme.my.salesforce.com", "loginUrl"), (e: unknown) => e instanceof InvalidURLError && /loginUrl .* must use https/.test((e as Error).message));
  assert.throws(() => checkOrgUrl("not a url", "instanceUrl"), InvalidURLError);
  assert.throws(() => checkOrgUrl("https://user:pw@acme.my.salesforce.com", "x"), InvalidURLError);
});

test("endpoints: relative paths join the instance; absolute ones must be on its origin", () => {
  const origin = "https://acme.my.salesforce.com";
  assert.equal(resolveEndpoint(origin, "/services/data"), `${origin}/services/data`);
  assert.equal(resolveEndpoint(origin, "services/data"), `${origin}/services/data`);
  assert.equal(resolveEndpoint(origin, `${origin}/services/data/v62.0/limits`), `${origin}/services/data/v62.0/limits`);
  for (const foreign of ["https://evil.example/services/data", "https://acme.my.salesforce.com.evil.com/x", "http://acme.my.salesforce.com/x", "https://acme.my.salesforce.com:8443/x"]) {
    assert.throws(() => resolveEndpoint(origin, foreign), InvalidURLError, foreign);
  }
  assert.throws(() => resolveEndpoint(origin, 42), { name: "TypeError", message: /endpoint must be a non-empty string/ });
});

test("token endpoint from a login host or a full token URL; community path prefixes kept", () => {
  assert.equal(tokenEndpoint("https://login.salesforce.com"), "https://login.salesforce.com/services/oauth2/token");
  assert.equal(tokenEndpoint("https://acme.my.salesforce.com/services/oauth2/token"), "https://acme.my.salesforce.com/services/oauth2/token");
  assert.equal(tokenEndpoint("https://site.example.com/help"), "https://site.example.com/help/services/oauth2/token");
});

test("pathOnly drops origin and query", () => {
  assert.equal(pathOnly("https://a.b/services/data/v62.0/query?q=SELECT+Id"), "/services/data/v62.0/query");
});
