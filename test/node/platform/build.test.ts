/**
 * The production build runs while other things run dist/ (a test that rebuilds beside one that spawns a tool, a
 * developer's second terminal): it replaces a bundle whole, and leaves one whose bytes are unchanged untouched.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "../../..");
const build = () => execFileSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "pipe" });
const written = () => new Map(readdirSync(path.join(root, "dist"), { recursive: true }).map(String)
  .filter((f) => !f.startsWith("types"))
  .map((f) => [f, statSync(path.join(root, "dist", f))] as const)
  .filter(([, s]) => s.isFile())
  .map(([f, s]) => [f, s.mtimeMs]));

test("a rebuild from the same sources rewrites no bundle, and leaves no half-written file behind", () => {
  build();
  const first = written();
  build();
  const second = written();
  assert.deepEqual([...second.keys()].filter((f) => f.endsWith(".tmp")), [], "no temporary file stays in dist/");
  assert.deepEqual([...second].filter(([f, mtime]) => first.get(f) !== mtime).map(([f]) => f), [], "files rewritten by a build with nothing to change");
  assert.ok(first.has("crm-knowledge.js") && (statSync(path.join(root, "dist/crm-knowledge.js")).mode & 0o111) !== 0, "the tools' bundles stay executable");
});
