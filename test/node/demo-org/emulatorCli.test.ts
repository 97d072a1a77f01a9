/**
 * `npm run emulator`, as the README's "Two orgs on one machine" runs it: on a free port it serves an org whose
 * printed helper file signs in, and Ctrl+C takes the helper file and its key with it; a taken port is named,
 * with the command to run instead, and exit code 2.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { Crm } from "../../../src/client";

const root = path.resolve(__dirname, "../../..");

/** The emulator as npm starts it, and its output as it comes. */
function emulator(args: string[]) {
  const child = spawn("npm", ["run", "--silent", "emulator", "--", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  // npm answers Ctrl+C by ending with the signal; the emulator under it ends with its own code.
  const exited = new Promise<number | string | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
  const printed = (pattern: RegExp) => new Promise<RegExpExecArray>((resolve, reject) => {
    const look = () => {
      const m = pattern.exec(out);
      if (m) resolve(m);
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    void exited.then(() => reject(new Error(`the emulator exited before printing ${pattern}: ${out}`)));
    look();
  });
  return { child, exited, printed, output: () => out };
}

test("on a free port it serves an org its printed helper file signs in to, and Ctrl+C removes the helper file and key", async () => {
  const run = emulator(["--port", "0", "--seed", "empty", "--org-kind", "sandbox"]);
  try {
    const [, url] = await run.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, helper] = await run.printed(/helper file\s+(\S+)/);
    const [, key] = await run.printed(/JWT private key\s+(\S+)/);
    assert.ok(existsSync(helper!) && existsSync(key!));
    const crm = await Crm.create({ helper: helper! });
    assert.equal(crm.instanceUrl, url);
    crm.close();
    // npm runs the emulator as its child: Ctrl+C reaches the whole process group, as in a terminal.
    process.kill(-run.child.pid!, "SIGINT");
    assert.ok([0, "SIGINT"].includes((await run.exited)!), run.output());
    assert.doesNotMatch(run.output(), /Error|ERR!/);
    // npm may end before the emulator under it has closed: wait for the emulator's own end, its files gone.
    const deadline = Date.now() + 10_000;
    while ((existsSync(helper!) || existsSync(key!)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(!existsSync(helper!) && !existsSync(key!), "the helper file and the key are gone");
  } finally {
    if (run.child.exitCode === null && run.child.signalCode === null) process.kill(-run.child.pid!, "SIGKILL");
  }
});

test("a taken port is named with the command to run instead, and the emulator exits 2", async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const run = emulator(["--port", String(port), "--seed", "empty"]);
    assert.equal(await run.exited, 2);
    assert.match(run.output(), new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is taken .*npm run emulator -- --port ${port + 1} \\(or --port 0 for any free one\\)`));
  } finally {
    taken.close();
  }
});
