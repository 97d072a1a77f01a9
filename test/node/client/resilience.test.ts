import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm, APIRequestError, AuthenticationError, AccessTokenAuth, NetworkError, CancelledError, RefreshTokenAuth, type AuthSession, type RequestInfo } from "../../../src/client";
import { browserSession } from "../../helpers/oauth";
import { useEmulator, demoClient, demoOptions } from "../../helpers/emulator";

const emu = useEmulator();
const tokenCalls = () => emu().requests.filter((r) => r.path === "/services/oauth2/token").length;

test("a token expiring mid-run: one re-authentication shared by concurrent calls, then every call succeeds", async () => {
  const crm = await demoClient(emu());
  const refreshed: AuthSession[] = [];
  crm.on("tokenRefreshed", (s) => refreshed.push(s));
  const before = tokenCalls();
  const old = crm.getSession()!.accessToken;
  emu().setFault("expireTokens", true);
  const results = await Promise.all(Array.from({ length: 8 }, () => crm.getOrgLimits()));
  assert.equal(results.length, 8);
  assert.equal(tokenCalls() - before, 1, "single-flight: one token request for eight 401s");
  assert.equal(refreshed.length, 1);
  assert.notEqual(refreshed[0]!.accessToken, old);
  assert.equal(crm.getSession()!.accessToken, refreshed[0]!.accessToken);
  assert.equal(refreshed[0]!.userId, emu().seeded.adminId, "ids survive the refresh");
});

test("a POST that hit an expired token is retried once after re-authentication (the 401 means nothing was written)", async () => {
  const crm = await demoClient(emu());
  emu().setFault("expireTokens", true);
  const created = await crm.createSobjectRecord("Account", { Name: "After Refresh" });
  assert.equal((await crm.soqlQuery(`SELECT COUNT() FROM Account WHERE Name = 'After Refresh'`)).totalSize, 1);
  assert.ok(created.id);
});

test("a bare access token cannot renew itself: a clear AuthenticationError, not a loop", async () => {
  const session = (await demoClient(emu())).getSession()!;
  const crm = new Crm({ auth: new AccessTokenAuth({ accessToken: session.accessToken, instanceUrl: session.instanceUrl }) });
  await crm.connect();
  emu().setFault("expireTokens", true);
  await assert.rejects(crm.getOrgLimits(), (e: unknown) => e instanceof AuthenticationError && /cannot renew it: sign in again/.test((e as Error).message));
  crm.close();
});

test("a 503 burst on a GET is retried with backoff; a POST is never retried blindly", async () => {
  const crm = await demoClient(emu());
  const seen: RequestInfo[] = [];
  crm.on("request", (i) => seen.push(i));
  emu().setFault("unavailable", 2);
  const limits = await crm.getOrgLimits();
  assert.ok(limits.DailyApiRequests);
  assert.deepEqual(seen.map((s) => s.status), [503, 503, 200]);
  emu().setFault("unavailable", 1);
  const err = await crm.createSobjectRecord("Account", { Name: "Not Twice" }).catch((e: unknown) => e);
  assert.ok(err instanceof APIRequestError && err.status === 503);
  assert.equal((await crm.soqlQuery("SELECT COUNT() FROM Account WHERE Name = 'Not Twice'")).totalSize, 0);
});

test("retries are bounded: a longer outage surfaces the 503 after the last attempt", async () => {
  const crm = await demoClient(emu(), { retry: { retries: 2, baseDelayMs: 1 } });
  emu().setFault("unavailable", 5);
  try {
    await assert.rejects(crm.getOrgLimits(), (e: unknown) => e instanceof APIRequestError && e.errorCode === "SERVER_UNAVAILABLE");
  } finally {
    emu().setFault("unavailable", 0);
  }
});

test("a dropped connection on a GET is retried; on a POST it is reported as a NetworkError", async () => {
  const crm = await demoClient(emu());
  emu().setFault("drop", 1);
  assert.ok((await crm.getOrgLimits()).DailyApiRequests);
  emu().setFault("drop", 1);
  const err = await crm.createSobjectRecord("Account", { Name: "Dropped" }).catch((e: unknown) => e);
  assert.ok(err instanceof NetworkError, String(err));
  assert.match(err.message, /POST \/services\/data\/v62\.0\/sobjects\/Account could not reach the org/);
});

test("REQUEST_LIMIT_EXCEEDED is an APIRequestError with the org's words (not retried)", async () => {
  const crm = await demoClient(emu());
  emu().setFault("requestLimitExceeded", true);
  try {
    const err = (await crm.getOrgLimits().catch((e: unknown) => e)) as APIRequestError;
    assert.deepEqual([err.status, err.errorCode], [403, "REQUEST_LIMIT_EXCEEDED"]);
    assert.match(err.message, /TotalRequests Limit exceeded/);
  } finally {
    emu().setFault("requestLimitExceeded", false);
  }
});

test("an AbortSignal cancels a slow call with CancelledError", async () => {
  const crm = await demoClient(emu());
  emu().setFault("latencyMs", 500);
  try {
    const controller = new AbortController();
    const pending = crm.soqlQuery("SELECT Id FROM Account", { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(pending, CancelledError);
  } finally {
    emu().setFault("latencyMs", 0);
  }
});

test("the injected logger hears each request but never a token, password or secret", async () => {
  const lines: string[] = [];
  const sink = (m: string) => lines.push(m);
  const crm = await Crm.create(demoOptions(emu(), { logger: { debug: sink, info: sink, warn: sink, error: sink } }));
  emu().setFault("expireTokens", true);
  await crm.getOrgLimits();
  const all = lines.join("\n");
  assert.match(all, /GET \/services\/data\/v62\.0\/limits → 200/);
  assert.match(all, /access token renewed/);
  const c = emu().credentials;
  for (const secret of [crm.getSession()!.accessToken, c.password, c.clientSecret, c.securityToken]) assert.ok(!all.includes(secret), "no secret in the log");
  crm.close();
});

test("calls made while connect() is between sign-in and the version wait for it: nothing is sent to vundefined", async () => {
  const crm = new Crm(demoOptions(emu()));
  try {
    const early: Promise<unknown>[] = [];
    crm.on("request", (info) => {
      // Signed in, the version list answered but not yet read: the moment the start-up race hit.
      if (info.path === "/services/data") early.push(crm.getOrgLimits(), crm.getAllSobjects(), crm.soqlQuery("SELECT Id FROM Account LIMIT 1"));
    });
    await crm.connect();
    await Promise.all(early);
    assert.equal(early.length, 3);
  } finally {
    crm.close();
  }
  assert.equal(emu().requests.filter((r) => r.path.includes("vundefined")).length, 0);
  assert.equal(emu().requests.filter((r) => r.path === "/services/data").length >= 1, true);
});

test("a session the org refuses even after renewal: one attempt, sessionRejected once, and later calls fail at once without sending", async () => {
  const start = await browserSession(emu());
  const c = emu().credentials;
  const crm = new Crm({ auth: new RefreshTokenAuth({ loginUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret, refreshToken: start.refreshToken! }) });
  try {
    await crm.connect();
    const rejected: Error[] = [];
    crm.on("sessionRejected", (e) => rejected.push(e));
    await fetch(`${c.loginUrl}/services/oauth2/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: crm.getSession()!.refreshToken! }) });
    emu().setFault("expireTokens", true);
    await assert.rejects(crm.getOrgLimits(), (e: unknown) => e instanceof AuthenticationError && e.error === "invalid_grant");
    const sent = emu().requests.length;
    await assert.rejects(crm.getOrgLimits(), AuthenticationError);
    await assert.rejects(crm.soqlQuery("SELECT Id FROM Account"), AuthenticationError);
    assert.equal(emu().requests.length, sent, "nothing more is sent with dead credentials");
    assert.equal(rejected.length, 1);
  } finally {
    crm.close();
  }
});

test("beforeWrite sees every write (not reads, not sign-in) before it leaves; throwing sends nothing", async () => {
  const seen: string[] = [];
  let refuse = false;
  const crm = await demoClient(emu(), {
    beforeWrite: (w) => {
      seen.push(`${w.method} ${w.path.replace(/v\d+\.\d/, "vX")}`);
      if (refuse) throw new CancelledError("not confirmed");
    },
  });
  await crm.getOrgLimits();
  const created = await crm.createSobjectRecord("Account", { Name: "Guarded" });
  assert.deepEqual(seen, ["POST /services/data/vX/sobjects/Account"]);
  refuse = true;
  const before = emu().requests.length;
  await assert.rejects(crm.updateSobjectRecord("Account", created.id, { Name: "Never sent" }), CancelledError);
  assert.equal(emu().requests.length, before, "a refused write sends nothing");
  assert.equal((await crm.getSobjectRecord("Account", created.id)).Name, "Guarded");
});

test("the org's version list asked for before any sign-in: the sign-in reads it alone, not waiting on that first request", async () => {
  const crm = new Crm(demoOptions(emu()));
  const lists = () => emu().requests.filter((r) => r.method === "GET" && r.path === "/services/data").length;
  const before = lists();
  // The first call waits for the sign-in, which reads the same list: had it joined the first, each would wait on the other.
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("the version list never came: the sign-in waited on the request waiting for it")), 5000)));
  try {
    const versions = await Promise.race([crm.getApiVersions(), stuck]);
    assert.equal(versions.at(-1)?.version, crm.version, "the caller's list is the one the sign-in took its version from");
    assert.equal(lists() - before, 2, "the sign-in's read and the caller's are two requests");
  } finally {
    clearTimeout(timer);
    crm.close();
  }
});

test("identical GETs on their way at once are sent once; each caller gets its own copy; a cancellable GET goes alone", async () => {
  const crm = await demoClient(emu());
  await crm.apiPath();
  const describes = () => emu().requests.filter((r) => r.method === "GET" && r.path.endsWith("/sobjects/Account/describe")).length;
  const before = describes();
  const [a, b, c] = await Promise.all([crm.describeObject("Account"), crm.describeObject("Account"), crm.describeObject("Account")]);
  assert.equal(describes() - before, 1, "three callers, one request");
  assert.deepEqual(a, b);
  a!.fields.length = 0;
  assert.ok(b!.fields.length > 0 && c!.fields.length > 0, "changing one caller's answer leaves the others'");
  await crm.describeObject("Account");
  assert.equal(describes() - before, 2, "a later call is a request of its own");
  const queries = () => emu().requests.filter((r) => r.path.endsWith("/query")).length;
  const q = queries();
  const controller = new AbortController();
  await Promise.all([crm.soqlQuery("SELECT Id FROM Account LIMIT 1", { signal: controller.signal }), crm.soqlQuery("SELECT Id FROM Account LIMIT 1", { signal: controller.signal })]);
  assert.equal(queries() - q, 2, "each cancellable call is its own request");
  // A read asked for after a write does not take the answer of one sent before it.
  const account = (await crm.soqlQuery<{ Id: string }>("SELECT Id FROM Account LIMIT 1")).records[0]!.Id;
  const reads = () => emu().requests.filter((r) => r.method === "GET" && r.path.endsWith(`/sobjects/Account/${account}`)).length;
  const r0 = reads();
  const readBefore = crm.getSobjectRecord("Account", account);
  const write = crm.updateSobjectRecord("Account", account, { Phone: "+1 555 0100" });
  const readAfter = crm.getSobjectRecord("Account", account);
  await Promise.all([readBefore, write]);
  assert.equal((await readAfter).Phone, "+1 555 0100");
  assert.equal(reads() - r0, 2);
});
