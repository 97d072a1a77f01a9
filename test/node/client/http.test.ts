import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm, api, APIRequestError, NetworkError, InvalidResponseError, DEFAULT_TIMEOUT_MS, type CrmResponse } from "../../../src/client";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

test("get/post/put/patch/delete and apiCallWithPayload, as methods and as api module functions", async () => {
  const c = await crm();
  const base = await c.apiPath();
  const created = (await c.post(`${base}/sobjects/Account`, { Name: "Helper Co" })) as { id: string };
  assert.match(created.id, /^001/);
  const patched = (await c.patch(`${base}/sobjects/Account/${created.id}`, { Phone: "123" })) as CrmResponse;
  assert.equal(patched.status, 204, "patch returns the response by default");
  const read = (await api.get(c, `${base}/sobjects/Account/${created.id}`)) as { Phone: string };
  assert.equal(read.Phone, "123");
  const viaPayload = (await c.apiCallWithPayload("patch", `${base}/sobjects/Account/${created.id}`, { Phone: "456" })) as CrmResponse;
  assert.equal(viaPayload.status, 204);
  assert.equal(((await api.get(c, `${base}/sobjects/Account/${created.id}`)) as { Phone: string }).Phone, "456");
  const posted = (await api.apiCallWithPayload(c, "POST", `${base}/sobjects/Account`, { Name: "Second" })) as { success: boolean };
  assert.equal(posted.success, true);
  const deleted = (await api.delete(c, `${base}/sobjects/Account/${created.id}`)) as CrmResponse;
  assert.equal(deleted.status, 204, "an empty success body is returned as the response, not parsed");
  await assert.rejects(c.put(`${base}/sobjects/Account/${created.id}`, {}), (e: unknown) => e instanceof APIRequestError && e.status === 405);
});

test("bad arguments name what was expected", async () => {
  const c = await crm();
  assert.throws(() => c.apiCallWithPayload("get", "/x", {}), { name: "RangeError", message: /'post', 'put' or 'patch'/ });
  assert.throws(() => c.post("/x", "text"), { name: "TypeError", message: /payload must be an object/ });
  await assert.rejects(c.get(42 as unknown as string), { name: "TypeError", message: /endpoint must be a non-empty string/ });
});

test("returnJson false returns the response; headers merge with the client's, keeping Authorization", async () => {
  const c = await crm();
  const res = (await c.get(await c.apiPath("/limits"), { returnJson: false, headers: { "X-PrettyPrint": "1", Authorization: "Bearer stolen" } })) as CrmResponse<{ DailyApiRequests: unknown }>;
  assert.equal(res.status, 200);
  assert.ok(res.data?.DailyApiRequests);
  const sent = emu().requests.at(-1)!;
  assert.equal(sent.headers["x-prettyprint"], "1");
  assert.equal(sent.headers.authorization, `Bearer ${c.getSession()!.accessToken}`);
});

test("errors carry status, errorCode, fields, method and path (no token); showFullError false keeps the server's text out", async () => {
  const c = await crm();
  const err = await c.post(await c.apiPath("/sobjects/Contact"), { FirstName: "x" }).catch((e: unknown) => e);
  assert.ok(err instanceof APIRequestError);
  assert.deepEqual([err.status, err.errorCode, err.fields, err.method, err.path], [400, "REQUIRED_FIELD_MISSING", ["LastName"], "POST", "/services/data/v62.0/sobjects/Contact"]);
  assert.match(err.message, /Required fields are missing: \[LastName\]/);
  assert.doesNotMatch(JSON.stringify(err) + err.message, new RegExp(c.getSession()!.accessToken.slice(20)));
  const short = (await c.get(await c.apiPath("/query"), { params: { q: "SELECT Nope FROM Account" }, showFullError: false }).catch((e: unknown) => e)) as APIRequestError;
  assert.equal(short.message, "GET /services/data/v62.0/query failed with status 400 (INVALID_FIELD)");
});

test("a per-call timeout gives a NetworkError naming the call; the default is 30 s", async () => {
  assert.equal(DEFAULT_TIMEOUT_MS, 30_000);
  const c = await crm();
  emu().setFault("latencyMs", 300);
  try {
    const err = await c.get(await c.apiPath("/limits"), { timeoutMs: 50 }).catch((e: unknown) => e);
    assert.ok(err instanceof NetworkError);
    assert.equal(err.code, "ETIMEDOUT");
    assert.match(err.message, /GET \/services\/data\/v62\.0\/limits timed out/);
  } finally {
    emu().setFault("latencyMs", 0);
  }
});

test("a cut-off JSON body raises InvalidResponseError, not a crash or garbage", async () => {
  const c = await crm();
  emu().setFault("malformedJson", 1);
  const err = await c.getOrgLimits().catch((e: unknown) => e);
  assert.ok(err instanceof InvalidResponseError);
  assert.match(err.message, /not valid JSON/);
});

test("Sforce-Limit-Info is parsed after every response into apiUsage, with an event", async () => {
  const c = await crm();
  const seen: number[] = [];
  c.on("apiUsage", (u) => seen.push(u.used));
  await c.getOrgLimits();
  await c.getOrgLimits();
  assert.equal(seen.length, 2);
  assert.equal(seen[1]! - seen[0]!, 1);
  assert.deepEqual(c.apiUsage, { used: seen[1], max: 15000 });
  assert.equal(c.apiUsage!.used, emu().apiUsage.used);
});

test("org information: versions, latest version, resources, limits, sObjects, describe (with If-Modified-Since)", async () => {
  const c = await crm();
  const versions = await c.getApiVersions();
  assert.equal(versions.at(-1)!.version, await c.getLatestApiVersion());
  assert.equal((await c.getRestResources()).sobjects, "/services/data/v62.0/sobjects");
  assert.ok((await c.getAllSobjects())!.sobjects.some((s) => s.name === "Knowledge__kav"));
  assert.equal(((await c.getSobject("Account")).objectDescribe as { name: string }).name, "Account");
  assert.ok(Array.isArray((await c.getSobject("Account", { describe: true })).fields));
  assert.ok(Array.isArray((await c.describeObject("Case"))!.fields));
  assert.equal(await c.describeObject("Case", { ifModifiedSince: new Date() }), undefined, "unchanged since then: 304");
  assert.equal(await c.getAllSobjects({ ifModifiedSince: new Date() }), undefined);
  await assert.rejects(c.describeObject("Not An Object"), RangeError);
});

test("large responses arrive gzip-compressed (as orgs send them) and are decompressed transparently", async () => {
  const c = await crm();
  const res = await c.request<{ fields: unknown[] }>("GET", await c.apiPath("/sobjects/Account/describe"));
  assert.equal(res.headers["content-encoding"], "gzip");
  assert.ok(res.data!.fields.length > 10);
});
