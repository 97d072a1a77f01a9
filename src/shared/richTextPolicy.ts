/**
 * How CRM-supplied rich text is made inert, wherever it is shown: in a panel (DOMPurify in the webview) and in a
 * knowledge folder's preview pages and checks (DOMPurify over jsdom, in the command-line tool). One policy, so
 * what `crm-knowledge check` says readers will not see is what the panels do not show.
 */
import type { DOMPurify } from "dompurify";

/** No scripts, handlers, frames, forms, styles or javascript: links survive (DOMPurify's defaults plus these). */
export const RICH_TEXT_POLICY = {
  FORBID_TAGS: ["style", "iframe", "frame", "object", "embed", "form", "input", "button", "textarea", "select", "link", "meta", "base", "svg", "math"],
  FORBID_ATTR: ["style", "srcset"],
};

/**
 * What a converter without DOMPurify drops with its contents (the agent's Markdown): the policy's forbidden
 * elements and those DOMPurify removes by default because they run or hide content.
 */
export const DROPPED_ELEMENTS: readonly string[] = ["script", "noscript", "template", "frameset", "applet", ...RICH_TEXT_POLICY.FORBID_TAGS];

/** The only image sources shown: data URIs (the host inlines the org's or the folder's images); anything else would be a request. */
export const SHOWN_IMAGE = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,/i;

/** Adds the policy's hooks to a DOMPurify instance: images only from data URIs, links that open nothing of the page's. */
export function applyRichTextHooks(purify: DOMPurify): void {
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "IMG" && !SHOWN_IMAGE.test(node.getAttribute("src") ?? "")) {
      node.removeAttribute("src");
      node.setAttribute("data-blocked", "");
    }
    if (node.tagName === "A" && node.hasAttribute("href")) node.setAttribute("rel", "noopener noreferrer");
  });
}
