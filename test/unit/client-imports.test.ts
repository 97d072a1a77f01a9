/** The client's modules load in one direction: no module imports, at run time, one that imports it back. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const DIR = "src/client";

/** The sibling modules a file imports for values (imports of types only vanish when compiled). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(path.join(DIR, file), "utf8");
  return [...text.matchAll(/^import\s+(?!type\s)([\s\S]*?)\s+from\s+"\.\/([\w-]+)";/gm)]
    .filter(([, clause]) => {
      const names = /\{([\s\S]*)\}/.exec(clause!)?.[1]?.split(",").map((n) => n.trim()).filter(Boolean);
      return !names || names.some((n) => !n.startsWith("type "));
    })
    .map(([, , target]) => `${target}.ts`);
}

test("src/client has no runtime import cycle", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  const graph = new Map(files.map((f) => [f, runtimeImports(f).filter((t) => files.includes(t))]));
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (trail.includes(file)) return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
  };
  for (const file of files) visit(file, []);
  assert.deepEqual([...new Set(cycles)], []);
  assert.ok((graph.get("crm.ts") ?? []).includes("knowledge.ts"), "the check reads real imports");
});
