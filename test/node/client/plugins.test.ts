/**
 * A group that comes with an entry of its own (`crm.bulk`), used before
 * that entry is imported, says which import adds it — not `undefined` and a TypeError three calls later — and
 * works once the entry is loaded, on clients made before as after. In a process of its own: this one has loaded
 * every entry already. (The workflows over the client — migration, the knowledge folder — are functions that
 * take their clients, never groups that may be missing.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { TSX_LOADER } from "../../helpers/emulator";

const root = path.resolve(__dirname, "../../..");
const entry = (file: string) => JSON.stringify(pathToFileURL(path.join(root, "src", "client", file)).href);

test("crm.bulk before its entry is imported names the import; after it, the group is there on every client", () => {
  const script = `
    const core = await import(${entry("index.ts")});
    const { Crm } = core.Crm ? core : core.default;
    const crm = new Crm();
    const said = [];
    for (const group of ["bulk"]) {
      try { crm[group]; said.push("no error"); } catch (err) { said.push(err.name + ": " + err.message); }
    }
    said.push(typeof crm.knowledge.getArticleIdFromNumber);
    await import(${entry("bulk.ts")});
    said.push(typeof crm.bulk.ingest, typeof new Crm().bulk.ingest);
    console.log(JSON.stringify(said));`;
  const out = execFileSync(process.execPath, ["--import", TSX_LOADER, "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.deepEqual(JSON.parse(out), [
    'PlugInNotLoadedError: crm.bulk is not loaded: import "crm-explorer/client/bulk" once, and every client has it',
    "function",
    "function", "function",
  ]);
});
