/**
 * Describes kept on disk per org (`<dir>/<orgKey>/<Object>.json`), so a new window completes SOQL without
 * fetching them again: the session revalidates a stored describe with If-Modified-Since (a 304 costs no body).
 * A describe holds metadata only, never a secret. No VS Code here: tested in Node.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SObjectDescribe } from "../client";

export interface StoredDescribe {
  describe: SObjectDescribe;
  fetchedAt: Date;
}

/** File names: org keys and object API names are letters, digits and underscores; anything else is refused. */
const SAFE = /^[A-Za-z0-9_.-]+$/;

export class DescribeStore {
  constructor(private readonly dir: string) {}

  private file(orgKey: string, objectName: string): string | undefined {
    return SAFE.test(orgKey) && SAFE.test(objectName) && !objectName.startsWith(".") ? path.join(this.dir, orgKey, `${objectName.toLowerCase()}.json`) : undefined;
  }

  async read(orgKey: string, objectName: string): Promise<StoredDescribe | undefined> {
    const file = this.file(orgKey, objectName);
    if (!file) return undefined;
    try {
      const saved = JSON.parse(await readFile(file, "utf8")) as { describe?: SObjectDescribe; fetchedAt?: string };
      const fetchedAt = new Date(saved.fetchedAt ?? "");
      return saved.describe && !Number.isNaN(fetchedAt.getTime()) ? { describe: saved.describe, fetchedAt } : undefined;
    } catch {
      return undefined; // none yet, or unreadable: fetched afresh
    }
  }

  async write(orgKey: string, objectName: string, entry: StoredDescribe): Promise<void> {
    const file = this.file(orgKey, objectName);
    if (!file) return;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ fetchedAt: entry.fetchedAt.toISOString(), describe: entry.describe }));
  }

  /** Forgets one org's describes, or every org's. */
  async clear(orgKey?: string): Promise<void> {
    if (orgKey !== undefined && !SAFE.test(orgKey)) return;
    await rm(orgKey === undefined ? this.dir : path.join(this.dir, orgKey), { recursive: true, force: true });
  }
}
