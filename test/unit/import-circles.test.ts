/**
 * No import circles at run time in the product's code: a module is never loaded half way because a module it
 * loads loads it back. The graph is esbuild's own (type-only imports are gone from it, as from the bundles).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

test("no module of src/ imports, through others, a module that imports it", async () => {
  const entryPoints = readdirSync("src", { recursive: true }).map(String).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")).map((f) => path.join("src", f));
  const { metafile } = await build({ entryPoints, bundle: true, write: false, metafile: true, outdir: "out", platform: "node", format: "esm", packages: "external", logLevel: "silent", external: ["vscode", "./*.js"] }); // the bundles' own chunks (dist/demo-org.js …) are loaded by name
  const graph = new Map(Object.entries(metafile.inputs).filter(([file]) => file.startsWith("src/")).map(([file, input]) => [file, input.imports.map((i) => i.path).filter((p) => p.startsWith("src/"))]));
  // Tarjan's strongly connected components: each with more than one module is a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      circle.push(w);
    } while (w !== v);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  assert.ok(graph.size > 100, `the graph holds the product's modules (${graph.size})`);
  assert.deepEqual(circles, []);
});
