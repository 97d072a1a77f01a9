import { test } from "node:test";
import assert from "node:assert/strict";
import { orgKindOf } from "../../../src/client";
import { describeWrite, guardsWrites } from "../../../src/connections/writeGuard";
import { idleDays, orgDescription } from "../../../src/views/orgLabels";
import { statusText } from "../../../src/platform/statusText";

test("an org's kind from its Organization record", () => {
  const trial = "2030-01-31T00:00:00.000+0000";
  assert.equal(orgKindOf({ IsSandbox: false, OrganizationType: "Enterprise Edition", TrialExpirationDate: null }), "production");
  assert.equal(orgKindOf({ IsSandbox: true, OrganizationType: "Enterprise Edition", TrialExpirationDate: null }), "sandbox");
  assert.equal(orgKindOf({ IsSandbox: true, OrganizationType: "Developer Edition", TrialExpirationDate: trial }), "scratch");
  assert.equal(orgKindOf({ IsSandbox: false, OrganizationType: "Developer Edition", TrialExpirationDate: null }), "developer");
  assert.equal(orgKindOf({ IsSandbox: false, OrganizationType: "Professional Edition", TrialExpirationDate: trial }), "trial");
});

test("a write described in words a person can judge", () => {
  const v = "/services/data/v62.0";
  assert.equal(describeWrite({ method: "PATCH", path: `${v}/sobjects/Account/001000000000001AAA`, body: { Name: "Acme", Phone: "1" } }), "update Account 001000000000001AAA (Name, Phone)");
  assert.equal(describeWrite({ method: "POST", path: `${v}/sobjects/Contact`, body: { LastName: "Lovelace" } }), "create a Contact record (LastName)");
  assert.equal(describeWrite({ method: "DELETE", path: `${v}/sobjects/Knowledge__kav/ka0000000000001AAA` }), "delete Knowledge__kav ka0000000000001AAA");
  assert.equal(describeWrite({ method: "POST", path: `${v}/actions/standard/publishKnowledgeArticles`, body: { inputs: [{}, {}, {}] } }), "publish 3 knowledge articles");
  assert.equal(describeWrite({ method: "POST", path: `${v}/actions/standard/archiveKnowledgeArticles`, body: { inputs: [{}] } }), "archive 1 knowledge article");
  assert.equal(describeWrite({ method: "POST", path: `${v}/chatter/feed-elements`, body: {} }), "post to a feed");
  assert.equal(describeWrite({ method: "POST", path: `${v}/connect/communities/0DB000000000001/chatter/feed-elements/0D5000000000001/capabilities/comments/items` }), "comment on a feed post");
  assert.equal(describeWrite({ method: "POST", path: `${v}/sobjects/Knowledge__DataCategorySelection`, body: {} }), "assign a data category to an article");
  const composite = { compositeRequest: [
    { method: "PATCH", url: `${v}/sobjects/Contact/003000000000001AAA`, referenceId: "update", body: { Title: "x" } },
    { method: "GET", url: `${v}/sobjects/Contact/003000000000001AAA`, referenceId: "read" },
    { method: "POST", url: `${v}/sobjects/Account`, referenceId: "create", body: { Name: "y" } },
  ] };
  assert.equal(describeWrite({ method: "POST", path: `${v}/composite`, body: composite }), "update Contact 003000000000001AAA (Title); create a Account record (Name)", "each write of a composite request, its reads left out");
});

test("writes are guarded on production orgs and orgs of unknown kind, unless turned off for the org", () => {
  assert.equal(guardsWrites({ kind: "production" }), true);
  assert.equal(guardsWrites({}), true, "an unknown kind is treated as production");
  assert.equal(guardsWrites({ kind: "production", writeGuard: false }), false);
  for (const kind of ["sandbox", "scratch", "developer", "trial"] as const) assert.equal(guardsWrites({ kind }), false, kind);
});

test("the Orgs view and status bar say the kind; production warns; an org idle for long says it may need signing in again", () => {
  const now = Date.UTC(2026, 10, 23);
  const org = { key: "k", alias: "Acme", method: "browser" as const, instanceUrl: "https://acme.my.salesforce.com", addedAt: "2026-01-01T00:00:00Z", signedIn: true, kind: "production" as const, username: "ada@acme.com" };
  assert.equal(orgDescription({ ...org, lastUsedAt: "2026-11-20T00:00:00Z" }, now, 30), "production · ada@acme.com · acme.my.salesforce.com");
  assert.equal(orgDescription({ ...org, lastUsedAt: "2026-09-01T00:00:00Z" }, now, 30), "production · ada@acme.com · acme.my.salesforce.com · unused for 83 days: may need signing in again");
  assert.equal(idleDays({ addedAt: "2026-09-01T00:00:00Z" }, now, 0), undefined, "0 turns the mark off");
  const production = statusText("Acme", { used: 10, max: 100 }, true, { kind: "production", guarded: true });
  assert.equal(production.warning, true);
  assert.match(production.text, /^\$\(warning\) Acme \(production\)/);
  assert.match(production.tooltip, /Every write asks for confirmation first/);
  assert.equal(statusText("Sandbox", { used: 10, max: 100 }, true, { kind: "sandbox", guarded: false }).warning, false);
});
