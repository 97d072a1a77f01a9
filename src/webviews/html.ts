/** The HTML shell every panel uses: a strict CSP, one nonce'd module script, styles from the extension only. */
import { randomBytes } from "node:crypto";

export interface ShellOptions {
  title: string;
  /** `webview.cspSource`: the origin the webview serves the extension's files from. */
  cspSource: string;
  scriptUri: string;
  /** The codicon stylesheet; vscode-elements finds it by its id to draw button icons. */
  codiconsUri?: string;
  styleUris: string[];
  /** Non-secret values the script reads from `document.body.dataset`. */
  data?: Record<string, string>;
  /** VS Code's display language (the page's `lang`: screen readers and the panels' number formats follow it). */
  language?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join("; ");
}

export function webviewShell(options: ShellOptions, nonce = randomBytes(18).toString("base64")): string {
  const data = Object.entries(options.data ?? {})
    .map(([key, value]) => ` data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(value)}"`)
    .join("");
  const codicons = options.codiconsUri ? [`<link rel="stylesheet" href="${escapeHtml(options.codiconsUri)}" id="vscode-codicon-stylesheet">`] : [];
  const styles = [...codicons, ...options.styleUris.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)].join("\n    ");
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
    <script type="module" nonce="${nonce}" src="${escapeHtml(options.scriptUri)}"></script>
  </body>
</html>`;
}
