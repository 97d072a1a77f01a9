/**
 * An article's rich text as Markdown for a model: what a reader sees, as inert text. Elements that hide or
 * carry active content go with their contents — the panels' sanitizing policy names them (DROPPED_ELEMENTS); every attribute goes but a table cell's span. A link becomes its text followed by its address,
 * written from the URL (https only), never a Markdown link whose target or title the org chose; an image
 * becomes "(image: its alt text)" — never fetched by a client that renders the answer. Text nodes are escaped
 * so that nothing decoded from an entity (`&lt;script&gt;`) or typed as `<…>` becomes an element or an
 * autolink. Parsed by node-html-parser, turned into Markdown by node-html-markdown: no DOM needed, in VS
 * Code's extension host or plain Node. Both load on first use (the extension ships them as
 * dist/html-markdown.js).
 */
import type * as Markdown from "node-html-markdown";
import type * as Html from "node-html-parser";
import { escapeHtml } from "../shared/html";
import { DROPPED_ELEMENTS } from "../shared/richTextPolicy";
import { MARKDOWN_TEXT_ESCAPES, shownActing } from "./inert";

const DROPPED = DROPPED_ELEMENTS.join(", ");

let libs: { markdown: Markdown.NodeHtmlMarkdown; html: typeof Html } | undefined;

function load(): NonNullable<typeof libs> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return (libs ??= {
    markdown: new (require("node-html-markdown") as typeof Markdown).NodeHtmlMarkdown({ keepDataImages: false, maxConsecutiveNewlines: 2, textReplace: MARKDOWN_TEXT_ESCAPES }),
    html: require("node-html-parser") as typeof Html,
  });
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export function richTextAsMarkdown(source: string): string {
  const { markdown, html } = load();
  const root = html.parse(source, { comment: false, blockTextElements: { pre: true } });
  for (const element of root.querySelectorAll(DROPPED)) element.remove();
  for (const element of root.querySelectorAll("a, img")) element.replaceWith(new html.TextNode(shownAs(element), element.parentNode));
  for (const element of root.querySelectorAll("*")) {
    for (const name of Object.keys(element.attributes)) if (name !== "colspan" && name !== "rowspan") element.removeAttribute(name);
  }
  return shownActing(markdown.translate(root.toString())).trim();
}

/** A link as its text and https address; an image as its alt text. As HTML text: the converter escapes it. */
function shownAs(element: Html.HTMLElement): string {
  if (element.tagName === "IMG") {
    const alt = element.getAttribute("alt")?.trim();
    return escapeHtml(`(image${alt ? `: ${alt}` : ""})`);
  }
  const text = element.text.trim();
  const address = httpsAddress(element.getAttribute("href"));
  return escapeHtml(address && address !== text ? `${text}${text ? " " : ""}(${address})` : text || address || "");
}

/** An https URL as the URL parser writes it (no space, `<`, `>` or quote left in it), or undefined. */
function httpsAddress(href: string | undefined): string | undefined {
  try {
    const url = new URL((href ?? "").trim());
    return url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
