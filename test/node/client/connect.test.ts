import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import {
  Crm, AccessTokenAuth, AuthenticationError, ClientCredentialsAuth, InvalidURLError, JwtBearerAuth, MissingRequiredDataError, PasswordAuth, RefreshTokenAuth,
  buildAuthorizationUrl, createOAuthState, createPkcePair, exchangeAuthorizationCode,
} from "../../../src/client";
import { Transport } from "../../../src/client/transport";
import { closedAfterTests, useEmulator, demoOptions } from "../../helpers/emulator";

const emu = useEmulator();

const track = closedAfterTests();

test("new Crm() does no I/O; connect() signs in, takes the org's latest version and loads the user", async () => {
  const before = emu().requests.length;
  const crm = track(new Crm(demoOptions(emu())));
  assert.equal(emu().requests.length, before, "construction sent nothing");
  assert.equal(crm.isConnected, false);
  const session = await crm.connect();
  assert.equal(session.instanceUrl, emu().url);
  assert.equal(crm.version, "62.0");
  assert.equal(crm.orgId, emu().seeded.orgId);
  assert.equal(crm.userId, emu().seeded.adminId);
  assert.equal(crm.currentUserInfo?.preferred_username, emu().credentials.username);
  crm.close();
});

test("an explicit version is used as given (with or without 'v'); a malformed one is refused", async () => {
  const crm = track(await Crm.create(demoOptions(emu(), { version: "v60.0" })));
  assert.equal(crm.version, "60.0");
  assert.equal(await crm.apiPath("/limits"), "/services/data/v60.0/limits");
  crm.close();
  assert.throws(() => new Crm(demoOptions(emu(), { version: "sixty" })), RangeError);
});

test("calls before connect() connect first (once, even when concurrent)", async () => {
  const crm = track(new Crm(demoOptions(emu())));
  const tokensBefore = emu().requests.filter((r) => r.path === "/services/oauth2/token").length;
  await Promise.all([crm.getOrgLimits(), crm.getOrgLimits(), crm.getRestResources()]);
  assert.equal(emu().requests.filter((r) => r.path === "/services/oauth2/token").length - tokensBefore, 1);
  crm.close();
});

test("credentials travel in the form body, never the query string; the password has the token appended", async () => {
  const crm = track(await Crm.create(demoOptions(emu())));
  const tokenRequest = emu().requests.filter((r) => r.path === "/services/oauth2/token").at(-1)!;
  assert.equal(tokenRequest.query, "");
  const form = new URLSearchParams(tokenRequest.body);
  assert.equal(form.get("password"), emu().credentials.password + emu().credentials.securityToken);
  assert.equal(form.get("client_id"), emu().credentials.clientId);
  crm.close();
});

test("connection info as an object (client_key or client_id), from a JSON or YAML helper, and a helper object", async () => {
  const c = emu().credentials;
  const info = { base_url: emu().url, org_id: emu().seeded.orgId, username: c.username, password: c.password, endpoint_url: c.loginUrl, client_key: c.clientId, client_secret: c.clientSecret, security_token: c.securityToken };
  const fromInfo = track(await Crm.create({ connectionInfo: info }));
  assert.equal(fromInfo.userId, emu().seeded.adminId);
  fromInfo.close();
  const dir = mkdtempSync(path.join(tmpdir(), "crm-helper-"));
  const json = path.join(dir, "helper.json");
  writeFileSync(json, JSON.stringify({ connection: info }));
  const yaml = path.join(dir, "helper.yml");
  writeFileSync(yaml, `connection:\n${Object.entries(info).map(([k, v]) => `  ${k}: "${v}"`).join("\n")}\nssl_verify: yes\n`);
  for (const helper of [json, yaml, { connection: { ...info, client_id: c.clientId, client_key: undefined } }]) {
    const crm = track(new Crm({ helper }));
    await crm.connect();
    assert.equal(crm.userId, emu().seeded.adminId, String(helper));
    crm.close();
  }
  await assert.rejects(new Crm({ helper: path.join(dir, "missing.yml") }).connect(), /helper file not found/);
  writeFileSync(path.join(dir, "empty.json"), "{}");
  await assert.rejects(new Crm({ helper: path.join(dir, "empty.json") }).connect(), (e: unknown) => e instanceof MissingRequiredDataError && /no 'connection' section/.test((e as Error).message));
});

test("no credentials at all is a clear error naming the ways to give them", async () => {
  await assert.rejects(new Crm({}).connect(), (e: unknown) => e instanceof MissingRequiredDataError && /No credentials/.test((e as Error).message));
});

test("a refused sign-in raises AuthenticationError with the endpoint's words and no secret", async () => {
  const crm = new Crm(demoOptions(emu(), { password: "wrong-password-123" }));
  const err = await crm.connect().catch((e: unknown) => e);
  assert.ok(err instanceof AuthenticationError);
  assert.equal(err.error, "invalid_grant");
  assert.match(err.message, /authentication failure/);
  assert.doesNotMatch(err.message, /wrong-password-123|DEMOTOKEN/);
  crm.close();
});

test("every sign-in strategy works against the emulator", async () => {
  const c = emu().credentials;
  const strategies = [
    new PasswordAuth({ loginUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret, username: c.username, password: c.password, securityToken: c.securityToken }),
    new ClientCredentialsAuth({ loginUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret }),
    new JwtBearerAuth({ loginUrl: c.loginUrl, clientId: c.clientId, username: c.username, privateKey: c.jwtPrivateKeyPem }),
  ];
  for (const auth of strategies) {
    const crm = track(await Crm.create({ auth }));
    const limits = await crm.getOrgLimits();
    assert.ok(limits.DailyApiRequests, auth.kind);
    crm.close();
  }
});

test("browser flow pieces: PKCE pair, authorization URL, code exchange, then refresh-token and access-token sign-ins", async () => {
  const c = emu().credentials;
  const pkce = createPkcePair();
  assert.equal(pkce.challenge, createHash("sha256").update(pkce.verifier).digest("base64url"));
  assert.ok(pkce.verifier.length >= 43);
  const state = createOAuthState();
  const redirectUri = "http://localhost:1717/OauthRedirect";
  const url = buildAuthorizationUrl({ loginUrl: c.loginUrl, clientId: c.clientId, redirectUri, codeChallenge: pkce.challenge, state });
  assert.equal(new URL(url).searchParams.get("code_challenge_method"), "S256");
  const redirect = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
  assert.equal(redirect.searchParams.get("state"), state);
  const transport = new Transport({ session: async () => { throw new Error("unused"); }, refresh: async () => { throw new Error("unused"); } });
  const session = await exchangeAuthorizationCode(transport.postForm, { loginUrl: c.loginUrl, clientId: c.clientId, code: redirect.searchParams.get("code")!, redirectUri, codeVerifier: pkce.verifier });
  transport.close();
  assert.ok(session.refreshToken);
  assert.equal(session.userId, emu().seeded.adminId);
  const viaRefresh = track(await Crm.create({ auth: new RefreshTokenAuth({ loginUrl: c.loginUrl, clientId: c.clientId, refreshToken: session.refreshToken! }) }));
  assert.equal(viaRefresh.userId, emu().seeded.adminId);
  viaRefresh.close();
  const viaToken = track(await Crm.create({ auth: new AccessTokenAuth({ accessToken: session.accessToken, instanceUrl: session.instanceUrl }) }));
  assert.equal(viaToken.userId, emu().seeded.adminId, "ids come from userinfo when only a token is known");
  viaToken.close();
});

test("the bearer token is sent only to the instance's own origin", async () => {
  const crm = track(await Crm.create(demoOptions(emu())));
  await assert.rejects(crm.get("https://evil.example/services/data"), InvalidURLError);
  await assert.rejects(crm.get(`http://127.0.0.2:${new URL(emu().url).port}/services/data`), InvalidURLError);
  const ok = await crm.get(`${emu().url}/services/data`);
  assert.ok(Array.isArray(ok));
  assert.throws(() => new PasswordAuth({ loginUrl: "http://login.example.com", clientId: "a", clientSecret: "b", username: "c", password: "d" }), InvalidURLError);
  crm.close();
});

test("revoke() revokes the session at the org", async () => {
  const crm = track(await Crm.create(demoOptions(emu())));
  const { accessToken } = crm.getSession()!;
  await crm.revoke();
  assert.equal(crm.isConnected, false);
  const res = await fetch(`${emu().url}/services/data/v62.0/limits`, { headers: { authorization: `Bearer ${accessToken}` } });
  assert.equal(res.status, 401);
  crm.close();
});
