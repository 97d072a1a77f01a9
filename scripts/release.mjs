// `npm run release [-- --out <dir>] [-- --prebuilt]`: one production build (or, with --prebuilt, what dist/ holds:
// the tests' way, after `npm test` built it), then the two things people install — the extension's
// VSIX and the npm package's tarball — side by side in release/ (or <dir>), with SHA256SUMS in the format
// `sha256sum --check` reads, so whoever installs them can check they got these bytes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { out: { type: "string", default: "release" }, prebuilt: { type: "boolean", default: false } } });
const out = path.resolve(values.out);
const { name, version } = JSON.parse(readFileSync("package.json", "utf8"));
mkdirSync(out, { recursive: true });

const run = (command, args) => execFileSync(command, args, { stdio: ["ignore", "ignore", "inherit"] });
if (!values.prebuilt) {
  run(process.execPath, ["esbuild.mjs"]);
  run("npm", ["run", "--silent", "build:types"]);
}
const vsix = `${name}-${version}.vsix`;
run(process.execPath, [path.resolve("node_modules/@vscode/vsce/vsce"), "package", "--no-dependencies", "--no-rewrite-relative-links", "--allow-missing-repository", "-o", path.join(out, vsix)]);
// The bundles were just built: pack them as they are (the package's prepare step would build them again).
run("npm", ["pack", "--ignore-scripts", "--pack-destination", out]);
const tarball = `${name}-${version}.tgz`;

const sums = [vsix, tarball].map((file) => `${createHash("sha256").update(readFileSync(path.join(out, file))).digest("hex")}  ${file}`);
writeFileSync(path.join(out, "SHA256SUMS"), sums.join("\n") + "\n");
console.log(`${path.relative(".", out) || "."}/: ${vsix}, ${tarball}, SHA256SUMS`);
