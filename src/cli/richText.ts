/**
 * Rich text made inert in plain Node, by the panels' own policy (src/shared/richTextPolicy.ts): DOMPurify over
 * jsdom, whose HTML parser is a browser's (what it keeps is what a browser would read). jsdom is loaded on the
 * first use: commands that render no rich text never read it.
 */
import type { DOMPurify } from "dompurify";
import { RICH_TEXT_POLICY, applyRichTextHooks } from "../shared/richTextPolicy";

let purifier: { purify: DOMPurify; close(): void; uses: number } | undefined;
/**
 * A window serves this many pieces of rich text, then a new one is made and the old one closed. Memory still grows
 * with the pieces sanitized (jsdom with DOMPurify: bench:knowledge's check, and a 96 MB heap runs out after 5,000
 * pieces however often the window is renewed); what keeps it is not found yet.
 */
const USES_PER_WINDOW = 500;

function purify(): DOMPurify {
  if (purifier && purifier.uses++ < USES_PER_WINDOW) return purifier.purify;
  purifier?.close();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { JSDOM } = require("jsdom") as typeof import("jsdom");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const createPurify = require("dompurify") as (window: unknown) => DOMPurify;
  const { window } = new JSDOM("<!DOCTYPE html>");
  const fresh = createPurify(window);
  applyRichTextHooks(fresh);
  purifier = { purify: fresh, close: () => window.close(), uses: 1 };
  return fresh;
}

/** The HTML as a page may show it: no script, handler, frame, form or style; images only as data URIs. */
export function sanitizeRichText(html: string): string {
  return purify().sanitize(html, RICH_TEXT_POLICY);
}

/** What sanitizing takes out of the HTML, in words (`<script> element`, `onclick attribute on <p>`): what readers would not see. */
export function richTextRemovals(html: string): string[] {
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
