/** Browser-side helpers every panel uses: the VS Code API, DOM building (never HTML strings), buttons. */
import "@vscode-elements/elements/dist/vscode-button/index.js";
import * as l10n from "@vscode/l10n";
import { parsePanelTarget, type PanelTarget } from "../protocol/common";
import { el } from "../../shared/element";

// The host writes the bundle VS Code loaded for the display language into the page (none for English);
// every l10n.t() in the panels reads it. Modules that import this one run after this line.
if (document.body.dataset.l10n) l10n.config({ contents: document.body.dataset.l10n });

/** VS Code's display language, which the host writes as the page's `lang`: numbers, dates and times follow it. */
export const displayLocale = document.documentElement.lang || undefined;

interface VsCodeApi<Request> {
  postMessage(message: Request): void;
  setState(state: PanelTarget): void;
  getState(): unknown;
}
declare function acquireVsCodeApi<Request>(): VsCodeApi<Request>;

let saved: (() => unknown) | undefined;

/** The panel's VS Code API; records the panel's target so a reload can reopen it. */
export function connect<Request>(): VsCodeApi<Request> {
  const vscode = acquireVsCodeApi<Request>();
  saved = () => vscode.getState();
  vscode.setState(panelTarget());
  return vscode;
}

/**
 * The entity the panel shows: what the page last recorded (it may have moved on — another version,
 * another statement — since the host wrote the page), else what the host wrote into it.
 */
export function panelTarget(): PanelTarget {
  return parsePanelTarget(saved?.()) ?? parsePanelTarget(JSON.parse(document.body.dataset.target ?? "{}")) ?? { orgKey: "", id: "" };
}

export { el };

/** A vscode-elements button (reachable by Tab, pressed with Enter or Space). */
export function button(label: string, icon: string, onPress: () => void, options: { primary?: boolean; disabled?: boolean } = {}): HTMLElement {
  const node = document.createElement("vscode-button");
  node.setAttribute("icon", icon);
  if (!options.primary) node.setAttribute("secondary", "");
  if (options.disabled) node.setAttribute("disabled", "");
  node.append(label);
  node.addEventListener("click", onPress);
  return node;
}

/** A status or error line in place of the content: a heading, a message and Refresh. `heading` names what the message is about (the page's title by default). */
export function showMessage(app: HTMLElement, text: string, kind: "info" | "error", refresh: () => void, heading = document.title): void {
  const header = el("header", {}, el("h1", {}, heading), button(l10n.t("Refresh"), "refresh", refresh));
  app.replaceChildren(header, el("p", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status" }, text));
}
