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

let passed = 0;
let failed = 0;
const stream = run({ files, concurrency: 2, timeout: 300_000 });
stream.on("test:pass", (t) => { if (t.details?.type !== "suite" && !t.skip) passed++; });
stream.on("test:fail", (t) => { if (t.details?.type !== "suite") failed++; });
const report = stream.compose(spec);
report.pipe(process.stdout, { end: false });
report.on("end", () => {
  failed += gateFailures;
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
});
