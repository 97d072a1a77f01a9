/**
 * Article versions side by side. Before publishing: a checklist per article version (validation, required and rich-text fields, links to
 * articles readers cannot open, images the org cannot serve, URL names another article uses). And the data
 * to compare two versions — of one article, or a translation with its master — field by field.
 */
import { DEFAULT_KNOWLEDGE_SOBJECT } from "./constants";
import type { Crm } from "./crm";
import { isRequiredOnCreate, isRichText, type FieldDescribe, type SObjectDescribe } from "./describe";
import { MissingRequiredDataError } from "./errors";
import { recordIdSource, requireRecordId, requireSobjectName } from "./ids";
import { soqlLiteral } from "./soql-text";
import type { KnowledgeArticleVersion, TranslationVersion } from "./shapes";
import { richTextImageUrls } from "./urls";

export interface PreflightProblem {
  check: "validation" | "required" | "richText" | "link" | "image" | "urlName";
  /** An error stops the version from passing; a warning is shown and publishing may go on. */
  severity: "error" | "warning";
  message: string;
  field?: string;
}

export interface PreflightReport {
  id: string;
  title: string;
  problems: PreflightProblem[];
  /** No error among the problems. */
  passed: boolean;
}

type Row = Record<string, unknown>;
const blank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && !v.replace(/<[^>]*>|&nbsp;|\s/g, ""));
const quoted = (values: Iterable<string>) => [...new Set(values)].map(soqlLiteral).join(", ");

/** The Salesforce domains an org's My Domain has hosts under: its instance, Lightning, sites, content. */
const ORG_DOMAINS = [".salesforce.com", ".force.com", ".site.com", ".salesforce-sites.com", ".cloudforce.com", ".visualforce.com", ".documentforce.com"];

/**
 * Whether a link points at this org: a link on the page itself (no host), the org's instance, another host of its
 * My Domain (`acme.lightning.force.com`, `acme.my.site.com` for `acme.my.salesforce.com`), or one of its custom
 * domains (its sites). A link to any other site is not an article of this org, whatever its path says.
 */
export function orgLinkTestFor(instanceUrl: string, customDomains: Iterable<string> = []): (href: string) => boolean {
  const instance = new URL(instanceUrl || "http://localhost").hostname.toLowerCase();
  const myDomain = instance.split(".")[0]!;
  const custom = new Set([...customDomains].map((d) => d.toLowerCase()));
  return (href) => {
    if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) return true;
    let host: string;
    try {
      host = new URL(href, "https://relative.invalid").hostname.toLowerCase();
    } catch {
      return false;
    }
    if (host === instance || custom.has(host)) return true;
    const [first] = host.split(".");
    return (first === myDomain || first?.startsWith(`${myDomain}--`) === true || myDomain.startsWith(`${first}--`)) && ORG_DOMAINS.some((d) => host.endsWith(d));
  };
}

/** The link test for a connected org, with its custom domains (an Experience Cloud site's own), where the org lets this user read them. */
export async function orgLinkTest(crm: Crm): Promise<(href: string) => boolean> {
  const { instanceUrl, customDomains } = await orgLinkHosts(crm);
  return orgLinkTestFor(instanceUrl, customDomains);
}

/** The hosts an org's links are on: its instance and its custom domains (when the user may read them). */
export interface OrgHosts { instanceUrl: string; customDomains: string[] }
export async function orgLinkHosts(crm: Crm): Promise<OrgHosts> {
  const customDomains = await crm.soqlQuery<{ Domain: string }>("SELECT Domain FROM Domain", { replaceQuotes: false })
    .then((r) => r.records.map((d) => String(d.Domain)), () => []);
  return { instanceUrl: crm.instanceUrl ?? "http://localhost", customDomains };
}

const ARTICLE_ID_IN_LINK = new RegExp(`\\b(${recordIdSource("k[aA]0")})\\b`);

/** Links in rich text that may name a knowledge article: by URL name (`/articles/…/<name>`, `/s/article/<name>`) or by ID. */
export type ArticleLink = { href: string; urlName?: string; id?: string };
export function articleLinks(html: string): ArticleLink[] {
  const hrefs = [...html.matchAll(/<a\b[^>]*\bhref\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!.replace(/&amp;/g, "&"));
  return hrefs.flatMap((href): ArticleLink[] => {
    const id = ARTICLE_ID_IN_LINK.exec(href)?.[1];
    if (id) return [{ href, id }];
    const urlName = /\/articles?\/(?:[^/?#"']+\/)*([A-Za-z0-9][A-Za-z0-9-]*)(?:[?#]|$)/.exec(href)?.[1];
    return urlName ? [{ href, urlName }] : [];
  });
}

export interface PreflightOptions {
  sobject?: string;
  /** The article type's describe, when the caller holds it (saves a request). */
  describe?: SObjectDescribe;
  /** Fields a team requires before publishing (page layouts can require what the API does not), such as Summary. */
  requiredFields?: string[];
}

/**
 * Checks article versions before publishing: one report per version, in the order given. Reads the versions
 * in one query, the links and URL names in one more each, and each referenced image once (in parallel).
 */
export async function preflightPublish(crm: Crm, versionIds: string[], options: PreflightOptions = {}): Promise<PreflightReport[]> {
  if (!Array.isArray(versionIds) || !versionIds.length) throw new MissingRequiredDataError("versionIds must be a non-empty array of article version IDs", "versionIds");
  versionIds.forEach((id, i) => requireRecordId(id, `versionIds[${i}]`));
  const sobject = options.sobject === undefined ? DEFAULT_KNOWLEDGE_SOBJECT : requireSobjectName(options.sobject);
  const describe = options.describe ?? (await crm.describeObject(sobject))!;
  const byName = new Map(describe.fields.map((f) => [f.name.toLowerCase(), f]));
  const richText = describe.fields.filter(isRichText);
  const extra = (options.requiredFields ?? []).map((n) => byName.get(n.toLowerCase())).filter((f): f is FieldDescribe => !!f);
  const required = [...new Map([...describe.fields.filter((f) => isRequiredOnCreate(f) && f.updateable), ...extra].map((f) => [f.name, f])).values()];
  const hasValidation = byName.has("validationstatus");
  const fields = new Set(["Id", "Title", "UrlName", "KnowledgeArticleId", "Language", ...(hasValidation ? ["ValidationStatus"] : []), ...required.map((f) => f.name), ...richText.map((f) => f.name)]);
  const rows = (await crm.soqlQuery<Row>(`SELECT ${[...fields].join(", ")} FROM ${sobject} WHERE Id IN (${quoted(versionIds)})`, { replaceQuotes: false })).records;

  const links = new Map(rows.map((r) => [r, richText.flatMap((f) => articleLinks(String(r[f.name] ?? "")))]));
  const linkedNames = [...links.values()].flat().flatMap((l) => (l.urlName ? [l.urlName] : []));
  const linkedIds = [...links.values()].flat().flatMap((l) => (l.id ? [l.id] : []));
  const inBatch = new Set(rows.flatMap((r) => [String(r.UrlName), String(r.Id).slice(0, 15), String(r.KnowledgeArticleId).slice(0, 15)]));
  const [isOrgLink, online, sameNames] = await Promise.all([
    linkedNames.length || linkedIds.length ? orgLinkTest(crm) : () => false,
    linkedNames.length || linkedIds.length
      ? crm.soqlQuery<Row>(`SELECT Id, KnowledgeArticleId, UrlName FROM ${sobject} WHERE PublishStatus = 'Online' AND (${[
        linkedNames.length ? `UrlName IN (${quoted(linkedNames)})` : "", linkedIds.length ? `Id IN (${quoted(linkedIds)}) OR KnowledgeArticleId IN (${quoted(linkedIds)})` : "",
      ].filter(Boolean).join(" OR ")})`, { replaceQuotes: false }).then((r) => r.records)
      : Promise.resolve([]),
    crm.soqlQuery<Row>(`SELECT Id, KnowledgeArticleId, UrlName, Language, PublishStatus FROM ${sobject} WHERE UrlName IN (${quoted(rows.map((r) => String(r.UrlName)))})`, { replaceQuotes: false }).then((r) => r.records),
  ]);
  const published = new Set(online.flatMap((r) => [String(r.UrlName), String(r.Id).slice(0, 15), String(r.KnowledgeArticleId).slice(0, 15)]));

  const reports = await Promise.all(rows.map(async (r): Promise<PreflightReport> => {
    const problems: PreflightProblem[] = [];
    if (hasValidation && r.ValidationStatus !== "Validated") problems.push({ check: "validation", severity: "warning", field: "ValidationStatus", message: `Validation status is '${String(r.ValidationStatus ?? "none")}'.` });
    for (const f of required) if (blank(r[f.name])) problems.push({ check: "required", severity: "error", field: f.name, message: `${f.label ?? f.name} is required and empty.` });
    for (const f of richText) if (blank(r[f.name]) && !required.includes(f)) problems.push({ check: "richText", severity: "warning", field: f.name, message: `${f.label ?? f.name} is empty.` });
    // Only links to this org name its articles: a help site elsewhere may have an /articles/ path of its own.
    const own = links.get(r)!.filter((l) => isOrgLink(l.href)).map((l) => (l.id ?? l.urlName)!);
    for (const target of new Set(own)) {
      const key = /^k[aA]0/.test(target) ? target.slice(0, 15) : target;
      if (!published.has(key) && !inBatch.has(key)) problems.push({ check: "link", severity: "error", message: `The body links to '${target}', which is not a published article.` });
    }
    const images = richText.flatMap((f) => richTextImageUrls(String(r[f.name] ?? "")).map((url) => ({ field: f.name, url })));
    const failed = await Promise.all(images.map((i) => crm.fetchRichTextImage(i.url, String(r.Id), i.field, { sobject }).then(() => undefined, (err: Error) => ({ ...i, reason: err.message }))));
    for (const f of failed) if (f) problems.push({ check: "image", severity: "error", field: f.field, message: `An image in ${f.field} cannot be fetched: ${f.reason}` });
    const clash = sameNames.find((o) => o.UrlName === r.UrlName && o.Language === r.Language && String(o.KnowledgeArticleId).slice(0, 15) !== String(r.KnowledgeArticleId).slice(0, 15));
    if (clash) problems.push({ check: "urlName", severity: "error", field: "UrlName", message: `URL name '${String(r.UrlName)}' is used by another article (${String(clash.Id)}, ${String(clash.PublishStatus)}).` });
    return { id: String(r.Id), title: String(r.Title ?? ""), problems, passed: !problems.some((p) => p.severity === "error") };
  }));
  const byId = new Map(reports.map((rep) => [rep.id.slice(0, 15), rep]));
  return versionIds.map((id) => byId.get(id.slice(0, 15)) ?? { id, title: "", problems: [{ check: "required", severity: "error", message: `No article version ${id} was found.` }], passed: false });
}

export interface ComparedField {
  name: string;
  label: string;
  richText: boolean;
  left: unknown;
  right: unknown;
  same: boolean;
}

export interface VersionComparison {
  left: Row;
  right: Row;
  /** The fields an author writes (Title, URL name, summary, rich text, custom fields), differing ones first. */
  fields: ComparedField[];
}

/** Two article versions side by side: any two versions of one article, or a translation and its master. */
export async function compareVersions(crm: Crm, leftId: string, rightId: string, options: { sobject?: string; describe?: SObjectDescribe } = {}): Promise<VersionComparison> {
  requireRecordId(leftId, "leftId");
  requireRecordId(rightId, "rightId");
  const sobject = options.sobject === undefined ? DEFAULT_KNOWLEDGE_SOBJECT : requireSobjectName(options.sobject);
  const describe = options.describe ?? (await crm.describeObject(sobject))!;
  const authored = describe.fields.filter((f) => f.updateable && f.type !== "base64" && f.type !== "reference" && f.calculated !== true);
  const [left, right] = await Promise.all([leftId, rightId].map((id) => crm.getSobjectRecord(sobject, id)));
  const compared = authored.map((f) => ({
    name: f.name, label: f.label ?? f.name, richText: isRichText(f), left: left![f.name] ?? null, right: right![f.name] ?? null,
    same: JSON.stringify(left![f.name] ?? null) === JSON.stringify(right![f.name] ?? null),
  }));
  return { left: left!, right: right!, fields: [...compared.filter((f) => !f.same), ...compared.filter((f) => f.same)] };
}

const time = (v: unknown) => Date.parse(String(v ?? "").replace(/\+0000$/, "Z"));

/** Whether a translation is out of date: its master was published again after the translation's last update. */
export function isTranslationStale(translation: Pick<TranslationVersion, "LastModifiedDate">, master: Pick<KnowledgeArticleVersion, "LastPublishedDate"> | undefined): boolean {
  const published = time(master?.LastPublishedDate);
  const updated = time(translation.LastModifiedDate);
  return Number.isFinite(published) && Number.isFinite(updated) && published > updated;
}

/**
 * The master version a translation was last brought up to date with: the newest master version published
 * before the translation's last change (a minor publication replaces a version, so it may be gone).
 */
export function masterAsTranslated<V extends Pick<KnowledgeArticleVersion, "LastPublishedDate">>(masters: V[], translation: Pick<TranslationVersion, "LastModifiedDate">): V | undefined {
  const changed = time(translation.LastModifiedDate);
  return masters.filter((m) => time(m.LastPublishedDate) <= changed).sort((a, b) => time(b.LastPublishedDate) - time(a.LastPublishedDate))[0];
}
