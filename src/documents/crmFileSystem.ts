/**
 * The `crm:` file system in VS Code: the model's documents as editors. A failed save throws, so VS Code
 * keeps the document dirty and says why; refused fields are marked on their lines; a concurrent change
 * asks Compare / Overwrite and never overwrites silently. Ctrl+S (`saveDocument`) sends the document before
 * VS Code saves it, so a cancelled, refused or conflicting save says why and keeps the edit without VS Code's
 * "Failed to save" message and its Revert. Other saves a person asks for (the File menu, Save All, Retry)
 * still meet that message; an edit discarded from it is offered back, so it cannot be lost.
 *
 * Only a person's save reaches the org: VS Code's own saves (`files.autoSave` after a delay, on focus or
 * window change, or any save whose reason VS Code did not announce) are refused with a word on what sends.
 * VS Code then keeps the document dirty and, while it is in that error state, makes no further automatic
 * saves of it until a person's save succeeds — so a conflict, a guard's Cancel or half-typed text is never
 * decided by a timer. What Ctrl+S sent waits for VS Code to save that text: VS Code may let an automatic save
 * it already has under way stand in for the save Ctrl+S asks for, and that save then records the send.
 */
import * as vscode from "vscode";
import { CancelledError } from "../client/errors";
import type { OrgChange } from "../connections/changes";
import type { OrgManager } from "../connections/orgManager";
import { ConflictError, CrmFiles, DocumentError, fieldLine, type FileStat } from "./crmFiles";

export const CRM_SCHEME = "crm";

/** A document Ctrl+S sent: its text and what the org answered. */
interface Sent {
  text: string;
  result: { createdId?: string };
}

/**
 * A Ctrl+S until VS Code has saved what it sent: the document's stat before it sent; what it sent, once the org
 * answered (undefined when nothing was); `settled` once the command is over and VS Code's save is still to come.
 */
interface Sending {
  stat: vscode.FileStat;
  outcome: Promise<Sent | undefined>;
  sent?: Sent;
  settled?: boolean;
}

/** A save stopped by the person's own choice at a conflict (Compare, or no answer): said as a warning. */
class NotSavedError extends Error {}
const THEIRS_SCHEME = "crm-theirs";

export interface SavedDocument {
  uri: vscode.Uri;
  orgKey: string;
  sobject: string;
  /** Set when a template was saved: the new record's ID. */
  createdId?: string;
}

export class CrmFileSystem implements vscode.FileSystemProvider, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly saved = new vscode.EventEmitter<SavedDocument>();
  /** A document was saved to the org and VS Code has recorded it (a template's tab makes way for the new record). */
  readonly onDidSave = this.saved.event;
  /** Documents written to the org whose save VS Code has not yet recorded: said on `onDidSave` once it has. */
  private readonly written = new Map<string, SavedDocument>();
  private readonly recording: vscode.Disposable;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection("crm");
  /** The org's versions shown on the left of a conflict's diff. */
  private readonly theirs = new Map<string, string>();

  private readonly closing: vscode.Disposable;
  /** The text of each document whose save was refused, until a save succeeds: what Discard must not lose. */
  private readonly refused = new Map<string, string>();
  private readonly discarding: vscode.Disposable;
  private readonly following: { dispose(): void };
  /** Records being saved from a document now: their own write is no news to their documents. */
  private readonly saving = new Set<string>();
  /**
   * Documents Ctrl+S is sending, until VS Code's save of them writes: a save of the text it sent (VS Code's
   * own, or an automatic one it had under way) sends nothing more, and meanwhile the file keeps the time
   * VS Code read it at (else VS Code would take the new baseline for someone else's change).
   */
  private readonly sending = new Map<string, Sending>();
  /** Why VS Code is saving a document now, from its will-save event until the write it announces arrives. */
  private readonly saveReasons = new Map<string, vscode.TextDocumentSaveReason>();
  private readonly announcing: vscode.Disposable;

  constructor(readonly files: CrmFiles, private readonly manager: OrgManager) {
    // A record's remembered baseline goes when the last of its documents closes without unsaved edits
    // (a dirty one keeps it: its edit may come back after a reload and must still save guarded).
    this.closing = vscode.workspace.onDidCloseTextDocument((closed) => {
      const record = closed.uri.scheme === CRM_SCHEME ? files.recordOf(closed.uri.path) : undefined;
      this.dropSettled(closed);
      this.written.delete(closed.uri.toString());
      if (!record || closed.isDirty) return;
      const stillOpen = vscode.workspace.textDocuments.some((d) => d !== closed && d.uri.scheme === CRM_SCHEME && files.recordOf(d.uri.path) === record);
      if (!stillOpen) void files.forget(closed.uri.path);
    });
    // A refused edit that turns into the org's text without being saved was discarded (the toast's Discard, Revert File).
    this.discarding = vscode.workspace.onDidChangeTextDocument(({ document, reason }) => {
      if (!document.isDirty) this.dropSettled(document);
      const kept = this.refused.get(document.uri.toString());
      if (kept === undefined || document.isDirty || document.getText() === kept) return;
      this.refused.delete(document.uri.toString());
      // Undone to the org's text by the person's own hand (Undo, Redo) is no discard behind their back.
      if (reason === undefined) void this.offerRestore(document.uri, kept);
    });
    this.following = manager.onDidChange((change) => void this.follow(change));
    // Synchronous and never throwing: VS Code stops asking a listener that is slow or fails.
    this.announcing = vscode.workspace.onWillSaveTextDocument(({ document, reason }) => {
      if (document.uri.scheme === CRM_SCHEME) this.saveReasons.set(document.uri.toString(), reason);
    });
    this.recording = vscode.workspace.onDidSaveTextDocument((document) => {
      const written = this.written.get(document.uri.toString());
      if (!written) return;
      this.written.delete(document.uri.toString());
      this.saved.fire(written);
    });
  }

  /** A Ctrl+S whose save VS Code never made (the document closed, or went back to its saved text) keeps the file's time no longer. */
  private dropSettled(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (this.sending.get(key)?.settled) this.sending.delete(key);
  }

  /**
   * A record changed by another writer (a tree command, a panel): its open documents without unsaved edits
   * whose text changed show the org's version again; a deleted record's documents are marked deleted. A
   * document with unsaved edits keeps them: its next save meets the change as a conflict (Compare / Overwrite).
   */
  private async follow(change: OrgChange & { orgKey: string }): Promise<void> {
    if (!change.ids.length) return;
    const alias = this.manager.registry.get(change.orgKey)?.alias;
    const ids = new Set(change.ids.map((id) => id.slice(0, 15)));
    const byRecord = new Map<string, vscode.Uri[]>();
    for (const d of vscode.workspace.textDocuments) {
      if (d.uri.scheme !== CRM_SCHEME || d.isDirty) continue;
      const p = this.files.parse(d.uri.path);
      const record = this.files.recordOf(d.uri.path);
      if (!record || !p || !("id" in p) || p.org !== alias || !ids.has(p.id.slice(0, 15)) || this.saving.has(record)) continue;
      byRecord.set(record, [...(byRecord.get(record) ?? []), d.uri]);
    }
    for (const uris of byRecord.values()) {
      if (change.kind === "deleted") {
        this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Deleted, uri })));
        continue;
      }
      const changed = new Set(await this.files.followChange(uris.map((u) => u.path)).catch(() => []));
      const reload = uris.filter((u) => changed.has(u.path));
      if (reload.length) this.changed.fire(reload.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
    }
  }

  private async offerRestore(uri: vscode.Uri, text: string): Promise<void> {
    const name = uri.path.split("/").pop() ?? uri.path;
    const restore = vscode.l10n.t("Restore Edit");
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t("Your edit of '{0}' was not saved to the org and has been discarded. Restore it?", name), restore);
    if (choice !== restore) return;
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
    await vscode.workspace.applyEdit(edit);
    await vscode.window.showTextDocument(document);
  }

  /** The key of the org a `crm:` URI names by its alias. */
  orgKeyOf(uri: vscode.Uri): string | undefined {
    const p = this.files.parse(uri.path);
    return p && "org" in p ? this.manager.registry.list().find((o) => o.alias === p.org)?.key : undefined;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const sending = this.sending.get(uri.toString());
    if (sending) return sending.stat;
    const stat: FileStat = await this.guard(uri, () => this.files.stat(uri.path));
    return {
      type: stat.type === "directory" ? vscode.FileType.Directory : vscode.FileType.File,
      ctime: stat.mtime, mtime: stat.mtime, size: stat.size,
      permissions: stat.readonly ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const entries = await this.guard(uri, () => this.files.readDirectory(uri.path));
    return entries.map(([name, type]) => [name, type === "directory" ? vscode.FileType.Directory : vscode.FileType.File]);
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.guard(uri, () => this.files.readFile(uri.path));
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const orgKey = this.orgKeyOf(uri);
    const p = this.files.parse(uri.path);
    if (!orgKey || !p || !("sobject" in p)) throw vscode.FileSystemError.FileNotFound(uri);
    const key = uri.toString();
    const text = new TextDecoder().decode(content);
    const reason = this.saveReasons.get(key);
    this.saveReasons.delete(key);
    // What Ctrl+S sent is saved without sending it again, by whichever save of that text VS Code makes. A
    // person's save waits for a Ctrl+S under way (one question, one send); an automatic one does not, so the
    // refusal below marks the document dirty while the person answers.
    const sending = this.sending.get(key);
    const sent = reason === vscode.TextDocumentSaveReason.Manual ? await sending?.outcome : sending?.sent;
    let result: { createdId?: string };
    if (sent?.text === text) result = sent.result;
    else if (reason !== vscode.TextDocumentSaveReason.Manual) {
      this.refused.set(key, text);
      throw vscode.FileSystemError.Unavailable(vscode.l10n.t("Auto save does not send records to the org. Press Ctrl+S (or Retry) to send your edit; until then it stays here, unsaved."));
    } else {
      try {
        result = await this.sendKeeping(uri, text);
      } catch (err) {
        throw vscode.FileSystemError.Unavailable(err instanceof Error ? err.message : String(err));
      }
    }
    // Saved: from now on the file's time is the record's new one.
    if (this.sending.get(key) === sending) this.sending.delete(key);
    this.refused.delete(key);
    this.diagnostics.delete(uri);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.written.set(key, { uri, orgKey, sobject: p.sobject, createdId: result.createdId });
  }

  /**
   * Ctrl+S in a `crm:` document: sends it, then lets VS Code save it (which sends nothing more). A cancel in
   * the production guard, a refusal or a conflict says why and leaves the document dirty with its edit, with
   * nothing offered that would discard it.
   */
  async saveDocument(document: vscode.TextDocument): Promise<void> {
    // No early return on `isDirty`: it reaches the extension host after the keypress that follows an edit.
    const key = document.uri.toString();
    const text = document.getText();
    const stat = await this.stat(document.uri);
    const sending = this.sendKeeping(document.uri, text).then((result): Sent => ({ text, result }));
    const entry: Sending = { stat, outcome: sending.then((sent) => (entry.sent = sent), () => undefined) };
    this.sending.set(key, entry);
    try {
      const sent = await sending.catch((err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        if (err instanceof CancelledError) vscode.window.setStatusBarMessage(vscode.l10n.t("{0}. Your edit is kept.", message), 8_000);
        else void (err instanceof NotSavedError ? vscode.window.showWarningMessage(message) : vscode.window.showErrorMessage(message));
        return undefined;
      });
      if (!sent) return;
      // False when VS Code has a save of this document under way (it then makes that one, which records this send).
      await document.save();
    } finally {
      if (this.sending.get(key) === entry) {
        if (entry.sent && document.isDirty) entry.settled = true;
        else this.sending.delete(key);
      }
    }
  }

  /**
   * Sends a document's text as its record's own write (no news to its other documents); a text that was not
   * saved is kept, so that discarding it later can offer it back.
   */
  private async sendKeeping(uri: vscode.Uri, text: string): Promise<{ createdId?: string }> {
    const record = this.files.recordOf(uri.path);
    if (record) this.saving.add(record);
    try {
      return await this.send(uri, new TextEncoder().encode(text));
    } catch (err) {
      this.refused.set(uri.toString(), text);
      throw err;
    } finally {
      if (record) this.saving.delete(record);
    }
  }

  /** Sends a document to the org: a conflict asks Compare / Overwrite, a refusal marks its fields and throws. */
  private async send(uri: vscode.Uri, content: Uint8Array): Promise<{ createdId?: string }> {
    try {
      return await this.files.writeFile(uri.path, content);
    } catch (err) {
      if (err instanceof ConflictError) return this.resolveConflict(uri, content, err);
      if (err instanceof DocumentError) this.markFields(uri, content, err);
      throw err;
    }
  }

  /** Compare shows theirs beside yours and keeps your edit unsaved; Overwrite replaces theirs; anything else cancels. */
  private async resolveConflict(uri: vscode.Uri, content: Uint8Array, conflict: ConflictError): Promise<{ createdId?: string }> {
    const [compare, overwrite] = [vscode.l10n.t("Compare"), vscode.l10n.t("Overwrite")];
    const choice = await vscode.window.showWarningMessage(
      conflict.message,
      { modal: true, detail: vscode.l10n.t("Compare shows the org's version beside yours (your edit stays unsaved; save again once it is what you want). Overwrite replaces the org's version with yours.") },
      compare, overwrite,
    );
    if (choice === overwrite) return this.files.writeFile(uri.path, content, { overwrite: true });
    if (choice === compare) {
      const left = vscode.Uri.from({ scheme: THEIRS_SCHEME, path: uri.path, query: String(Date.now()) });
      this.theirs.set(left.toString(), conflict.theirs);
      // From now on the document is compared with their version: the next save sends only what differs from it.
      await this.files.rebase(uri.path);
      await vscode.commands.executeCommand("vscode.diff", left, uri, vscode.l10n.t("{0}: the org's version ↔ yours", conflict.displayName));
      throw new NotSavedError(vscode.l10n.t("Not saved: the record changed in the org. Compare the two, then save again to replace the org's version."));
    }
    throw new NotSavedError(vscode.l10n.t("Not saved: the record changed in the org since you opened it. Your edit is kept."));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.theirs.get(uri.toString()) ?? "";
  }

  private markFields(uri: vscode.Uri, content: Uint8Array, err: DocumentError): void {
    const text = new TextDecoder().decode(content);
    const fields = err.fields.length ? err.fields : [""];
    this.diagnostics.set(uri, fields.map((field) => {
      const line = field ? fieldLine(text, field) : 0;
      const diagnostic = new vscode.Diagnostic(new vscode.Range(line, 0, line, text.split("\n")[line]?.length ?? 0), err.message, vscode.DiagnosticSeverity.Error);
      diagnostic.source = "CRM";
      return diagnostic;
    }));
  }

  /** Maps the model's errors to the file system's: an unknown path is "not found", the rest say what happened. */
  private async guard<T>(uri: vscode.Uri, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof DocumentError && !this.files.parse(uri.path)) throw vscode.FileSystemError.FileNotFound(uri);
      throw vscode.FileSystemError.Unavailable(err instanceof Error ? err.message : String(err));
    }
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t("Folders cannot be created in the CRM file system."));
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t("Delete records and drafts from the CRM views, not as files."));
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t("Records and articles cannot be renamed as files; edit their name field instead."));
  }

  dispose(): void {
    this.closing.dispose();
    this.discarding.dispose();
    this.announcing.dispose();
    this.recording.dispose();
    this.following.dispose();
    this.changed.dispose();
    this.saved.dispose();
    this.diagnostics.dispose();
  }
}
