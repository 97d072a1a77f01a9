/**
 * The migration's table on disk: what a Map would answer, at sizes that double it many times over, with a cache of
 * a few buckets (so most buckets are read back from the file), and its file gone once it is closed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DiskTable } from "../../../src/workflows/diskTable";

const folder = () => mkdtempSync(path.join(tmpdir(), "disk-table-"));
const id = (prefix: string, n: number) => `${prefix}${n.toString(36).padStart(12, "0")}`;

test("a table on disk answers as a Map does across many doublings, with most of its buckets out of memory", () => {
  const dir = folder();
  try {
    const table = new DiskTable(dir, "ids Account", 15, 18, 4 * 4096);
    const map = new Map<string, string>();
    for (let n = 0; n < 60_000; n++) {
      const key = id("001", n);
      const value = `${id("001", n + 7_000_000)}AAA`;
      table.set(key, value);
      map.set(key, value);
      // Some keys are set again: the new value wins, the size does not grow.
      if (n % 97 === 0) {
        const again = id("001", n >> 1);
        table.set(again, "(new)");
        map.set(again, "(new)");
      }
    }
    assert.equal(table.size, map.size);
    for (const [key, value] of map) assert.equal(table.get(key), value, key);
    for (let n = 60_000; n < 61_000; n++) assert.equal(table.get(id("001", n)), undefined);
    assert.equal(table.has(id("001", 5)), true);
    assert.equal(table.has(id("003", 5)), false);
    table.close();
    assert.deepEqual(readdirSync(dir), [], "its file goes with it");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a set of match-key digests; keys and values past their width are refused by name, not cut", () => {
  const dir = folder();
  try {
    const seen = new DiskTable(dir, "seen Contact", 20, 0, 2 * 4096);
    for (let n = 0; n < 20_000; n++) seen.set(Buffer.from(`key ${n}`).toString("base64").slice(0, 20));
    assert.equal(seen.size, 20_000);
    assert.equal(seen.has(Buffer.from("key 19999").toString("base64").slice(0, 20)), true);
    assert.equal(seen.has(Buffer.from("key 20000").toString("base64").slice(0, 20)), false);
    assert.throws(() => seen.set("x".repeat(21)), /seen Contact: 'x+' is longer than 20 bytes/);
    assert.throws(() => seen.has("é".repeat(11)), /longer than 20 bytes/, "the width is in UTF-8 bytes");
    const ids = new DiskTable(dir, "ids Case", 15, 18);
    assert.throws(() => ids.set(id("500", 1), "y".repeat(19)), /ids Case: 'y+' is longer than 18 bytes/);
    ids.set("", "empty key");
    assert.equal(ids.get(""), "empty key");
    seen.close();
    ids.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
