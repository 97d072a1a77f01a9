// Every write the client sends says what it means — kind, object, records, fields, a summary — to beforeWrite and
// the write event; a raw request's is read from its resource. The extension's change events and production guard
// read that intent, not the URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CompletedWrite, PendingWrite } from "../../../src/client";
import "../../../src/client/bulk";
import { changeOf } from "../../../src/connections/changes";
import { describeWrite } from "../../../src/connections/writeGuard";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator({ bulkLatencyMs: 10 });

test("the client's writes carry their intent to beforeWrite and the write event", async () => {
  const asked: PendingWrite[] = [];
  const written: CompletedWrite[] = [];
  const c = await demoClient(emu(), { beforeWrite: (w) => void asked.push(w) });
  c.on("write", (w) => written.push(w));
  const account = await c.createSobjectRecord("Account", { Name: "Intent", Phone: "1" });
  await c.updateSobjectRecord("Account", account.id, { Phone: "2" });
  await c.collections.update([{ type: "Account", id: account.id, fields: { Name: "Intent 2" } }]);
  const draft = await c.knowledge.createArticle({ Title: "Intent article", UrlName: "intent-article" });
  await c.knowledge.publishMultipleArticles([draft]);
  await c.bulk.ingest({ object: "Contact", operation: "insert" }, [{ LastName: "Intent" }], { collectionsBelow: 0, poll: { intervalMs: 20 } });
  await c.request("PATCH", `${await c.apiPath()}/sobjects/Account/${account.id}`, { Description: "raw" });
  await c.deleteSobjectRecord("Account", account.id);

  const intents = asked.map((w) => w.intent!);
  assert.deepEqual(intents.map((i) => [i.kind, i.via, i.object ?? "", i.fields.join(",")]), [
    ["create", "record", "Account", "Name,Phone"],
    ["update", "record", "Account", "Phone"],
    ["update", "collection", "Account", "Name"],
    ["create", "record", "Knowledge__kav", "Title,UrlName"],
    ["publish", "knowledgeAction", "", ""],
    ["load", "bulk", "Contact", ""],
    ["update", "record", "Account", "Description"],
    ["delete", "record", "Account", ""],
  ]);
  assert.equal(intents[0]!.summary, "create a Account record (Name, Phone)");
  assert.equal(intents[2]!.records, 1);
  assert.deepEqual(intents[4]!.ids, [draft], "a publish names the versions");
  assert.equal(intents[0]!.request, undefined, "the client's own functions say their intent");
  assert.deepEqual(intents[6]!.request, { method: "PATCH", resource: `/sobjects/Account/${account.id}` }, "a raw request's is read from its resource");
  assert.deepEqual(written[0]!.intent!.ids, [account.id], "the write event names the record the org created");
});

test("the change events and the production guard read the intent, not the URL", () => {
  const v = "/services/data/v62.0";
  const intent = { kind: "publish" as const, area: "knowledge" as const, via: "knowledgeAction" as const, action: "publishKnowledgeArticles", ids: ["ka0000000000001AAA"], fields: [], records: 4, summary: "publish 4 knowledge articles" };
  // The path says a record update; the intent a publish of four articles: both readers follow the intent.
  const write = { method: "PATCH" as const, path: `${v}/sobjects/Account/001000000000001AAA`, body: { Name: "x" }, intent };
  assert.equal(describeWrite(write), "publish 4 knowledge articles");
  const change = changeOf({ ...write, status: 200 });
  assert.deepEqual([change?.kind, change?.area, change?.ids], ["published", "knowledge", ["ka0000000000001AAA"]]);
});
