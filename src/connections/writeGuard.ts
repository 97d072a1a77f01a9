/**
 * Production guard rails: what a write will change, in words a person can judge in a confirmation.
 * No VS Code here: tested in Node.
 */
import * as l10n from "@vscode/l10n";
import type { PendingWrite } from "../client";

/** A knowledge action on `n` articles, as one phrase per action and count. */
function articleAction(action: string, n: number): string | undefined {
  const one = n === 1;
  switch (action) {
    case "publishKnowledgeArticles": return one ? l10n.t("publish 1 knowledge article") : l10n.t("publish {0} knowledge articles", n);
    case "archiveKnowledgeArticles": return one ? l10n.t("archive 1 knowledge article") : l10n.t("archive {0} knowledge articles", n);
    case "deleteKnowledgeArticles": return one ? l10n.t("delete 1 knowledge article") : l10n.t("delete {0} knowledge articles", n);
    case "createDraftFromOnlineKnowledgeArticle": return one ? l10n.t("create a draft of 1 knowledge article") : l10n.t("create a draft of {0} knowledge articles", n);
    default: return undefined;
  }
}

/** "create 2 Contact records", "update 1 record": one phrase per verb and count. */
function recordsWrite(verb: "create" | "update" | "delete", n: number, type: string | undefined): string {
  if (verb === "delete") return n === 1 ? l10n.t("delete 1 record") : l10n.t("delete {0} records", n);
  if (verb === "create") {
    if (type) return n === 1 ? l10n.t("create 1 {0} record", type) : l10n.t("create {0} {1} records", n, type);
    return n === 1 ? l10n.t("create 1 record") : l10n.t("create {0} records", n);
  }
  if (type) return n === 1 ? l10n.t("update 1 {0} record", type) : l10n.t("update {0} {1} records", n, type);
  return n === 1 ? l10n.t("update 1 record") : l10n.t("update {0} records", n);
}

/** One line saying what a write changes: "update Account 001… (Name, Phone)", "publish 3 knowledge articles". */
export function describeWrite(write: PendingWrite): string {
  if (write.summary) return write.summary;
  const path = write.path.replace(/^\/services\/data\/v[\d.]+/, "").replace(/^\/connect\/communities\/[^/]+/, "");
  const body = (write.body && typeof write.body === "object" ? write.body : {}) as Record<string, unknown>;
  const fields = Object.keys(body).filter((k) => k !== "attributes");
  const action = /^\/actions\/standard\/(\w+)/.exec(path);
  if (action) {
    const inputs = Array.isArray(body.inputs) ? body.inputs.length : 1;
    return articleAction(action[1]!, inputs) ?? l10n.t("run the {0} action", action[1]!);
  }
  if (/^\/composite\/?$/.test(path) && Array.isArray(body.compositeRequest)) {
    const writes = (body.compositeRequest as { method?: string; url?: string; body?: unknown }[]).filter((s) => s.method !== "GET");
    return writes.map((s) => describeWrite({ method: (s.method ?? "POST") as PendingWrite["method"], path: s.url ?? "", body: s.body })).join("; ");
  }
  if (/^\/jobs\/ingest\/?$/.test(path)) return l10n.t("{0} {1} records with the Bulk API", String(body.operation ?? "load"), String(body.object ?? ""));
  if (/^\/chatter\/feed-elements\/[^/]+\/capabilities\/comments\/items/.test(path)) return l10n.t("comment on a feed post");
  if (/^\/chatter\/feed-elements\/?$/.test(path)) return l10n.t("post to a feed");
  if (/^\/knowledgeManagement\/articleVersions\/masterVersions\/\w+/.test(path)) return l10n.t("change a knowledge article version");
  if (/^\/knowledgeManagement\/articleVersions\/masterVersions\/?$/.test(path)) return l10n.t("create a draft of a knowledge article");
  if (/^\/composite\/sobjects\/?$/.test(path)) {
    const records = Array.isArray(body.records) ? (body.records as Record<string, unknown>[]) : [];
    const types = [...new Set(records.map((r) => (r?.attributes as { type?: string } | undefined)?.type).filter(Boolean))];
    const changed = [...new Set(records.flatMap((r) => Object.keys(r ?? {}).filter((k) => k !== "attributes" && k !== "Id")))];
    const what = changed.length ? ` (${changed.slice(0, 6).join(", ")}${changed.length > 6 ? ", …" : ""})` : "";
    if (write.method === "DELETE") return write.records ? recordsWrite("delete", write.records, undefined) : l10n.t("delete records");
    return `${recordsWrite(write.method === "POST" ? "create" : "update", write.records ?? records.length, types.length === 1 ? types[0] : undefined)}${what}`;
  }
  const record = /^\/sobjects\/(\w+)(?:\/(\w+))?\/?$/.exec(path);
  if (record) {
    const [, sobject, id] = record;
    const what = fields.length ? ` (${fields.slice(0, 6).join(", ")}${fields.length > 6 ? ", …" : ""})` : "";
    if (/DataCategorySelection$/.test(sobject!)) return write.method === "DELETE" ? l10n.t("remove a data category from an article") : l10n.t("assign a data category to an article");
    if (write.method === "POST" && !id) return `${l10n.t("create a {0} record", sobject!)}${what}`;
    if (write.method === "PATCH") return `${l10n.t("update {0} {1}", sobject!, id!)}${what}`;
    if (write.method === "DELETE") return l10n.t("delete {0} {1}", sobject!, id!);
  }
  return `${write.method} ${path}`;
}

/** Whether writes to an org need a confirmation: production (or a kind that could not be read), unless turned off for it. */
export function guardsWrites(org: { kind?: string; writeGuard?: boolean }): boolean {
  return org.writeGuard !== false && (org.kind === undefined || org.kind === "production");
}
