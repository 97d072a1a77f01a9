#!/usr/bin/env node
// Idempotent set-up of the real-VS-Code test tier (../shared/reference/vscode-host-recipe.md):
// Debian packages (Chromium, build tools), and code-server 4.100.3 (the last for Node 20; it bundles
// VS Code 1.100.3) in a cache folder outside node_modules. Seconds when everything is present.
// Prints one JSON line on stdout: {"ok":true,"codeServer":…,"chromium":…} or {"ok":false,"reason":…}.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, copyFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const CODE_SERVER_VERSION = "4.100.3";
const cacheRoot = process.env.CRM_HOST_CACHE ?? path.join(os.homedir(), ".cache", "crm-explorer-host");
const csDir = path.join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
const entry = path.join(csDir, "node_modules", "code-server", "out", "node", "entry.js");
const APT = ["build-essential", "pkg-config", "python3", "libkrb5-dev", "libx11-dev", "libxkbfile-dev", "libsecret-1-dev", "ripgrep", "chromium", "fonts-liberation", "fonts-dejavu-core"];

const log = (m) => process.stderr.write(`[host setup] ${m}\n`);
const done = (result) => {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
};

function missingPackages() {
  return APT.filter((p) => spawnSync("dpkg-query", ["-W", "-f=${Status}", p], { encoding: "utf8" }).stdout?.includes("install ok installed") !== true);
}

function ensureApt() {
  const missing = missingPackages();
  if (!missing.length) return;
  if (process.getuid?.() !== 0) done({ ok: false, reason: `Debian packages missing (${missing.join(", ")}) and not running as root to install them` });
  log(`installing ${missing.join(" ")} (apt)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update"], { stdio: ["ignore", "ignore", "inherit"], env });
  const install = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", ...missing], { stdio: ["ignore", "ignore", "inherit"], env });
  if (update.status !== 0 || install.status !== 0) done({ ok: false, reason: `apt-get could not install ${missing.join(", ")}` });
}

function ensureCodeServer() {
  if (existsSync(entry)) return;
  log(`installing code-server@${CODE_SERVER_VERSION} into ${csDir} (about a minute)`);
  mkdirSync(csDir, { recursive: true });
  writeFileSync(path.join(csDir, "package.json"), '{"name":"crm-host-cache","private":true}\n');
  // @vscode/ripgrep downloads rg from GitHub in its postinstall; seed its cache with Debian's rg instead.
  const tmp = path.join(cacheRoot, "tmp");
  const rgCache = path.join(tmp, "vscode-ripgrep-cache-1.15.11");
  mkdirSync(rgCache, { recursive: true });
  const seed = path.join(tmp, "rg-seed");
  mkdirSync(seed, { recursive: true });
  copyFileSync(execFileSync("sh", ["-c", "command -v rg"], { encoding: "utf8" }).trim(), path.join(seed, "rg"));
  execFileSync("tar", ["czf", path.join(rgCache, "ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"), "-C", seed, "rg"]);
  const env = {
    ...process.env, TMPDIR: tmp, npm_config_unsafe_perm: "true", npm_config_yes: "true",
    ...(existsSync("/usr/include/node/node.h") ? { npm_config_nodedir: "/usr" } : {}),
  };
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", `code-server@${CODE_SERVER_VERSION}`], { cwd: csDir, stdio: ["ignore", "ignore", "inherit"], env });
  if (result.status !== 0 || !existsSync(entry)) done({ ok: false, reason: `npm install code-server@${CODE_SERVER_VERSION} failed (exit ${result.status})` });
}

if (process.platform !== "linux") done({ ok: false, reason: `the code-server host tier is set up for Linux only (this is ${process.platform}); use @vscode/test-electron there` });
if (!existsSync("/usr/bin/dpkg-query")) done({ ok: false, reason: "not a Debian-like system (no dpkg-query)" });
ensureApt();
ensureCodeServer();
done({ ok: true, codeServer: entry, chromium: "/usr/bin/chromium", cache: cacheRoot });
