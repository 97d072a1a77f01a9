import { test } from "node:test";
import assert from "node:assert/strict";
import { CrmFiles, newPath, recordPath } from "../../../src/documents/crmFiles";
import { SoqlCatalogCache } from "../../../src/soql/catalogCache";
import { completionsAt } from "../../../src/soql/completion";
import { ObjectsModel } from "../../../src/views/objectsModel";
import { readArticleDetails } from "../../../src/webviews/articleModel";
import type { SchemaChange } from "../../../src/connections/schema";
import { useEmulator } from "../../helpers/emulator";
import { managerWithDemoOrg, MemoryState } from "../fakes";

const emu = useEmulator();
const describeCalls = (since: number, object: string) => emu().requests.slice(since).filter((r) => r.path.endsWith(`/sobjects/${object}/describe`));
const globalCalls = (since: number) => emu().requests.slice(since).filter((r) => /\/sobjects$/.test(r.path));

test("every consumer is served from the org's one schema: one describe global and one describe per object", async () => {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const before = emu().requests.length;
  const session = await manager.session(org.key);
  const contact = emu().seeded.store.liveRecords("Contact")[0]!;
  const article = emu().seeded.store.liveRecords("Knowledge__kav")[0]!;
  const objectsView = new ObjectsModel(session.schema, new MemoryState(), org.key);
  const soql = new SoqlCatalogCache(async () => (await manager.session(org.key)).schema);
  const documents = new CrmFiles({ org: async () => session, knowledgeSobject: () => "Knowledge__kav", store: new MemoryState() });

  // All at once, as at start-up: the Objects view's groups and details, completion, a record document and its
  // template, Article Details, the record pickers.
  await Promise.all([
    objectsView.group("standard"),
    objectsView.group("custom"),
    session.schema.details("Contact"),
    soql.load(["Contact", "Account"]),
    documents.readFile(recordPath("Demo", "Contact", String(contact.Id))),
    documents.readFile(newPath("Demo", "Contact")),
    readArticleDetails(session, String(article.Id), "Knowledge__kav"),
    session.schema.objectOfId(String(contact.Id)),
  ]);
  // And again later, from every consumer.
  await readArticleDetails(session, String(article.Id), "Knowledge__kav");
  await documents.readFile(recordPath("Demo", "Contact", String(contact.Id)));
  await soql.load(["Contact", "Knowledge__kav"]);

  assert.equal(globalCalls(before).length, 1, "one describe global");
  for (const object of ["Contact", "Account", "Knowledge__kav"]) assert.equal(describeCalls(before, object).length, 1, `one describe of ${object}`);
  assert.ok(completionsAt("SELECT Id, Em FROM Contact", 12, soql).items.some((i) => i.label === "Email"), "completion reads the describe the others read");
  manager.dispose();
});

test("Refresh revalidates every describe read (a 304 each) and tells consumers what changed in the org", async () => {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const schema = (await manager.session(org.key)).schema;
  const changes: SchemaChange[] = [];
  manager.onDidChangeSchema((c) => changes.push(c));
  await schema.objects();
  await schema.details("Account");
  await schema.details("Case");

  let before = emu().requests.length;
  await schema.refresh();
  assert.deepEqual(describeCalls(before, "Account").map((r) => r.status), [304]);
  assert.deepEqual(describeCalls(before, "Case").map((r) => r.status), [304]);
  assert.equal(globalCalls(before)[0]!.status, 304);
  assert.equal(changes.filter((c) => "described" in c).length, 0, "nothing changed, nothing redrawn");

  // An admin adds a field to Case.
  const caseDef = emu().seeded.store.object("Case")!;
  const added = { name: "Escalation_Reason__c", type: "string" as const, label: "Escalation Reason", length: 80 };
  caseDef.fields.push(added);
  caseDef.fieldMap.set(added.name.toLowerCase(), added);
  caseDef.lastModified = Date.now() + 5_000;
  try {
    before = emu().requests.length;
    await schema.refresh();
    assert.deepEqual(describeCalls(before, "Case").map((r) => r.status), [200]);
    assert.ok(changes.some((c) => "described" in c && c.described.includes("Case")), "the change names the object");
    assert.ok((await schema.details("Case")).fields.some((f) => f.name === "Escalation_Reason__c"), "consumers read the new field");
  } finally {
    caseDef.fields.pop();
    caseDef.fieldMap.delete(added.name.toLowerCase());
  }
  manager.dispose();
});

test("a describe cleared while on its way is not kept: the next read fetches afresh", async () => {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const session = await manager.session(org.key);
  const reading = session.schema.describe("Account");
  session.clearCaches();
  await reading;
  const before = emu().requests.length;
  await session.schema.describe("Account");
  assert.equal(describeCalls(before, "Account").length, 1, "the answer to a request sent before Clear Describe Cache was dropped");
  manager.dispose();
});
