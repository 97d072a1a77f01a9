/** The figures in README.md and CONTRIBUTING.md are those of this commit's build, package and benches: none is typed by hand. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { BENCH_SECTIONS, benchBlock, blockNames, bundleFigures, figureText, packagedSize, readBlock, resultSections, SIZES_FILE, vsixFigure, type BundleSizes } from "../../scripts/figures";

const readme = figureText;

function productionSizes(): BundleSizes {
  // `npm test` builds for production before the tests; a test run on its own builds here.
  if (!existsSync(SIZES_FILE)) execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "pipe" });
  return JSON.parse(readFileSync(SIZES_FILE, "utf8")) as BundleSizes;
}

test("the bundle figures are the current production build's", () => {
  assert.equal(readBlock(readme(), "bundles"), bundleFigures(productionSizes()), "run `npm run figures` and commit README.md");
});

test("the VSIX figure is the size of a VSIX packaged now, to the kilobyte", () => {
  productionSizes();
  const shown = Number(/^(\d+) KB$/.exec(readBlock(readme(), "vsix") ?? "")?.[1]);
  const actual = Number(/^(\d+) KB$/.exec(vsixFigure(packagedSize()))![1]);
  // The README is inside the VSIX: writing the figure can move the size by a byte or two, so one kilobyte either way.
  assert.ok(Math.abs(shown - actual) <= 1, `README says ${shown} KB, the VSIX is ${actual} KB: run \`npm run figures\``);
});

test("each bench block is that bench's latest results, and every block the documents have is written by something", () => {
  const text = readme();
  const sections = resultSections(readFileSync("bench/results/README.md", "utf8"));
  for (const [block, heading] of Object.entries(BENCH_SECTIONS)) {
    const body = sections.get(heading);
    assert.ok(body, `bench/results/README.md has a '${heading}' section`);
    assert.equal(readBlock(text, block), benchBlock(body), `${block} differs from bench/results/README.md`);
  }
  assert.deepEqual(blockNames(text).sort(), ["bundles", "vsix", ...Object.keys(BENCH_SECTIONS)].sort());
});

test("no measured figure (KB, MB, ms) stands outside the generated blocks", () => {
  const prose = readme()
    .replace(/<!-- figures:([^ ]+) -->[\s\S]*?<!-- \/figures:\1 -->/g, "")
    .replace(/```[\s\S]*?```/g, "");
  const typed = prose.split("\n").filter((line) => /\b\d[\d,.]*\s?(KB|MB|ms)\b/.test(line));
  assert.deepEqual(typed, [], "move these into a figures block written by the build or a bench");
});

test("the latency table a user reads is in the README itself", () => {
  assert.ok(readBlock(readFileSync("README.md", "utf8"), "bench:latency"), "README.md holds the bench:latency block");
});
