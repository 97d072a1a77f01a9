/** `npm run emulator -- --port 8787 --seed demo`: serves the emulated org until Ctrl+C. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "./server";
import type { SeedName } from "./seed";
import type { OrgKind } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    seed: { type: "string", default: "demo" },
    "token-ttl": { type: "string" },
    "no-gzip": { type: "boolean", default: false },
    "rotate-refresh-tokens": { type: "boolean", default: false },
    "org-kind": { type: "string", default: "developer" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log("usage: npm run emulator -- [--port 8787] [--seed demo|large|empty] [--token-ttl seconds] [--no-gzip] [--rotate-refresh-tokens] [--org-kind production|sandbox|scratch|developer|trial]");
  process.exit(0);
}
const seed = values.seed as SeedName;
if (!["demo", "large", "empty"].includes(seed)) {
  console.error(`--seed must be demo, large or empty (got '${values.seed}')`);
  process.exit(2);
}
const kinds = ["production", "sandbox", "scratch", "developer", "trial"];
if (!kinds.includes(values["org-kind"] as string)) {
  console.error(`--org-kind must be ${kinds.join(", ")} (got '${values["org-kind"]}')`);
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a number from 0 to 65535 (got '${values.port}')`);
  process.exit(2);
}
async function main() {
const emulator = await startEmulator({ port, seed, tokenTtlMs: values["token-ttl"] ? Number(values["token-ttl"]) * 1000 : undefined, gzip: !values["no-gzip"], rotateRefreshTokens: values["rotate-refresh-tokens"], orgKind: values["org-kind"] as OrgKind }).catch((err: NodeJS.ErrnoException) => {
  if (err.code !== "EADDRINUSE") throw err;
  // Another emulator (npm start's, say) has the port: a second org runs beside it on another one.
  console.error(`Port ${port} on 127.0.0.1 is taken (is another emulator or npm start running?). Start this one on another port: npm run emulator -- --port ${port + 1} (or --port 0 for any free one).`);
  process.exit(2);
});
// The helper file and the JWT key (test values, but keys all the same) go with the emulator.
const dir = mkdtempSync(path.join(tmpdir(), "crm-emulator-"));
const keyFile = path.join(dir, "jwt-private-key.pem");
writeFileSync(keyFile, emulator.credentials.jwtPrivateKeyPem, { mode: 0o600 });
const c = emulator.credentials;
// A helper file for the client library and the extension's Add Org → Helper file (the demo's public test values).
const helperFile = path.join(dir, "helper.json");
writeFileSync(helperFile, JSON.stringify({ connection: { grant_type: "password", endpoint_url: c.loginUrl, username: c.username, password: c.password, security_token: c.securityToken, client_id: c.clientId, client_secret: c.clientSecret } }, null, 2) + "\n", { mode: 0o600 });
console.log(`CRM emulator (${seed} seed) listening on ${emulator.url}`);
console.log(`  login URL        ${c.loginUrl}`);
console.log(`  username         ${c.username}`);
console.log(`  password         ${c.password}`);
console.log(`  security token   ${c.securityToken}`);
console.log(`  consumer key     ${c.clientId}`);
console.log(`  consumer secret  ${c.clientSecret}`);
console.log(`  JWT private key  ${keyFile}`);
console.log(`  helper file      ${helperFile}`);
console.log(`  faults           POST ${emulator.url}/__emulator/faults {"name":"unavailable","value":3}`);
console.log("Press Ctrl+C to stop.");
const stop = () => void emulator.close().then(() => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
}

void main();
