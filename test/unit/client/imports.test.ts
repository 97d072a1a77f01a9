/** The client's modules load in one direction: no module imports, at run time, one that imports it back. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const DIR = "src/client";

/** The sibling modules a file imports (or re-exports) for values (imports of types only vanish when compiled). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(path.join(DIR, file), "utf8");
  return [...text.matchAll(/^(?:import|export)\s+(?!type\s)([\s\S]*?)\s+from\s+"\.\/([\w-]+)";/gm)]
    .filter(([, clause]) => {
      const names = /\{([\s\S]*)\}/.exec(clause!)?.[1]?.split(",").map((n) => n.trim()).filter(Boolean);
      return !names || names.some((n) => !n.startsWith("type "));
    })
    .map(([, , target]) => `${target}.ts`);
}

const files = readdirSync(DIR).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
const graph = new Map(files.map((f) => [f, runtimeImports(f).filter((t) => files.includes(t))]));

test("src/client has no runtime import cycle", () => {
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (trail.includes(file)) return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
  };
  for (const file of files) visit(file, []);
  assert.deepEqual([...new Set(cycles)], []);
  assert.ok((graph.get("crm.ts") ?? []).includes("plugins.ts"), "the check reads real imports");
});

test("the client core knows no API group and loads without the Bulk, knowledge folder and YAML entries", () => {
  const groups = ["knowledge", "feed", "bulk", "collections", "composite", "knowledgeFolder"];
  const crm = readFileSync(path.join(DIR, "crm.ts"), "utf8");
  assert.deepEqual(groups.filter((g) => new RegExp(`from "\\./${g}"`).test(crm)), [], "crm.ts imports no group, not even its types");
  const reached = new Set<string>();
  const walk = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const next of graph.get(file) ?? []) walk(next);
  };
  walk("index.ts");
  assert.deepEqual(["bulk.ts", "knowledgeFolder.ts", "folderFiles.ts", "yaml.ts"].filter((f) => reached.has(f)), []);
  assert.ok(reached.has("knowledge.ts") && reached.has("transport.ts"), "the walk follows the core's imports");
});
