/**
 * The HTML shell every panel uses: a strict CSP, the panel's own module script and stylesheets written into
 * the page under one nonce (VS Code in a browser can fail to serve a new webview's files while another panel
 * starts: the page then stayed blank), and the codicon font from the extension.
 */
import { randomBytes } from "node:crypto";
import { escapeHtml } from "../shared/html";

export interface ShellOptions {
  title: string;
  /** `webview.cspSource`: the origin the webview serves the extension's files from. */
  cspSource: string;
  /** The panel's bundled module script (the extension's own file). */
  script: string;
  /** The codicon stylesheet; vscode-elements finds it by its id to draw button icons. */
  codiconsUri?: string;
  /** The panel's stylesheets (the extension's own files). */
  styles: string[];
  /** Non-secret values the script reads from `document.body.dataset`. */
  data?: Record<string, string>;
  /** VS Code's display language (the page's `lang`: screen readers and the panels' number formats follow it). */
  language?: string;
}

/**
 * Script or style text that cannot end its element early: no `</script` (or `</style`), and no `<!--`, which
 * would change how the parser reads the closing tag (`<\/` and `<\x21` read the same in JavaScript's strings,
 * templates and patterns; the panels' stylesheets hold neither).
 */
const inElement = (text: string, tag: "script" | "style") => text.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1").replace(/<!--/g, "<\\x21--");

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join("; ");
}

export function webviewShell(options: ShellOptions, nonce = randomBytes(18).toString("base64")): string {
  const data = Object.entries(options.data ?? {})
    .map(([key, value]) => ` data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(value)}"`)
    .join("");
  const codicons = options.codiconsUri ? [`<link rel="stylesheet" href="${escapeHtml(options.codiconsUri)}" id="vscode-codicon-stylesheet">`] : [];
  const styles = [...codicons, ...options.styles.map((css) => `<style nonce="${nonce}">${inElement(css, "style")}</style>`)].join("\n    ");
  return `<!DOCTYPE html>
<html lang="${escapeHtml(options.language ?? "en")}">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(options.cspSource, nonce)}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeHtml(options.title)}</title>
  </head>
  <body${data}>
    <main id="app" aria-live="polite"></main>
    <script type="module" nonce="${nonce}">${inElement(options.script, "script")}</script>
  </body>
</html>`;
}
