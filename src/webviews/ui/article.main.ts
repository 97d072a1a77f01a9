/** Article Details (browser side): facts, versions, and every rich-text field sanitized by DOMPurify. */
import { parseArticleUpdate, type ArticleAction, type ArticleDetailsView, type ArticleToHost } from "../protocol/article";
import * as l10n from "@vscode/l10n";
import { button, connect, displayLocale, el, panelTarget, showMessage } from "./dom";
import { sanitizedFragment } from "./sanitize";

const vscode = connect<ArticleToHost>();
const app = document.getElementById("app")!;
const refresh = () => vscode.postMessage({ type: "refresh" });
const act = (action: ArticleAction) => () => vscode.postMessage({ type: "action", action });

const day = (iso: string) => (iso ? new Date(iso).toLocaleString(displayLocale, { dateStyle: "medium", timeStyle: "short" }) : "");
/** The publication states in the display language (the org's values are the API's English). */
const STATUS_LABELS: Record<string, string> = { Draft: l10n.t("Draft"), Online: l10n.t("Online"), Archived: l10n.t("Archived") };
const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;

function render(a: ArticleDetailsView): void {
  // The panel may have moved to another version: a reload reopens the one shown.
  vscode.setState({ ...panelTarget(), id: a.id });
  const status = a.publishStatus;
  const actions = el("div", { class: "actions", role: "toolbar", "aria-label": l10n.t("Article actions") });
  if (status === "Draft") actions.append(button(l10n.t("Edit"), "edit", act("edit")), button(l10n.t("Publish"), "cloud-upload", act("publish"), { primary: true }));
  if (status === "Online") actions.append(button(l10n.t("Archive"), "archive", act("archive")));
  if (status !== "Draft") actions.append(button(l10n.t("Create Draft"), "git-branch", act("createDraft")));
  if (status !== "Archived") actions.append(button(l10n.t("Translate…"), "globe", act("translate")));
  actions.append(button(l10n.t("Compare…"), "diff", act("compare")), button(l10n.t("Open in Browser"), "link-external", act("openInBrowser")), button(l10n.t("Refresh"), "refresh", refresh));

  const facts = el("dl", { class: "facts" });
  const add = (term: string, value: string) => value && facts.append(el("dt", {}, term), el("dd", {}, value));
  add(l10n.t("Article number"), a.articleNumber);
  add(l10n.t("Version"), `${a.versionNumber} · ${statusLabel(status)}`);
  add(l10n.t("Validation"), a.validationStatus);
  add(l10n.t("Language"), a.language);
  add(l10n.t("URL name"), a.urlName);
  add(l10n.t("View score"), a.viewScore === null ? "" : String(a.viewScore));
  for (const d of a.dates) add(d.label, day(d.value));
  add(l10n.t("Data categories"), a.dataCategories.map((c) => `${c.group} › ${c.category.replace(/_/g, " ")}`).join(", ") || l10n.t("none"));

  const versions = el("nav", { class: "versions", "aria-label": l10n.t("Versions of this article") });
  for (const v of a.versions) {
    const chip = el("button", { class: `version ${v.publishStatus.toLowerCase()}`, type: "button", title: v.title }, `v${v.versionNumber} ${statusLabel(v.publishStatus)}`);
    if (v.id === a.id) chip.setAttribute("aria-current", "true");
    else chip.addEventListener("click", () => vscode.postMessage({ type: "openVersion", id: v.id }));
    versions.append(chip);
  }

  // The master language and each translation; the one shown is marked, an out-of-date one says so.
  const languages = el("nav", { class: "versions languages", "aria-label": l10n.t("Languages of this article") });
  for (const l of a.languages) {
    const words = [`${l.label} v${l.versionNumber} ${statusLabel(l.publishStatus)}`, ...(l.master ? [l10n.t("master")] : []), ...(l.stale ? [l10n.t("out of date")] : [])].join(" · ");
    const chip = el("button", { class: `version ${l.publishStatus.toLowerCase()}${l.stale ? " stale" : ""}`, type: "button", title: l.stale ? l10n.t("The master was published after this translation's last change") : words }, words);
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
    el("p", { class: "muted" }, l10n.t("Version ID {0} · read at {1}", a.id, new Date(a.fetchedAt).toLocaleTimeString(displayLocale))),
  );
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parseArticleUpdate(event.data);
  if (!message) return;
  if (message.type === "loading") {
    if (!app.querySelector("header .actions")) showMessage(app, l10n.t("Reading the article…"), "info", refresh);
  } else if (message.type === "error") showMessage(app, message.message, "error", refresh);
  else render(message.article);
});

vscode.postMessage({ type: "ready" });
