/**
 * Activation stays light: loading the extension bundle must not initialise the CRM client's HTTP stack
 * (axios, zlib, https) — they load on the first use of an org.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

test("loading dist/extension.js leaves the client's HTTP stack unloaded", () => {
  execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "pipe" });
  const probe = `
    const Module = require("module");
    const load = Module._load;
    const seen = new Set();
    Module._load = function (request) {
      if (request === "vscode") return new Proxy({}, { get: () => function () { return new Proxy({}, { get: () => () => ({}) }); } });
      seen.add(request.replace(/^node:/, ""));
      return load.apply(this, arguments);
    };
    require(process.argv[1]);
    console.log(JSON.stringify([...seen]));`;
  const loaded: string[] = JSON.parse(execFileSync(process.execPath, ["-e", probe, `${process.cwd()}/dist/extension.js`], { encoding: "utf8" }));
  for (const heavy of ["https", "zlib", "http2", "stream", "./axios.js"]) assert.ok(!loaded.includes(heavy), `${heavy} is loaded at activation: ${loaded.join(", ")}`);
});

test("the extension's stand-in for axios gives every part the client uses from dist/axios.js", () => {
  execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "pipe" });
  // The stand-in is required as the bundle requires it, with its "./axios.js" resolved to the built file.
  const probe = `
    const Module = require("module");
    const load = Module._load;
    Module._load = function (request) {
      return load.apply(this, request === "./axios.js" ? [process.argv[2], ...[...arguments].slice(1)] : arguments);
    };
    const stub = require(process.argv[1]);
    console.log(JSON.stringify(Object.keys(stub).map((name) => [name, typeof stub[name]])));`;
  const parts: [string, string][] = JSON.parse(
    execFileSync(process.execPath, ["-e", probe, `${process.cwd()}/scripts/bundle-stubs/axios-runtime.cjs`, `${process.cwd()}/dist/axios.js`], { encoding: "utf8" }),
  );
  const used = new Set<string>();
  for (const file of ["src/client/transport.ts", "src/client/node-adapter.ts"]) {
    const source = readFileSync(file, "utf8");
    const imported = /import (\w+)?,? ?(?:\{([^}]*)\})? from "axios"/.exec(source);
    assert.ok(imported, `${file} imports axios`);
    if (imported[1]) used.add("default");
    for (const name of (imported[2] ?? "").split(",").map((n) => n.trim()).filter((n) => n && !n.startsWith("type "))) used.add(name);
  }
  const given = new Map(parts);
  for (const name of used) assert.equal(given.get(name), "function", `${name}: add it to axios-entry.mjs and axios-runtime.cjs`);
});
