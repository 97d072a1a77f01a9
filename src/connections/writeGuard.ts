/**
 * Production guard rails: what a write will change, in words a person can judge in a confirmation.
 * No VS Code here: tested in Node.
 */
import type { PendingWrite } from "../client";

const ACTIONS: Record<string, string> = {
  publishKnowledgeArticles: "publish",
  archiveKnowledgeArticles: "archive",
  deleteKnowledgeArticles: "delete",
  createDraftFromOnlineKnowledgeArticle: "create a draft of",
};

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** One line saying what a write changes: "update Account 001… (Name, Phone)", "publish 3 knowledge articles". */
export function describeWrite(write: PendingWrite): string {
  if (write.summary) return write.summary;
  const path = write.path.replace(/^\/services\/data\/v[\d.]+/, "").replace(/^\/connect\/communities\/[^/]+/, "");
  const body = (write.body && typeof write.body === "object" ? write.body : {}) as Record<string, unknown>;
  const fields = Object.keys(body).filter((k) => k !== "attributes");
  const action = /^\/actions\/standard\/(\w+)/.exec(path);
  if (action) {
    const inputs = Array.isArray(body.inputs) ? body.inputs.length : 1;
    const verb = ACTIONS[action[1]!];
    return verb ? `${verb} ${count(inputs, "knowledge article")}` : `run the ${action[1]} action`;
  }
  if (/^\/composite\/?$/.test(path) && Array.isArray(body.compositeRequest)) {
    const writes = (body.compositeRequest as { method?: string; url?: string; body?: unknown }[]).filter((s) => s.method !== "GET");
    return writes.map((s) => describeWrite({ method: (s.method ?? "POST") as PendingWrite["method"], path: s.url ?? "", body: s.body })).join("; ");
  }
  if (/^\/jobs\/ingest\/?$/.test(path)) return `${String(body.operation ?? "load")} ${String(body.object ?? "")} records with the Bulk API`;
  if (/^\/chatter\/feed-elements\/[^/]+\/capabilities\/comments\/items/.test(path)) return "comment on a feed post";
  if (/^\/chatter\/feed-elements\/?$/.test(path)) return "post to a feed";
  if (/^\/knowledgeManagement\/articleVersions\/masterVersions\/\w+/.test(path)) return "change a knowledge article version";
  if (/^\/knowledgeManagement\/articleVersions\/masterVersions\/?$/.test(path)) return "create a draft of a knowledge article";
  if (/^\/composite\/sobjects\/?$/.test(path)) {
    const records = Array.isArray(body.records) ? (body.records as Record<string, unknown>[]) : [];
    const types = [...new Set(records.map((r) => (r?.attributes as { type?: string } | undefined)?.type).filter(Boolean))];
    const changed = [...new Set(records.flatMap((r) => Object.keys(r ?? {}).filter((k) => k !== "attributes" && k !== "Id")))];
    const what = changed.length ? ` (${changed.slice(0, 6).join(", ")}${changed.length > 6 ? ", …" : ""})` : "";
    const noun = `${types.length === 1 ? `${types[0]} ` : ""}record`;
    if (write.method === "DELETE") return write.records ? `delete ${count(write.records, "record")}` : "delete records";
    return `${write.method === "POST" ? "create" : "update"} ${count(write.records ?? records.length, noun)}${what}`;
  }
  const record = /^\/sobjects\/(\w+)(?:\/(\w+))?\/?$/.exec(path);
  if (record) {
    const [, sobject, id] = record;
    const what = fields.length ? ` (${fields.slice(0, 6).join(", ")}${fields.length > 6 ? ", …" : ""})` : "";
    if (/DataCategorySelection$/.test(sobject!)) return write.method === "DELETE" ? "remove a data category from an article" : "assign a data category to an article";
    if (write.method === "POST" && !id) return `create a ${sobject} record${what}`;
    if (write.method === "PATCH") return `update ${sobject} ${id}${what}`;
    if (write.method === "DELETE") return `delete ${sobject} ${id}`;
  }
  return `${write.method} ${path}`;
}

/** Whether writes to an org need a confirmation: production (or a kind that could not be read), unless turned off for it. */
export function guardsWrites(org: { kind?: string; writeGuard?: boolean }): boolean {
  return org.writeGuard !== false && (org.kind === undefined || org.kind === "production");
}
