/**
 * Rich text made inert in plain Node, by the panels' own policy (src/shared/richTextPolicy.ts): DOMPurify over
 * jsdom, whose HTML parser is a browser's (what it keeps is what a browser would read). jsdom is loaded on the
 * first use: commands that render no rich text never read it.
 */
import type { DOMPurify } from "dompurify";
import { plainlyKept } from "../shared/plainRichText";
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
