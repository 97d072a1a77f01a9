// `npm run test:host:loaded`: the real-VS-Code tier beside a CPU load that keeps one core busy, as a user's
// machine (or a shared CI runner) often is. A journey that waits on time rather than on state fails here first.
// Passes its arguments (files or folders) to the test command; the host tier by default.
import { spawn } from "node:child_process";

// One busy process: on a 2-core machine it takes one core whole; it stops itself after two hours at the latest.
const load = spawn(process.execPath, ["-e", "const end = Date.now() + 7_200_000; while (Date.now() < end) Math.sqrt(Math.random());"], { stdio: "ignore" });
const started = Date.now();
const tests = spawn(process.execPath, ["--import", "tsx", "scripts/test.mjs", ...(process.argv.length > 2 ? process.argv.slice(2) : ["test/host"])], { stdio: "inherit" });
const stopLoad = () => load.exitCode === null && load.kill("SIGKILL");
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => { tests.kill(signal); stopLoad(); });
tests.on("exit", (code) => {
  stopLoad();
  console.log(`host tier under one core of load: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(code ?? 1);
});
