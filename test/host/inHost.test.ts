/**
 * Runs the mocha suite of test/host/suite inside a real VS Code extension host through @vscode/test-electron,
 * whose "VS Code" here is test/host/launcher.sh (code-server 4.100.3 with VS Code 1.100.3), against the
 * emulator. Skipped loudly, with the reason, when the host cannot be set up.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { startEmulator } from "../../src/demo-org";
import { runTests } from "@vscode/test-electron";
import { hostOrSkip } from "./journeys/session";

const root = path.resolve(__dirname, "../..");

test("the in-host suite passes in a real VS Code extension host, launched by @vscode/test-electron", { timeout: 5 * 60_000 }, async (t) => {
  const host = hostOrSkip(t);
  if (!host) return;
  execFileSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "pipe" });
  const suite = path.join(root, "test/host/.run/suite.js");
  await build({ entryPoints: [path.join(root, "test/host/suite/index.ts")], outfile: suite, bundle: true, platform: "node", format: "cjs", target: "node20", external: ["vscode", "mocha"], sourcemap: "inline", logLevel: "warning" });
  const emulator = await startEmulator({ port: 0, seed: "demo" });
  try {
    // The same call runs a downloaded VS Code elsewhere; here the launcher runs code-server instead.
    const code = await runTests({
      vscodeExecutablePath: path.join(root, "test/host/launcher.sh"),
      extensionDevelopmentPath: root,
      extensionTestsPath: suite,
      extensionTestsEnv: { CRM_TEST_EMULATOR_URL: emulator.url },
    });
    assert.equal(code, 0);
  } finally {
    await emulator.close();
  }
});
