/** Browser-side helpers every panel uses: the VS Code API, DOM building (never HTML strings), buttons. */
import "@vscode-elements/elements/dist/vscode-button/index.js";
import { parsePanelTarget, type PanelTarget } from "../../shared/protocol";

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

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

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

/** A status or error line in place of the content, with Refresh. */
/** A heading, a message and Refresh. `heading` names what the message is about (the page's title by default). */
export function showMessage(app: HTMLElement, text: string, kind: "info" | "error", refresh: () => void, heading = document.title): void {
  const header = el("header", {}, el("h1", {}, heading), button("Refresh", "refresh", refresh));
  app.replaceChildren(header, el("p", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status" }, text));
}
