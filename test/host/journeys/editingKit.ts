/** What the editing journeys share: opening a record document, its tab, and what reached the org for it. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Emulator } from "../../../src/demo-org";
import type { Driver } from "../workbench";

type Row = { Id?: unknown; Name?: unknown; LastName?: unknown };

/** Opens a record's document from the palette and waits for its fields. */
export async function openRecord(ui: Driver, record: Row): Promise<void> {
  await ui.runCommand("CRM: Open Record in Editor…");
  await ui.answer("Open a record in an editor", String(record.Id));
  await ui.page.locator(".part.editor .editor-group-container.active .tab.active", { hasText: String(record.Name) }).waitFor({ timeout: 20_000 });
  await ui.editorShows(`"LastName": "${String(record.LastName)}"`);
}

/** The record document's own tab while it has unsaved edits (not a compare's tab, which names it too). */
export const dirtyTab = (page: Page, record: Row) => page.locator(`.part.editor .tab.dirty[data-resource-name="${String(record.Id)}.json"]`).filter({ hasNotText: "↔" });

/** Writes of this record that reached the org: a PATCH of it, or a Composite request that updates it (a document's save). */
export const recordSends = (emulator: Emulator, record: Row) => emulator.requests.filter((r) =>
  (r.method === "PATCH" && r.path.includes(String(record.Id))) || (r.method === "POST" && r.path.endsWith("/composite") && r.body.includes(String(record.Id)) && r.body.includes('"PATCH"'))).length;

/** VS Code's auto save ran and was refused: the message a person with auto save on sees once per edit. */
export const autoSaveRefused = (ui: Driver) => ui.notification(/Auto save does not send records to the org/);

/**
 * For a "nothing was sent" check there is no event to wait for: VS Code would have auto saved within its
 * delay (1,000 ms in these journeys) after the last keystroke. Three delays, so a slow machine errs towards
 * a missed send going unseen, never towards a false failure.
 */
export const untilAutoSaveWouldHaveRun = (page: Page) => page.waitForTimeout(3_000);

/** Desktop VS Code's default (off) and VS Code for the Web's (after a delay), as the journeys run them. */
export const autoSaveModes = {
  off: { "files.autoSave": "off" },
  afterDelay: { "files.autoSave": "afterDelay", "files.autoSaveDelay": 1_000 },
  onFocusChange: { "files.autoSave": "onFocusChange" },
} as const;
export type AutoSaveMode = keyof typeof autoSaveModes;

/** VS Code's "Failed to save" toasts other than auto save's word on what sends (their Revert would drop an edit). */
export const otherSaveFailures = (page: Page) => page.locator(".notifications-toasts .notification-list-item", { hasText: /Failed to save/ }).filter({ hasNotText: /Auto save does not send/ });

/** Whether VS Code's backup of an unsaved document (what a reload restores it from) holds `text` yet. */
export function backedUp(root: string, text: string): boolean {
  const backups = path.join(root, "user-data", "User", "Backups");
  const files = (() => {
    try {
      return readdirSync(backups, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    } catch {
      return [];
    }
  })();
  return files.some((f) => readFileSync(path.join(f.parentPath, f.name), "utf8").includes(text));
}

/** Ctrl+S on a document whose record changed in the org meanwhile: the conflict is said, Compare opens both side by side. */
export async function saveIntoConflictAndCompare(page: Page): Promise<void> {
  await page.keyboard.press("Control+S");
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /was changed in the org since you opened it/);
  await dialog.locator(".monaco-button", { hasText: /^Compare$/ }).click();
  await page.locator(".part.editor .tab", { hasText: "the org's version ↔ yours" }).waitFor({ timeout: 15_000 });
}
