import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type * as vscode from "vscode";
import type { OrgManager } from "./orgManager";
import { writeWhole } from "./wholeFile";
import { WriteJournal, type JournalEntry } from "./writeJournal";

/**
 * The write history kept in a file of the extension's global storage: read on first use (not at activation),
 * written a moment after each change (a whole file, replaced at once so a crash never leaves half of one).
 */
export function journalFile(file: string, max: () => number, warn: (message: string) => void): () => Promise<WriteJournal> {
  let opened: Promise<WriteJournal> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const save = (entries: JournalEntry[]) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void mkdir(path.dirname(file), { recursive: true })
        .then(() => writeWhole(file, JSON.stringify(entries)))
        .catch((err: unknown) => warn(`the write history could not be saved: ${String(err)}`));
    }, 500);
  };
  return () => (opened ??= readFile(file, "utf8").then((text) => JSON.parse(text) as JournalEntry[], () => []).then((entries) => new WriteJournal({ max, persist: save }, Array.isArray(entries) ? entries : [])));
}

/**
 * Records each change an org accepted (the write itself when there is one, whose record says whose work it was and
 * what it replaced) in the history; a write of work kept as one whole (a migration run) is left to that work's entry.
 */
export function recordChanges(manager: OrgManager, journal: () => Promise<WriteJournal>): vscode.Disposable {
  return manager.onDidChange((change) => {
    if (change.write?.group?.recordedWhole) return;
    const org = manager.registry.get(change.orgKey);
    if (org) void journal().then((j) => j.recordChange({ key: org.key, alias: org.alias }, change));
  });
}
