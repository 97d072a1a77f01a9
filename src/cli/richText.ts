/**
 * Rich text made inert in plain Node, by the panels' own policy (src/shared/richTextPolicy.ts): DOMPurify over
 * jsdom, whose HTML parser is a browser's (what it keeps is what a browser would read). jsdom is loaded on the
 * first use: commands that render no rich text never read it.
 */
import type { DOMPurify } from "dompurify";
import { parseFragment, type DefaultTreeAdapterMap } from "parse5";
import { RICH_TEXT_POLICY, applyRichTextHooks } from "../shared/richTextPolicy";

/**
 * One window for every piece. Memory: DOMPurify walks each piece with a NodeIterator, and jsdom keeps its
 * iterators through WeakRefs — whose targets V8 holds until the running task ends (the WeakRef specification's
 * KeepDuringJob). Pieces sanitized in one synchronous loop therefore stay in memory until the loop gives the
 * event loop a turn; the tools read each article's files asynchronously, so what one article made is freed when
 * the next is read. (A window renewed every few hundred pieces freed nothing: the documents were kept, not it.)
 */
let purifier: DOMPurify | undefined;

function purify(): DOMPurify {
  if (purifier) return purifier;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { JSDOM } = require("jsdom") as typeof import("jsdom");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const createPurify = require("dompurify") as (window: unknown) => DOMPurify;
  purifier = createPurify(new JSDOM("<!DOCTYPE html>").window);
  applyRichTextHooks(purifier);
  return purifier;
}

/** The HTML as a page may show it: no script, handler, frame, form or style; images only as data URIs. */
export function sanitizeRichText(html: string): string {
  return purify().sanitize(html, RICH_TEXT_POLICY);
}

/**
 * What an article's text is usually made of, and what DOMPurify keeps as it is under the policy: these elements,
 * with these attributes (a test holds DOMPurify to each). Anything else is for DOMPurify to judge.
 */
const PLAIN_ELEMENTS = new Set([
  "p", "br", "hr", "div", "span", "h1", "h2", "h3", "h4", "h5", "h6", "b", "strong", "i", "em", "u", "s", "sub", "sup", "small", "mark",
  "code", "pre", "kbd", "samp", "var", "abbr", "cite", "q", "blockquote", "ul", "ol", "li", "dl", "dt", "dd",
  "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col", "figure", "figcaption", "a", "img",
]);
/** Attributes whose every value is kept (none but `<` and `>`, which the policy reads as markup smuggled into XML). */
const FREE_TEXT_ATTRIBUTES = new Set(["class", "title", "alt"]);
/** Attributes kept when their value is a plain word, number or size (no `:`, so never read as a link's scheme). */
const PLAIN_VALUE_ATTRIBUTES = new Set(["width", "height", "colspan", "rowspan", "span", "lang", "dir", "align", "valign", "scope", "start", "border", "cellpadding", "cellspacing"]);
const PLAIN_VALUE = /^[\w\-.% ]*$/;
/** Links and images the policy keeps: web and mail links, paths in the site or folder; images also as data URIs. */
const PLAIN_HREF = /^(?:https?:\/\/|mailto:|#|\/)[^<>\s]*$/i;
const PLAIN_SRC = /^(?:https?:\/\/[^<>\s]*|data:image\/[a-z]+;base64,[\w+/=]*|[\w\-./%]+)$/i;
/** A start or end tag's name anywhere in the text, and the openings of comments, declarations and processing instructions. */
const TAG_NAME = /<\/?([^\s/>]+)/g;
const NOT_A_TAG = /<[!?]/;

type Parse5Node = DefaultTreeAdapterMap["childNode"];

/** The piece holds only plain elements and attributes (see above), as a browser parses it: DOMPurify would take nothing out. */
export function plainlyKept(html: string): boolean {
  if (NOT_A_TAG.test(html)) return false;
  // Tags the parser folds away (html, body, head, a stray end tag) are looked at in the text, and may not be there either.
  for (const [, name] of html.matchAll(TAG_NAME)) if (!PLAIN_ELEMENTS.has(name!.toLowerCase())) return false;
  const plain = (node: Parse5Node): boolean => {
    if (node.nodeName === "#text") return true;
    if (!("tagName" in node) || !PLAIN_ELEMENTS.has(node.tagName) || node.namespaceURI !== "http://www.w3.org/1999/xhtml") return false;
    for (const { name, value } of node.attrs) {
      const kept = FREE_TEXT_ATTRIBUTES.has(name) ? !/[<>]/.test(value)
        : PLAIN_VALUE_ATTRIBUTES.has(name) ? PLAIN_VALUE.test(value)
        : name === "href" ? node.tagName === "a" && PLAIN_HREF.test(value)
        : name === "src" ? node.tagName === "img" && PLAIN_SRC.test(value)
        : false;
      if (!kept) return false;
    }
    return node.childNodes.every(plain);
  };
  return parseFragment(html).childNodes.every(plain);
}

/** What sanitizing takes out of the HTML, in words (`<script> element`, `onclick attribute on <p>`): what readers would not see. */
export function richTextRemovals(html: string): string[] {
  if (plainlyKept(html)) return [];
  const p = purify();
  p.sanitize(html, RICH_TEXT_POLICY);
  const said = p.removed.map((r) => {
    const item = r as { element?: Element; attribute?: Attr | null; from?: Element };
    if (item.attribute) return `the ${item.attribute.name} attribute on <${item.from?.nodeName.toLowerCase() ?? "?"}>`;
    const element = item.element as Element | undefined;
    return !element || element.nodeName.startsWith("#") ? "" : `a <${element?.nodeName.toLowerCase() ?? "?"}> element`;
  });
  return [...new Set(said.filter(Boolean))];
}
