/** Org Info panel (browser side): draws what the host sends; builds DOM nodes only, never HTML strings. */
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import { parseOrgInfoUpdate, type LimitBar, type OrgInfoToHost, type OrgInfoView } from "../protocol/orgInfo";
import * as l10n from "@vscode/l10n";
import { button, connect, displayLocale, el, showMessage } from "./dom";

const vscode = connect<OrgInfoToHost>();
const app = document.getElementById("app")!;
const send = (type: OrgInfoToHost["type"]) => () => vscode.postMessage({ type });

const number = new Intl.NumberFormat(displayLocale);
const percent = new Intl.NumberFormat(displayLocale, { style: "percent", maximumFractionDigits: 0 });

function limitRow(bar: LimitBar): HTMLLIElement {
  const fill = el("div", { class: "fill" });
  // CSSOM, not a style attribute: the CSP allows no inline styles.
  fill.style.width = `${(bar.pressure * 100).toFixed(1)}%`;
  const figures = `${number.format(bar.used)} / ${number.format(bar.max)} · ${percent.format(bar.pressure)}`;
  const track = el("div", {
    class: "track", role: "meter", "aria-label": bar.label,
    "aria-valuemin": "0", "aria-valuemax": String(bar.max), "aria-valuenow": String(bar.used),
    "aria-valuetext": l10n.t("{0} of {1} used, {2}", number.format(bar.used), number.format(bar.max), percent.format(bar.pressure)),
  }, fill);
  const level = bar.pressure >= 0.9 ? "critical" : bar.pressure >= 0.75 ? "warning" : "normal";
  return el("li", { class: level, "data-name": bar.name.toLowerCase(), "data-label": bar.label.toLowerCase(), title: bar.name }, el("span", {}, bar.label), track, el("span", { class: "figures" }, figures));
}

function render(info: OrgInfoView): void {
  const facts = el("dl", { class: "facts" });
  const add = (term: string, value: string) => value && facts.append(el("dt", {}, term), el("dd", {}, value));
  add(l10n.t("Instance"), info.instanceUrl);
  add(l10n.t("API version"), info.apiVersion);
  add(l10n.t("User"), info.user.name);
  add(l10n.t("Username"), info.user.username);
  add(l10n.t("Email"), info.user.email);
  add(l10n.t("User ID"), info.user.userId);
  add(l10n.t("Locale"), info.user.locale);

  const list = el("ul", { class: "limits", "aria-label": l10n.t("Org limits, most used first") }, ...info.limits.map(limitRow));
  const filter = el("vscode-textfield" as keyof HTMLElementTagNameMap, { class: "filter", placeholder: l10n.t("Filter limits"), "aria-label": l10n.t("Filter limits") }) as HTMLElement & { value: string };
  filter.addEventListener("input", () => {
    const term = filter.value.trim().toLowerCase();
    for (const row of list.children) (row as HTMLElement).hidden = !!term && !`${(row as HTMLElement).dataset.label} ${(row as HTMLElement).dataset.name}`.includes(term);
  });
  const fetched = new Date(info.fetchedAt).toLocaleTimeString(displayLocale);
  app.replaceChildren(
    el("header", {}, el("h1", {}, info.alias), button(l10n.t("Refresh"), "refresh", send("refresh")), button(l10n.t("Open in Browser"), "link-external", send("openInBrowser"))),
    facts,
    el("h2", {}, l10n.t("Limits ({0})", number.format(info.limits.length))),
    el("p", { class: "muted" }, l10n.t("Most used first. Read at {0}.", fetched)),
    filter,
    list,
  );
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parseOrgInfoUpdate(event.data);
  if (!message) return;
  if (message.type === "loading") {
    if (!app.querySelector("ul.limits")) showMessage(app, l10n.t("Reading the org's limits…"), "info", send("refresh"));
  } else if (message.type === "error") showMessage(app, message.message, "error", send("refresh"));
  else render(message.info);
});

vscode.postMessage({ type: "ready" });
