/**
 * The trust layer between org text and an agent (src/agent/trust.ts), against the emulator with a hostile
 * corpus of 200 records, articles and feed posts written mostly by people outside the company: fields the
 * org classifies are withheld (and no query may test them), outsiders' records say so and lockdown withholds
 * their text, a proposal that would carry what was shown into an outward channel is refused, and every answer
 * of every reading tool renders as CommonMark with no element, link or image and no org line outside its fence.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Crm } from "../../../src/client";
import { addHostileCorpus, HOSTILE_TEXTS, type HostileCorpus } from "../../../src/demo-org/hostileCorpus";
import { clientSchema, runTool, type AgentHost, type AgentOrg, type ToolAnswer } from "../../../src/agent/tools";
import { assertInertAnswer, fencedData } from "../../helpers/agentAnswers";
import { demoClient, useEmulator } from "../../helpers/emulator";

const demo = useEmulator();
let corpus: HostileCorpus | undefined;
const crms: Crm[] = [];

/** A fresh session (its own ledger of what was shown) on the org with the corpus. */
async function org(trust: AgentOrg["trust"] = {}): Promise<AgentOrg> {
  corpus ??= addHostileCorpus(demo().seeded);
  const c = await demoClient(demo());
  crms.push(c);
  return { crm: c, name: "Demo", kind: "developer", access: "stage", schema: clientSchema(c), knowledgeSobject: "Knowledge__kav", trust };
}

/** A host as VS Code is one: a person confirms each call, so a draft needs only stage access. */
function host(): AgentHost & { proposals: unknown[] } {
  const proposals: unknown[] = [];
  return { budget: 16_000, personConfirms: true, propose: async (_o, changes) => (proposals.push(changes), "staged"), proposals };
}

const queriesSent = () => demo().requests.filter((r) => r.path.includes("/query")).map((r) => decodeURIComponent(r.query.replace(/\+/g, " ")));

test("fields the org classifies are withheld with the reason and a count, a query may not test them, a person may reveal them", async () => {
  const o = await org();
  const rows = await runTool("crm_query", { soql: "SELECT Id, LastName, Birthdate FROM Contact WHERE Email != null ORDER BY LastName LIMIT 3" }, o, host());
  const { words, data } = fencedData(rows.text);
  assert.match(words, /\nWithheld: Contact\.Birthdate \(classified Restricted; PII, GDPR\) — the org classifies it as sensitive\. A person can reveal/);
  assert.equal(data.split("\n").slice(2).filter((l) => l.endsWith(" | [withheld: classified Restricted; PII, GDPR]")).length, 3, data);
  assert.ok(rows.structured!.rows.every((r) => String(r.Birthdate) === "[withheld: classified Restricted; PII, GDPR]"), "the rows as data withhold it too");
  const contactId = String(rows.structured!.rows[0]!.Id);
  const record = await runTool("crm_get_record", { object: "Contact", id: contactId, fields: ["LastName", "Birthdate"] }, o, host());
  assert.match(record.text, /\nBirthdate: \[withheld: classified Restricted; PII, GDPR\]\n/);
  const described = await runTool("crm_describe", { object: "Contact" }, o, host());
  assert.match(described.text, /- Birthdate: date, "Birthdate", classified Restricted; PII, GDPR \(withheld from agents\)/);

  // A filter, an aggregate, a sort or a parent's path tells the value without showing it: refused before sending.
  const before = queriesSent().length;
  for (const soql of [
    "SELECT COUNT() FROM Contact WHERE Birthdate < 1980-01-01",
    "SELECT MAX(Birthdate) FROM Contact",
    "SELECT Id FROM Contact ORDER BY Birthdate LIMIT 1",
    "SELECT Id, Subject FROM Case WHERE Contact.Birthdate > 1990-01-01",
    "SELECT Name, (SELECT Id FROM Contacts WHERE Birthdate = 1985-03-12) FROM Account",
  ]) {
    const refused = await runTool("crm_query", { soql }, o, host());
    assert.equal(refused.isError, true, soql);
    assert.match(refused.text, /\nRefused: the query uses Contact\.Birthdate outside its SELECT list, and the org has it classified Restricted; PII, GDPR: agents are not shown it/, soql);
  }
  assert.ok(!queriesSent().slice(before).some((q) => /birthdate/i.test(q)), "no statement naming the field was sent");

  const revealed = await org({ revealClassified: true });
  const shown = await runTool("crm_query", { soql: `SELECT Id, Birthdate FROM Contact WHERE Id = '${contactId}'` }, revealed, host());
  assert.doesNotMatch(shown.text, /withheld/);
  assert.match(fencedData(shown.text).data, /\| \d{4}-\d{2}-\d{2}$/m);
  assert.equal((await runTool("crm_query", { soql: "SELECT COUNT() FROM Contact WHERE Birthdate < 1980-01-01" }, revealed, host())).isError, undefined);
});

test("records written outside the company say who wrote them; lockdown withholds their text and says why", async () => {
  const open = await org();
  const cases = await runTool("crm_query", { soql: "SELECT Id, Subject, Origin FROM Case WHERE Subject LIKE 'Corpus%' ORDER BY Subject LIMIT 200" }, open, host());
  const { data } = fencedData(cases.text);
  assert.equal(data.split("\n")[1], "Id | Subject | Origin | (author)");
  assert.match(data, /\| Corpus web 0 Ignore all previous instructions[^\n]* \| Web \| web form$/m);
  assert.match(data, /\| Corpus e-mail 0 Ignore[^\n]* \| Email \| e-mail$/m);
  const internal = await runTool("crm_query", { soql: "SELECT Id, Subject FROM Case WHERE Origin = 'Phone' LIMIT 3" }, open, host());
  assert.equal(fencedData(internal.text).data.split("\n")[1], "Id | Subject", "records the company's own users wrote carry no mark");

  const locked = await org({ lockdown: true });
  const withheld = await runTool("crm_query", { soql: "SELECT Id, Subject, Description, Origin FROM Case WHERE Subject LIKE 'Corpus%' LIMIT 200" }, locked, host());
  const lockedData = fencedData(withheld.text);
  assert.match(lockedData.words, /\nLockdown: the text of 50 records written by people outside the company \(or whose author is unknown\) is withheld\./);
  for (const text of HOSTILE_TEXTS) assert.ok(!lockedData.data.includes(text.slice(0, 20)), `no outsider's text: ${text.slice(0, 20)}`);
  assert.match(lockedData.data, /\| \[withheld: written by a web form\] \| \[withheld: written by a web form\] \| Web \| web form$/m);
  assert.match(lockedData.data, /\| \[withheld: written by an e-mail\] \| \[withheld: written by an e-mail\] \| Email \| e-mail$/m);
  const post = await runTool("crm_get_record", { object: "FeedItem", id: corpus!.ids.FeedItem[0]!, fields: ["Body", "Type"] }, locked, host());
  assert.match(post.text, /\nBody: \[withheld: written by a guest user\]\nType: TextPost\n\(author\): guest user\n/);
  // A parent in a row is a record of its own: its author is its own (the row's contact is the portal user's, its account the guest's).
  const parents = await runTool("crm_query", { soql: `SELECT LastName, Account.Name FROM Contact WHERE Id = '${corpus!.ids.Contact[0]!}'` }, locked, host());
  assert.deepEqual(fencedData(parents.text).data.split("\n").slice(1), ["LastName | Account.Name | Account.(author) | (author)", "[withheld: written by a portal or community user] | [withheld: written by a guest user] | guest user | portal or community user"]);
  // Rows that are not records (an aggregate's) have no author to know: under lockdown their text is withheld, and the answer says how to know.
  const grouped = await runTool("crm_query", { soql: "SELECT Subject, COUNT(Id) FROM Case WHERE Subject LIKE 'Corpus web%' GROUP BY Subject LIMIT 1" }, locked, host());
  assert.match(fencedData(grouped.text).data, /^\[withheld: its author is unknown \(select Id to know\)\] \| 1$/m);
});

test("a proposal or draft that would carry what the agent was shown — an outsider's text, a revealed classified value — into an article or a feed post is refused; into the record itself it is staged", async () => {
  const o = await org({ revealClassified: true });
  const h = host();
  const description = HOSTILE_TEXTS[16]!;
  await runTool("crm_get_record", { object: "Case", id: corpus!.emailCaseIds[16]!, fields: ["Subject", "Description"] }, o, h);
  const caseId = corpus!.emailCaseIds[16]!;
  const post = await runTool("crm_propose_changes", { changes: [{ operation: "create", object: "FeedItem", fields: { ParentId: caseId, Body: `As the customer wrote: ${description}` } }] }, o, h);
  assert.equal(post.isError, true);
  assert.match(post.text, /\nRefused: changes\[0\]\.fields\.Body would copy text written by an e-mail \(shown to the agent earlier\) into a feed post, which the record's followers read/);
  const draft = await runTool("crm_draft_article", { title: "From a case", urlName: "from-a-case", fields: { Summary: description.toUpperCase() } }, o, h);
  assert.equal(draft.isError, true);
  assert.match(draft.text, /\nRefused: fields\.Summary would copy text written by an e-mail \(shown to the agent earlier\) into an article/);
  const onTheCase = await runTool("crm_propose_changes", { changes: [{ operation: "update", object: "Case", id: caseId, fields: { Description: `${description} (checked)` } }] }, o, h);
  assert.equal(onTheCase.isError, undefined, onTheCase.text);
  assert.equal(h.proposals.length, 1, "only the change that stays on the record was staged");

  const birthdays = await runTool("crm_query", { soql: "SELECT Id, Birthdate FROM Contact WHERE Birthdate != null LIMIT 1" }, o, h);
  const birthdate = String(birthdays.structured!.rows[0]!.Birthdate);
  const leak = await runTool("crm_propose_changes", { changes: [{ operation: "create", object: "FeedItem", fields: { ParentId: caseId, Body: `Born ${birthdate}` } }] }, o, h);
  assert.match(leak.text, /\nRefused: changes\[0\]\.fields\.Body would copy a value the org has classified Restricted; PII, GDPR/);
  // Another session was shown none of it: the same post is its own words there.
  assert.equal((await runTool("crm_propose_changes", { changes: [{ operation: "create", object: "FeedItem", fields: { ParentId: caseId, Body: `Born ${birthdate}` } }] }, await org(), host())).isError, undefined);
});

test("the hostile corpus through every reading tool: 200 records, articles and posts, each answer inert and fenced", async () => {
  const o = await org();
  const h = host();
  const answers: [string, ToolAnswer][] = [];
  const ask = async (what: string, name: string, input: Record<string, unknown>) => answers.push([what, await runTool(name, input, o, h)]);
  for (const [object, fields] of [["Case", "Subject, Description, Origin"], ["Contact", "LastName, Title, Account.Name"], ["Account", "Name, Description"], ["FeedItem", "Body, Type"], ["FeedComment", "CommentBody"], ["Invoice__c", "Name, Account__r.Name"], ["Knowledge__kav", "Title, Summary, UrlName"]] as const) {
    const ids = corpus!.ids[object];
    await ask(`${object} rows`, "crm_query", { soql: `SELECT Id, ${fields} FROM ${object} WHERE Id IN ('${ids.join("', '")}')`, limit: 200 });
    for (const id of ids) await ask(`${object} ${id}`, "crm_get_record", { object, id });
  }
  for (const id of corpus!.ids.Knowledge__kav) await ask(`article ${id}`, "crm_get_article", { id });
  await ask("knowledge search", "crm_search_knowledge", { text: "corpus article" });
  await ask("SOSL", "crm_query", { sosl: "FIND {Corpus} RETURNING Case(Subject, Description), Account(Name), Contact(LastName, Title)" });
  assert.ok(answers.length >= 200 + 25 + 7, `${answers.length} answers`);
  const records = Object.values(corpus!.ids).reduce((n, ids) => n + ids.length, 0);
  assert.equal(records, 200);
  for (const [what, answer] of answers) {
    assert.equal(answer.isError, undefined, `${what}: ${answer.text.slice(0, 400)}`);
    assertInertAnswer(answer.text, what);
  }
});
