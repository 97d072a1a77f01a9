/**
 * The client against hostile content and careless callers: image references that try to leave their folder
 * or reach other resources, secrets in printed errors and objects, helper files with bad content, bad option
 * values, and the origin rule. The extension's log line and error message for the same failures are checked
 * with them, since that is where a person sees them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import {
  Crm, AuthenticationError, CrmError, InvalidFieldError, InvalidURLError, MissingRequiredDataError, NetworkError, PasswordAuth, RefreshTokenAuth, readHelperFile, strategyFromConnection,
} from "../../../src/client";
import { describeError } from "../../../src/platform/errorMessages";
import { errorLogLine } from "../../../src/platform/errorLogLine";
import { Redactor } from "../../../src/platform/redact";
import { closedAfterTests, useEmulator, demoClient, demoOptions } from "../../helpers/emulator";

const emu = useEmulator();
const track = closedAfterTests();

/** Every form a printed error or object can take: what console.error, an unhandled rejection and a log show. */
function printed(value: unknown): string {
  return [inspect(value, { depth: Infinity, showHidden: true }), JSON.stringify(value) ?? "", String(value)].join("\n");
}

function assertNoSecret(text: string, secrets: (string | undefined)[], what: string): void {
  for (const secret of secrets) if (secret) assert.ok(!text.includes(secret), `${what} shows a secret (${secret.slice(0, 4)}…):\n${text.slice(0, 2000)}`);
}

/** The extension's view of a failure: its log line and its toast, both through the redactor that knows no values. */
function assertExtensionShowsNoSecret(err: unknown, secrets: (string | undefined)[]): void {
  const redactor = new Redactor();
  assertNoSecret(errorLogLine("crm.test failed", err, redactor), secrets, "the log line");
  assertNoSecret(describeError(err, { redactor }).message ?? "", secrets, "the error message");
}

const userSecrets = () => [emu().credentials.password, emu().credentials.clientSecret, emu().credentials.securityToken];

async function articleWithImage(c: Crm): Promise<{ Id: string; url: string }> {
  const row = (await c.soqlQuery<{ Id: string; Answer__c: string }>("SELECT Id, Answer__c FROM Knowledge__kav WHERE Answer__c LIKE '%rtaImage%' LIMIT 1")).records[0]!;
  return { Id: row.Id, url: /src="([^"]+)"/.exec(row.Answer__c)![1]! };
}

test("hostile image references are refused before any request, and nothing is written outside the chosen folder", async () => {
  const c = await demoClient(emu());
  const { Id, url } = await articleWithImage(c);
  const root = mkdtempSync(path.join(tmpdir(), "crm-hostile-"));
  const folder = path.join(root, "a", "b", "images");
  mkdirSync(folder, { recursive: true });
  const hostile = [
    "x?a=/../../escaped",
    "../../../../../limits",
    "0EM5g000000ImG1/../../limits",
    "0EM5g000000ImG1%2F..",
    "..",
    "0EM5g000000ImG1?x",
    "001000000000001AAA",
  ];
  for (const refid of hostile) {
    const before = emu().requests.length;
    const hostileUrl = url.replace(/refid=[^&"]+/, `refid=${encodeURIComponent(refid)}`);
    await assert.rejects(c.downloadImage(hostileUrl, Id, "Answer__c", { filePath: folder }), (e: unknown) => e instanceof InvalidFieldError && /not a content reference ID/.test((e as Error).message), refid);
    await assert.rejects(c.fetchRichTextImage(hostileUrl, Id, "Answer__c"), InvalidFieldError, refid);
    assert.equal(emu().requests.length, before, `no request for refid ${refid}`);
  }
  const written = readdirSync(root, { recursive: true }).map(String);
  assert.deepEqual(written.sort(), ["a", path.join("a", "b"), path.join("a", "b", "images")], "nothing written anywhere");
  assert.equal(emu().requests.some((r) => r.path.endsWith("/limits")), false, "the limits resource was never fetched");
  const saved = await c.downloadImage(url, Id, "Answer__c", { filePath: folder });
  assert.equal(path.dirname(saved), folder, "a real image still lands in the folder");
});

test("a failed sign-in over the network: the printed error holds no password or client secret", async () => {
  const crm = track(new Crm({ ...demoOptions(emu()), endpointUrl: "http://127.0.0.1:9", retry: { retries: 0 } }));
  const err = await crm.connect().catch((e: unknown) => e);
  assert.ok(err instanceof NetworkError, String(err));
  assert.equal(err.code, "ECONNREFUSED");
  assertNoSecret(printed(err), userSecrets(), "the sign-in NetworkError");
  assertExtensionShowsNoSecret(err, userSecrets());
});

test("a data call whose connection drops: the printed error holds no bearer token", async () => {
  const crm = await demoClient(emu(), { retry: { retries: 1, baseDelayMs: 1 } });
  const token = crm.getSession()!.accessToken;
  emu().setFault("drop", 2);
  const err = await crm.getOrgLimits().catch((e: unknown) => e);
  assert.ok(err instanceof NetworkError, String(err));
  assert.ok(!printed(err).includes("Bearer"), "no Authorization header anywhere in the error");
  assertNoSecret(printed(err), [token, ...userSecrets()], "the data-call NetworkError");
  assertExtensionShowsNoSecret(err, [token]);
});

test("a token response cut short is reported without quoting it", async () => {
  emu().setFault("malformedJson", 1);
  const crm = track(new Crm(demoOptions(emu())));
  const err = await crm.connect().catch((e: unknown) => e);
  assert.ok(err instanceof AuthenticationError, String(err));
  assert.match(err.message, /answered HTTP 200 with a body that is not JSON/);
  const issued = [...emu().oauth.sessions.keys()].at(-1)!;
  assertNoSecret(printed(err), [issued, issued.slice(0, 20), ...userSecrets()], "the AuthenticationError");
  assertExtensionShowsNoSecret(err, [issued.slice(0, 20)]);
});

test("a 503 maintenance page during sign-in is retried like any 503, and never quoted", async () => {
  emu().setFault("maintenancePage", 1);
  const crm = track(new Crm(demoOptions(emu())));
  await crm.connect();
  assert.ok(crm.isConnected, "the second attempt signed in");
  emu().setFault("maintenancePage", 5);
  const failing = track(new Crm(demoOptions(emu())));
  const err = await failing.connect().catch((e: unknown) => e);
  emu().setFault("maintenancePage", 0);
  assert.ok(err instanceof AuthenticationError, String(err));
  assert.match(err.message, /answered HTTP 503 with an HTML page/);
  assert.ok(!err.message.includes("<"), "no markup in the message");
});

test("printing a client or a strategy never shows a password, secret, security token or access token", async () => {
  const crm = await demoClient(emu());
  const session = crm.getSession()!;
  const secrets = [...userSecrets(), session.accessToken];
  assertNoSecret(printed(crm), secrets, "the client");
  assert.match(inspect(crm), /instanceUrl/, "the client still says where it is connected");
  assert.equal(JSON.parse(JSON.stringify(crm)).instanceUrl, emu().url);
  const c = emu().credentials;
  assertNoSecret(printed(new PasswordAuth({ loginUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret, username: c.username, password: c.password })), secrets, "a password strategy");
  assertNoSecret(printed(new RefreshTokenAuth({ loginUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret, refreshToken: "5Aep861-refresh-secret" })), ["5Aep861-refresh-secret", c.clientSecret], "a refresh-token strategy");
});

test("a timed-out write says its outcome is unknown and how to check; a timed-out read does not", async () => {
  const crm = await demoClient(emu(), { timeoutMs: 100 });
  emu().setFault("latencyMs", 300);
  try {
    const write = await crm.createSobjectRecord("Account", { Name: "Maybe Written" }).catch((e: unknown) => e);
    assert.ok(write instanceof NetworkError && write.code === "ETIMEDOUT", String(write));
    assert.equal(write.outcomeUnknown, true);
    assert.match(write.message, /may still have made the change: check .* before sending it again/);
    const read = await crm.getOrgLimits().catch((e: unknown) => e);
    assert.ok(read instanceof NetworkError && read.outcomeUnknown === false && !/may still/.test(read.message));
  } finally {
    emu().setFault("latencyMs", 0);
  }
  // The org did make it once its delay was over: exactly what the message warns about.
  const checker = await demoClient(emu());
  let written = 0;
  for (let tries = 0; tries < 40 && written === 0; tries++) {
    await new Promise((r) => setTimeout(r, 50));
    written = (await checker.soqlQuery("SELECT COUNT() FROM Account WHERE Name = 'Maybe Written'")).totalSize;
  }
  assert.equal(written, 1);
});

test("bad timeoutMs values get a RangeError naming timeoutMs, and leave no request behind to crash the process", async () => {
  const crashes: unknown[] = [];
  const onCrash = (e: unknown) => crashes.push(e);
  process.on("uncaughtException", onCrash);
  try {
    for (const bad of [-1, 0, Number.NaN, Number.POSITIVE_INFINITY, "abc"]) {
      assert.throws(() => new Crm({ ...demoOptions(emu()), timeoutMs: bad as number }), (e: unknown) => e instanceof RangeError && /timeoutMs must be a positive finite number/.test((e as Error).message), String(bad));
    }
    const crm = await demoClient(emu());
    for (const bad of [-1, 0, "abc"]) {
      await assert.rejects(crm.get(await crm.apiPath("/limits"), { timeoutMs: bad as number }), (e: unknown) => e instanceof RangeError && /timeoutMs/.test((e as Error).message), String(bad));
    }
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    process.off("uncaughtException", onCrash);
  }
  assert.deepEqual(crashes, []);
});

test("helper files: a missing or misspelt password names the field instead of switching flows", () => {
  const base = { endpoint_url: "https://login.salesforce.com", client_id: "key", client_secret: "app-secret" };
  const named = (field: string) => (e: unknown) => e instanceof MissingRequiredDataError && e.parameter === field;
  assert.throws(() => strategyFromConnection({ ...base, username: "ada@example.com" }), named("password"));
  assert.throws(() => strategyFromConnection({ ...base, username: "ada@example.com", passwrod: "s3cret" } as never), named("password"));
  assert.throws(() => strategyFromConnection({ ...base, password: "s3cret" }), named("username"));
  assert.equal(strategyFromConnection({ ...base, username: "ada@example.com", grant_type: "client_credentials" }).kind, "clientCredentials", "grant_type still decides");
  assert.equal(strategyFromConnection(base).kind, "clientCredentials", "only the app's credentials: the client-credentials flow, as before");
  assert.equal(strategyFromConnection({ ...base, username: "ada@example.com", password: "s3cret" }).kind, "password");
  assert.throws(() => strategyFromConnection({ endpoint_url: "https://login.salesforce.com" }), (e: unknown) => e instanceof MissingRequiredDataError && /names no way to sign in/.test((e as Error).message));
});

test("helper files: parse errors give file, line, column and kind but never the content; a folder is named as such", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "crm-helper-"));
  const cases: [string, string, RegExp][] = [
    ["bad.json", '{\n  "connection": {\n    "password": "hunter2-json"\n    "username": "ada"\n  }\n}', /bad\.json is not valid JSON: .* at line 4, column 5$/],
    ["yaml-in.json", "connection:\n  password: hunter2-json", /is not valid JSON: unexpected character at line 1, column 1$/],
    ["cut.json", '{"connection": {"password": "hunter2-json', /is not valid JSON: the JSON ends too early at line 1/],
    ["bad.yaml", "connection:\n  password: hunter2-yaml\n  username: [ada\n", /bad\.yaml is not valid YAML: .* at line \d+, column \d+$/],
  ];
  for (const [name, text, expected] of cases) {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    const err = (() => {
      try {
        readHelperFile(file);
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof CrmError, `${name}: ${String(err)}`);
    assert.match(err.message, expected, name);
    assertNoSecret(printed(err), ["hunter2"], name);
  }
  assert.throws(() => readHelperFile(dir), (e: unknown) => e instanceof CrmError && /is a folder or a device, not a file/.test((e as Error).message) && !/EISDIR/.test((e as Error).message));
  assert.throws(() => readHelperFile(path.join(dir, "absent.yaml")), /helper file not found/);
});

test("the origin rule: control characters and foreign schemes are refused with readable messages", async () => {
  const crm = await demoClient(emu());
  const before = emu().requests.length;
  await assert.rejects(crm.get("/services/data/v62.0/limits\r\nX-Injected: 1"), (e: unknown) => e instanceof InvalidURLError && /control character/.test((e as Error).message) && !/[\r\n]/.test((e as Error).message));
  await assert.rejects(crm.get("file:///etc/passwd"), (e: unknown) => e instanceof InvalidURLError && /"file:\/\/\/etc\/passwd" is not on the org's instance/.test((e as Error).message) && !/null/.test((e as Error).message));
  await assert.rejects(crm.get("https://evil.example.com/services/data"), InvalidURLError);
  assert.equal(emu().requests.length, before, "nothing sent");
  assert.throws(() => new PasswordAuth({ loginUrl: "https://login.salesforce.com\n.evil.example", clientId: "k", clientSecret: "s", username: "u", password: "p" }), (e: unknown) => e instanceof InvalidURLError && !/[\r\n]/.test((e as Error).message));
  assert.throws(() => new PasswordAuth({ loginUrl: "file:///tmp/x", clientId: "k", clientSecret: "s", username: "u", password: "p" }), (e: unknown) => e instanceof InvalidURLError && /"file:\/\/\/tmp\/x" must use https/.test((e as Error).message));
});

/**
 * A login endpoint (or a proxy before it) that echoes the form it was sent: the raw body, the decoded fields,
 * and the Basic header, in its error words. Whatever the client sent as a credential must not come back out.
 */
async function echoingLoginServer(): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "invalid_grant", error_description: `refused ${body} as ${JSON.stringify(fields)} with ${req.headers.authorization ?? "no header"}`, echo: { form: fields } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test("every credential the client sent is taken out of a sign-in error that echoes the form: password, security token, client secret, refresh token, JWT assertion", async () => {
  const login = await echoingLoginServer();
  try {
    const { ClientCredentialsAuth, JwtBearerAuth } = await import("../../../src/client");
    const { generateKeyPairSync } = await import("node:crypto");
    const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const secrets = { password: "Pa$$ word+1&x=y", securityToken: "TOKENabcdefghijklmnop123", clientSecret: "SECRET/with+plus=and&amp", refreshToken: "5Aep861.refresh+token/value==" };
    const jwt = new JwtBearerAuth({ loginUrl: login.url, clientId: "client-id", username: "a@b.example", privateKey });
    const flows = [
      new PasswordAuth({ loginUrl: login.url, clientId: "client-id", clientSecret: secrets.clientSecret, username: "a@b.example", password: secrets.password, securityToken: secrets.securityToken }),
      new ClientCredentialsAuth({ loginUrl: login.url, clientId: "client-id", clientSecret: secrets.clientSecret }),
      new RefreshTokenAuth({ loginUrl: login.url, clientId: "client-id", clientSecret: secrets.clientSecret, refreshToken: secrets.refreshToken }),
      jwt,
    ];
    for (const auth of flows) {
      const err = await Crm.create({ auth, retry: { retries: 0 } }).then(() => assert.fail(`${auth.kind}: signed in`), (e: unknown) => e);
      assert.ok(err instanceof AuthenticationError, `${auth.kind}: ${String(err)}`);
      assert.match((err as Error).message, /refused .*\[redacted\]/, `${auth.kind}: the endpoint's words are still quoted`);
      const sent = [...Object.values(secrets), secrets.password + secrets.securityToken, ...(auth === jwt ? [jwt.assertion()] : [])];
      const encoded = sent.flatMap((s) => [encodeURIComponent(s), new URLSearchParams([["", s]]).toString().slice(1)]);
      assertNoSecret(printed(err), [...sent, ...encoded].filter((s) => s.length >= 8), `${auth.kind}'s error`);
      assertExtensionShowsNoSecret(err, [...sent, ...encoded].filter((s) => s.length >= 8));
    }
  } finally {
    await login.close();
  }
});

test("a command-line tool signing in through an echoing endpoint prints no credential it sent", async () => {
  const login = await echoingLoginServer();
  const dir = mkdtempSync(path.join(tmpdir(), "crm-echo-"));
  try {
    const helper = path.join(dir, "helper.json");
    const secrets = { client_secret: "CLI-secret-value-123", password: "cli-Password-456", security_token: "CLItokenABCDEFGHIJKLMN" };
    writeFileSync(helper, JSON.stringify({ connection: { endpoint_url: login.url, client_id: "client-id", username: "a@b.example", ...secrets } }));
    const { runMcpCli } = await import("../../../src/cli/mcpCli");
    const err: string[] = [];
    const code = await runMcpCli({ argv: ["--helper", helper], env: {}, cwd: dir, out: () => undefined, err: (t) => err.push(t) }, async () => assert.fail("no transport is opened"));
    assert.equal(code, 2);
    assert.match(err.join("\n"), /Signing in to the org failed: .*refused/);
    assertNoSecret(err.join("\n"), [...Object.values(secrets), secrets.password + secrets.security_token], "stderr");
  } finally {
    await login.close();
  }
});

test("a write answered 504 by the org's gateway says its outcome is unknown: the write was applied behind it", async () => {
  const crm = await demoClient(emu());
  emu().setFault("gatewayTimeoutAfterWrite", 1);
  const name = `Applied Behind A Gateway ${Date.now()}`;
  const write = await crm.createSobjectRecord("Account", { Name: name }).catch((e: unknown) => e);
  assert.ok(write instanceof NetworkError, String(write));
  assert.equal(write.code, "HTTP_504");
  assert.equal(write.outcomeUnknown, true);
  assert.match(write.message, /HTTP 504\)\. The org may still have made the change: check .* before sending it again/);
  // It was: the org holds the record the answer never reported.
  assert.equal((await crm.soqlQuery(`SELECT Id FROM Account WHERE Name = '${name}'`)).records.length, 1);
});
