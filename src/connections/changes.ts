/**
 * What a write the org accepted changed, from the write's intent (the client's: kind, object, records). Views,
 * panels and documents refresh exactly what a change names, whichever command, tree, panel or document sent it.
 * No VS Code here: tested in Node.
 */
import type { CompletedWrite } from "../client";
import { completedIntent, intentOf, type WriteArea } from "../client/intent";
import { WRITE_DONE, type WriteDone } from "../client/writeRecord";

export interface OrgChange {
  /** What the write did (the client's word for it). */
  kind: WriteDone;
  /** Which data it touches; `unknown` (a composite request, an unrecognised resource) may touch any. */
  area: WriteArea;
  /** The sObject written, where the resource says (Account, Knowledge__kav, FeedItem). */
  object?: string;
  /** The records it names: written, created, published or commented on (article versions or master IDs for knowledge). */
  ids: string[];
  method: string;
  path: string;
  /** Knowledge: a draft made from a published article took it offline (`unpublish`). */
  unpublished?: boolean;
  /** The write itself (absent for a change the org made later, such as a Bulk import): the write history reads it. */
  write?: CompletedWrite;
}

/**
 * The change a write the org accepted made, from the intent the client gave it (kind, object, records); a write
 * without one (made by hand, as in tests) is read from its resource by the client's `intentOf`. A Bulk ingest job
 * changes data later, when the org has processed it: whoever ran it says what changed then.
 */
export function changeOf(write: CompletedWrite): OrgChange | undefined {
  const inferred = write.intent ? undefined : intentOf(write.method, write.path, write.body);
  const intent = write.intent ?? (inferred && completedIntent(inferred, write.status, write.data));
  if (!intent || intent.via === "bulk") return undefined; // OAuth and other non-data resources change no data a view shows
  return {
    method: write.method, path: write.path, kind: WRITE_DONE[intent.kind], area: intent.area, ids: intent.ids,
    ...(intent.object ? { object: intent.object } : {}),
    ...(intent.via === "knowledgeAction" && intent.kind === "draft" ? { unpublished: intent.unpublishes === true } : {}),
  };
}

/**
 * Whether a change can alter what is shown of an article version: it names the version, its master article or
 * another version of it (publishing a new version archives the one shown). A change naming nothing may.
 */
export function touchesArticle(change: OrgChange, article: { id: string; knowledgeArticleId?: string; versions?: { id: string }[]; languages?: { id: string }[] }): boolean {
  if (change.area !== "knowledge" && change.area !== "unknown") return false;
  if (!change.ids.length) return true;
  const shown = new Set([article.id, article.knowledgeArticleId, ...[...(article.versions ?? []), ...(article.languages ?? [])].map((v) => v.id)].filter((id): id is string => !!id).map((id) => id.slice(0, 15)));
  return change.ids.some((id) => shown.has(id.slice(0, 15)));
}
