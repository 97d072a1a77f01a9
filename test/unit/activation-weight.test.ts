/**
 * Activation stays light: loading the extension bundle must not initialise the CRM client's HTTP stack
 * (axios, zlib, https) or js-yaml — they load on the first use of an org.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

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
  for (const heavy of ["https", "zlib", "http2", "stream"]) assert.ok(!loaded.includes(heavy), `${heavy} is loaded at activation: ${loaded.join(", ")}`);
});
