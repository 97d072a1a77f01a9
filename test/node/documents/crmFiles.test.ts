import { test } from "node:test";
import assert from "node:assert/strict";
import { WriteJournal } from "../../../src/connections/writeJournal";
import { compareLayout, ConflictError, CrmFiles, DocumentError, fieldLine, parseCrmPath, recordPath, articleFilePath, newPath } from "../../../src/documents/crmFiles";
import { useEmulator } from "../../helpers/emulator";
import { managerWithDemoOrg, MemoryState } from "../fakes";

const emu = useEmulator();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytes = (s: string) => new TextEncoder().encode(s);

async function files(state = new MemoryState()) {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  // The write history, wired as the extension wires it: saves say what they replace, accepted writes are recorded.
  const journal = new WriteJournal({ max: () => 100 });
  manager.onDidChange((change) => journal.recordChange({ key: org.key, alias: org.alias }, change));
  const model = new CrmFiles({
    org: async () => manager.session(org.key), knowledgeSobject: () => "Knowledge__kav", store: state,
  });
  return { model, manager, org, state, journal };
}

/** The updates of a record sent, alone or as a subrequest of a composite request (a save's update and read go as one). */
function patches(id: string): { body: string; headers: Record<string, string | undefined> }[] {
  return emu().requests.flatMap((r) => {
    if (r.method === "PATCH" && r.path.endsWith(`/${id}`)) return [{ body: r.body, headers: r.headers as Record<string, string | undefined> }];
    if (!r.path.endsWith("/composite")) return [];
    const subrequests = (JSON.parse(r.body) as { compositeRequest: { method: string; url: string; body?: unknown; httpHeaders?: Record<string, string> }[] }).compositeRequest;
    return subrequests.filter((s) => s.method === "PATCH" && s.url.endsWith(`/${id}`))
      .map((s) => ({ body: JSON.stringify(s.body), headers: Object.fromEntries(Object.entries(s.httpHeaders ?? {}).map(([k, v]) => [k.toLowerCase(), v])) }));
  });
}

test("paths: records, templates, article folders and their files; anything else is refused", () => {
  assert.deepEqual(parseCrmPath("/Demo%20org/Account/001000000000001AAA.json", "Knowledge__kav"), { kind: "record", org: "Demo org", sobject: "Account", id: "001000000000001AAA" });
  assert.deepEqual(parseCrmPath("/Demo/Account/new.json", "Knowledge__kav"), { kind: "new", org: "Demo", sobject: "Account" });
  assert.deepEqual(parseCrmPath("/Demo/Knowledge__kav/ka0000000000001AAA/Answer__c.html", "Knowledge__kav"), { kind: "articleFile", org: "Demo", sobject: "Knowledge__kav", id: "ka0000000000001AAA", file: "Answer__c.html" });
  assert.equal(parseCrmPath("/Demo/Account/../secret.json", "Knowledge__kav"), undefined);
  assert.equal(parseCrmPath("/Demo/Account/001000000000001AAA/x.json", "Knowledge__kav"), undefined);
  assert.equal(parseCrmPath("/Demo/Knowledge__kav/ka0000000000001AAA/evil.js", "Knowledge__kav"), undefined);
  assert.equal(recordPath("Demo org", "Account", "001000000000001AAA"), "/Demo org/Account/001000000000001AAA.json");
  assert.deepEqual(parseCrmPath(recordPath("a/b 100%", "Account", "001000000000001AAA"), "Knowledge__kav"), { kind: "record", org: "a/b 100%", sobject: "Account", id: "001000000000001AAA" });
});

test("a record reads as the JSON of its updateable fields; a save sends only what changed, guarded by If-Unmodified-Since", async () => {
  const { model, manager, journal } = await files();
  const contact = emu().seeded.store.liveRecords("Contact")[0]!;
  const titleBefore = contact.Title ?? null;
  const path = recordPath("Demo", "Contact", String(contact.Id));
  const doc = JSON.parse(text(await model.readFile(path))) as Record<string, unknown>;
  assert.equal(doc.LastName, contact.LastName);
  assert.ok(!("Id" in doc) && !("CreatedDate" in doc) && !("Name" in doc), "read-only fields stay out");
  const stat = await model.stat(path);
  assert.equal(stat.mtime, Date.parse(String(contact.LastModifiedDate).replace(/\+0000$/, "Z")));
  assert.equal(await model.displayName(path), contact.Name);

  await model.writeFile(path, bytes(JSON.stringify({ ...doc, Title: "Chief Tester" }, null, 2)));
  const [patch] = patches(String(contact.Id)).slice(-1);
  assert.deepEqual(JSON.parse(patch!.body), { Title: "Chief Tester" });
  assert.ok(patch!.headers["if-unmodified-since"], "guarded");
  assert.equal(contact.Title, "Chief Tester");
  // The write history holds the save with the value it replaced (for Revert).
  assert.deepEqual(journal.list()[0]!.records, [{ id: String(contact.Id), after: { Title: "Chief Tester" }, before: { Title: titleBefore }, ok: true }]);
  // The saved state is the new baseline: a second edit saves without a conflict.
  await model.writeFile(path, bytes(JSON.stringify({ ...doc, Title: "Chief Tester", Phone: "+1 555 0000" })));
  assert.deepEqual(JSON.parse(patches(String(contact.Id)).slice(-1)[0]!.body), { Phone: "+1 555 0000" });
  assert.ok((await model.stat(path)).mtime > stat.mtime, "the document's time follows the org's LastModifiedDate");
  manager.dispose();
});

test("a record changed by another writer: its documents follow — the one whose text changed reads the org's version, the others keep their read time, and a save is guarded against the new version", async () => {
  const { model, manager, org } = await files();
  const draft = emu().seeded.store.liveRecords("Knowledge__kav").find((v) => v.PublishStatus === "Draft" && typeof v.Answer__c === "string")!;
  const fieldsPath = articleFilePath("Demo", "Knowledge__kav", String(draft.Id), "fields.json");
  const bodyPath = articleFilePath("Demo", "Knowledge__kav", String(draft.Id), "Answer__c.html");
  const body = text(await model.readFile(bodyPath));
  await model.readFile(fieldsPath);
  const [fieldsBefore, bodyBefore] = [await model.stat(fieldsPath), await model.stat(bodyPath)];
  await new Promise((r) => setTimeout(r, 1_100)); // LastModifiedDate has second precision
  await (await manager.session(org.key)).crm.knowledge.updateArticle(String(draft.Id), { Summary: "Changed elsewhere" });
  assert.deepEqual(await model.followChange([fieldsPath, bodyPath]), [fieldsPath], "only the fields document shows something new");
  assert.ok((await model.stat(fieldsPath)).mtime > fieldsBefore.mtime, "its time moves on: VS Code reloads it");
  assert.match(text(await model.readFile(fieldsPath)), /"Summary": "Changed elsewhere"/);
  assert.equal((await model.stat(bodyPath)).mtime, bodyBefore.mtime, "the body's document is left alone");
  // The body, saved now, is guarded against the org's new version: no conflict with a change it has followed.
  await model.writeFile(bodyPath, bytes(`<p>After the change.</p>${body}`));
  assert.ok(String(draft.Answer__c).startsWith("<p>After the change.</p>"));
  assert.equal(draft.Summary, "Changed elsewhere", "the other writer's change stays");
  manager.dispose();
});

test("a change made in the org meanwhile is a conflict with their version; after comparing, the next save sends only what differs from theirs", async () => {
  const { model, manager } = await files();
  const account = emu().seeded.store.liveRecords("Account")[1]!;
  const path = recordPath("Demo", "Account", String(account.Id));
  const mine = JSON.parse(text(await model.readFile(path))) as Record<string, unknown>;
  // Someone else edits the phone in the org.
  const other = await managerWithDemoOrg(emu().credentials);
  await (await other.manager.session(other.org.key)).crm.updateSobjectRecord("Account", String(account.Id), { Phone: "+44 20 0000" });
  const edited = JSON.stringify({ ...mine, BillingCity: "Leeds" }, null, 2);
  const conflict = await model.writeFile(path, bytes(edited)).then(() => undefined, (err: unknown) => err);
  assert.ok(conflict instanceof ConflictError, String(conflict));
  assert.equal((JSON.parse(conflict.theirs) as Record<string, unknown>).Phone, "+44 20 0000", "theirs is the org's version");
  assert.notEqual(account.BillingCity, "Leeds", "nothing was written");
  await model.rebase(path);
  await model.writeFile(path, bytes(edited));
  assert.deepEqual(JSON.parse(patches(String(account.Id)).slice(-1)[0]!.body), { BillingCity: "Leeds", Phone: mine.Phone ?? null }, "mine differs from theirs in both");
  // Overwrite drops the guard.
  await other.manager.session(other.org.key).then((s) => s.crm.updateSobjectRecord("Account", String(account.Id), { Phone: "+1 1" }));
  await model.writeFile(path, bytes(JSON.stringify({ ...mine, BillingCity: "York" })), { overwrite: true });
  assert.equal(account.BillingCity, "York");
  manager.dispose();
  other.manager.dispose();
});

test("refused saves name the fields: unknown keys, bad JSON, the org's own validation", async () => {
  const { model, manager } = await files();
  const contact = emu().seeded.store.liveRecords("Contact")[2]!;
  const path = recordPath("Demo", "Contact", String(contact.Id));
  const doc = JSON.parse(text(await model.readFile(path))) as Record<string, unknown>;
  await assert.rejects(model.writeFile(path, bytes(JSON.stringify({ ...doc, CreatedDate: "2020-01-01" }))), (err: unknown) => err instanceof DocumentError && err.fields[0] === "CreatedDate" && /CreatedDate is not a field that can be edited/.test(err.message));
  await assert.rejects(model.writeFile(path, bytes("{ \"LastName\": ")), /not valid JSON/);
  const blank = JSON.stringify({ ...doc, LastName: "" }, null, 2);
  await assert.rejects(model.writeFile(path, bytes(blank)), (err: unknown) => err instanceof DocumentError && err.fields.includes("LastName"));
  assert.equal(fieldLine(blank, "LastName"), blank.split("\n").findIndex((l) => l.includes('"LastName"')));
  assert.equal(contact.LastName !== "", true, "the org kept its value");
  // Closed for good: the remembered baseline goes, and a save without reading again is refused.
  await model.forget(path);
  await assert.rejects(model.writeFile(path, bytes(JSON.stringify(doc))), /not read from the org in this window/);
  manager.dispose();
});

test("an article draft is a folder of fields.json and one .html per rich-text field; saving one file does not make the other conflict", async () => {
  const state = new MemoryState();
  const { model, manager } = await files(state);
  const versions = emu().seeded.store.liveRecords("Knowledge__kav");
  const draft = versions.find((v) => v.PublishStatus === "Draft")!;
  const folder = `/Demo/Knowledge__kav/${String(draft.Id)}`;
  assert.deepEqual(await model.readDirectory(folder), [["fields.json", "file"], ["Answer__c.html", "file"]]);
  const html = articleFilePath("Demo", "Knowledge__kav", String(draft.Id), "Answer__c.html");
  const fields = articleFilePath("Demo", "Knowledge__kav", String(draft.Id), "fields.json");
  assert.equal(text(await model.readFile(html)), draft.Answer__c);
  const f = JSON.parse(text(await model.readFile(fields))) as Record<string, unknown>;
  assert.equal(f.Title, draft.Title);
  assert.ok(!("Answer__c" in f), "rich text lives in its own file");
  const htmlTime = (await model.stat(html)).mtime;

  await model.writeFile(fields, bytes(JSON.stringify({ ...f, Summary: "Shorter summary" })));
  assert.equal(draft.Summary, "Shorter summary");
  assert.equal((await model.stat(html)).mtime, htmlTime, "the body's document is unchanged, so VS Code sees no change on disk");
  await model.writeFile(html, bytes("<p>New body</p>"));
  assert.equal(draft.Answer__c, "<p>New body</p>");

  // A new window (same store): the baseline survives, the save is still guarded.
  const window2 = await managerWithDemoOrg(emu().credentials);
  const reopened = new CrmFiles({ org: async () => window2.manager.session(window2.org.key), knowledgeSobject: () => "Knowledge__kav", store: state });
  await reopened.writeFile(html, bytes("<p>After a reload</p>"));
  assert.equal(draft.Answer__c, "<p>After a reload</p>");
  assert.ok(patches(String(draft.Id)).slice(-1)[0]!.headers["if-unmodified-since"]);

  const online = versions.find((v) => v.PublishStatus === "Online")!;
  const onlineHtml = articleFilePath("Demo", "Knowledge__kav", String(online.Id), "Answer__c.html");
  await model.readFile(onlineHtml);
  assert.equal((await model.stat(onlineHtml)).readonly, true, "a published version opens read-only");
  await assert.rejects(model.writeFile(onlineHtml, bytes("<p>x</p>")), /Only a draft can be edited/);
  manager.dispose();
  window2.manager.dispose();
});

test("templates: a new record lists its required fields first and saving creates it", async () => {
  const { model, manager } = await files();
  const template = JSON.parse(text(await model.readFile(newPath("Demo", "Contact")))) as Record<string, unknown>;
  assert.equal(Object.keys(template)[0], "LastName", "required first");
  const { createdId } = await model.writeFile(newPath("Demo", "Contact"), bytes(JSON.stringify({ ...template, LastName: "Hopper", FirstName: "Grace" })));
  const created = emu().seeded.store.liveRecords("Contact").find((c) => c.Id === createdId)!;
  assert.deepEqual([created.FirstName, created.LastName], ["Grace", "Hopper"]);
  await assert.rejects(model.writeFile(newPath("Demo", "Contact"), bytes(JSON.stringify(template))), (err: unknown) => err instanceof DocumentError && err.fields.includes("LastName"));
  const article = JSON.parse(text(await model.readFile(newPath("Demo", "Knowledge__kav")))) as Record<string, unknown>;
  assert.equal(article.Answer__c, "<p></p>");
  const made = await model.writeFile(newPath("Demo", "Knowledge__kav"), bytes(JSON.stringify({ ...article, Title: "Written in a tab", UrlName: "written-in-a-tab", Answer__c: "<p>Body</p>" })));
  assert.equal(emu().seeded.store.liveRecords("Knowledge__kav").find((v) => v.Id === made.createdId)?.PublishStatus, "Draft");
  manager.dispose();
});

test("a document is pinned to the org it names: with another org active, its save still goes to its own org", async () => {
  const { manager, org } = await managerWithDemoOrg(emu().credentials);
  const c = emu().credentials;
  const other = await manager.add({ method: "password", alias: "Other", connection: { grant_type: "password", endpoint_url: c.loginUrl, username: c.username, password: c.password, security_token: c.securityToken, client_id: c.clientId, client_secret: c.clientSecret } });
  const model = new CrmFiles({ org: (alias) => manager.sessionByAlias(alias), knowledgeSobject: () => "Knowledge__kav", store: new MemoryState() });
  const contact = emu().seeded.store.liveRecords("Contact")[1]!;
  const path = recordPath("Demo", "Contact", String(contact.Id));
  const doc = JSON.parse(text(await model.readFile(path))) as Record<string, unknown>;
  await manager.registry.setActive(other.key);
  const sentBy: string[] = [];
  (await manager.session(org.key)).crm.on("write", (w) => w.method === "PATCH" && sentBy.push("Demo"));
  (await manager.session(other.key)).crm.on("write", (w) => w.method === "PATCH" && sentBy.push("Other"));
  await model.writeFile(path, bytes(JSON.stringify({ ...doc, Title: "Pinned" }, null, 2)));
  assert.deepEqual(sentBy, ["Demo"], "saved through the document's own org, not the active one");
  await manager.registry.rename(org.key, "Renamed");
  await assert.rejects(model.readFile(recordPath("Demo", "Contact", String(contact.Id))), /No org is called 'Demo' any more/);
  manager.dispose();
});

test("compare: the fields both records show, differing ones first, the left text in the right document's form and order", async () => {
  const layout = compareLayout({ Name: "Acme", Phone: "1", BillingCity: "Paris", Website: null }, { Name: "Acme", Phone: "2", BillingCity: "Madrid" }, ["Name", "Phone", "BillingCity", "Website"]);
  assert.deepEqual(layout.differing, ["Phone", "BillingCity"]);
  assert.deepEqual(layout.order, ["Phone", "BillingCity", "Name", "Website"]);
  assert.equal(layout.leftText, '{\n  "Phone": "1",\n  "BillingCity": "Paris",\n  "Name": "Acme",\n  "Website": null\n}\n');
  // The right side is the record's own document, its fields in the compare's order (and saved as any document is).
  const { model, manager } = await files();
  const account = emu().seeded.store.liveRecords("Account")[1]!;
  const path = recordPath("Demo", "Account", String(account.Id));
  model.orderFields(path, ["Phone", "BillingCity"]);
  const keys = Object.keys(JSON.parse(text(await model.readFile(path))) as Record<string, unknown>);
  assert.deepEqual(keys.slice(0, 2), ["Phone", "BillingCity"]);
  assert.ok(keys.length > 2, "the other fields follow");
  manager.dispose();
});
