/** Article Details (browser side): facts, versions, and every rich-text field sanitized by DOMPurify. */
import { parseArticleUpdate, type ArticleAction, type ArticleDetailsView, type ArticleToHost } from "../../shared/protocol";
import { button, connect, el, panelTarget, showMessage } from "./dom";
import { sanitizedFragment } from "./sanitize";

const vscode = connect<ArticleToHost>();
const app = document.getElementById("app")!;
const refresh = () => vscode.postMessage({ type: "refresh" });
const act = (action: ArticleAction) => () => vscode.postMessage({ type: "action", action });

const day = (iso: string) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "");

function render(a: ArticleDetailsView): void {
  // The panel may have moved to another version: a reload reopens the one shown.
  vscode.setState({ ...panelTarget(), id: a.id });
  const status = a.publishStatus;
  const actions = el("div", { class: "actions", role: "toolbar", "aria-label": "Article actions" });
  if (status === "Draft") actions.append(button("Edit", "edit", act("edit")), button("Publish", "cloud-upload", act("publish"), { primary: true }));
  if (status === "Online") actions.append(button("Archive", "archive", act("archive")));
  if (status !== "Draft") actions.append(button("Create Draft", "git-branch", act("createDraft")));
  if (status !== "Archived") actions.append(button("Translate…", "globe", act("translate")));
  actions.append(button("Compare…", "diff", act("compare")), button("Open in Browser", "link-external", act("openInBrowser")), button("Refresh", "refresh", refresh));

  const facts = el("dl", { class: "facts" });
  const add = (term: string, value: string) => value && facts.append(el("dt", {}, term), el("dd", {}, value));
  add("Article number", a.articleNumber);
  add("Version", `${a.versionNumber} · ${status}`);
  add("Validation", a.validationStatus);
  add("Language", a.language);
  add("URL name", a.urlName);
  add("View score", a.viewScore === null ? "" : String(a.viewScore));
  for (const d of a.dates) add(d.label, day(d.value));
  add("Data categories", a.dataCategories.map((c) => `${c.group} › ${c.category.replace(/_/g, " ")}`).join(", ") || "none");

  const versions = el("nav", { class: "versions", "aria-label": "Versions of this article" });
  for (const v of a.versions) {
    const chip = el("button", { class: `version ${v.publishStatus.toLowerCase()}`, type: "button", title: v.title }, `v${v.versionNumber} ${v.publishStatus}`);
    if (v.id === a.id) chip.setAttribute("aria-current", "true");
    else chip.addEventListener("click", () => vscode.postMessage({ type: "openVersion", id: v.id }));
    versions.append(chip);
  }

  // The master language and each translation; the one shown is marked, an out-of-date one says so.
  const languages = el("nav", { class: "versions languages", "aria-label": "Languages of this article" });
  for (const l of a.languages) {
    const words = `${l.label} v${l.versionNumber} ${l.publishStatus}${l.master ? " · master" : ""}${l.stale ? " · out of date" : ""}`;
    const chip = el("button", { class: `version ${l.publishStatus.toLowerCase()}${l.stale ? " stale" : ""}`, type: "button", title: l.stale ? "The master was published after this translation's last change" : words }, words);
    if (l.id === a.id) chip.setAttribute("aria-current", "true");
    else chip.addEventListener("click", () => vscode.postMessage({ type: "openVersion", id: l.id }));
    languages.append(chip);
  }

  const sections = a.richText.map((r) => el("section", { class: "rich-text", "aria-label": r.label, "data-field": r.field }, el("h2", {}, r.label), el("div", { class: "body" }, sanitizedFragment(r.html))));
  app.replaceChildren(
    el("header", {}, el("h1", {}, a.title), actions),
    a.summary ? el("p", { class: "summary" }, a.summary) : "",
    versions,
    a.languages.length ? languages : "",
    facts,
    ...sections,
    el("p", { class: "muted" }, `Version ID ${a.id} · read at ${new Date(a.fetchedAt).toLocaleTimeString()}`),
  );
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parseArticleUpdate(event.data);
  if (!message) return;
  if (message.type === "loading") {
    if (!app.querySelector("header .actions")) showMessage(app, "Reading the article…", "info", refresh);
  } else if (message.type === "error") showMessage(app, message.message, "error", refresh);
  else render(message.article);
});

vscode.postMessage({ type: "ready" });
