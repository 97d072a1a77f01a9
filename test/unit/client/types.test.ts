/** The client's declared types follow its options: a fixture is compiled with tsc (expected errors marked in it). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

test("flag-dependent results are typed by their flags (publishArticle, checkForExistingArticle, createArticle, updateArticle, get/patch)", () => {
  const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "test/fixtures/types/tsconfig.json"], { encoding: "utf8" });
  assert.equal(tsc.status, 0, `tsc found problems in the type fixture:\n${tsc.stdout}${tsc.stderr}`);
});

test("the fixture's expected errors are real: removing one marker makes tsc fail", async () => {
  const { readFileSync, writeFileSync, mkdtempSync, rmSync } = await import("node:fs");
  const path = await import("node:path");
  const dir = mkdtempSync(path.join("test/fixtures/types", ".probe-"));
  try {
    const fixture = readFileSync("test/fixtures/types/client-results.ts", "utf8").replace("// @ts-expect-error with fullResponse", "// with fullResponse").replace(/\.\.\/\.\.\/\.\.\/src/g, "../../../../src");
    writeFileSync(path.join(dir, "probe.ts"), fixture);
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../../../tsconfig.json", compilerOptions: { noEmit: true, types: ["node"], lib: ["ES2022"] }, include: ["probe.ts"], exclude: [] }));
    const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", path.join(dir, "tsconfig.json")], { encoding: "utf8" });
    assert.notEqual(tsc.status, 0);
    assert.match(tsc.stdout, /Type 'CrmResponse<unknown>' is not assignable to type 'boolean'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the client's built type declarations hold no `any`", async () => {
  const { mkdtempSync, readdirSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const out = mkdtempSync(path.join(tmpdir(), "crm-dts-"));
  try {
    const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "src/client/tsconfig.json", "--emitDeclarationOnly", "--declaration", "--noEmit", "false", "--outDir", out], { encoding: "utf8" });
    assert.equal(tsc.status, 0, tsc.stdout);
    const anys = readdirSync(out).filter((f) => f.endsWith(".d.ts")).flatMap((f) =>
      readFileSync(path.join(out, f), "utf8").split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line) && /[:<,(|&]\s*any\b|\bany\[\]/.test(line)).map((line) => `${f}: ${line.trim()}`));
    assert.deepEqual(anys, []);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
