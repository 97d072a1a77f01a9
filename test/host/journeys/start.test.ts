/** `npm start` without desktop VS Code: code-server at a printed URL shows the demo org; Ctrl+C stops it all. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chromium } from "playwright-core";
import { Driver } from "../workbench";
import { hostOrSkip, root } from "./session";

test("npm start opens the extension in code-server with the demo org already added", { timeout: 180_000 }, async (t) => {
  const host = hostOrSkip(t);
  if (!host) return;
  execFileSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "pipe" });
  // PATH without desktop VS Code, as on this machine; port 0 so a running demo does not clash.
  const start = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { cwd: root, env: { ...process.env, CRM_EMULATOR_PORT: "0", PATH: "/usr/local/bin:/usr/bin:/bin" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  start.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  start.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => start.once("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      } else if (start.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`npm start ended early:\n${output}`));
      }
    }, 200);
  });
  const profile = `/tmp/crmb-start-${process.pid}`;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: host.chromium, headless: true, viewport: { width: 1400, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    const ui = new Driver(page);
    await ui.openContainer("CRM");
    const row = await ui.waitForRow("Orgs", "Demo org");
    assert.match(row.description, /^admin@demo\.crm · 127\.0\.0\.1:\d+$/);
    await ui.screenshot("00-npm-start");
    await page.goto("about:blank");
  } finally {
    await context.close();
    process.kill(-start.pid!, "SIGINT");
  }
  assert.equal(await exited, 0, "Ctrl+C stops everything and exits cleanly");
});
