/**
 * Production guard rails: what a write will change, in words a person can judge in a confirmation.
 * No VS Code here: tested in Node.
 */
import * as l10n from "@vscode/l10n";
import type { PendingWrite } from "../client";
import { productionLike, type OrgKind } from "../client/orgKind";
import { intentOf, type WriteIntent } from "../client/intent";

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
  const intent = write.intent ?? intentOf(write.method, write.path, write.body);
  return intent ? phraseOf(intent, write) : `${write.method} ${write.path}`;
}

/** The intent in the display language (the client's own summary is English). */
function phraseOf(intent: WriteIntent, write: PendingWrite): string {
  const fields = intent.fields.length ? ` (${intent.fields.slice(0, 6).join(", ")}${intent.fields.length > 6 ? ", …" : ""})` : "";
  const asSent = () => (intent.request ? `${intent.request.method} ${intent.request.resource}` : `${write.method} ${write.path.replace(/^\/services\/data\/v[\d.]+/, "")}`);
  switch (intent.via) {
    case "knowledgeAction":
      return articleAction(intent.action ?? "", intent.records ?? 1) ?? l10n.t("run the {0} action", intent.action ?? "");
    case "composite":
      return (intent.parts ?? []).map((part) => phraseOf(part, write)).join("; ");
    case "bulk":
      return intent.operation ? l10n.t("{0} {1} records with the Bulk API", intent.operation, intent.object ?? "") : asSent();
    case "feed":
      return intent.kind === "comment" ? l10n.t("comment on a feed post") : intent.kind === "post" ? l10n.t("post to a feed") : asSent();
    case "masterVersion":
      return intent.kind === "create" ? l10n.t("create a draft of a knowledge article") : l10n.t("change a knowledge article version");
    case "collection":
      if (intent.kind === "delete") return intent.records ? recordsWrite("delete", intent.records, undefined) : l10n.t("delete records");
      return `${recordsWrite(intent.kind === "create" ? "create" : "update", intent.records ?? 0, intent.object)}${fields}`;
    case "record": {
      const object = intent.object ?? "";
      if (/DataCategorySelection$/.test(object)) return intent.kind === "delete" ? l10n.t("remove a data category from an article") : l10n.t("assign a data category to an article");
      if (intent.kind === "create") return `${l10n.t("create a {0} record", object)}${fields}`;
      if (intent.kind === "update") return `${l10n.t("update {0} {1}", object, intent.ids[0] ?? "")}${fields}`;
      if (intent.kind === "delete") return l10n.t("delete {0} {1}", object, intent.ids[0] ?? "");
      return asSent();
    }
    case "batch":
      return intent.summary;
    default:
      return asSent();
  }
}

/** Whether writes to an org need a confirmation: production (or a kind that could not be read), unless turned off for it. */
export function guardsWrites(org: { kind?: OrgKind; writeGuard?: boolean }): boolean {
  return org.writeGuard !== false && productionLike(org.kind);
}
