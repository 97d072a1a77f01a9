// Runs `npm ci` when node_modules is missing or does not match package-lock.json, so that
// `npm start` and `npm test` work by themselves on a fresh clone.
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

function installedMatchesLock() {
  if (!existsSync("node_modules/.package-lock.json")) return false;
  const wanted = JSON.parse(readFileSync("package-lock.json", "utf8")).packages ?? {};
  const installed = JSON.parse(readFileSync("node_modules/.package-lock.json", "utf8")).packages ?? {};
  for (const [path, meta] of Object.entries(wanted)) {
    if (path === "" || meta.optional || meta.link) continue;
    if (installed[path]?.version !== meta.version) return false;
  }
  return true;
}

if (!installedMatchesLock()) {
  console.log("node_modules is missing or stale: running npm ci");
  const result = spawnSync("npm", ["ci"], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
