/**
 * Org text in an agent's answer, made inert: whatever a stranger wrote into a record (a web form, an e-mail, a
 * portal user) reads as text in Markdown and stays on its own line of the answer. One function for every
 * value an answer quotes: cells, titles, labels, picklist values, plain fields.
 *   - every kind of line break (CR, LF, NEL, VT, FF, U+2028, U+2029) becomes " ⏎ ": a value never starts a
 *     line of its own, so it cannot forge the server's lines ("Org: …", a heading, a list item);
 *   - control and format characters (ESC and BEL, bidi overrides and isolates, zero-width ones) are shown as
 *     ⟨U+XXXX⟩, never acted on by a terminal or a renderer;
 *   - what builds markup is escaped — `<` `>` `[` `]` `` ` `` `\` `|`, and an `&` that starts an entity: no
 *     element, autolink, link, image, code span or table cell can be made of org text, and `&lt;script&gt;`
 *     shows as written. Emphasis characters stay, so a value an agent reuses (Home_Routers) is unchanged.
 */
// eslint-disable-next-line no-control-regex -- vertical tab and form feed are line breaks here
const LINE_BREAKS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is what this is for
export const ACTING = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** What makes an element, autolink, link or image, code span or table cell; emphasis stays (values keep `_`). */
const MARKUP = /[\\`[\]<>|]/g;
/** An `&` that would start an entity: shown as written (`&lt;` stays `&lt;`, never "<"). */
const ENTITY_START = /&(?=#?[0-9A-Za-z]+;)/g;

/** Control and format characters shown as ⟨U+XXXX⟩, and line breaks other than `\n` as " ⏎ " (Markdown made from rich text keeps its own lines). */
export function shownActing(text: string): string {
  // eslint-disable-next-line no-control-regex -- vertical tab and form feed are line breaks here
  return text.replace(/\r\n|[\r\u000b\u000c\u0085\u2028\u2029]/g, " ⏎ ").replace(ACTING, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

/** Escapes for a converter's text nodes, after its own escaping of backslashes, backticks, emphasis and brackets. */
export const MARKDOWN_TEXT_ESCAPES: [RegExp, string][] = [[/[<>]/g, "\\$&"], [ENTITY_START, "&amp;"]];

export function inert(value: unknown, most = Infinity): string {
  const text = shownActing(String(value ?? "").replace(LINE_BREAKS, " ⏎ "));
  const cut = text.length > most ? `${text.slice(0, most)}…` : text;
  return cut.replace(MARKUP, (c) => `\\${c}`).replace(ENTITY_START, "&amp;");
}
