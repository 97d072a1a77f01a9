import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OrgRegistry } from "../../src/connections/orgRegistry";
import { NotSignedInError, OrgManager } from "../../src/connections/orgManager";
import { browserSignIn } from "../../src/connections/browserSignIn";
import { listCliOrgs, displayCliOrg } from "../../src/connections/sfCli";
import { Redactor } from "../../src/platform/redact";
import { useEmulator } from "../helpers/emulator";
import { MemorySecrets, MemoryState, quietLog } from "./fakes";

const emu = useEmulator({ tokenTtlMs: 3600_000 });
const settings = () => ({ apiVersion: "", timeoutMs: 10_000, logRequestBodies: false });

function setup() {
  const state = new MemoryState();
  const secrets = new MemorySecrets();
  const registry = new OrgRegistry(state, secrets);
  const redactor = new Redactor();
  const { lines, log } = quietLog();
  const manager = new OrgManager(registry, { settings, log, remember: (...s) => redactor.remember(...s) });
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

test("every write an org accepts is announced with its org, whoever sent it; reads, refused writes and sign-ins are not", async () => {
  const { manager } = setup();
  const record = await manager.add({ method: "password", connection: passwordConnection() });
  const writes: { orgKey: string; method: string; path: string }[] = [];
  manager.onDidWrite((w) => writes.push(w));
  const session = await manager.session(record.key);
  await session.crm.getOrgLimits();
  const created = await session.crm.createSobjectRecord("Account", { Name: "Announced" });
  await session.crm.updateSobjectRecord("Account", created.id, { Name: "Announced again" });
  await assert.rejects(session.crm.createSobjectRecord("Contact", {}));
  assert.deepEqual(writes.map((w) => [w.orgKey, w.method, w.path.replace(/v\d+\.\d/, "vX")]), [
    [record.key, "POST", "/services/data/vX/sobjects/Account"],
    [record.key, "PATCH", `/services/data/vX/sobjects/Account/${created.id}`],
  ]);
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
  const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => (await fetch(url)).ok });
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
    const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => (await fetch(url)).ok });
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

test("browser sign-in: PKCE + state through the org's authorize page and a loopback redirect", async () => {
  const c = emu().credentials;
  let opened = "";
  let authorize = "";
  const connection = await browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => {
    opened = url;
    const first = await fetch(url, { redirect: "manual" });
    authorize = first.headers.get("location")!;
    return (await fetch(authorize)).ok;
  } });
  assert.match(opened, /^http:\/\/127\.0\.0\.1:\d+\/$/, "the browser is sent to the bare loopback address");
  const params = new URL(authorize).searchParams;
  assert.equal(params.get("code_challenge_method"), "S256");
  assert.match(params.get("redirect_uri")!, /^http:\/\/127\.0\.0\.1:\d+\/OauthRedirect$/);
  assert.ok(connection.refresh_token && connection.access_token);
  assert.equal(connection.instance_url, emu().url);
});

test("browser sign-in refuses a redirect with another state, and can be cancelled", async () => {
  const c = emu().credentials;
  await assert.rejects(
    browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, openExternal: async (url) => {
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
  const pending = browserSignIn({ loginUrl: c.loginUrl, clientId: c.clientId, signal: controller.signal, openExternal: async () => true });
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(pending, { name: "CancelledError" });
});

test("Salesforce CLI import reads `sf org list` and `sf org display`", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-sf-"));
  const sf = path.join(dir, "sf");
  writeFileSync(sf, `#!/bin/sh
if [ "$2" = "list" ]; then
  echo '{"status":0,"result":{"nonScratchOrgs":[{"alias":"prod","username":"ada@acme.com","instanceUrl":"https://acme.my.salesforce.com","connectedStatus":"Connected"}],"scratchOrgs":[{"username":"test-x@example.com","connectedStatus":"Expired"}]}}'
else
  echo '{"status":0,"result":{"username":"ada@acme.com","accessToken":"00Dxx!token","instanceUrl":"https://acme.my.salesforce.com","id":"00D5g000004Xyz1EAC","apiVersion":"62.0"}}'
fi
`);
  chmodSync(sf, 0o755);
  const orgs = await listCliOrgs(sf);
  assert.deepEqual(orgs.map((o) => [o.alias, o.username, o.connected]), [["prod", "ada@acme.com", true], [undefined, "test-x@example.com", false]]);
  const details = await displayCliOrg("ada@acme.com", sf);
  assert.deepEqual([details.accessToken, details.instanceUrl], ["00Dxx!token", "https://acme.my.salesforce.com"]);
  await assert.rejects(listCliOrgs(path.join(dir, "missing-sf")), /not on PATH/);
});
