// A migration run's file of inserted IDs: what its record vouches for is read back exactly; lines written after
// the record was last saved (a run killed in between) are dropped when it goes on; a file changed, cut short or
// missing is refused before anything is done with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { firstInsertedIds, InsertedIdsError, InsertedIdsWriter, insertedIdsOf, newInsertedIds, verifyInsertedIds, type InsertedIdsFile } from "../../../src/workflows/insertedIds";

const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "inserted-ids-"));
  return { dir, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
};
const id = (prefix: string, n: number) => `${prefix}${String(n).padStart(15, "0")}`;

async function all(kept: InsertedIdsFile, object?: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of insertedIdsOf(kept, object)) ids.push(...batch);
  return ids;
}

async function written(file: string, objects: [string, number][]): Promise<InsertedIdsFile> {
  const writer = await InsertedIdsWriter.open(newInsertedIds("run-1", file));
  for (const [object, count] of objects) for (let n = 0; n < count; n++) writer.add(object, id(object === "Account" ? "001" : "003", n));
  return writer.state;
}

test("the IDs come back per object, in the order added, in batches a query can take; the first thousand for a journal entry", async () => {
  using f = folder();
  const kept = await written(path.join(f.dir, "a.ids"), [["Account", 4_500], ["Contact", 300]]);
  const batches: number[] = [];
  for await (const batch of insertedIdsOf(kept, "account")) batches.push(batch.length);
  assert.equal(batches.reduce((n, b) => n + b, 0), 4_500);
  assert.ok(batches.every((b) => b <= 200), "no batch larger than a query's IN list");
  assert.deepEqual((await all(kept, "Contact")).slice(0, 2), [id("003", 0), id("003", 1)]);
  assert.equal((await all(kept)).length, 4_800);
  const first = await firstInsertedIds(kept, 1_000);
  assert.deepEqual([first.length, first[0], first[999]], [1_000, id("001", 0), id("001", 999)]);
  await verifyInsertedIds(kept);
});

test("a file with no line yet needs no file at all; a run that goes on appends where its record left off", async () => {
  using f = folder();
  const file = path.join(f.dir, "b.ids");
  const empty = (await InsertedIdsWriter.open(newInsertedIds("run-2", file))).state;
  assert.equal(empty.bytes, 0);
  await verifyInsertedIds(empty);
  assert.deepEqual(await all(empty), []);
  const kept = await written(file, [["Account", 3]]);
  const resumed = await InsertedIdsWriter.open(kept);
  // An answer from the org that is not a record ID (one that would add a line of its own) is refused, not written.
  assert.throws(() => resumed.add("Contact", `${id("003", 8)}\nAccount,${id("001", 9)}`), /the org answered an insert into Contact with '003000000000000008\nAccount,/);
  resumed.add("Contact", id("003", 7));
  const after = resumed.state;
  await verifyInsertedIds(after);
  assert.deepEqual(await all(after), [id("001", 0), id("001", 1), id("001", 2), id("003", 7)]);
});

test("lines past what the record vouches for (killed before it was saved) are not read, and are cut when the run goes on", async () => {
  using f = folder();
  const file = path.join(f.dir, "c.ids");
  const kept = await written(file, [["Account", 5]]);
  appendFileSync(file, `Account,${id("001", 99)}\nAcc`);
  assert.deepEqual(await all(kept), [0, 1, 2, 3, 4].map((n) => id("001", n)));
  await verifyInsertedIds(kept);
  const writer = await InsertedIdsWriter.open(kept);
  assert.deepEqual(writer.state, kept, "cut back to the record's bytes, the same digest");
  assert.equal(readFileSync(file, "utf8").split("\n").length, 6);
});

test("a file changed, cut short, or missing is refused, naming the file; so is one whose record vouches for a line that is not an ID", async () => {
  using f = folder();
  const file = path.join(f.dir, "d.ids");
  const kept = await written(file, [["Account", 10]]);
  const text = readFileSync(file, "utf8");
  const cases: [string, string | undefined, RegExp][] = [
    ["an ID swapped", text.replace(id("001", 3), id("001", 77)), /d\.ids is not the file of inserted IDs the run's record describes/],
    ["cut short", text.slice(0, -20), /d\.ids is not the file of inserted IDs the run's record describes/],
    ["missing", undefined, /d\.ids, the file of the IDs the run inserted, is missing/],
  ];
  for (const [what, changed, why] of cases) {
    if (changed === undefined) rmSync(file);
    else writeFileSync(file, changed);
    await assert.rejects(verifyInsertedIds(kept), (err: unknown) => err instanceof InsertedIdsError && why.test(err.message), what);
    await assert.rejects(InsertedIdsWriter.open(kept), InsertedIdsError, `${what}: a run does not go on from it`);
  }
  // A record someone made to match a file of theirs (the library trusts the record it is given: crm-data signs its own).
  const forged = `Account;${"x".repeat(18)}\n`;
  writeFileSync(file, forged);
  const vouched = { file, bytes: forged.length, sha256: createHash("sha256").update(forged).digest("hex") };
  await assert.rejects(verifyInsertedIds(vouched), /d\.ids is not a run's file of inserted IDs \(a line reads 'Account;x/);
});
