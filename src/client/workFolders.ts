/**
 * Temporary folders of the client's own work (a Bulk upload spooled to disk, a migration's tables and chunks),
 * named with the process that made them. A process killed before it could remove its folder leaves it behind: the
 * first folder a process makes removes those whose process is gone (once: a migration makes one per chunk).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type WorkKind = "bulk" | "migration";

const OURS = /^crm-(?:bulk|migration)-(\d+)-/;
let orphansRemoved = false;

/** A new folder for this process's work; the caller removes it when done. */
export function workFolder(kind: WorkKind): string {
  if (!orphansRemoved) removeOrphans();
  orphansRemoved = true;
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
    if (!pid || pid === process.pid || processRunning(pid)) continue;
    try {
      rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Another user's, or in use after all: left alone.
    }
  }
}

/**
 * Whether a process is running: one of another user's answers EPERM, and it runs (a process ID reused since by
 * another process reads as running too: what waits on it waits longer, nothing is taken from under it).
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
