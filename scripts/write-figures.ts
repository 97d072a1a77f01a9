/**
 * `npm run figures`: a production build and a VSIX, then the README's bundle and VSIX figures, and its bench
 * blocks from the latest bench results (bench/results/README.md, written by the benches themselves).
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
// The README travels inside the VSIX, so writing its own size can move that size across a kilobyte: settle it.
let size = packagedSize();
for (let i = 0; i < 3; i++) {
  writeBlock("vsix", vsixFigure(size));
  const again = packagedSize();
  if (vsixFigure(again) === vsixFigure(size)) break;
  size = again;
}
console.log(`README figures written: bundles, VSIX ${vsixFigure(size)}, ${Object.keys(BENCH_SECTIONS).length} bench blocks`);
