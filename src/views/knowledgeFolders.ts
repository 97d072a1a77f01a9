/**
 * Knowledge folders in the workspace (a folder with a crm-knowledge.yaml): their articles' status as Explorer
 * decorations. What changed locally is read from the files as they change (no network); what changed in the
 * org is learned when asked (Check Knowledge Folder Against Org) and after each pull and push.
 */
import * as vscode from "vscode";
import type { Crm } from "../client";
// The folder modules, not the client's entry: activation must not load its HTTP stack.
import * as knowledgeFolder from "../workflows/knowledgeFolder";
import type { ArticleStatus } from "../workflows/knowledgeFolder";

/** The sync's file access over VS Code's file system (any workspace, local or remote). */
export function workspaceFolderIO(root: vscode.Uri): knowledgeFolder.FolderIO {
  const at = (p: string) => vscode.Uri.joinPath(root, knowledgeFolder.checkRelativePath(p));
  const missing = (err: unknown) => err instanceof vscode.FileSystemError && err.code === "FileNotFound";
  return {
    read: (p) => Promise.resolve(vscode.workspace.fs.readFile(at(p))).catch((err: unknown) => (missing(err) ? undefined : Promise.reject(err))),
    write: async (p, data) => {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(at(p), ".."));
      await vscode.workspace.fs.writeFile(at(p), data);
    },
    remove: (p) => Promise.resolve(vscode.workspace.fs.delete(at(p), { useTrash: false })).catch((err: unknown) => (missing(err) ? undefined : Promise.reject(err))),
    list: async (p) => {
      const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(p === "" ? root : at(p))).catch((err: unknown) => (missing(err) ? [] : Promise.reject(err)));
      return entries.map(([name, type]) => ({ name, type: entryType(type) }));
    },
    stat: async (p) => {
      const found = await Promise.resolve(vscode.workspace.fs.stat(p === "" ? root : at(p))).catch((err: unknown) => (missing(err) ? undefined : Promise.reject(err)));
      // The folder itself may be reached through a link (a workspace opened through one); what is in it may not.
      return found && { type: p === "" && found.type & vscode.FileType.Directory ? "directory" : entryType(found.type), size: found.size };
    },
  };
}

/** VS Code marks a link with SymbolicLink beside the kind of what it points at. */
function entryType(type: vscode.FileType): knowledgeFolder.FolderEntryType {
  if (type & vscode.FileType.SymbolicLink) return "link";
  return type & vscode.FileType.Directory ? "directory" : type & vscode.FileType.File ? "file" : "other";
}

/** The letter, words and colour an article folder shows in the Explorer (none when it is as pulled). */
export function decorationOf(status: ArticleStatus): { badge: string; tooltip: string; color: string } | undefined {
  if (status.conflict) return { badge: "C", tooltip: vscode.l10n.t("Changed here and in the org since the pull: a push asks before overwriting the org"), color: "gitDecoration.conflictingResourceForeground" };
  if (status.local === "new") return { badge: "N", tooltip: vscode.l10n.t("New locally: a push creates it (or updates the article with its URL name)"), color: "gitDecoration.untrackedResourceForeground" };
  if (status.local === "modified") return { badge: "M", tooltip: vscode.l10n.t("Modified locally: Push Folder to Org sends it as a draft"), color: "gitDecoration.modifiedResourceForeground" };
  if (status.org === "changed" || status.org === "gone") return { badge: "O", tooltip: status.org === "gone" ? vscode.l10n.t("No longer in the org as a draft or published article") : vscode.l10n.t("Changed in the org since the pull: pull it again to see the change"), color: "gitDecoration.renamedResourceForeground" };
  return undefined;
}

export class KnowledgeFolders implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.changed.event;
  /** Known knowledge folders, by URI, with their articles' status and a debounce for file changes. */
  private readonly roots = new Map<string, { uri: vscode.Uri; articles: ArticleStatus[]; orgStates: Map<string, ArticleStatus["org"]>; timer?: ReturnType<typeof setTimeout> }>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly watcher: vscode.FileSystemWatcher;

  constructor() {
    this.watcher = vscode.workspace.createFileSystemWatcher("**/*");
    const touched = (uri: vscode.Uri) => {
      if (uri.path.endsWith(`/${knowledgeFolder.MANIFEST_FILE}`)) void this.track(vscode.Uri.joinPath(uri, ".."));
      for (const root of this.roots.values()) if (uri.toString().startsWith(`${root.uri.toString()}/`)) this.soon(root.uri);
    };
    this.subscriptions.push(
      vscode.window.registerFileDecorationProvider(this),
      this.watcher, this.watcher.onDidChange(touched), this.watcher.onDidCreate(touched), this.watcher.onDidDelete(touched),
      // A save in the editor is told at once; the file watcher can lag behind on a busy machine.
      vscode.workspace.onDidSaveTextDocument((document) => touched(document.uri)),
    );
    // Local files only, after activation has finished.
    setTimeout(() => void vscode.workspace.findFiles(`**/${knowledgeFolder.MANIFEST_FILE}`, "**/node_modules/**", 50).then((found) => found.forEach((f) => void this.track(vscode.Uri.joinPath(f, "..")))), 0);
  }

  /** The knowledge folders found in the workspace (and pulled into since). */
  list(): vscode.Uri[] {
    return [...this.roots.values()].map((r) => r.uri);
  }

  /** The knowledge folder a URI is in (or is), if any. */
  rootOf(uri: vscode.Uri): vscode.Uri | undefined {
    return this.list().filter((r) => uri.toString() === r.toString() || uri.toString().startsWith(`${r.toString()}/`)).sort((a, b) => b.path.length - a.path.length)[0];
  }

  statusOf(root: vscode.Uri): ArticleStatus[] {
    return this.roots.get(root.toString())?.articles ?? [];
  }

  /** Reads a folder's status from its files, and from the org when given a client of the org it was pulled from. */
  async track(root: vscode.Uri, crm?: Crm): Promise<ArticleStatus[]> {
    const key = root.toString();
    const entry = this.roots.get(key) ?? { uri: root, articles: [], orgStates: new Map() };
    this.roots.set(key, entry);
    const status = await knowledgeFolder.folderStatus(workspaceFolderIO(root), { crm });
    if (crm) entry.orgStates = new Map(status.articles.map((a) => [a.name, a.org]));
    // Between checks of the org, what it said last stands.
    const before = entry.articles;
    entry.articles = status.articles.map((a) => {
      const org = crm ? a.org : entry.orgStates.get(a.name) ?? "unknown";
      return { ...a, org, conflict: knowledgeFolder.isConflict(a.local, org) };
    });
    const uris = [...new Set([...before, ...entry.articles].map((a) => a.name))].map((name) => vscode.Uri.joinPath(root, name));
    this.changed.fire(uris);
    return entry.articles;
  }

  private soon(root: vscode.Uri): void {
    const entry = this.roots.get(root.toString());
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.track(root).catch(() => undefined), 300);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    // Asked for every row the Explorer draws: one map lookup, then the article by its folder name.
    const name = uri.path.slice(uri.path.lastIndexOf("/") + 1);
    const status = this.roots.get(vscode.Uri.joinPath(uri, "..").toString())?.articles.find((a) => a.name === name);
    const look = status && decorationOf(status);
    return look && new vscode.FileDecoration(look.badge, look.tooltip, new vscode.ThemeColor(look.color));
  }

  dispose(): void {
    for (const root of this.roots.values()) clearTimeout(root.timer);
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
