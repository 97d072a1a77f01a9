/**
 * `npm start`: builds (the npm script does), starts the emulator with the demo seed, writes the demo org's
 * helper file, and opens the extension in desktop VS Code when `code` is on PATH. Ctrl+C stops everything.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../test/emulator";

async function main() {
  const port = Number(process.env.CRM_EMULATOR_PORT ?? 8787);
  const emulator = await startEmulator({ port, seed: "demo" });
  const c = emulator.credentials;
  const dir = path.resolve(".crm-demo");
  mkdirSync(dir, { recursive: true });
  const helper = path.join(dir, "demo-org.json");
  writeFileSync(helper, JSON.stringify({ connection: { endpoint_url: c.loginUrl, client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, security_token: c.securityToken } }, null, 2), { mode: 0o600 });
  console.log(`Demo org (emulator) at ${emulator.url}; its helper file: ${helper}`);
  console.log(`Try the client: node -e "require('./dist/client.js').Crm.create({ helper: '${helper}' }).then(async (crm) => { console.log(await crm.getOrgLimits()); crm.close(); })"`);

  const children: ChildProcess[] = [];
  const hasCode = spawnSync(process.platform === "win32" ? "where" : "which", ["code"], { stdio: "ignore" }).status === 0;
  if (hasCode) {
    console.log("Opening VS Code with the extension under development…");
    children.push(spawn("code", ["--new-window", `--extensionDevelopmentPath=${process.cwd()}`, process.cwd()], { stdio: "inherit", env: { ...process.env, CRM_DEMO_HELPER: helper } }));
  } else {
    console.log("`code` is not on PATH: the demo org and its helper file are ready for the client and for a VS Code you open yourself.");
  }
  console.log("Press Ctrl+C to stop.");
  const stop = async () => {
    for (const child of children) child.kill("SIGTERM");
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
