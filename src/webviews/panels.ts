/**
 * What every panel shares: one panel per entity (revealed again when reopened), the CSP shell, reading the
 * entity from the click on (beside creating the webview, not after it), one `ready` handshake with a queue that
 * delivers every message in order once the webview can take it, validated messages, loads where a newer one
 * supersedes an older one, restoring after a reload or a hide, and closing when the entity's org is removed.
 */
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import { describeError } from "../platform/errorMessages";
import type { Log } from "../platform/log";
import type { Redactor } from "../platform/redact";
import { parsePanelTarget, type CommonUpdate, type PanelTarget } from "./protocol/common";
import { webviewShell } from "./html";
import { PanelDelivery } from "./panelDelivery";

export interface PanelDeps {
  extensionUri: vscode.Uri;
  manager: OrgManager;
  log: Log;
  redactor: Redactor;
}

export type { PanelTarget };

/**
 * A kind of panel: `Request` is what its webview sends, `Data` what the host reads, `Update` what the host
 * posts (besides the loading and error messages every panel understands).
 */
export interface PanelKind<Request extends { type: string }, Data, Update extends { type: string }> {
  viewType: string;
  /** Base name of dist/webview/<script>.main.js and media/webview/<script>.css. */
  script: string;
  noun: string;
  title(target: PanelTarget, data?: Data): string;
  parseRequest(raw: unknown): Request | undefined;
  /** `previous` is what the panel showed before (a results panel stops fetching its rows). */
  read(target: PanelTarget, previous?: Data): Promise<Data>;
  /** The message carrying the data. */
  update(data: Data, target: PanelTarget): Update;
  /** What the panel is told when a load starts (default `{ type: "loading" }`). */
  loading?(target: PanelTarget): Update;
  /** What the panel is told when something failed (default `{ type: "error", message }`). */
  failed?(target: PanelTarget, message: string): Update;
  /** Requests other than `ready` and `refresh`. */
  handle?(panel: Panel<Request, Data, Update>, request: Request): Promise<void> | void;
}

const keyOf = (t: PanelTarget) => `${t.orgKey}\u0000${t.id}`;

const extensionFiles = new Map<string, string>();
/** A file of the extension's own (a panel's script or stylesheet), read once per window. */
function extensionFile(uri: vscode.Uri): string {
  let text = extensionFiles.get(uri.fsPath);
  if (text === undefined) extensionFiles.set(uri.fsPath, (text = readFileSync(uri.fsPath, "utf8")));
  return text;
}

export class Panel<Request extends { type: string }, Data, Update extends { type: string }> {
  private readonly acted = new vscode.EventEmitter<void>();
  /** The user did something in the panel (not just open or refresh it): a preview panel is then kept. */
  readonly onDidAct = this.acted.event;
  private readonly readied = new vscode.EventEmitter<void>();
  /** The webview's script runs and said `ready` (each time its document starts). */
  readonly onDidBecomeReady = this.readied.event;

  dispose(): void {
    this.acted.dispose();
    this.readied.dispose();
  }
  private loading = 0;
  /** What the panel shows now (undefined until the first load succeeds). */
  data?: Data;
  /** Which target `data` was read for (a panel can be pointed at another entity). */
  private dataTarget?: string;
  /** Every message to the webview, delivered in order once it can take them. */
  private readonly delivery: PanelDelivery<Update | CommonUpdate>;
  /** A load was started (at the click): the webview's `ready` only takes what waits. */
  private started = false;

  constructor(readonly webviewPanel: vscode.WebviewPanel, public target: PanelTarget, private readonly kind: PanelKind<Request, Data, Update>, private readonly deps: PanelDeps) {
    const media = vscode.Uri.joinPath(deps.extensionUri, "media", "webview");
    const dist = vscode.Uri.joinPath(deps.extensionUri, "dist", "webview");
    const webview = webviewPanel.webview;
    this.delivery = new PanelDelivery((message) => void webview.postMessage(message));
    webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [media, dist] };
    webviewPanel.iconPath = vscode.Uri.joinPath(deps.extensionUri, "media", "crm.svg");
    webviewPanel.title = kind.title(target);
    // A hidden webview's document is gone (it is not kept when hidden): messages wait for its next `ready`.
    webviewPanel.onDidChangeViewState(() => {
      if (!webviewPanel.visible) this.delivery.hidden();
    });
    webview.onDidReceiveMessage(async (raw: unknown) => {
      const request = kind.parseRequest(raw);
      if (!request) return deps.log.warn(`${kind.noun}: ignored a malformed message from the panel`);
      if (request.type === "ready") return this.takeReady();
      if (request.type === "refresh") return this.load();
      this.acted.fire();
      try {
        await kind.handle?.(this, request);
      } catch (err) {
        this.showError(err);
      }
    });
  }

  get org() {
    return this.deps.manager.registry.get(this.target.orgKey);
  }

  /** Writes the webview's page (after the first read has left: the page is VS Code's to start). */
  writePage(): void {
    const { webview } = this.webviewPanel;
    const file = (folder: string, name: string) => vscode.Uri.joinPath(this.deps.extensionUri, folder, ...name.split("/"));
    webview.html = webviewShell({
      title: this.webviewPanel.title,
      cspSource: webview.cspSource,
      script: extensionFile(file("dist", `webview/${this.kind.script}.main.js`)),
      codiconsUri: webview.asWebviewUri(file("dist", "webview/codicons/codicon.css")).toString(),
      styles: [extensionFile(file("media", "webview/panel.css")), extensionFile(file("media", `webview/${this.kind.script}.css`))],
      // The panel's words: the bundle VS Code loaded for the display language (none for English).
      data: { target: JSON.stringify(this.target), ...(vscode.l10n.bundle ? { l10n: JSON.stringify(vscode.l10n.bundle) } : {}) },
      language: vscode.env.language,
    });
  }

  /**
   * The webview's script runs and asks for what to show: what waits for it (the load started at the click), or
   * after a hide the panel's current state — a results panel's fetched pages, a run under way, an error —
   * instead of reading the entity again.
   */
  private takeReady(): void {
    this.delivery.ready();
    if (!this.started) void this.load();
    this.readied.fire();
  }

  /** Reads and posts the entity; a newer load supersedes an older one still in flight. */
  async load(): Promise<void> {
    this.started = true;
    const ticket = ++this.loading;
    const target = this.target;
    const post = (message: Update | CommonUpdate) => ticket === this.loading && this.show(message);
    post(this.kind.loading?.(target) ?? { type: "loading" });
    // The tab names what is being read from the start: a failure must not leave the previous entity's name.
    this.webviewPanel.title = this.kind.title(target, this.dataTarget === keyOf(target) ? this.data : undefined);
    try {
      const data = await this.kind.read(target, this.data);
      if (ticket !== this.loading) return;
      this.data = data;
      this.dataTarget = keyOf(target);
      this.webviewPanel.title = this.kind.title(target, data);
      post(this.kind.update(data, target));
    } catch (err) {
      if (ticket === this.loading) this.showError(err);
    }
  }

  /** Posts a passing message (progress, a notice); it waits while the webview cannot take it. */
  post(message: Update | CommonUpdate): void {
    this.delivery.post(message);
  }

  /** Posts what the panel shows now (loading, the data, an error), kept for a webview that reloads. */
  show(message: Update | CommonUpdate): void {
    this.delivery.show(message);
  }

  /** Keeps what a reloading webview should be given, when smaller messages already told the open one (staged edits). */
  keep(message: Update | CommonUpdate): void {
    this.delivery.keep(message);
  }

  showError(err: unknown): void {
    const alias = this.org?.alias;
    this.deps.log.error(`${this.kind.noun} (${alias ?? "removed org"}) failed`, err);
    const report = describeError(err, { orgAlias: alias, redactor: this.deps.redactor });
    if (report.message) this.show(this.kind.failed?.(this.target, report.message) ?? { type: "error", message: report.message });
  }
}

/** Where a panel opens: `beside` the active group (true) or a given column (its number). */
export interface PanelPlacement {
  preserveFocus?: boolean;
  beside?: boolean | vscode.ViewColumn;
}

export class PanelSet<Request extends { type: string }, Data, Update extends { type: string }> implements vscode.Disposable {
  private readonly panels = new Map<string, Panel<Request, Data, Update>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly kind: PanelKind<Request, Data, Update>, private readonly deps: PanelDeps) {
    this.subscriptions = [
      vscode.window.registerWebviewPanelSerializer(kind.viewType, {
        deserializeWebviewPanel: async (webviewPanel, state: unknown) => {
          const target = parsePanelTarget(state);
          if (target && deps.manager.registry.get(target.orgKey)) this.adopt(webviewPanel, target);
          else webviewPanel.dispose(); // its org was removed while the window was closed
        },
      }),
      // A removed org closes its panels; a renamed one retitles them.
      deps.manager.registry.onDidChange(() => {
        for (const panel of this.panels.values()) {
          if (!panel.org) panel.webviewPanel.dispose();
          else panel.webviewPanel.title = kind.title(panel.target, panel.data);
        }
      }),
    ];
  }

  /**
   * Reveals the entity's panel, opening it when there is none. `preserveFocus` keeps the keyboard where
   * it was (a panel opened as a side effect of another command must not take it). `beside`: next to the active
   * group, or — given a column — next to that one (a document's own, read when its command started: the person
   * may have moved to another group since, and the panel still belongs beside its document).
   */
  show(target: PanelTarget, options: PanelPlacement = {}): Panel<Request, Data, Update> {
    const viewColumn = typeof options.beside === "number" ? options.beside + 1 : options.beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const existing = this.panels.get(keyOf(target));
    if (existing) {
      existing.webviewPanel.reveal(viewColumn, options.preserveFocus);
      return existing;
    }
    const column = { viewColumn, preserveFocus: options.preserveFocus ?? false };
    const webviewPanel = vscode.window.createWebviewPanel(this.kind.viewType, this.kind.title(target), column, { enableScripts: true });
    return this.adopt(webviewPanel, target);
  }

  /**
   * Shows the target as VS Code shows a file clicked in the Explorer: in the preview panel, which the next
   * preview reuses. Opening the same entity again, or acting in the panel, keeps it (and the next preview
   * opens a new one). An entity already open in a kept panel is shown there.
   */
  showPreview(target: PanelTarget, options: { preserveFocus?: boolean } = {}): Panel<Request, Data, Update> {
    const existing = this.panels.get(keyOf(target));
    if (existing) {
      if (existing === this.preview) this.preview = undefined;
      existing.webviewPanel.reveal(undefined, options.preserveFocus);
      return existing;
    }
    if (this.preview) {
      const panel = this.preview;
      this.retarget(panel, target);
      panel.webviewPanel.reveal(undefined, options.preserveFocus);
      return panel;
    }
    const panel = this.show(target, options);
    this.preview = panel;
    panel.onDidAct(() => this.preview === panel && (this.preview = undefined));
    panel.webviewPanel.onDidDispose(() => this.preview === panel && (this.preview = undefined));
    return panel;
  }

  /**
   * Shows the target and reads it afresh, in the panel already open for its entity if there is one (a new run of
   * a document's statement). `beside`: a new panel opens next to the editor (a query's results beside the query)
   * and an open one stays where it is.
   */
  open(target: PanelTarget, options: PanelPlacement = {}): Panel<Request, Data, Update> {
    const existing = this.panels.get(keyOf(target));
    if (!existing) return this.show(target, options);
    existing.webviewPanel.reveal(options.beside ? existing.webviewPanel.viewColumn : vscode.ViewColumn.Active, options.preserveFocus);
    this.retarget(existing, target);
    return existing;
  }

  /**
   * Unties the panels opened for `id` from it (an untitled document closed: the next document of that name is
   * another document, and gets a panel of its own). They stay open, showing what they showed.
   */
  release(id: string): void {
    for (const panel of [...this.panels.values()].filter((p) => p.target.id === id)) {
      this.panels.delete(keyOf(panel.target));
      panel.target = { ...panel.target, id: `${id}#closed-${++this.released}` };
      this.panels.set(keyOf(panel.target), panel);
    }
  }

  private released = 0;

  /** The open panel whose target passes `test`. */
  find(test: (target: PanelTarget) => boolean): Panel<Request, Data, Update> | undefined {
    return [...this.panels.values()].find((p) => test(p.target));
  }

  /** Every open panel of this set. */
  all(): Panel<Request, Data, Update>[] {
    return [...this.panels.values()];
  }

  /** The panel in front, if one of this set is. */
  activePanel(): Panel<Request, Data, Update> | undefined {
    return [...this.panels.values()].find((p) => p.webviewPanel.active);
  }

  /** Points a panel at another entity (another version of the same article), keeping one panel per entity. */
  retarget(panel: Panel<Request, Data, Update>, target: PanelTarget): void {
    const other = this.panels.get(keyOf(target));
    if (other && other !== panel) {
      other.webviewPanel.reveal();
      return;
    }
    this.panels.delete(keyOf(panel.target));
    panel.target = target;
    this.panels.set(keyOf(target), panel);
    void panel.load();
  }

  private preview?: Panel<Request, Data, Update>;

  private adopt(webviewPanel: vscode.WebviewPanel, target: PanelTarget): Panel<Request, Data, Update> {
    const panel = new Panel(webviewPanel, target, this.kind, this.deps);
    // The entity is read from the click on, while the webview is still being made: its messages wait in the
    // queue for the webview's `ready`, so content shows one round trip sooner.
    void panel.load();
    panel.writePage();
    this.panels.set(keyOf(target), panel);
    webviewPanel.onDidDispose(() => {
      this.panels.delete(keyOf(panel.target));
      panel.dispose();
    });
    return panel;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    for (const panel of this.panels.values()) panel.webviewPanel.dispose();
  }
}
