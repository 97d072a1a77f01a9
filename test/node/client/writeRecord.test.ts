// Every write the org accepts is announced with its record: its intent, and the context of the work that sent it —
// whose work (`by`), the values it replaced (`before`), the piece of work it belongs to (`group`). The write
// history and the command-line journals read it from there, never from a side channel.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletedWrite } from "../../../src/client";
import { withWriteContext, writeEntry } from "../../../src/client/writeRecord";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();

async function recording() {
  const crm = await demoClient(emu());
  const written: CompletedWrite[] = [];
  crm.on("write", (w) => written.push(w));
  const [a, b] = (await crm.collections.create("Contact", [{ LastName: "Record A", Title: "Old A" }, { LastName: "Record B", Title: "Old B" }])).map((r) => r.id!);
  written.length = 0;
  return { crm, written, a: a!, b: b! };
}

test("a write's record carries whose work it was, the work it belongs to, and the values it replaced of the records it names only", async () => {
  const { crm, written, a, b } = await recording();
  const before = new Map([[a, { Title: "Old A" }], [b, { Title: "Old B" }]]);
  await crm.withWriteContext({ by: "agent", group: { id: "cs-1" }, before }, async () => {
    await crm.updateSobjectRecord("Contact", a, { Title: "New A" });
    // Inside other work, what an inner context does not say is kept.
    await withWriteContext({ before: new Map([[b.slice(0, 15), { Phone: null }]]) }, () => crm.composite.updateAndRead("Contact", b, { Phone: "1" }));
  });
  await crm.updateSobjectRecord("Contact", a, { Title: "Mine" });

  assert.deepEqual(written.map((w) => [w.by, w.group?.id]), [["agent", "cs-1"], ["agent", "cs-1"], [undefined, undefined]]);
  assert.deepEqual(written[0]!.before, { [a]: { Title: "Old A" } }, "only the record the write names");
  assert.deepEqual(Object.values(written[1]!.before ?? {}), [{ Phone: null }], "a composite request's write carries it too (an inner context's value for the record wins)");
  assert.equal(written[2]!.before, undefined, "work outside the context is the person's own, replacing nothing said");

  assert.deepEqual(writeEntry(written[0]!), { kind: "updated", object: "Contact", summary: written[0]!.intent!.summary, records: [{ id: a, after: { Title: "New A" }, before: { Title: "Old A" }, ok: true }], by: "agent", group: "cs-1" });
});

test("concurrent work keeps its own context: an agent's writes and the person's, interleaved, each recorded as whose they are", async () => {
  const { crm, written, a, b } = await recording();
  await Promise.all([
    crm.withWriteContext({ by: "agent" }, async () => {
      for (let i = 0; i < 3; i++) await crm.updateSobjectRecord("Contact", a, { Title: `Agent ${i}` });
    }),
    (async () => {
      for (let i = 0; i < 3; i++) await crm.updateSobjectRecord("Contact", b, { Title: `Person ${i}` });
    })(),
  ]);
  const byRecord = (id: string) => [...new Set(written.filter((w) => w.intent!.ids[0] === id).map((w) => w.by ?? "person"))];
  assert.deepEqual([byRecord(a), byRecord(b)], [["agent"], ["person"]]);
  assert.equal(written.length, 6);
});

test("a collection write's entry names every record with its result, its fields and the values before it replaced", async () => {
  const { crm, written, a, b } = await recording();
  await crm.withWriteContext({ before: new Map([[a, { Title: "Old A" }]]) }, () =>
    crm.collections.update([{ type: "Contact", id: a, fields: { Title: "Lead" } }, { type: "Contact", id: b, fields: { Email: "nope" } }]));
  const entry = writeEntry(written[0]!, "in the reader's words");
  assert.equal(entry.summary, "in the reader's words");
  assert.deepEqual(entry.records[0], { id: a, after: { Title: "Lead" }, before: { Title: "Old A" }, ok: true });
  assert.equal(entry.records[1]!.ok, false);
  assert.match(entry.records[1]!.error!, /invalid email address/);
});
