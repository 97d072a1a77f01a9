/**
 * A migration run's record as `crm-data` keeps it on disk — beside the plan, often in a repository where a pull
 * request can change it. Revert deletes what a record lists and resume trusts it, so a record is signed with a
 * key of this user's (HMAC-SHA256, a 0600 file in the user's config folder, made on first use): a record someone
 * else wrote or edited, one without a signature, or one that names no target org is refused before anything is
 * sent. In CI, keep the key file between the job that runs and the job that reverts (`CRM_RUN_KEY_FILE`).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { MigrationRun } from "../workflows/migration";
import { UsageError } from "./usage";

type Env = Record<string, string | undefined>;

/** Where the signing key is: `CRM_RUN_KEY_FILE`, else `crm-explorer/run-signing.key` in the user's config folder. */
export function runKeyFile(env: Env): string {
  if (env.CRM_RUN_KEY_FILE) return path.resolve(env.CRM_RUN_KEY_FILE);
  const config = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), ".config");
  return path.join(config, "crm-explorer", "run-signing.key");
}

function signingKey(env: Env, create: boolean): Buffer | undefined {
  const file = runKeyFile(env);
  try {
    return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT" || !create) return undefined;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  return key;
}

const signatureOf = (key: Buffer, run: object) => createHmac("sha256", key).update(JSON.stringify(run)).digest("base64url");

/**
 * The file of the IDs a run inserted, beside its record (`x.run.json` → `x.run.ids`): the record's signature covers
 * its digest, so the two go together (copy both between the job that runs and the job that reverts).
 */
export function insertedIdsFileOf(runFile: string): string {
  return `${runFile.replace(/\.json$/i, "")}.ids`;
}

/** The record as the file's text, signed. */
export function signedRunText(run: MigrationRun, env: Env): string {
  const { signature: _old, ...unsigned } = run as MigrationRun & { signature?: string };
  return JSON.stringify({ ...unsigned, signature: signatureOf(signingKey(env, true)!, unsigned) });
}

/** The record a file holds, when this user's crm-data wrote it and nobody changed it since; refused otherwise. */
export function verifiedRun(text: string, env: Env, file: string, option: string): MigrationRun {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--${option} names ${file}, which is not a run's record that can be read (${(err as Error).message})`);
  }
  const run = data as MigrationRun & { signature?: unknown };
  if (!run || typeof run !== "object" || typeof run.id !== "string" || !Array.isArray(run.objects)) throw new UsageError(`--${option} names ${file}, which is not a migration run's record`);
  const refused = (why: string) => new UsageError(`--${option} names ${file}, ${why}: refused, nothing was sent. Only a record crm-data wrote for you, unchanged, is resumed or reverted.`);
  if (typeof run.signature !== "string") throw refused("a record without a signature (written by hand, or by an older crm-data)");
  const key = signingKey(env, false);
  if (!key) throw refused(`signed with a key this user does not have (no ${runKeyFile(env)}; in CI, keep it between jobs with CRM_RUN_KEY_FILE)`);
  const { signature, ...unsigned } = run;
  const expected = Buffer.from(signatureOf(key, unsigned));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused("which someone else wrote or which was changed since crm-data wrote it (its signature does not match)");
  if (!run.target || typeof run.target.orgId !== "string" || !run.target.orgId) throw refused("a record that names no target org");
  return unsigned as MigrationRun;
}
