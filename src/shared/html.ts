/** Text in HTML, as element content or an attribute value: the one encoder for that channel (panels' pages, reports, the agent's HTML step). */
export const escapeHtml = (text: unknown): string => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
