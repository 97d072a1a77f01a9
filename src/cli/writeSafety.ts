/**
 * The command-line tools' production guard and write journal. A tool runs without a person at a prompt, so the
 * guard does not ask: a write to a production org (or one whose kind cannot be read) is refused before
 * anything is sent unless the command was given --allow-production. Every write the org accepts is appended to
 * the journal file, when one is named: a JSON line per write, the entry VS Code's Write History keeps (the
 * client's `writeEntry`: what it did, the records with their values after and before, whose work it was, the
 * work it belonged to), with the time, the tool and the org.
 */
import { appendFileSync } from "node:fs";
import { CrmError, productionLike, productionLikeWords, type Crm, type CrmOptions, type OrgKind, type PendingWrite } from "../client";
import { writeEntry } from "../client/writeRecord";

export class ProductionRefusedError extends CrmError {
  override name = "ProductionRefusedError";
}

/** Options for `Crm.create` that guard every write; `watch(crm)` then journals what the org accepted. */
export function guardedWrites(options: { allowProduction: boolean; journalFile?: string; tool: string }): {
  clientOptions: Partial<CrmOptions>;
  watch(crm: Crm): void;
} {
  let client: Crm | undefined;
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
    watch(crm) {
      client = crm;
      if (!options.journalFile) return;
      const file = options.journalFile;
      crm.on("write", (write) => {
        appendFileSync(file, `${JSON.stringify({ time: new Date().toISOString(), tool: options.tool, org: crm.orgId, instanceUrl: crm.instanceUrl, ...writeEntry(write) })}\n`);
      });
    },
  };
}
