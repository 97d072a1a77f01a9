/**
 * Runs the mocha suite of test/host/suite inside a real VS Code extension host (code-server 4.100.3 with
 * VS Code 1.100.3), against the emulator. Skipped loudly, with the reason, when the host cannot be set up.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { startEmulator } from "../emulator";
import { ensureHost, openWorkbench, startCodeServer } from "./harness";

const root = path.resolve(__dirname, "../..");

test("the in-host suite passes in a real VS Code extension host", { timeout: 5 * 60_000 }, async (t) => {
  const host = ensureHost();
  if (!host.ok) {
    console.warn(`HOST TIER SKIPPED: ${host.reason}`);
    t.skip(`host tier skipped: ${host.reason}`);
    return;
  }
  execFileSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "pipe" });
  const suite = path.join(root, "test/host/.run/suite.js");
  await build({ entryPoints: [path.join(root, "test/host/suite/index.ts")], outfile: suite, bundle: true, platform: "node", format: "cjs", target: "node20", external: ["vscode", "mocha"], sourcemap: "inline", logLevel: "warning" });
  const emulator = await startEmulator({ port: 0, seed: "demo" });
  const server = await startCodeServer(host.codeServer!, { env: { CRM_TEST_EMULATOR_URL: emulator.url } });
  const lines: string[] = [];
  let finish!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (finish = resolve));
  const workbench = await openWorkbench(server, { extensionPath: root, testsPath: suite.replace(/\.js$/, ""), onLog: (l) => lines.push(l), onExit: (code) => finish(code) });
  try {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((_, reject) => (timer = setTimeout(() => reject(new Error(`no result within 3 minutes:\n${lines.join("\n")}`)), 180_000)));
    const code = await Promise.race([exited, timeout]).finally(() => clearTimeout(timer));
    const report = lines.filter((l) => /passing|failing|✔|✓|\d+\) |Error|assert/i.test(l)).join("\n");
    console.log(report);
    assert.equal(code, 0, lines.join("\n"));
    assert.match(lines.join("\n"), /\d+ passing/);
  } finally {
    await workbench.close();
    await server.stop();
    await emulator.close();
  }
});
