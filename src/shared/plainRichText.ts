/**
 * Rich text that sanitizing under the panels' policy (richTextPolicy.ts) keeps exactly as written, decided by
 * parse5 — the HTML parser of jsdom, read as a browser reads — without a DOM: what the knowledge folder check asks
 * DOMPurify about only when a piece holds more than this. test/node/cli/richText.test.ts holds it to DOMPurify.
 */
import type * as Parse5 from "parse5";

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

type Parse5Node = Parse5.DefaultTreeAdapterMap["childNode"];

let parse5: typeof Parse5 | undefined;
/** Required on first use: the extension ships parse5 in dist/html-markdown.js, not in what activation loads. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parser = () => (parse5 ??= require("parse5") as typeof Parse5);

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
  return parser().parseFragment(html).childNodes.every(plain);
}

/**
 * The folder check's judge of rich text where no DOM is at hand (VS Code's extension host): a plain piece loses
 * nothing; any other is not judged here (undefined), and the check holds its article back from publishing.
 */
export const plainOrUnjudged = (html: string): string[] | undefined => (plainlyKept(html) ? [] : undefined);
