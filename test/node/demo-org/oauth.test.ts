import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, createSign, generateKeyPairSync } from "node:crypto";
import { useEmulator, api } from "../../helpers/emulator";

const emu = useEmulator({ tokenTtlMs: 60_000 });

async function token(form: Record<string, string>, init: { query?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${emu().url}/services/oauth2/token${init.query ?? ""}`, {
    method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...init.headers }, body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

function passwordForm(overrides: Record<string, string> = {}) {
  const c = emu().credentials;
  return { grant_type: "password", client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password + c.securityToken, ...overrides };
}

test("password grant returns the documented token fields, without a refresh token", async () => {
  const { status, body } = await token(passwordForm());
  assert.equal(status, 200);
  assert.equal(body.instance_url, emu().url);
  assert.equal(body.token_type, "Bearer");
  assert.match(body.issued_at!, /^\d{13}$/, "issued_at is milliseconds as a string");
  assert.match(body.id!, new RegExp(`/id/${emu().seeded.orgId}/005\\w{15}$`));
  assert.ok(body.signature);
  assert.equal(body.refresh_token, undefined);
  assert.equal("expires_in" in body, false);
});

test("password grant errors: wrong password, unknown client, wrong secret, unknown grant", async () => {
  assert.deepEqual(await token(passwordForm({ password: "nope" })), { status: 400, body: { error: "invalid_grant", error_description: "authentication failure" } });
  assert.equal((await token(passwordForm({ client_id: "x" }))).body.error, "invalid_client_id");
  assert.equal((await token(passwordForm({ client_secret: "x" }))).body.error, "invalid_client");
  assert.equal((await token({ grant_type: "magic" })).body.error, "unsupported_grant_type");
});

test("credentials in the query string are refused", async () => {
  const res = await token(passwordForm(), { query: "?password=leak" });
  assert.equal(res.status, 400);
  assert.match(res.body.error_description!, /request body, not the query string/);
});

test("client credentials grant (body or Basic auth) runs as the integration user", async () => {
  const c = emu().credentials;
  const viaBody = await token({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret });
  assert.equal(viaBody.status, 200);
  assert.ok(viaBody.body.id!.endsWith(emu().seeded.integrationUserId));
  const basic = Buffer.from(`${c.clientId}:${c.clientSecret}`).toString("base64");
  const viaBasic = await token({ grant_type: "client_credentials" }, { headers: { authorization: `Basic ${basic}` } });
  assert.equal(viaBasic.status, 200);
});

test("JWT bearer grant checks the signature against the configured key", async () => {
  const c = emu().credentials;
  const sign = (key: string, claims: Record<string, unknown>) => {
    const h = Buffer.from(JSON.stringify({ alg: "RS256" })).toString("base64url");
    const p = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return `${h}.${p}.${createSign("RSA-SHA256").update(`${h}.${p}`).sign(key).toString("base64url")}`;
  };
  const claims = { iss: c.clientId, sub: c.username, aud: "https://login.salesforce.com", exp: Math.floor(Date.now() / 1000) + 120 };
  const ok = await token({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: sign(c.jwtPrivateKeyPem, claims) });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.signature, undefined, "the JWT flow returns no signature");
  const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  assert.equal((await token({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: sign(otherKey, claims) })).body.error_description, "invalid assertion");
  assert.equal((await token({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: sign(c.jwtPrivateKeyPem, { ...claims, exp: 1 }) })).status, 400);
  assert.equal((await token({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: sign(c.jwtPrivateKeyPem, { ...claims, sub: "nobody@x" }) })).body.error_description, "user hasn't approved this consumer");
});

test("browser flow: authorize redirects back with code and state; the code exchange checks the PKCE verifier; refresh works", async () => {
  const c = emu().credentials;
  const verifier = "v".repeat(50);
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const redirect = "http://localhost:1717/OauthRedirect";
  const authorize = async () => {
    const res = await fetch(`${emu().url}/services/oauth2/authorize?${new URLSearchParams({ response_type: "code", client_id: c.clientId, redirect_uri: redirect, state: "s-123", code_challenge: challenge, code_challenge_method: "S256", scope: "api refresh_token" })}`, { redirect: "manual" });
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get("location")!);
    assert.equal(location.origin + location.pathname, redirect);
    assert.equal(location.searchParams.get("state"), "s-123");
    return location.searchParams.get("code")!;
  };
  const wrong = await token({ grant_type: "authorization_code", code: await authorize(), client_id: c.clientId, redirect_uri: redirect, code_verifier: "wrong" });
  assert.deepEqual(wrong.body, { error: "invalid_grant", error_description: "invalid code verifier" });
  const code = await authorize();
  const good = await token({ grant_type: "authorization_code", code, client_id: c.clientId, redirect_uri: redirect, code_verifier: verifier });
  assert.equal(good.status, 200);
  assert.ok(good.body.refresh_token, "refresh_token scope yields a refresh token");
  const reused = await token({ grant_type: "authorization_code", code, client_id: c.clientId, redirect_uri: redirect, code_verifier: verifier });
  assert.equal(reused.body.error, "invalid_grant", "codes are single use");
  const refreshed = await token({ grant_type: "refresh_token", refresh_token: good.body.refresh_token!, client_id: c.clientId });
  assert.equal(refreshed.status, 200);
  assert.notEqual(refreshed.body.access_token, good.body.access_token);
  assert.equal(refreshed.body.refresh_token, undefined, "no rotation");
});

test("authorize refuses unknown clients and foreign redirect URIs", async () => {
  const res = await fetch(`${emu().url}/services/oauth2/authorize?response_type=code&client_id=${emu().credentials.clientId}&redirect_uri=https://evil.example/cb`, { redirect: "manual" });
  assert.equal(res.status, 400);
});

test("userinfo answers with the user's claims; a bad token gets 403 Bad_OAuth_Token", async () => {
  const { body } = await token(passwordForm());
  const ok = await api(emu(), body.access_token!, "/services/oauth2/userinfo");
  assert.equal(ok.status, 200);
  assert.equal(ok.json.preferred_username, emu().credentials.username);
  assert.match(ok.json.urls.rest, /\{version\}/);
  const bad = await api(emu(), "nope", "/services/oauth2/userinfo");
  assert.equal(bad.status, 403);
  assert.equal(bad.text, "Bad_OAuth_Token");
});

test("revoke: 200 with an empty body; the token then gets 401 INVALID_SESSION_ID; unknown tokens 400", async () => {
  const { body } = await token(passwordForm());
  const res = await fetch(`${emu().url}/services/oauth2/revoke`, { method: "POST", body: new URLSearchParams({ token: body.access_token! }) });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "");
  const after = await api(emu(), body.access_token!, "/limits");
  assert.equal(after.status, 401);
  assert.deepEqual(after.json, [{ message: "Session expired or invalid", errorCode: "INVALID_SESSION_ID" }]);
  const again = await fetch(`${emu().url}/services/oauth2/revoke`, { method: "POST", body: new URLSearchParams({ token: "nope" }) });
  assert.equal(again.status, 400);
});

test("tokens expire after the configured lifetime", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: Date.now() });
  const { body } = await token(passwordForm());
  assert.equal((await api(emu(), body.access_token!, "/limits")).status, 200);
  t.mock.timers.tick(61_000);
  assert.equal((await api(emu(), body.access_token!, "/limits")).status, 401);
});

test("a missing or malformed Authorization header gets 401", async () => {
  const none = await fetch(`${emu().url}/services/data/v62.0/limits`);
  assert.equal(none.status, 401);
  const basic = await fetch(`${emu().url}/services/data/v62.0/limits`, { headers: { authorization: "Basic abc" } });
  assert.equal(((await basic.json()) as { errorCode: string }[])[0]!.errorCode, "INVALID_AUTH_HEADER");
});
