/** CRM-supplied HTML made inert for every panel that renders it (the policy: src/shared/richTextPolicy.ts). */
import DOMPurify from "dompurify";
import { RICH_TEXT_POLICY, applyRichTextHooks } from "../../shared/richTextPolicy";

applyRichTextHooks(DOMPurify);

/** No scripts, handlers, frames, forms, styles or javascript: links survive. */
export function sanitizedFragment(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, { ...RICH_TEXT_POLICY, RETURN_DOM_FRAGMENT: true });
}
