/**
 * `npm start`: builds (the npm script does), starts the emulator with the demo seed, writes the demo org's
 * helper file, and opens the extension on it — desktop VS Code when `code` is on PATH, otherwise code-server
 * at a printed 127.0.0.1 URL. The extension imports the demo org from the helper file (its secrets go to
 * SecretStorage, none to settings). Ctrl+C stops everything it started.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../src/demo-org";
import { ensureHost, startCodeServer, type CodeServer } from "../test/host/harness";

async function main() {
  const port = Number(process.env.CRM_EMULATOR_PORT ?? 8787);
  const emulator = await startEmulator({ port, seed: "demo" });
  const c = emulator.credentials;
  const dir = path.resolve(".crm-demo");
  mkdirSync(dir, { recursive: true });
  const helper = path.join(dir, "demo-org.json");
  writeFileSync(helper, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }, null, 2), { mode: 0o600 });
  console.log(`Demo org (emulator) at ${emulator.url}; its helper file: ${helper}`);

  const children: ChildProcess[] = [];
  let codeServer: CodeServer | undefined;
  const env = { CRM_DEMO_HELPER: helper };
  if (spawnSync("sh", ["-c", "command -v code"], { stdio: "ignore" }).status === 0) {
    console.log("Opening VS Code with the extension under development…");
    children.push(spawn("code", ["--new-window", `--extensionDevelopmentPath=${process.cwd()}`, process.cwd()], { stdio: "inherit", env: { ...process.env, ...env } }));
  } else {
    console.log("`code` is not on PATH: starting code-server (VS Code in the browser) instead…");
    const host = ensureHost();
    if (!host.ok) throw new Error(`code-server could not be set up: ${host.reason}`);
    codeServer = await startCodeServer(host.codeServer!, { env, workspace: process.cwd() });
    const payload = JSON.stringify([["extensionDevelopmentPath", `vscode-remote://127.0.0.1:${codeServer.port}${process.cwd()}`]]);
    console.log(`\nOpen this in a browser on this machine:\n  ${codeServer.url}/?folder=${encodeURIComponent(process.cwd())}&payload=${encodeURIComponent(payload)}\n`);
    console.log("The CRM view (cloud icon) lists the demo org.");
  }
  console.log("Press Ctrl+C to stop.");
  const stop = async () => {
    for (const child of children) child.kill("SIGTERM");
    await codeServer?.stop();
    await emulator.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

void main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
