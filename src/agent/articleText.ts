/**
 * An article's rich text as Markdown for a model: what a reader sees, not what could run. Elements that hide
 * or carry active content (script, style, iframe, object, form, noscript, template, svg …) go with their
 * contents; links and images keep only http(s) addresses (an image inlined as data is named, not copied).
 * Parsed by node-html-parser, turned into Markdown by node-html-markdown: no DOM needed, in VS Code's
 * extension host or plain Node. Both load on first use (the extension ships them as dist/html-markdown.js).
 */
import type * as Markdown from "node-html-markdown";
import type * as Html from "node-html-parser";

const DROPPED = "script, style, iframe, frame, frameset, object, embed, applet, form, input, button, select, textarea, noscript, template, svg, math, link, meta, base";
const SAFE_URL = /^https?:\/\//i;

let libs: { markdown: Markdown.NodeHtmlMarkdown; html: typeof Html } | undefined;

function load(): NonNullable<typeof libs> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return (libs ??= {
    markdown: new (require("node-html-markdown") as typeof Markdown).NodeHtmlMarkdown({ keepDataImages: false, maxConsecutiveNewlines: 2 }),
    html: require("node-html-parser") as typeof Html,
  });
  /* eslint-enable @typescript-eslint/no-require-imports */
}

export function richTextAsMarkdown(source: string): string {
  const { markdown, html } = load();
  const root = html.parse(source, { comment: false, blockTextElements: { pre: true } });
  for (const element of root.querySelectorAll(DROPPED)) element.remove();
  for (const element of root.querySelectorAll("*")) keepSafeAttributes(element, html);
  return markdown.translate(root.toString()).trim();
}

function keepSafeAttributes(element: Html.HTMLElement, html: typeof Html): void {
  for (const name of Object.keys(element.attributes)) {
    const value = element.getAttribute(name) ?? "";
    const keep = name === "alt" || name === "title" || name === "colspan" || name === "rowspan" || ((name === "href" || name === "src") && SAFE_URL.test(value.trim()));
    if (!keep) element.removeAttribute(name);
  }
  if (element.tagName === "IMG" && !element.getAttribute("src")) {
    const alt = element.getAttribute("alt");
    element.replaceWith(new html.TextNode(`(image${alt ? `: ${alt}` : ""})`, element.parentNode));
  }
}
