/**
 * `npm run figures`: a production build and a VSIX, then the bundle and VSIX figures, and the bench blocks from
 * the latest bench results (bench/results/README.md, written by the benches themselves), in README.md and
 * CONTRIBUTING.md.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { BENCH_SECTIONS, benchBlock, bundleFigures, packagedSize, resultSections, SIZES_FILE, vsixFigure, writeBlock, type BundleSizes } from "./figures";

execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "inherit" });
writeBlock("bundles", bundleFigures(JSON.parse(readFileSync(SIZES_FILE, "utf8")) as BundleSizes));
const sections = resultSections(readFileSync("bench/results/README.md", "utf8"));
for (const [block, heading] of Object.entries(BENCH_SECTIONS)) {
  const body = sections.get(heading);
  if (body) writeBlock(block, benchBlock(body));
}
// Writing a figure into a document the VSIX holds can move the VSIX's size across a kilobyte: settle it.
let size = packagedSize();
for (let i = 0; i < 3; i++) {
  writeBlock("vsix", vsixFigure(size));
  const again = packagedSize();
  if (vsixFigure(again) === vsixFigure(size)) break;
  size = again;
}
console.log(`Figures written: bundles, VSIX ${vsixFigure(size)}, ${Object.keys(BENCH_SECTIONS).length} bench blocks`);
