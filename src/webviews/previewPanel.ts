/**
 * Open Preview: an article body being edited in a `crm:` .html document, sanitized and rendered beside it,
 * following the document as it is typed (unsaved text included). One panel per document.
 */
import * as vscode from "vscode";
import { parsePreviewRequest, type HostToPreview, type PreviewToHost, type PreviewView } from "./protocol/preview";
import { inlineImages } from "./articleModel";
import { PanelSet, type PanelDeps } from "./panels";

export type PreviewPanels = PanelSet<PreviewToHost, PreviewView, HostToPreview>;

/** `describe(uri)`: the record and field a document holds, and its tab title. */
export function previewPanels(deps: PanelDeps, describe: (uri: vscode.Uri) => Promise<{ orgKey: string; sobject: string; id: string; field: string; title: string }>): { panels: PreviewPanels; subscription: vscode.Disposable } {
  const panels: PreviewPanels = new PanelSet<PreviewToHost, PreviewView, HostToPreview>({
    viewType: "crm.preview",
    script: "preview",
    noun: vscode.l10n.t("Preview"),
    title: (_target, preview) => (preview ? vscode.l10n.t("Preview: {0}", preview.title) : vscode.l10n.t("Preview: article")),
    parseRequest: parsePreviewRequest,
    read: async (target) => {
      const uri = vscode.Uri.parse(target.id);
      const document = await vscode.workspace.openTextDocument(uri);
      const about = await describe(uri);
      const crm = (await deps.manager.session(about.orgKey)).crm;
      return { title: about.title, html: await inlineImages(crm, document.getText(), about.id, about.field, about.sobject) };
    },
    update: (preview) => ({ type: "preview", preview }),
  }, deps);
  const timers = new Map<string, NodeJS.Timeout>();
  const subscription = vscode.workspace.onDidChangeTextDocument((e) => {
    const key = e.document.uri.toString();
    const panel = panels.find((t) => t.id === key);
    if (!panel) return;
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => void panel.load(), 300));
  });
  return { panels, subscription };
}
