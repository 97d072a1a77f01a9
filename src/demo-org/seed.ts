/** Deterministic seeds: `demo` (a small believable org) and `large` (performance work). */
import type { ObjectSpec, FieldDef } from "./schema";
import { get18CharId } from "../client/ids";
import { DEMO_ORG } from "./credentials";
import { Store, sfDateTime, type Rec } from "./store";

export type SeedName = "demo" | "large" | "empty";

export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
export const GIF_1X1 = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** Demo sign-in facts (the extension's "Try the Demo Org" uses the same), printed by the CLI. */
export const DEMO = {
  username: DEMO_ORG.username,
  password: DEMO_ORG.password,
  securityToken: DEMO_ORG.securityToken,
  clientId: DEMO_ORG.clientId,
  clientSecret: DEMO_ORG.clientSecret,
  integrationUsername: "integration@demo.crm",
} as const;

const str = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: "string", ...extra });
const pick = (name: string, values: string[], extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: "picklist", picklist: values, ...extra });
const ref = (name: string, to: string[], relationshipName: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: "reference", referenceTo: to, relationshipName, ...extra });

export const KNOWLEDGE_FIELDS: FieldDef[] = [
  ref("KnowledgeArticleId", ["KnowledgeArticle"], "KnowledgeArticle", { createable: false, updateable: false }),
  str("Title", { nillable: false, nameField: true }),
  str("UrlName", { nillable: false, unique: true }),
  { name: "Summary", type: "textarea", length: 1000 },
  { name: "Answer__c", type: "textarea", richText: true, label: "Answer", inlineHelpText: "The article body shown to readers." },
  pick("PublishStatus", ["Draft", "Online", "Archived"], { createable: false, updateable: false, nillable: false }),
  { name: "VersionNumber", type: "int", createable: false, updateable: false },
  { name: "IsLatestVersion", type: "boolean", createable: false, updateable: false },
  pick("ValidationStatus", ["Not Validated", "Validated"], { defaultValue: "Not Validated" }),
  str("ArticleNumber", { autoNumber: true, createable: false, updateable: false }),
  pick("Language", ["en_US", "fr", "de", "es"], { defaultValue: "en_US" }),
  { name: "IsMasterLanguage", type: "boolean", createable: false, updateable: false, defaultValue: true },
  ref("MasterVersionId", ["Knowledge__kav"], "MasterVersion", { createable: false, updateable: false }),
  ref("AssignedToId", ["User"], "AssignedTo", { createable: false, updateable: false }),
  { name: "AssignmentDueDate", type: "datetime", createable: false, updateable: false },
  { name: "IsVisibleInApp", type: "boolean", defaultValue: true },
  { name: "IsVisibleInPkb", type: "boolean" },
  { name: "IsVisibleInCsp", type: "boolean" },
  { name: "IsVisibleInPrm", type: "boolean" },
  { name: "FirstPublishedDate", type: "datetime", createable: false, updateable: false },
  { name: "LastPublishedDate", type: "datetime", createable: false, updateable: false },
  { name: "ArchivedDate", type: "datetime", createable: false, updateable: false },
  { name: "ArticleCreatedDate", type: "datetime", createable: false, updateable: false },
  { name: "ArticleTotalViewCount", type: "int", createable: false, updateable: false, defaultValue: 0 },
  { name: "ViewScore__c", type: "double", label: "View Score", createable: false, updateable: false, defaultValue: 0 },
];

export function baseSpecs(): ObjectSpec[] {
  return [
    { name: "Organization", keyPrefix: "00D", owned: false, createable: false, updateable: false, deletable: false, fields: [str("Name", { nameField: true }), str("OrganizationType"), str("InstanceName"), { name: "IsSandbox", type: "boolean" }, { name: "TrialExpirationDate", type: "datetime" }] },
    { name: "Profile", keyPrefix: "00e", owned: false, createable: false, deletable: false, fields: [str("Name", { nameField: true }), str("UserType")] },
    {
      name: "User", keyPrefix: "005", owned: false, deletable: false, feedEnabled: true,
      fields: [
        str("Username", { nillable: false, unique: true }), str("FirstName"), str("LastName", { nillable: false }), str("Name", { nameField: true, createable: false, updateable: false }),
        { name: "Email", type: "email", nillable: false }, str("Alias", { length: 8 }), { name: "IsActive", type: "boolean", defaultValue: true }, str("Title"),
        str("CommunityNickname"), pick("UserType", ["Standard", "PowerPartner", "PowerCustomerSuccess", "CustomerSuccess", "CspLitePortal", "Guest", "AutomatedProcess"], { defaultValue: "Standard" }),
        ref("ProfileId", ["Profile"], "Profile"), str("LanguageLocaleKey", { defaultValue: "en_US" }), str("LocaleSidKey", { defaultValue: "en_GB" }), str("TimeZoneSidKey", { defaultValue: "Europe/London" }),
        ref("ManagerId", ["User"], "Manager"),
      ],
    },
    {
      name: "Account", keyPrefix: "001", feedEnabled: true,
      fields: [
        str("Name", { nillable: false, nameField: true }), pick("Type", ["Prospect", "Customer - Direct", "Customer - Channel", "Partner", "Other"]),
        pick("Industry", ["Agriculture", "Banking", "Biotechnology", "Education", "Electronics", "Energy", "Healthcare", "Retail", "Technology"]),
        str("BillingCity"), str("BillingCountry"), { name: "Phone", type: "phone" }, { name: "Website", type: "url" },
        { name: "AnnualRevenue", type: "currency" }, { name: "NumberOfEmployees", type: "int" }, ref("ParentId", ["Account"], "Parent"),
        { name: "Description", type: "textarea" }, str("AccountNumber", { externalId: true, unique: true }),
      ],
    },
    {
      name: "Contact", keyPrefix: "003", feedEnabled: true,
      fields: [
        str("FirstName"), str("LastName", { nillable: false }), str("Name", { nameField: true, createable: false, updateable: false }), { name: "Email", type: "email" },
        { name: "Phone", type: "phone" }, str("Title"),
        // As in an org, deleting an account deletes its contacts.
        ref("AccountId", ["Account"], "Account", { cascadeDelete: true }),
        // Classified as an admin classifies personal data (Setup → Data Classification): agents are not shown it by default.
        { name: "Birthdate", type: "date", classification: { level: "Restricted", compliance: ["PII", "GDPR"] } },
        pick("LeadSource", ["Web", "Phone Inquiry", "Partner Referral", "Other"]),
        // A custom external ID, as an org that loads contacts from another system has one: what Bulk upserts match on.
        str("Legacy_Id__c", { externalId: true, unique: true, label: "Legacy ID", length: 40 }),
      ],
    },
    {
      name: "Case", keyPrefix: "500", feedEnabled: true,
      fields: [
        str("CaseNumber", { autoNumber: true, nameField: true, createable: false, updateable: false }), str("Subject"),
        pick("Status", ["New", "Working", "Escalated", "Closed"], { defaultValue: "New" }), pick("Priority", ["High", "Medium", "Low"], { defaultValue: "Medium" }),
        pick("Origin", ["Phone", "Email", "Web"]), ref("AccountId", ["Account"], "Account"), ref("ContactId", ["Contact"], "Contact"),
        { name: "Description", type: "textarea" }, { name: "IsClosed", type: "boolean" },
      ],
    },
    {
      name: "Invoice__c", keyPrefix: "a0B", feedEnabled: true,
      fields: [
        str("Name", { nameField: true, nillable: false }), ref("Account__c", ["Account"], "Account__r", { label: "Account" }),
        { name: "Amount__c", type: "currency", label: "Amount" }, pick("Status__c", ["Draft", "Sent", "Paid", "Overdue"], { label: "Status" }),
        { name: "Tags__c", type: "multipicklist", picklist: ["Urgent", "Recurring", "Discounted", "Export"], label: "Tags" },
        { name: "Due_Date__c", type: "date", label: "Due Date" },
      ],
    },
    { name: "CollaborationGroup", keyPrefix: "0F9", feedEnabled: true, fields: [str("Name", { nillable: false, nameField: true }), { name: "Description", type: "textarea" }, pick("CollaborationType", ["Public", "Private"]), { name: "MemberCount", type: "int" }] },
    { name: "CollaborationGroupMember", keyPrefix: "0FB", owned: false, fields: [ref("CollaborationGroupId", ["CollaborationGroup"], "CollaborationGroup"), ref("MemberId", ["User"], "Member")] },
    // The org's custom domains (an Experience Cloud site's own host), as the Domain object lists them.
    { name: "Domain", keyPrefix: "0I4", owned: false, createable: false, updateable: false, deletable: false, fields: [str("Domain", { nameField: true }), pick("DomainType", ["DNS", "Site"])] },
    { name: "RecordType", keyPrefix: "012", owned: false, createable: false, deletable: false, fields: [str("Name", { nameField: true }), str("DeveloperName"), str("SobjectType")] },
    { name: "KnowledgeArticle", keyPrefix: "kA0", owned: false, createable: false, updateable: false, deletable: false, fields: [str("ArticleNumber", { autoNumber: true, nameField: true })] },
    { name: "Knowledge__kav", label: "Knowledge", labelPlural: "Knowledge", keyPrefix: "ka0", recordTypes: ["FAQ", "How_To"], fields: KNOWLEDGE_FIELDS },
    { name: "Knowledge__DataCategorySelection", keyPrefix: "02o", owned: false, updateable: false, fields: [ref("ParentId", ["Knowledge__kav"], "Parent"), str("DataCategoryGroupName", { nillable: false }), str("DataCategoryName", { nillable: false })] },
    { name: "FeedItem", keyPrefix: "0D5", owned: false, fields: [ref("ParentId", ["User", "CollaborationGroup", "Account", "Contact", "Case", "Invoice__c"], "Parent"), { name: "Body", type: "textarea" }, pick("Type", ["TextPost", "LinkPost", "ContentPost"], { defaultValue: "TextPost" }), { name: "CommentCount", type: "int", defaultValue: 0 }, { name: "LikeCount", type: "int", defaultValue: 0 }] },
    { name: "FeedComment", keyPrefix: "0D7", owned: false, fields: [ref("FeedItemId", ["FeedItem"], "FeedItem"), ref("ParentId", ["User", "CollaborationGroup", "Account", "Contact", "Case", "Invoice__c"], "Parent"), { name: "CommentBody", type: "textarea" }] },
    // The schema as records (Setup's metadata, queryable with SOQL): the store keeps one row per object and field.
    { name: "EntityDefinition", keyPrefix: "01I", owned: false, createable: false, updateable: false, deletable: false, searchable: false, fields: [str("QualifiedApiName", { nameField: true }), str("DeveloperName"), str("Label"), str("KeyPrefix")] },
    {
      name: "FieldDefinition", keyPrefix: "00N", owned: false, createable: false, updateable: false, deletable: false, searchable: false,
      fields: [
        str("QualifiedApiName", { nameField: true }), str("DeveloperName"), str("Label"), str("DataType"), ref("EntityDefinitionId", ["EntityDefinition"], "EntityDefinition"),
        pick("SecurityClassification", ["Public", "Internal", "Confidential", "Restricted", "MissionCritical"], { label: "Data Sensitivity Level" }),
        { name: "ComplianceGroup", type: "multipicklist", picklist: ["CCPA", "COPPA", "GDPR", "HIPAA", "PCI", "PersonalInfo", "PII"], label: "Compliance Categorization" },
      ],
    },
    { name: "UserRecordAccess", keyPrefix: "0Ur", owned: false, createable: false, updateable: false, deletable: false, fields: [str("RecordId"), ref("UserId", ["User"], "User"), { name: "HasReadAccess", type: "boolean" }, { name: "HasEditAccess", type: "boolean" }, { name: "HasDeleteAccess", type: "boolean" }, { name: "HasTransferAccess", type: "boolean" }, { name: "HasAllAccess", type: "boolean" }, pick("MaxAccessLevel", ["None", "Read", "Edit", "Delete", "Transfer", "All"])] },
  ];
}

export function toolingSpecs(): ObjectSpec[] {
  return [
    { name: "ApexClass", keyPrefix: "01p", owned: false, fields: [str("Name", { nameField: true }), { name: "Body", type: "textarea" }, { name: "ApiVersion", type: "double" }, pick("Status", ["Active", "Deleted"]), { name: "LengthWithoutComments", type: "int" }] },
    { name: "ApexTrigger", keyPrefix: "01q", owned: false, fields: [str("Name", { nameField: true }), str("TableEnumOrId"), { name: "Body", type: "textarea" }, pick("Status", ["Active", "Inactive"])] },
    { name: "CustomField", keyPrefix: "00N", owned: false, fields: [str("DeveloperName", { nameField: true }), str("TableEnumOrId")] },
  ];
}

/** mulberry32: a tiny deterministic PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

export interface DataCategoryNode {
  name: string;
  label: string;
  children: DataCategoryNode[];
}

export interface Seeded {
  store: Store;
  tooling: Store;
  orgId: string;
  adminId: string;
  integrationUserId: string;
  passwords: Map<string, { password: string; securityToken: string }>;
  siteId: string;
  categoryGroups: { name: string; label: string; root: DataCategoryNode }[];
  /** The knowledge settings resource: the master language and the languages articles can be translated into. */
  knowledgeLanguages: { defaultLanguage: string; languages: { name: string; active: boolean }[] };
  feoidAnswer: string;
}

const FIRST = ["Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Tim", "Radia", "John", "Hedy", "Edsger"];
const LAST = ["Lovelace", "Hopper", "Turing", "Johnson", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Berners-Lee", "Perlman", "Backus", "Lamarr", "Dijkstra"];
const CITIES: [string, string][] = [["London", "United Kingdom"], ["Paris", "France"], ["Berlin", "Germany"], ["Madrid", "Spain"], ["New York", "United States"], ["Toronto", "Canada"], ["Tokyo", "Japan"], ["Sydney", "Australia"]];
const COMPANY_A = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Wonka", "Tyrell", "Cyberdyne", "Soylent", "Hooli", "Vandelay", "Aperture", "Massive", "Oscorp"];
const COMPANY_B = ["Ltd", "Industries", "Systems", "Holdings", "Labs", "Group", "Partners", "Logistics", "Foods", "Energy"];

const ARTICLE_TOPICS = [
  "Reset your password", "Configure two-factor sign-in", "Pair a home router", "Update router firmware", "Export your invoices",
  "Change the billing address", "Set up a VPN tunnel", "Troubleshoot slow Wi-Fi", "Return a damaged device", "Add a user to your team",
  "Understand your monthly bill", "Cancel a subscription", "Recover a deleted file", "Connect a network switch", "Install the desktop app",
  "Enable single sign-on", "Transfer a licence", "Read the status lights", "Reset a switch to factory settings", "Book an on-site engineer",
  "Use the mobile app offline", "Change your notification settings", "Merge duplicate contacts", "Schedule a report", "Secure your admin account",
  "Migrate to the new portal", "Track a repair", "Request a refund", "Upgrade your plan", "Configure guest Wi-Fi",
];

/** Bodies a browser must render inert; the webview tests sanitize every one of them. */
export const HOSTILE_BODIES = [
  `<p>Before you start</p><script>alert('xss')</script><p>Open the settings page.</p>`,
  `<p>Click the picture.</p><img src="x" onerror="alert('img')"><p onclick="alert('p')">Then press Save.</p>`,
  `<p>See <a href="javascript:alert('link')">the guide</a> or <a href="https://example.com/help">the help centre</a>.</p>`,
  `<p>Embedded:</p><iframe src="https://evil.example/frame"></iframe><svg onload="alert('svg')"><circle r="4"/></svg><style>body{display:none}</style>`,
];

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** The demo org's help site, on a custom domain of its own (the Domain object lists it). */
export const DEMO_SITE_DOMAIN = "help.demo-org.example";

export function seedOrg(name: SeedName, instanceHost: string): Seeded {
  const store = new Store(baseSpecs());
  const tooling = new Store(toolingSpecs());
  const rnd = prng(name === "large" ? 4242 : 1234);
  // The seed's own timeline (early 2024 to late 2024) lies before any real "now", so new records sort after it.
  let clock = Date.UTC(2024, 0, 5, 9, 0, 0);
  store.clock = () => clock;
  const tick = (minutes: number) => { clock += minutes * 60_000; };

  // Each seed is an org of its own: a folder pulled from the demo org and pushed into an empty one sees two orgs.
  store.insert("Domain", { Domain: DEMO_SITE_DOMAIN, DomainType: "DNS" }, "005000000000000AAA");
  const org = store.insert("Organization", { ...(name === "empty" ? { Id: get18CharId("00D00000000E0PT") } : {}), Name: "Demo Org", OrganizationType: "Developer Edition", InstanceName: "EMU1", IsSandbox: false, TrialExpirationDate: null }, "005000000000000AAA");
  const adminProfile = store.insert("Profile", { Name: "System Administrator", UserType: "Standard" }, "005000000000000AAA");
  const standardProfile = store.insert("Profile", { Name: "Standard User", UserType: "Standard" }, "005000000000000AAA");
  const passwords = new Map<string, { password: string; securityToken: string }>();

  const users: Rec[] = [];
  const userCount = name === "empty" ? 2 : 10;
  for (let i = 0; i < userCount; i++) {
    const first = FIRST[i % FIRST.length]!, last = LAST[i % LAST.length]!;
    const isIntegration = i === 1;
    const username = i === 0 ? DEMO.username : isIntegration ? DEMO.integrationUsername : `${first.toLowerCase()}.${last.toLowerCase().replace(/[^a-z]/g, "")}@demo.crm`;
    const user = store.insert("User", {
      Username: username, FirstName: isIntegration ? "Integration" : first, LastName: isIntegration ? "User" : last,
      Name: isIntegration ? "Integration User" : `${first} ${last}`, Email: username, Alias: (first.slice(0, 1) + last.slice(0, 4)).toLowerCase(),
      IsActive: true, Title: i === 0 ? "CRM Administrator" : rnd.pick(["Support Engineer", "Knowledge Manager", "Sales Rep", "Developer"]),
      CommunityNickname: `${first.toLowerCase()}${i}`, UserType: "Standard", ProfileId: i === 0 ? adminProfile.Id : standardProfile.Id,
      LanguageLocaleKey: "en_US", LocaleSidKey: "en_GB", TimeZoneSidKey: "Europe/London",
    }, users[0]?.Id ?? "005000000000000AAA");
    users.push(user);
    passwords.set(username.toLowerCase(), i === 0 ? { password: DEMO.password, securityToken: DEMO.securityToken } : { password: `pw-${i}`, securityToken: "" });
  }
  const admin = users[0]!;
  for (const rec of [org, adminProfile, standardProfile, ...users]) {
    rec.CreatedById = admin.Id;
    rec.LastModifiedById = admin.Id;
  }
  for (const rec of users.slice(1)) rec.ManagerId = admin.Id;
  const as = (user: Rec) => user.Id;
  const someUser = () => rnd.pick(users);

  const recordTypes = new Map<string, Rec>();
  for (const developerName of ["FAQ", "How_To"]) {
    const rt = store.insert("RecordType", { Name: developerName.replace("_", " "), DeveloperName: developerName, SobjectType: "Knowledge__kav" }, admin.Id);
    store.recordTypeIds.set(`Knowledge__kav.${developerName}`, rt.Id);
    recordTypes.set(developerName, rt);
  }
  const feoidAnswer = store.newId("00N").slice(0, 15);
  const seeded: Seeded = {
    store, tooling, orgId: org.Id, adminId: admin.Id, integrationUserId: users[1]!.Id, passwords,
    siteId: store.newId("0DB"), feoidAnswer,
    // Spanish is set up but not active: the org refuses translations into it.
    knowledgeLanguages: { defaultLanguage: "en_US", languages: [{ name: "en_US", active: true }, { name: "fr", active: true }, { name: "de", active: true }, { name: "es", active: false }] },
    categoryGroups: [
      { name: "Products", label: "Products", root: { name: "All", label: "All", children: [
        { name: "Routers", label: "Routers", children: [{ name: "Home_Routers", label: "Home Routers", children: [] }, { name: "Enterprise_Routers", label: "Enterprise Routers", children: [] }] },
        { name: "Switches", label: "Switches", children: [] },
        { name: "Software", label: "Software", children: [{ name: "Desktop_App", label: "Desktop App", children: [] }, { name: "Mobile_App", label: "Mobile App", children: [] }] },
      ] } },
      { name: "Regions", label: "Regions", root: { name: "All", label: "All", children: [
        { name: "Europe", label: "Europe", children: [{ name: "France", label: "France", children: [] }, { name: "Germany", label: "Germany", children: [] }] },
        { name: "Americas", label: "Americas", children: [{ name: "USA", label: "USA", children: [] }, { name: "Canada", label: "Canada", children: [] }] },
      ] } },
    ],
  };
  if (name === "empty") {
    store.clock = () => Date.now();
    return seeded;
  }

  // Accounts, contacts, cases, invoices.
  const accounts: Rec[] = [];
  for (let i = 0; i < 300; i++) {
    tick(7);
    const [city, country] = rnd.pick(CITIES);
    accounts.push(store.insert("Account", {
      Name: `${COMPANY_A[i % COMPANY_A.length]} ${COMPANY_B[Math.floor(i / COMPANY_A.length) % COMPANY_B.length]}${i >= 150 ? ` ${Math.floor(i / 150) + 1}` : ""}`,
      Type: rnd.pick(["Prospect", "Customer - Direct", "Customer - Channel", "Partner", "Other"]),
      Industry: rnd.pick(["Banking", "Education", "Electronics", "Energy", "Healthcare", "Retail", "Technology"]),
      BillingCity: city, BillingCountry: country, Phone: `+44 20 7946 ${String(1000 + i).slice(-4)}`,
      Website: `https://www.${COMPANY_A[i % COMPANY_A.length]!.toLowerCase()}${i}.example`,
      AnnualRevenue: (rnd.int(900) + 100) * 10_000, NumberOfEmployees: rnd.int(5000) + 5,
      Description: i % 10 === 0 ? "Key account, renewal due this year." : null, AccountNumber: `ACC-${String(i + 1).padStart(5, "0")}`,
      OwnerId: someUser().Id,
    }, as(someUser())));
  }
  for (let i = 10; i < 300; i += 25) accounts[i]!.ParentId = accounts[i - 10]!.Id;
  const contacts: Rec[] = [];
  for (let i = 0; i < 320; i++) {
    tick(5);
    const first = rnd.pick(FIRST), last = rnd.pick(LAST);
    const account = i < 300 ? accounts[(i * 7) % accounts.length]! : null;
    contacts.push(store.insert("Contact", {
      FirstName: first, LastName: last, Name: `${first} ${last}`, Email: `${first}.${last}.${i}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, ""),
      Phone: `+1 555 01${String(i).padStart(2, "0").slice(-2)}`, Title: rnd.pick(["CTO", "Buyer", "IT Manager", "Office Manager", null]),
      AccountId: account?.Id ?? null, Birthdate: `19${60 + rnd.int(40)}-${String(1 + rnd.int(12)).padStart(2, "0")}-${String(1 + rnd.int(28)).padStart(2, "0")}`,
      LeadSource: rnd.pick(["Web", "Phone Inquiry", "Partner Referral", "Other"]), OwnerId: someUser().Id,
    }, as(someUser())));
  }
  for (let i = 0; i < 150; i++) {
    tick(11);
    const contact = contacts[(i * 3) % contacts.length]!;
    const status = rnd.pick(["New", "Working", "Escalated", "Closed"]);
    store.insert("Case", {
      CaseNumber: String(1000 + i).padStart(8, "0"), Subject: `${rnd.pick(["Cannot", "Unable to", "How do I"])} ${rnd.pick(ARTICLE_TOPICS).toLowerCase()}`,
      Status: status, Priority: rnd.pick(["High", "Medium", "Low"]), Origin: rnd.pick(["Phone", "Email", "Web"]),
      AccountId: contact.AccountId, ContactId: contact.Id, IsClosed: status === "Closed", OwnerId: someUser().Id,
    }, as(someUser()));
  }
  for (let i = 0; i < 120; i++) {
    tick(13);
    store.insert("Invoice__c", {
      Name: `INV-${String(i + 1).padStart(5, "0")}`, Account__c: accounts[i % 40]!.Id, Amount__c: (rnd.int(5000) + 50) * 10,
      Status__c: rnd.pick(["Draft", "Sent", "Paid", "Overdue"]),
      Tags__c: [rnd.pick(["Urgent", "Recurring"]), ...(i % 3 === 0 ? ["Export"] : [])].join(";"),
      Due_Date__c: `2026-0${1 + (i % 9)}-15`, OwnerId: someUser().Id,
    }, as(someUser()));
  }

  seedKnowledge(seeded, rnd, tick, () => clock, users, recordTypes, instanceHost);
  seedChatter(seeded, rnd, tick, users, accounts);

  tooling.clock = () => clock;
  for (const [className, body] of [["AccountService", "public with sharing class AccountService {\n  public static List<Account> recent() { return [SELECT Id FROM Account LIMIT 10]; }\n}"], ["KnowledgePublisher", "public class KnowledgePublisher {}"], ["FeedNotifier", "public class FeedNotifier {}"]]) {
    tooling.insert("ApexClass", { Name: className, Body: body, ApiVersion: 62, Status: "Active", LengthWithoutComments: body!.length }, admin.Id);
  }
  tooling.insert("ApexTrigger", { Name: "CaseTrigger", TableEnumOrId: "Case", Body: "trigger CaseTrigger on Case (before insert) {}", Status: "Active" }, admin.Id);
  tooling.insert("CustomField", { Id: get18CharId(feoidAnswer), DeveloperName: "Answer", TableEnumOrId: "Knowledge__kav" }, admin.Id);

  addGeneratedRows(store, name === "large" ? "Export_Row__c" : "Usage_Event__c", name === "large" ? 1_000_000 : 60_000, admin.Id);
  addGeneratedTasks(store, name === "large" ? 1_000_000 : 150_000, admin.Id);
  if (name === "large") {
    seedLarge(store, rnd, admin.Id);
    seedLargeKnowledge(seeded, admin.Id);
  }
  store.clock = () => Date.now();
  return seeded;
}

function seedKnowledge(s: Seeded, rnd: ReturnType<typeof prng>, tick: (m: number) => void, now: () => number, users: Rec[], recordTypes: Map<string, Rec>, instanceHost: string) {
  const { store } = s;
  const authors = users.filter((_, i) => i !== 1);
  // States per master article: O online, D draft, A archived; listed oldest version first.
  const plans = ["O", "O", "O", "O", "O", "O", "O", "O", "O", "O", "O", "O", "OD", "OD", "OD", "OD", "OD", "D", "D", "D", "D", "D", "D", "A", "A", "A", "A", "AO", "AO", "AO"];
  let number = 1000;
  plans.forEach((plan, i) => {
    const title = ARTICLE_TOPICS[i]!;
    const author = authors[i % authors.length]!;
    tick(60 * 24 + rnd.int(600));
    const master = store.insert("KnowledgeArticle", { ArticleNumber: String(++number).padStart(9, "0") }, author.Id);
    const hostile = i % 7 === 3 ? HOSTILE_BODIES[Math.floor(i / 7) % HOSTILE_BODIES.length] : undefined;
    const created = now();
    plan.split("").forEach((state, v) => {
      tick(60 * 24 * (1 + rnd.int(6)));
      const id = store.newId("ka0");
      const refid = store.newId("0EM").slice(0, 15);
      const withImage = i % 5 === 1;
      if (withImage) store.images.set(refid, i % 2 ? { contentType: "image/png", bytes: PNG_1X1 } : { contentType: "image/gif", bytes: GIF_1X1 });
      const image = withImage
        ? `<p><img src="https://${instanceHost}/servlet/rtaImage?eid=${id.slice(0, 15)}&amp;feoid=${s.feoidAnswer}&amp;refid=${refid}" alt="screenshot.png"></img></p>`
        : "";
      const body = hostile ?? `<h2>${title}</h2><p>This article explains how to ${title.toLowerCase()}.</p><ol><li>Open <b>Settings</b>.</li><li>Follow the steps on screen.</li></ol>${image}<p>Version ${v + 1}.</p>`;
      const published = state !== "D";
      const rec = store.insert("Knowledge__kav", {
        Id: id, KnowledgeArticleId: master.Id, Title: v === 0 ? title : `${title} (revised)`, UrlName: slug(title), Summary: `How to ${title.toLowerCase()}.`,
        Answer__c: body, PublishStatus: state === "O" ? "Online" : state === "A" ? "Archived" : "Draft",
        VersionNumber: v + 1, IsLatestVersion: true, ValidationStatus: i % 3 === 0 ? "Validated" : "Not Validated",
        ArticleNumber: master.ArticleNumber, Language: "en_US", IsMasterLanguage: true, IsVisibleInApp: true, IsVisibleInPkb: i % 2 === 0,
        FirstPublishedDate: published || v > 0 ? sfDateTime(created + 86_400_000) : null, LastPublishedDate: published ? sfDateTime(now()) : v > 0 ? sfDateTime(now() - 86_400_000) : null,
        ArchivedDate: state === "A" ? sfDateTime(now()) : null, ArticleCreatedDate: sfDateTime(created),
        ArticleTotalViewCount: published ? 10 + rnd.int(2000) : 0, ViewScore__c: published ? Math.round(rnd.next() * 10000) / 100 : 0,
        RecordTypeId: recordTypes.get(i % 2 ? "FAQ" : "How_To")!.Id, OwnerId: author.Id,
      }, author.Id);
      // Older versions of the same article are no longer the latest.
      if (v > 0) for (const older of store.liveRecords("Knowledge__kav")) if (older.KnowledgeArticleId === master.Id && older.Id !== rec.Id && older.PublishStatus === "Archived") older.IsLatestVersion = false;
    });
  });
  // Data category selections on some versions.
  const groups = ["Products", "Regions"];
  const leaves: Record<string, string[]> = { Products: ["Home_Routers", "Enterprise_Routers", "Switches", "Desktop_App", "Mobile_App"], Regions: ["France", "Germany", "USA", "Canada", "Europe"] };
  store.liveRecords("Knowledge__kav").forEach((v, i) => {
    if (i % 3 === 2) return;
    const group = groups[i % 2]!;
    store.insert("Knowledge__DataCategorySelection", { ParentId: v.Id, DataCategoryGroupName: group, DataCategoryName: leaves[group]![i % 5] }, String(v.CreatedById));
  });
}

function seedChatter(s: Seeded, rnd: ReturnType<typeof prng>, tick: (m: number) => void, users: Rec[], accounts: Rec[]) {
  const { store } = s;
  const groupDefs = [["Release team", "Public"], ["Support leads", "Public"], ["Knowledge council", "Private"]] as const;
  const groups = groupDefs.map(([name, type], gi) => {
    const members = users.filter((_, i) => i !== 1 && (i + gi) % 2 === 0 || i === 0);
    const group = store.insert("CollaborationGroup", { Name: name, Description: `${name} discussion`, CollaborationType: type, MemberCount: members.length, OwnerId: users[0]!.Id }, users[0]!.Id);
    for (const member of members) store.insert("CollaborationGroupMember", { CollaborationGroupId: group.Id, MemberId: member.Id }, users[0]!.Id);
    return group;
  });
  const lines = [
    "Release planning for the spring update starts on Monday.", "Who owns the router firmware article?", "The status page is green again.",
    "Please review the draft on guest Wi-Fi before Friday.", "Great job on the escalation this morning!", "Reminder: knowledge council meets on Thursday.",
    "Customer asked about exporting invoices; we have an article for that.", "New troubleshooting flow is live.",
  ];
  for (let i = 0; i < 40; i++) {
    tick(97);
    const author = users.filter((_, k) => k !== 1)[i % 9]!;
    const parent = i % 4 === 3 ? accounts[i]! : i % 5 === 4 ? author : groups[i % 3]!;
    const text = i % 6 === 5 ? `<b>Bold?</b> ${lines[i % lines.length]} <script>alert(1)</script>` : lines[i % lines.length]!;
    const item = store.insert("FeedItem", { ParentId: parent.Id, Body: text, Type: "TextPost", CommentCount: 0 }, author.Id);
    const comments = i % 3 === 0 ? 1 + rnd.int(5) : 0;
    for (let c = 0; c < comments; c++) {
      tick(13);
      store.insert("FeedComment", { FeedItemId: item.Id, ParentId: parent.Id, CommentBody: rnd.pick(["Agreed.", "On it.", "Thanks!", "Can we discuss tomorrow?", "Done, see the updated draft."]) }, rnd.pick(users).Id);
    }
    item.CommentCount = comments;
  }
}

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A read-only object whose rows are computed from their number when read (see Store.generated): the demo
 * org's 60,000 usage events (an export big enough for the Bulk API), the large seed's million rows.
 * Each has a quoted phrase and a comma in its note, which a CSV must carry intact.
 */
function addGeneratedRows(store: Store, objectName: string, count: number, ownerId: string) {
  const keyPrefix = objectName === "Export_Row__c" ? "a0E" : "a0U";
  store.addObjects([{
    name: objectName, label: objectName.replace(/__c$/, "").replace(/_/g, " "), keyPrefix, createable: false, updateable: false, deletable: false,
    fields: [str("Name", { nameField: true }), pick("Event_Type__c", ["Login", "Search", "Export", "Publish"]), { name: "Amount__c", type: "currency" }, str("Note__c", { length: 255 }), { name: "Occurred_At__c", type: "datetime" }],
  }]);
  const base = Date.UTC(2026, 0, 1);
  const types = ["Login", "Search", "Export", "Publish"];
  setGenerated(store, objectName, keyPrefix, count, ownerId, (i) => base + i * 1000, (i, stamp) => ({
    Name: `Row ${String(i + 1).padStart(7, "0")}`, Event_Type__c: types[i % types.length], Amount__c: (i % 100_000) / 100, Note__c: `Said "hello, world" at ${i}`, Occurred_At__c: stamp,
  }));
}

/**
 * A generated table: row `i` is computed when read (its ID from `i`, system fields from its time), never kept.
 * Asked for some fields only (an aggregate scanning a million rows, as an org's index serves it), the row leaves
 * out an ID nobody named, the costliest part of it.
 */
function setGenerated(store: Store, objectName: string, keyPrefix: string, count: number, ownerId: string, timeOf: (i: number) => number, values: (i: number, stamp: string) => Record<string, unknown>) {
  const stampOf = consecutiveStamps();
  store.generated.set(objectName.toLowerCase(), {
    count,
    row: (i, wanted) => {
      const stamp = stampOf(timeOf(i));
      const rec: Record<string, unknown> = { IsDeleted: false, OwnerId: ownerId, CreatedDate: stamp, CreatedById: ownerId, LastModifiedDate: stamp, LastModifiedById: ownerId, SystemModstamp: stamp, ...values(i, stamp) };
      if (!wanted || wanted.has("id")) {
        let body = "";
        for (let v = i + 1; body.length < 10; v = Math.floor(v / 62)) body = B62[v % 62] + body;
        rec.Id = get18CharId(`${keyPrefix}${store.podCode}${body}`);
      }
      return rec as Rec;
    },
  });
}

/** sfDateTime for times read in order: the day's part formatted once per day, the time of day by arithmetic. */
function consecutiveStamps(): (ms: number) => string {
  let day = NaN;
  let prefix = "";
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  return (ms) => {
    const d = Math.floor(ms / 86_400_000);
    if (d !== day) [day, prefix] = [d, sfDateTime(d * 86_400_000).slice(0, 11)];
    const t = ms - d * 86_400_000;
    const milli = t % 1000;
    return `${prefix}${two(Math.floor(t / 3_600_000))}:${two(Math.floor(t / 60_000) % 60)}:${two(Math.floor(t / 1000) % 60)}.${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}+0000`;
  };
}

/** Tasks: the object that grows largest in real orgs (every call and email logged), generated: 150,000 of them (a million in the large seed). */
function addGeneratedTasks(store: Store, count: number, ownerId: string) {
  store.addObjects([{
    name: "Task", keyPrefix: "00T", owned: true,
    fields: [str("Subject"), pick("Status", ["Not Started", "In Progress", "Completed"], { defaultValue: "Not Started" }), pick("Priority", ["High", "Normal", "Low"], { defaultValue: "Normal" }), { name: "ActivityDate", type: "date" }, { name: "Description", type: "textarea" }],
  }]);
  const base = Date.UTC(2025, 0, 1);
  const statuses = ["Not Started", "In Progress", "Completed"];
  setGenerated(store, "Task", "00T", count, ownerId, (i) => base + i * 60_000, (i, stamp) => ({
    Subject: `Call ${i + 1}`, Status: statuses[i % 3], Priority: i % 10 === 0 ? "High" : "Normal", ActivityDate: stamp.slice(0, 10), Description: null,
  }));
}

/** The translation languages of the large seed's knowledge base (all active there). */
const LARGE_TRANSLATIONS = ["fr", "de", "es"];

/**
 * A knowledge base at a large team's size: 10,000 published articles, each with a data category and a published
 * translation in each of three languages (40,000 versions), bodies of a few paragraphs. Inserted whole, without
 * the API, so the seed starts in seconds.
 */
function seedLargeKnowledge(s: Seeded, adminId: string) {
  const { store } = s;
  for (const l of s.knowledgeLanguages.languages) if (LARGE_TRANSLATIONS.includes(l.name)) l.active = true;
  const leaves = ["Home_Routers", "Enterprise_Routers", "Switches", "Desktop_App", "Mobile_App"];
  const words = ["router", "switch", "licence", "invoice", "account", "password", "firmware", "network", "device", "report"];
  for (let i = 0; i < 10_000; i++) {
    const topic = `${words[i % words.length]} ${words[Math.floor(i / words.length) % words.length]} ${i + 1}`;
    const number = String(200_000 + i).padStart(9, "0");
    const article = store.insert("KnowledgeArticle", { ArticleNumber: number }, adminId);
    const body = (language: string) => [
      `<h2>${language}: ${topic}</h2>`, `<p>This article explains the ${topic} in five short steps.</p>`,
      `<ol><li>Open <b>Settings</b>.</li><li>Choose the ${topic}.</li><li>Follow the steps on screen.</li><li>Save.</li><li>Check the result.</li></ol>`,
      `<p>If it still fails, contact support with the article number ${number}.</p>`,
    ].join("");
    const published = sfDateTime(store.clock());
    const master = store.insert("Knowledge__kav", {
      KnowledgeArticleId: article.Id, Title: `How to use the ${topic}`, UrlName: `large-article-${i + 1}`, Summary: `The ${topic}, step by step.`, Answer__c: body("en_US"),
      PublishStatus: "Online", VersionNumber: 1, IsLatestVersion: true, ValidationStatus: "Validated", ArticleNumber: number, Language: "en_US", IsMasterLanguage: true,
      IsVisibleInApp: true, IsVisibleInPkb: true, FirstPublishedDate: published, LastPublishedDate: published, ArticleCreatedDate: published, OwnerId: adminId,
    }, adminId);
    for (const language of LARGE_TRANSLATIONS) {
      store.insert("Knowledge__kav", {
        KnowledgeArticleId: article.Id, Title: `[${language}] How to use the ${topic}`, UrlName: `large-article-${i + 1}`, Summary: `[${language}] The ${topic}.`, Answer__c: body(language),
        PublishStatus: "Online", VersionNumber: 1, IsLatestVersion: true, ValidationStatus: "Validated", ArticleNumber: number, Language: language, IsMasterLanguage: false,
        MasterVersionId: master.Id, IsVisibleInApp: true, FirstPublishedDate: published, LastPublishedDate: published, ArticleCreatedDate: published, OwnerId: adminId,
      }, adminId);
    }
    store.insert("Knowledge__DataCategorySelection", { ParentId: master.Id, DataCategoryGroupName: "Products", DataCategoryName: leaves[i % leaves.length] }, adminId);
  }
}

function seedLarge(store: Store, rnd: ReturnType<typeof prng>, adminId: string) {
  const specs: ObjectSpec[] = [];
  const total = 1500 - store.objects.size - 2;
  for (let i = 1; i <= total; i++) {
    const n = String(i).padStart(4, "0");
    specs.push({ name: `Obj_${n}__c`, label: `Object ${n}`, keyPrefix: `m${B62[Math.floor(i / 62)]}${B62[i % 62]}`, fields: [str("Name", { nameField: true }), { name: `Value_${n}__c`, type: "double" }] });
  }
  specs.push({ name: "Big_Table__c", label: "Big Table", keyPrefix: "a0X", fields: [str("Name", { nameField: true }), { name: "Amount__c", type: "currency" }, pick("Stage__c", ["One", "Two", "Three"]), ref("Account__c", ["Account"], "Account__r")] });
  const wide: FieldDef[] = [str("Name", { nameField: true })];
  for (let f = 1; wide.length < 3000 - 8; f++) wide.push({ name: `Field_${String(f).padStart(4, "0")}__c`, type: f % 3 === 0 ? "double" : f % 3 === 1 ? "string" : "picklist", picklist: f % 3 === 2 ? ["A", "B", "C"] : undefined });
  specs.push({ name: "Wide_Object__c", label: "Wide Object", keyPrefix: "a0W", fields: wide });
  store.addObjects(specs);
  const accounts = store.liveRecords("Account");
  const table = store.table("Big_Table__c");
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 50_000; i++) {
    const id = store.newId("a0X");
    const stamp = sfDateTime(base + i * 1000);
    table.set(id, {
      Id: id, IsDeleted: false, OwnerId: adminId, CreatedDate: stamp, CreatedById: adminId, LastModifiedDate: stamp, LastModifiedById: adminId, SystemModstamp: stamp,
      Name: `Row ${String(i + 1).padStart(5, "0")}`, Amount__c: rnd.int(100000) / 100, Stage__c: ["One", "Two", "Three"][i % 3], Account__c: accounts[i % accounts.length]!.Id,
    });
  }
  for (let i = 0; i < 5; i++) store.insert("Wide_Object__c", { Name: `Wide ${i + 1}`, Field_0001__c: "first", Field_0003__c: i }, adminId);
}
