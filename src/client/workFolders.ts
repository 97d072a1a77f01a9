/**
 * Temporary folders of the client's own work (a Bulk upload spooled to disk, a migration's tables and chunks),
 * named with the process that made them. A process killed before it could remove its folder leaves it behind: the
 * next folder made on this machine removes those whose process is gone.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type WorkKind = "bulk" | "migration";

const OURS = /^crm-(?:bulk|migration)-(\d+)-/;

/** A new folder for this process's work; the caller removes it when done. */
export function workFolder(kind: WorkKind): string {
  removeOrphans();
  return mkdtempSync(path.join(tmpdir(), `crm-${kind}-${process.pid}-`));
}

function removeOrphans(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(OURS.exec(name)?.[1]);
    if (!pid || pid === process.pid || running(pid)) continue;
    try {
      rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Another user's, or in use after all: left alone.
    }
  }
}

/** Whether a process runs (one of another user's answers EPERM: it runs). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
