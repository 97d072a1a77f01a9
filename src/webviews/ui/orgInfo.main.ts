/** Org Info panel (browser side): draws what the host sends; builds DOM nodes only, never HTML strings. */
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import { parseOrgInfoUpdate, type LimitBar, type OrgInfoToHost, type OrgInfoView } from "../../shared/protocol";
import { button, connect, el, showMessage } from "./dom";

const vscode = connect<OrgInfoToHost>();
const app = document.getElementById("app")!;
const send = (type: OrgInfoToHost["type"]) => () => vscode.postMessage({ type });

const number = new Intl.NumberFormat();
const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });

function limitRow(bar: LimitBar): HTMLLIElement {
  const fill = el("div", { class: "fill" });
  // CSSOM, not a style attribute: the CSP allows no inline styles.
  fill.style.width = `${(bar.pressure * 100).toFixed(1)}%`;
  const figures = `${number.format(bar.used)} / ${number.format(bar.max)} · ${percent.format(bar.pressure)}`;
  const track = el("div", {
    class: "track", role: "meter", "aria-label": bar.label,
    "aria-valuemin": "0", "aria-valuemax": String(bar.max), "aria-valuenow": String(bar.used),
    "aria-valuetext": `${number.format(bar.used)} of ${number.format(bar.max)} used, ${percent.format(bar.pressure)}`,
  }, fill);
  const level = bar.pressure >= 0.9 ? "critical" : bar.pressure >= 0.75 ? "warning" : "normal";
  return el("li", { class: level, "data-name": bar.name.toLowerCase(), "data-label": bar.label.toLowerCase(), title: bar.name }, el("span", {}, bar.label), track, el("span", { class: "figures" }, figures));
}

function render(info: OrgInfoView): void {
  const facts = el("dl", { class: "facts" });
  const add = (term: string, value: string) => value && facts.append(el("dt", {}, term), el("dd", {}, value));
  add("Instance", info.instanceUrl);
  add("API version", info.apiVersion);
  add("User", info.user.name);
  add("Username", info.user.username);
  add("Email", info.user.email);
  add("User ID", info.user.userId);
  add("Locale", info.user.locale);

  const list = el("ul", { class: "limits", "aria-label": "Org limits, most used first" }, ...info.limits.map(limitRow));
  const filter = el("vscode-textfield" as keyof HTMLElementTagNameMap, { class: "filter", placeholder: "Filter limits", "aria-label": "Filter limits" }) as HTMLElement & { value: string };
  filter.addEventListener("input", () => {
    const term = filter.value.trim().toLowerCase();
    for (const row of list.children) (row as HTMLElement).hidden = !!term && !`${(row as HTMLElement).dataset.label} ${(row as HTMLElement).dataset.name}`.includes(term);
  });
  const fetched = new Date(info.fetchedAt).toLocaleTimeString();
  app.replaceChildren(
    el("header", {}, el("h1", {}, info.alias), button("Refresh", "refresh", send("refresh")), button("Open in Browser", "link-external", send("openInBrowser"))),
    facts,
    el("h2", {}, `Limits (${info.limits.length})`),
    el("p", { class: "muted" }, `Most used first. Read at ${fetched}.`),
    filter,
    list,
  );
}

window.addEventListener("message", (event: MessageEvent<unknown>) => {
  const message = parseOrgInfoUpdate(event.data);
  if (!message) return;
  if (message.type === "loading") {
    if (!app.querySelector("ul.limits")) showMessage(app, "Reading the org's limits…", "info", send("refresh"));
  } else if (message.type === "error") showMessage(app, message.message, "error", send("refresh"));
  else render(message.info);
});

vscode.postMessage({ type: "ready" });
