/**
 * No import circles in the product's code: a module is never loaded half way because a module it loads loads it
 * back, and no two modules need each other to be understood — type-only imports count too (a circle of types is
 * the layering broken all the same). The imports are the TypeScript compiler's own reading of each file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A relative import's module: the file itself, or a folder's index. */
function resolved(from: string, specifier: string): string | undefined {
  const base = path.join(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, "index.ts")].find((f) => existsSync(f));
}

test("no module of src/ imports, through others, a module that imports it (type-only imports included)", () => {
  const files = readdirSync("src", { recursive: true }).map(String).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")).map((f) => path.join("src", f));
  const graph = new Map(files.map((file) => [file, ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles
    .filter((i) => i.fileName.startsWith("."))
    .flatMap((i) => resolved(file, i.fileName) ?? [])]));
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
