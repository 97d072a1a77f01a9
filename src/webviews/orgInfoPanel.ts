/** Org Info panels: one per org, revealed again when reopened, restored after a reload. */
import * as vscode from "vscode";
import type { OrgManager } from "../connections/orgManager";
import type { OrgRecord } from "../connections/orgRegistry";
import { describeError } from "../platform/errorMessages";
import type { Log } from "../platform/log";
import type { Redactor } from "../platform/redact";
import { parseOrgInfoRequest, type HostToOrgInfo } from "../shared/protocol";
import { webviewShell } from "./html";
import { readOrgInfo } from "./orgInfoModel";

export const ORG_INFO_VIEW_TYPE = "crm.orgInfo";

export interface OrgInfoDeps {
  extensionUri: vscode.Uri;
  manager: OrgManager;
  log: Log;
  redactor: Redactor;
}

class OrgInfoPanel {
  private loading = 0;

  constructor(readonly panel: vscode.WebviewPanel, private org: OrgRecord, private readonly deps: OrgInfoDeps) {
    const media = vscode.Uri.joinPath(deps.extensionUri, "media", "webview");
    const dist = vscode.Uri.joinPath(deps.extensionUri, "dist", "webview");
    panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [media, dist] };
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, "media", "crm.svg");
    this.retitle(org);
    const asUri = (uri: vscode.Uri) => panel.webview.asWebviewUri(uri).toString();
    panel.webview.html = webviewShell({
      title: `${org.alias}: Org Info`,
      cspSource: panel.webview.cspSource,
      scriptUri: asUri(vscode.Uri.joinPath(dist, "orgInfo.main.js")),
      styleUris: [asUri(vscode.Uri.joinPath(dist, "codicons", "codicon.css")), asUri(vscode.Uri.joinPath(media, "orgInfo.css"))],
      data: { orgKey: org.key },
    });
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const request = parseOrgInfoRequest(raw);
      if (!request) return deps.log.warn(`Org Info: ignored a malformed message from the panel`);
      if (request.type === "openInBrowser") void vscode.commands.executeCommand("crm.org.openInBrowser", this.org.key);
      else void this.load();
    });
  }

  retitle(org: OrgRecord): void {
    this.org = org;
    this.panel.title = `${org.alias}: Org Info`;
  }

  /** Reads and posts the org's info; a newer load supersedes an older one still in flight. */
  async load(): Promise<void> {
    const ticket = ++this.loading;
    const post = (message: HostToOrgInfo) => ticket === this.loading && void this.panel.webview.postMessage(message);
    post({ type: "loading" });
    try {
      post({ type: "orgInfo", info: await readOrgInfo(this.deps.manager, this.org) });
    } catch (err) {
      this.deps.log.error(`reading ${this.org.alias}'s info failed`, err);
      const report = describeError(err, { orgAlias: this.org.alias, redactor: this.deps.redactor });
      post({ type: "error", message: report.message ?? "Reading the org's info was cancelled." });
    }
  }
}

export class OrgInfoPanels implements vscode.Disposable {
  private readonly panels = new Map<string, OrgInfoPanel>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly deps: OrgInfoDeps) {
    this.subscriptions = [
      vscode.window.registerWebviewPanelSerializer(ORG_INFO_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          const key = (state as { orgKey?: unknown } | undefined)?.orgKey;
          const org = typeof key === "string" ? deps.manager.registry.get(key) : undefined;
          if (org) this.adopt(panel, org);
          else panel.dispose(); // the org was removed while the window was closed
        },
      }),
      deps.manager.registry.onDidChange(() => this.syncWithRegistry()),
    ];
  }

  show(org: OrgRecord): void {
    const existing = this.panels.get(org.key);
    if (existing) {
      existing.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(ORG_INFO_VIEW_TYPE, `${org.alias}: Org Info`, vscode.ViewColumn.Active, { enableScripts: true });
    this.adopt(panel, org);
  }

  private adopt(panel: vscode.WebviewPanel, org: OrgRecord): void {
    // The webview asks for its data with `ready` once its script runs, so nothing is fetched before it can be shown.
    this.panels.set(org.key, new OrgInfoPanel(panel, org, this.deps));
    panel.onDidDispose(() => this.panels.delete(org.key));
  }

  private syncWithRegistry(): void {
    for (const [key, panel] of this.panels) {
      const org = this.deps.manager.registry.get(key);
      if (!org) panel.panel.dispose();
      else panel.retitle(org);
    }
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    for (const panel of this.panels.values()) panel.panel.dispose();
  }
}
