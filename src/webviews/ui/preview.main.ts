/** Preview of an article body being edited (browser side): the document's HTML, sanitized. */
import * as l10n from "@vscode/l10n";
import { parsePreviewUpdate, type PreviewToHost } from "../protocol/preview";
import { connect, el, showMessage } from "./dom";
import { sanitizedFragment } from "./sanitize";

const vscode = connect<PreviewToHost>();
const app = document.getElementById("app")!;
const refresh = () => vscode.postMessage({ type: "refresh" });

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parsePreviewUpdate(event.data);
  if (!message) return;
  if (message.type === "loading") {
    if (!app.querySelector(".rich-text")) showMessage(app, l10n.t("Rendering…"), "info", refresh);
  } else if (message.type === "error") showMessage(app, message.message, "error", refresh);
  else {
    // Keep the reader's place while the document changes under it.
    const scroll = window.scrollY;
    app.replaceChildren(el("h1", {}, message.preview.title), el("section", { class: "rich-text", "aria-label": l10n.t("Preview") }, el("div", { class: "body" }, sanitizedFragment(message.preview.html))));
    window.scrollTo(0, scroll);
  }
});

vscode.postMessage({ type: "ready" });
