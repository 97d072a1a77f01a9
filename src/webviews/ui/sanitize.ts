/** CRM-supplied HTML made inert for every panel that renders it: DOMPurify with the org's images only as data: URIs. */
import DOMPurify from "dompurify";

// Only data: images (the host inlines the org's images); anything else would be a request the CSP refuses anyway.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "IMG" && !/^data:image\/(png|jpe?g|gif|webp|bmp);base64,/i.test(node.getAttribute("src") ?? "")) {
    node.removeAttribute("src");
    node.setAttribute("data-blocked", "");
  }
  if (node.tagName === "A" && node.hasAttribute("href")) node.setAttribute("rel", "noopener noreferrer");
});

/** No scripts, handlers, frames, forms, styles or javascript: links survive. */
export function sanitizedFragment(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ["style", "iframe", "frame", "object", "embed", "form", "input", "button", "textarea", "select", "link", "meta", "base", "svg", "math"],
    FORBID_ATTR: ["style", "srcset"],
  });
}
