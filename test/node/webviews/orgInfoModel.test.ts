import { test } from "node:test";
import assert from "node:assert/strict";
import { parseOrgInfoRequest, parseOrgInfoUpdate } from "../../../src/webviews/protocol/orgInfo";
import { contentSecurityPolicy, webviewShell } from "../../../src/webviews/html";
import { limitBars, limitLabel, readOrgInfo } from "../../../src/webviews/orgInfoModel";
import { useEmulator } from "../../helpers/emulator";
import { managerWithDemoOrg } from "../fakes";

const emu = useEmulator();

test("limit labels read as words, with API and MB kept upper case", () => {
  assert.equal(limitLabel("DailyApiRequests"), "Daily API Requests");
  assert.equal(limitLabel("DataStorageMB"), "Data Storage MB");
  assert.equal(limitLabel("DailyBulkV2QueryJobs"), "Daily Bulk V2 Query Jobs");
});

test("limits become bars sorted by pressure, nested limits included, malformed entries skipped", () => {
  const bars = limitBars({
    DailyApiRequests: { Max: 15000, Remaining: 14000 },
    DataStorageMB: { Max: 5, Remaining: 1 },
    MassEmail: { Max: 10, Remaining: 10 },
    PermissionSets: { Max: 1500, Remaining: 1497, CreateCustom: { Max: 1000, Remaining: 100 } },
    Broken: { Max: "lots" },
    Zero: { Max: 0, Remaining: 0 },
  });
  assert.deepEqual(bars.map((b) => b.name), ["PermissionSets.CreateCustom", "DataStorageMB", "DailyApiRequests", "PermissionSets", "MassEmail", "Zero"]);
  const nested = bars[0]!;
  assert.deepEqual([nested.label, nested.used, nested.max, nested.pressure], ["Permission Sets · Create Custom", 900, 1000, 0.9]);
  assert.equal(bars.find((b) => b.name === "Zero")!.pressure, 0, "a zero max is not a division by zero");
});

test("the org's info comes from its limits and user info, without a token in what the panel receives", async () => {
  const { manager, org, secrets } = await managerWithDemoOrg(emu().credentials);
  const c = emu().credentials;
  const info = await readOrgInfo(manager, org);
  assert.equal(info.alias, "Demo");
  assert.equal(info.apiVersion, "62.0");
  assert.equal(info.user.username, c.username);
  assert.equal(info.user.userId, emu().seeded.adminId);
  const api = info.limits.find((b) => b.name === "DailyApiRequests")!;
  assert.equal(api.max, 15000);
  assert.ok(api.used >= 1, "the requests just made count against the daily limit");
  assert.ok(info.limits.every((bar, i, all) => i === 0 || all[i - 1]!.pressure >= bar.pressure), "most used first");
  assert.ok(parseOrgInfoUpdate({ type: "orgInfo", info }), "what the host sends passes the webview's own check");
  assert.ok(secrets.length > 0, "the session's secrets were handed to the redactor");
  for (const secret of secrets) assert.ok(!JSON.stringify(info).includes(secret), "no secret reaches the panel");
  manager.dispose();
});

test("messages are validated on receipt on both sides", () => {
  assert.deepEqual(parseOrgInfoRequest({ type: "refresh" }), { type: "refresh" });
  assert.deepEqual(parseOrgInfoRequest({ type: "ready", extra: "<script>" }), { type: "ready" }, "unknown fields are dropped");
  for (const bad of [null, "refresh", [], { type: "runCommand", command: "workbench.action.terminal.new" }, { type: 3 }]) assert.equal(parseOrgInfoRequest(bad), undefined);
  assert.equal(parseOrgInfoUpdate({ type: "orgInfo", info: { alias: "x" } }), undefined, "an incomplete view is refused");
  assert.equal(parseOrgInfoUpdate({ type: "error" }), undefined);
  assert.deepEqual(parseOrgInfoUpdate({ type: "error", message: "boom" }), { type: "error", message: "boom" });
});

test("the panel shell has a strict CSP: its own script and styles under one nonce, fonts and images from the extension", () => {
  const script = 'document.title = "x"; const tag = "<!--<script></script><script>alert(1)</script>";';
  const html = webviewShell({ title: "A <b>&</b> org", cspSource: "https://file+.vscode-resource.vscode-cdn.net", script, codiconsUri: "https://x/codicon.css", styles: ["main { color: red }"], data: { orgKey: '"><script>alert(1)</script>' } }, "N0nce");
  assert.ok(html.includes(`content="${contentSecurityPolicy("https://file+.vscode-resource.vscode-cdn.net", "N0nce")}"`));
  assert.match(html, /default-src 'none'; script-src 'nonce-N0nce'; style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net 'nonce-N0nce';/);
  assert.ok(!/unsafe-inline|unsafe-eval/.test(html));
  assert.equal(html.split(/<\/script/i).length, 2, "a '</script>' inside the bundle cannot end its element and start another");
  assert.ok(!html.slice(html.indexOf("<script")).includes("<!--"), "nor can '<!--' change how its end is read");
  assert.ok(html.includes('<script type="module" nonce="N0nce">document.title = "x"; const tag = "<\\x21--<script><\\/script><script>alert(1)<\\/script>";</script>'), "the script keeps its meaning");
  assert.ok(html.includes('<style nonce="N0nce">main { color: red }</style>'));
  assert.ok(html.includes('<link rel="stylesheet" href="https://x/codicon.css" id="vscode-codicon-stylesheet">'));
  assert.ok(html.includes("data-org-key=\"&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;\""), "data values are escaped");
  assert.ok(html.includes("<title>A &#60;b&#62;&#38;&#60;/b&#62; org</title>"));
  assert.notEqual(webviewShell({ title: "t", cspSource: "s", script: "", styles: [] }), webviewShell({ title: "t", cspSource: "s", script: "", styles: [] }), "a fresh nonce per page");
});
