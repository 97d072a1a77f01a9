// `npm test`: lint, typecheck, the production build (size budgets), then every test tier under test/.
// Run as `node --import tsx scripts/test.mjs [file-or-folder …]` so test files may be TypeScript.
// Ends with the closing line `N passed, N failed` (gates that fail count as failures).
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
let gateFailures = 0;

function gate(name, command, commandArgs) {
  process.stdout.write(`${name}… `);
  const result = spawnSync(command, commandArgs, { encoding: "utf8", shell: false });
  if (result.status === 0) {
    console.log("ok");
  } else {
    gateFailures++;
    console.log("FAILED");
    process.stdout.write(result.stdout + result.stderr);
  }
}

function testFiles(target) {
  if (statSync(target).isFile()) return [path.resolve(target)];
  return readdirSync(target, { recursive: true })
    .map((f) => path.join(target, String(f)))
    .filter((f) => /\.test\.(ts|mjs)$/.test(f) && !f.includes(`${path.sep}fixtures${path.sep}`))
    .map((f) => path.resolve(f))
    .sort();
}

if (args.length === 0) {
  gate("lint", "npx", ["eslint", "."]);
  gate("typecheck", "npm", ["run", "--silent", "typecheck"]);
  gate("build (bundle size budgets)", process.execPath, ["esbuild.mjs"]);
}
const files = (args.length ? args : ["test"]).flatMap(testFiles);
// The real-VS-Code tier runs last and one file at a time: each file starts a code-server and a browser.
const isHost = (f) => f.includes(`${path.sep}test${path.sep}host${path.sep}`);
const phases = [
  { files: files.filter((f) => !isHost(f)), concurrency: 2 },
  { files: files.filter(isHost), concurrency: 1 },
].filter((p) => p.files.length);

let passed = 0;
let failed = gateFailures;
for (const phase of phases) {
  const stream = run({ files: phase.files, concurrency: phase.concurrency, timeout: 600_000 });
  stream.on("test:pass", (t) => { if (t.details?.type !== "suite" && !t.skip) passed++; });
  stream.on("test:fail", (t) => { if (t.details?.type !== "suite") failed++; });
  const report = stream.compose(spec);
  report.pipe(process.stdout, { end: false });
  await new Promise((resolve) => report.on("end", resolve));
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
