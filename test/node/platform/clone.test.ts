/**
 * A clone after `npm ci` (which builds the bundles in its prepare step): the tools run by the names the README
 * gives them, from the clone itself, with `npx --no-install` (nothing fetched), help on stdout.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "../../..");

function npx(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["--no-install", ...args], { cwd: root, env: { ...process.env, npm_config_offline: "true" } });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

test("each tool runs from the clone by its name, help on stdout, exit 0", async () => {
  for (const [tool, usage] of [["crm-knowledge", /^Usage: crm-knowledge /], ["crm-data", /^Usage: crm-data /], ["crm-explorer-mcp", /^crm-explorer-mcp — /]] as const) {
    const run = await npx([tool, "--help"]);
    assert.equal(run.status, 0, `${tool}: ${run.stderr}`);
    assert.match(run.stdout, usage, tool);
  }
});
