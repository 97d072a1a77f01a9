/**
 * The command-line tools' production guard and write journal. A tool runs without a person at a prompt, so the
 * guard does not ask: a write to a production org (or one whose kind cannot be read) is refused before
 * anything is sent unless the command was given --allow-production. Every write the org accepts is appended to
 * the journal file (JSON lines: time, org, what it did, the records), when one is named.
 */
import { appendFileSync } from "node:fs";
import { CrmError, productionLike, productionLikeWords, type Crm, type CrmOptions, type OrgKind, type PendingWrite } from "../client";

export class ProductionRefusedError extends CrmError {
  override name = "ProductionRefusedError";
}

/** Options for `Crm.create` that guard every write; `watch(crm)` then journals what the org accepted. */
export function guardedWrites(options: { allowProduction: boolean; journalFile?: string; tool: string }): {
  clientOptions: Partial<CrmOptions>;
  watch(crm: Crm): void;
  /** Adds these facts (who asked, the values replaced) to the journal lines of the writes that follow. */
  tag(facts: Record<string, unknown> | undefined): void;
} {
  let client: Crm | undefined;
  let facts: Record<string, unknown> | undefined;
  let kind: Promise<OrgKind | "unknown"> | undefined;
  const beforeWrite = async (write: PendingWrite) => {
    if (options.allowProduction || !client) return;
    kind ??= client.getOrgKind().catch(() => "unknown" as const);
    const found = await kind;
    if (productionLike(found)) {
      throw new ProductionRefusedError(`${client.instanceUrl} is ${productionLikeWords(found)}: ${options.tool} writes to it only with --allow-production (refused, nothing sent: ${write.intent?.summary ?? write.summary ?? `${write.method} ${write.path}`})`);
    }
  };
  return {
    clientOptions: { beforeWrite },
    tag: (next) => (facts = next),
    watch(crm) {
      client = crm;
      if (!options.journalFile) return;
      const file = options.journalFile;
      crm.on("write", (write) => {
        const intent = write.intent;
        appendFileSync(file, `${JSON.stringify({
          time: new Date().toISOString(), tool: options.tool, org: crm.orgId, instanceUrl: crm.instanceUrl, status: write.status,
          kind: intent?.kind, object: intent?.object, ids: intent?.ids, fields: intent?.fields, summary: intent?.summary ?? `${write.method} ${write.path}`, ...ofRecords(facts, intent?.ids ?? []),
        })}\n`);
      });
    },
  };
}

/** The facts for one write: values replaced (`before`, by record ID) only of the records it names. */
function ofRecords(facts: Record<string, unknown> | undefined, ids: string[]): Record<string, unknown> | undefined {
  const before = facts?.before as Record<string, unknown> | undefined;
  if (!before) return facts;
  const named = new Set(ids.map((id) => id.slice(0, 15)));
  return { ...facts, before: Object.fromEntries(Object.entries(before).filter(([id]) => named.has(id.slice(0, 15)))) };
}
