import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OrgRegistry, type OrgRecord } from "../../../src/connections/orgRegistry";
import { CancelledError } from "../../../src/client";
import { OrgManager } from "../../../src/connections/orgManager";
import { NotSignedInError } from "../../../src/platform/errorMessages";
import { browserSignIn, deviceSignIn } from "../../../src/connections/browserSignIn";
import { listCliOrgs, displayCliOrg } from "../../../src/connections/sfCli";
import { Redactor } from "../../../src/platform/redact";
import { useEmulator } from "../../helpers/emulator";
import { freeCallbackPort } from "../../helpers/oauth";
import { MemorySecrets, MemoryState, quietLog } from "../fakes";

const emu = useEmulator({ tokenTtlMs: 3600_000 });
const settings = () => ({ apiVersion: "", timeoutMs: 10_000, logRequestBodies: false });

function setup(confirmWrite?: (org: OrgRecord, change: string) => Promise<boolean>) {
  const state = new MemoryState();
  const secrets = new MemorySecrets();
  const registry = new OrgRegistry(state, secrets);
  const redactor = new Redactor();
  const { lines, log } = quietLog();
  const manager = new OrgManager(registry, { settings, log, remember: (...s) => redactor.remember(...s), confirmWrite });
  return { state, secrets, registry, manager, lines, redactor };
}

function passwordConnection() {
  const c = emu().credentials;
  return { grant_type: "password" as const, endpoint_url: c.loginUrl, username: c.username, password: c.password, security_token: c.securityToken, client_id: c.clientId, client_secret: c.clientSecret };
}

test("adding an org verifies it first; metadata goes to state, secrets only to the secret store", async () => {
  const { state, secrets, manager, registry } = setup();
  const record = await manager.add({ method: "password", alias: "Demo", connection: passwordConnection() });
  assert.deepEqual([record.alias, record.username, record.orgId, record.userId, record.apiVersion], ["Demo", emu().credentials.username, emu().seeded.orgId, emu().seeded.adminId, "62.0"]);
  assert.equal(registry.activeKey, record.key, "the first org becomes active");
  const stateText = JSON.stringify([...state.data.entries()]);
  for (const secret of [emu().credentials.password, emu().credentials.clientSecret, emu().credentials.securityToken]) assert.ok(!stateText.includes(secret), "no secret in state");
  assert.ok([...secrets.data.values()].join().includes(emu().credentials.password));
  await assert.rejects(manager.add({ method: "password", connection: { ...passwordConnection(), password: "wrong-one" } }), /authentication failure/);
  assert.equal(registry.list().length, 1, "a failed verification saves nothing");
  manager.dispose();
});

test("sessions open lazily (no network when the manager is built) and log one line per request", async () => {
  const { manager, lines } = setup();
  const record = await manager.add({ method: "password", connection: passwordConnection() });
  const before = emu().requests.length;
  const session = await manager.session(record.key);
  assert.equal(emu().requests.length, before, "opening a session does not call the org");
  await session.crm.getOrgLimits();
  assert.ok(lines.some((l) => /\[admin@demo\.crm\] GET \/services\/data\/v62\.0\/limits → 200 \(\d+ ms\)/.test(l)), lines.join("\n"));
  assert.equal(session.apiUsage?.max, 15000);
  assert.ok(!lines.join("\n").includes(emu().credentials.password));
  manager.dispose();
});

test("production guard: the kind is read at sign-in; a write asks first naming the org and the change; cancel sends nothing", async () => {
  emu().setOrgKind("production");
  try {
    const asked: string[] = [];
    let answer = false;
    const { manager, registry } = setup(async (org, change) => {
      asked.push(`${org.alias}: ${change}`);
      return answer;
    });
    const record = await manager.add({ method: "password", alias: "Prod", connection: passwordConnection() });
    assert.equal(record.kind, "production");
    const session = await manager.session(record.key);
    await session.crm.getOrgLimits();
    assert.deepEqual(asked, [], "reads never ask");
    const before = emu().requests.length;
    await assert.rejects(session.crm.createSobjectRecord("Account", { Name: "Cancelled on prod" }), CancelledError);
    assert.equal(emu().requests.length, before, "cancelled: nothing sent");
    assert.deepEqual(asked, ["Prod: create a Account record (Name)"]);
    answer = true;
    const created = await session.crm.createSobjectRecord("Account", { Name: "Confirmed on prod" });
    assert.ok(created.id);
    assert.equal(asked.length, 2);
    // An agent's write (its tool, or a grid of its proposal) says whose it is in the question.
    await session.crm.withWriteContext({ by: "agent" }, () => session.crm.updateSobjectRecord("Account", created.id, { Name: "By an agent" }));
    assert.equal(asked.at(-1), `Prod: an agent's change: update Account ${created.id} (Name)`);
    asked.pop();
    await manager.setWriteGuard(record.key, false);
    await session.crm.updateSobjectRecord("Account", created.id, { Name: "Guard off" });
    assert.equal(asked.length, 2, "turned off for this org: no question");
    assert.equal(registry.get(record.key)?.writeGuard, false);
    manager.dispose();
  } finally {
    emu().setOrgKind("developer");
  }
});

test("Refresh All Orgs reads the kind again: an org that became production is guarded at once", async () => {
  const asked: string[] = [];
  const { manager, registry } = setup(async (_org, change) => (asked.push(change), true));
  const record = await manager.add({ method: "password", connection: passwordConnection() });
  assert.equal(record.kind, "developer");
  const session = await manager.session(record.key);
  await session.crm.createSobjectRecord("Account", { Name: "Before the conversion" });
  assert.deepEqual(asked, []);
  emu().setOrgKind("production");
  try {
    const before = emu().requests.length;
    assert.deepEqual(await manager.check(record.key), { ok: true });
    assert.equal(emu().requests.slice(before).filter((r) => r.path === "/services/oauth2/token").length, 1, "a fresh sign-in with the credentials, not the kept token");
    assert.equal(registry.get(record.key)?.kind, "production");
    await session.crm.createSobjectRecord("Account", { Name: "After the conversion" });
    assert.deepEqual(asked, ["create a Account record (Name)"], "the guard follows the new kind at once");
  } finally {
    emu().setOrgKind("developer");
    manager.dispose();
  }
});

test("a developer org's writes go straight out; an org whose kind was never read learns it before its first write", async () => {
  const asked: string[] = [];
  const { manager, registry } = setup(async (_org, change) => (asked.push(change), true));
  const record = await manager.add({ method: "password", connection: passwordConnection() });
  assert.equal(record.kind, "developer");
  await registry.update(record.key, { kind: undefined });
  const session = await manager.session(record.key);
  await session.crm.createSobjectRecord("Account", { Name: "Developer org write" });
  assert.deepEqual(asked, []);
  assert.equal(registry.get(record.key)?.kind, "developer", "learnt once, kept");
  manager.dispose();
});

test("Refresh All Orgs: each org signs in afresh and answers; one whose refresh token was revoked is signed out and named", async () => {
  const { manager, registry } = setup();
  const c = emu().credentials;
  const good = await manager.add({ method: "password", alias: "Good", connection: passwordConnection() });
  const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => (await fetch(url)).ok, callbackPort: await freeCallbackPort(emu()) });
  const stale = await manager.add({ method: "browser", alias: "Stale", connection });
  await fetch(`${c.loginUrl}/services/oauth2/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: connection.refresh_token! }) });
  emu().setFault("expireTokens", true);
  const [a, b] = await Promise.all([manager.check(good.key), manager.check(stale.key)]);
  assert.deepEqual(a, { ok: true });
  assert.equal(b.ok, false);
  assert.match(b.reason!, /invalid_grant/);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(registry.get(stale.key)?.signedIn, false);
  assert.ok(registry.get(good.key)?.lastUsedAt, "a good org's last use is recorded");
  manager.dispose();
});

test("aliases stay unique; rename checks; several orgs at once; switching the active one", async () => {
  const { manager, registry } = setup();
  const a = await manager.add({ method: "password", alias: "Acme", connection: passwordConnection() });
  const b = await manager.add({ method: "password", alias: "Acme", connection: passwordConnection() });
  assert.equal(b.alias, "Acme (2)");
  await assert.rejects(registry.rename(b.key, "acme"), /already called/);
  await registry.rename(b.key, "Acme sandbox");
  await registry.setActive(b.key);
  assert.equal(registry.activeKey, b.key);
  const [sa, sb] = await Promise.all([manager.session(a.key), manager.session(b.key)]);
  assert.notEqual(sa, sb);
  assert.equal((await manager.activeSession())?.record.key, b.key);
  await manager.remove(b.key);
  assert.equal(registry.activeKey, a.key, "removing the active org activates another");
  manager.dispose();
});

test("sign out revokes the token at the org and deletes the secrets; the entry stays; sign in again restores it", async () => {
  const { manager, registry, secrets } = setup();
  const record = await manager.add({ method: "password", connection: passwordConnection() });
  const session = await manager.session(record.key);
  await session.crm.getOrgLimits();
  const token = session.crm.getSession()!.accessToken;
  const outcome = await manager.signOut(record.key);
  assert.deepEqual(outcome, { revoked: true });
  assert.equal(secrets.data.size, 0);
  assert.equal(registry.get(record.key)?.signedIn, false);
  const res = await fetch(`${emu().url}/services/data/v62.0/limits`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 401, "the token no longer works");
  await assert.rejects(manager.session(record.key), NotSignedInError);
  await manager.signInAgain(record.key, passwordConnection());
  assert.ok((await (await manager.session(record.key)).crm.getOrgLimits()).DailyApiRequests);
  manager.dispose();
});

test("a refreshed token is written back to the secret store", async () => {
  const { manager, registry } = setup();
  const c = emu().credentials;
  const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => (await fetch(url)).ok, callbackPort: await freeCallbackPort(emu()) });
  const record = await manager.add({ method: "browser", connection });
  const session = await manager.session(record.key);
  emu().setFault("expireTokens", true);
  await session.crm.getOrgLimits();
  await new Promise((r) => setTimeout(r, 20));
  const stored = await registry.readConnection(record.key);
  assert.equal(stored?.access_token, session.crm.getSession()!.accessToken);
  assert.notEqual(stored?.access_token, connection.access_token);
  manager.dispose();
});

test("with refresh-token rotation on, the newest refresh token is stored after each refresh and a new window signs in with it", async () => {
  emu().oauth.rotateRefreshTokens = true;
  try {
    const { manager, registry, secrets, state } = setup();
    const c = emu().credentials;
    const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => (await fetch(url)).ok, callbackPort: await freeCallbackPort(emu()) });
    const record = await manager.add({ method: "browser", connection });
    const session = await manager.session(record.key);
    for (let i = 0; i < 3; i++) {
      emu().setFault("expireTokens", true);
      await session.crm.getOrgLimits();
    }
    await new Promise((r) => setTimeout(r, 20));
    const stored = await registry.readConnection(record.key);
    assert.equal(stored?.refresh_token, session.crm.getSession()!.refreshToken, "the newest refresh token is stored");
    assert.notEqual(stored?.refresh_token, connection.refresh_token);
    manager.dispose();
    // A new window: same secrets, a fresh manager; its first refresh must use the stored (newest) token.
    const again = new OrgManager(new OrgRegistry(state, secrets), { settings, log: quietLog().log, remember: () => undefined });
    const reopened = await again.session(record.key);
    emu().setFault("expireTokens", true);
    assert.ok((await reopened.crm.getOrgLimits()).DailyApiRequests);
    again.dispose();
  } finally {
    emu().oauth.rotateRefreshTokens = false;
  }
});

test("a session the org refuses for good (refresh token revoked): one attempt, then the org is signed out and the person told once", async () => {
  const { manager, registry } = setup();
  const c = emu().credentials;
  const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => (await fetch(url)).ok, callbackPort: await freeCallbackPort(emu()) });
  const record = await manager.add({ method: "browser", connection });
  const lost: string[] = [];
  manager.onDidLoseSession(({ org, reason }) => lost.push(`${org.alias}: ${reason}`));
  const session = await manager.session(record.key);
  await fetch(`${c.loginUrl}/services/oauth2/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: connection.refresh_token! }) });
  emu().setFault("expireTokens", true);
  const tokenRequests = () => emu().requests.filter((r) => r.path === "/services/oauth2/token").length;
  const before = tokenRequests();
  const results = await Promise.allSettled([session.crm.getOrgLimits(), session.crm.getOrgLimits(), session.crm.getOrgLimits()]);
  assert.ok(results.every((r) => r.status === "rejected"));
  assert.equal(tokenRequests() - before, 1, "one renewal attempt for every call that failed together");
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(registry.get(record.key)?.signedIn, false, "shown signed out");
  assert.equal(await registry.readConnection(record.key), undefined, "its dead tokens are gone");
  assert.deepEqual(lost, [`${record.alias}: expired access/refresh token (invalid_grant)`]);
  const requests = emu().requests.length;
  await assert.rejects(manager.session(record.key), NotSignedInError);
  assert.equal(emu().requests.length, requests, "a signed-out org sends nothing");
  manager.dispose();
});

test("browser sign-in: PKCE + state through the org's authorize page and a redirect to the fixed localhost callback", async () => {
  const c = emu().credentials;
  const port = await freeCallbackPort(emu());
  let opened = "";
  let authorize = "";
  const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, callbackPort: port, openExternal: async (url) => {
    opened = url;
    const first = await fetch(url, { redirect: "manual" });
    authorize = first.headers.get("location")!;
    return (await fetch(authorize)).ok;
  } });
  assert.equal(opened, `http://localhost:${port}/`, "the browser is sent to the bare loopback address");
  const params = new URL(authorize).searchParams;
  assert.equal(params.get("code_challenge_method"), "S256");
  assert.equal(params.get("redirect_uri"), `http://localhost:${port}/OauthRedirect`, "exactly the callback URL the app lists");
  assert.ok(connection.refresh_token && connection.access_token);
  assert.equal(connection.instance_url, emu().url);
});

test("browser sign-in: the org refuses a callback URL its app does not list; a taken port says what to do", async () => {
  const c = emu().credentials;
  const unlisted = await fetch(`${c.loginUrl}/services/oauth2/authorize?response_type=code&client_id=${c.clientId}&redirect_uri=${encodeURIComponent("http://localhost:4242/OauthRedirect")}`, { redirect: "manual" });
  assert.match(await unlisted.text(), /redirect_uri_mismatch/);
  const port = await freeCallbackPort(emu());
  const { createServer } = await import("node:net");
  const squatter = createServer().listen(port, "127.0.0.1");
  await new Promise((r) => squatter.once("listening", r));
  try {
    await assert.rejects(browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, callbackPort: port, openExternal: async () => true }),
      new RegExp(`Port ${port} for the browser sign-in's callback is in use.*crm\\.signIn\\.callbackPort`));
  } finally {
    squatter.close();
  }
});

test("browser sign-in refuses a redirect with another state, and can be cancelled", async () => {
  const c = emu().credentials;
  await assert.rejects(
    browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, callbackPort: await freeCallbackPort(emu()), openExternal: async (url) => {
      const authorize = (await fetch(url, { redirect: "manual" })).headers.get("location")!;
      const redirect = new URL(new URL(authorize).searchParams.get("redirect_uri")!);
      redirect.searchParams.set("code", "x");
      redirect.searchParams.set("state", "forged");
      await fetch(redirect);
      return true;
    } }),
    /different state/,
  );
  const controller = new AbortController();
  const pending = browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, callbackPort: await freeCallbackPort(emu()), signal: controller.signal, openExternal: async () => true });
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(pending, { name: "CancelledError" });
});

test("sign-in with a code (remote windows): the person enters the code at the org's page from any browser; polling picks up the tokens", async () => {
  const c = emu().credentials;
  emu().oauth.deviceIntervalSeconds = 0.05;
  try {
    const shown: { userCode: string; verificationUri: string }[] = [];
    const connection = await deviceSignIn({
      loginUrl: c.loginUrl, clientId: c.clientId,
      show: (device) => {
        shown.push(device);
        // The person, in a browser elsewhere, a moment later.
        setTimeout(() => void fetch(`${device.verificationUri}?user_code=${device.userCode}`), 150);
      },
    });
    assert.equal(shown.length, 1);
    assert.equal(shown[0]!.verificationUri, `${emu().url}/setup/connect`);
    assert.ok(connection.access_token && connection.refresh_token, "a refresh token, so the org stays signed in");
    const { manager } = setup();
    const record = await manager.add({ method: "device", connection });
    assert.equal(record.userId, emu().seeded.adminId);
    manager.dispose();
    const polls = emu().requests.filter((r) => r.path === "/services/oauth2/token" && new URLSearchParams(r.body).get("grant_type") === "device");
    assert.ok(polls.length >= 2, "it polled while the person had not approved yet");
    const controller = new AbortController();
    const pending = deviceSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, signal: controller.signal, show: () => setTimeout(() => controller.abort(), 30) });
    await assert.rejects(pending, { name: "CancelledError" });
  } finally {
    emu().oauth.deviceIntervalSeconds = 5;
  }
});

/** A fake `sf`: `org list`, `org display` (its token as given), and `org auth show-access-token` (or an old CLI without it). */
function fakeSf(dir: string, name: string, display: { accessToken: string }, showAccessToken: "works" | "missing" | "refuses"): string {
  const sf = path.join(dir, name);
  const show = {
    works: `echo '{"status":0,"result":{"accessToken":"00D5g000004Xyz1!AQ4AQFreshTokenFromTheCli0123"},"warnings":["Sharing this token is like sharing your password."]}'`,
    missing: `echo ' ›   Warning: org auth show-access-token is not a sf command.' >&2; exit 127`,
    refuses: `echo '{"status":1,"name":"NoAuthInfoFound","message":"No authorization information found for ada@acme.com."}'; exit 1`,
  }[showAccessToken];
  writeFileSync(sf, `#!/bin/sh
if [ "$2" = "list" ]; then
  echo '{"status":0,"result":{"nonScratchOrgs":[{"alias":"prod","username":"ada@acme.com","instanceUrl":"https://acme.my.salesforce.com","connectedStatus":"Connected"}],"scratchOrgs":[{"username":"test-x@example.com","connectedStatus":"Expired"}]}}'
elif [ "$2" = "auth" ]; then
  ${show}
else
  echo '{"status":0,"result":{"username":"ada@acme.com","accessToken":"${display.accessToken}","instanceUrl":"https://acme.my.salesforce.com","id":"00D5g000004Xyz1EAC","apiVersion":"62.0"}}'
fi
`);
  chmodSync(sf, 0o755);
  return sf;
}

test("Salesforce CLI import: the org list, and the token from show-access-token on a current CLI that redacts org display", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-sf-"));
  const redacted = { accessToken: "[REDACTED] Use 'sf org auth show-access-token' to view" };
  const sf = fakeSf(dir, "sf", redacted, "works");
  const orgs = await listCliOrgs(sf);
  assert.deepEqual(orgs.map((o) => [o.alias, o.username, o.connected]), [["prod", "ada@acme.com", true], [undefined, "test-x@example.com", false]]);
  const details = await displayCliOrg("ada@acme.com", sf);
  assert.deepEqual([details.accessToken, details.instanceUrl], ["00D5g000004Xyz1!AQ4AQFreshTokenFromTheCli0123", "https://acme.my.salesforce.com"]);
  await assert.rejects(listCliOrgs(path.join(dir, "missing-sf")), /not on PATH/);
});

test("Salesforce CLI import: an old CLI's org display token is used; a redacting CLI without show-access-token or one that refuses says what to do", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-sf-"));
  const old = fakeSf(dir, "sf-old", { accessToken: "00D5g000004Xyz1!AQ4AQOldCliShowsTheToken0123" }, "missing");
  assert.equal((await displayCliOrg("ada@acme.com", old)).accessToken, "00D5g000004Xyz1!AQ4AQOldCliShowsTheToken0123");
  const between = fakeSf(dir, "sf-between", { accessToken: "[REDACTED]" }, "missing");
  await assert.rejects(displayCliOrg("ada@acme.com", between), (e: unknown) => /hides access tokens .* update it \('sf update'/.test((e as Error).message) && !/REDACTED/.test((e as Error).message));
  const refusing = fakeSf(dir, "sf-refusing", { accessToken: "[REDACTED] Use 'sf org auth show-access-token' to view" }, "refuses");
  await assert.rejects(displayCliOrg("ada@acme.com", refusing), /would not give the access token of ada@acme\.com \(sf org auth show-access-token failed: No authorization information found.*\)\. Run 'sf org login web/);
});

test("the orgs as views show them change with a name, a kind or the active org, not with the last-used time a query renews", async () => {
  const { manager, registry } = setup();
  const first = await manager.add({ method: "password", alias: "Demo", connection: passwordConnection() });
  const second = await manager.add({ method: "password", alias: "Other", connection: passwordConnection() });
  const shown = registry.shownState();
  await registry.update(first.key, { lastUsedAt: new Date(Date.now() + 60_000).toISOString() });
  assert.equal(registry.shownState(), shown, "a query renewing the last-used time changes nothing shown (a lens is not rebuilt under a click)");
  await registry.rename(first.key, "Demo renamed");
  const renamed = registry.shownState();
  assert.notEqual(renamed, shown);
  await registry.update(first.key, { kind: "production" });
  assert.notEqual(registry.shownState(), renamed);
  const kinded = registry.shownState();
  await registry.setActive(second.key);
  assert.notEqual(registry.shownState(), kinded);
});
