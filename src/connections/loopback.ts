/**
 * The redirect end of the browser sign-in: a one-shot HTTP server on a fixed loopback port (orgs match
 * callback URLs exactly, so the app lists `http://localhost:<port>/OauthRedirect`; 1717 by default, as the
 * Salesforce CLI uses) that waits for `/OauthRedirect?code=…&state=…`, checks the state, and thanks the
 * browser. Its root `/` redirects to the org's authorize page, so the browser can be sent to the bare
 * loopback address: hosts such as code-server rewrite localhost URLs given to openExternal and keep only
 * the host and port.
 */
import { createServer, type Server } from "node:http";
import * as l10n from "@vscode/l10n";
import { CancelledError, CrmError } from "../client/errors";

export interface PendingRedirect {
  redirectUri: string;
  /** The address to open in the browser once `authorizeUrl` is set: it redirects there. */
  startUri: string;
  authorizeUrl?: string;
  /** Resolves with the authorization code; rejects on a state mismatch, an OAuth error, a timeout or cancellation. */
  code: Promise<string>;
  close(): void;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/** The callback port of the browser sign-in unless the crm.signIn.callbackPort setting says otherwise. */
export const DEFAULT_CALLBACK_PORT = 1717;

/** The callback URL an org's app must list for browser sign-in on this port. */
export const callbackUrl = (port: number) => `http://localhost:${port}/OauthRedirect`;

/** Listens on the port on 127.0.0.1, and on [::1] where it can ("localhost" may mean either in the browser). */
async function listenOnLoopback(handler: Parameters<typeof createServer>[1], port: number): Promise<Server[]> {
  const listen = (host: string) => new Promise<Server>((resolve, reject) => {
    const server = createServer(handler);
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
  let v4: Server;
  try {
    v4 = await listen("127.0.0.1");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    throw new CrmError(l10n.t("Port {0} for the browser sign-in's callback is in use (another sign-in, or the Salesforce CLI's, may be waiting). Finish or close it and try again, or set crm.signIn.callbackPort to a free port and add http://localhost:<that port>/OauthRedirect to the app's callback URLs.", port));
  }
  const v6 = await listen("::1").catch(() => undefined);
  return v6 ? [v4, v6] : [v4];
}

export async function listenForRedirect(options: { state: string; port?: number; signal?: AbortSignal; timeoutMs?: number }): Promise<PendingRedirect> {
  let settle: { resolve: (code: string) => void; reject: (err: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const port = options.port ?? DEFAULT_CALLBACK_PORT;
  const handler: Parameters<typeof createServer>[1] = (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/" && pending.authorizeUrl) {
      res.writeHead(302, { location: pending.authorizeUrl }).end();
      return;
    }
    if (url.pathname !== "/OauthRedirect") {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get("error");
    if (url.searchParams.get("state") !== options.state) {
      res.writeHead(400, { "content-type": "text/html" }).end(page(l10n.t("Sign-in not accepted"), l10n.t("This answer does not belong to the sign-in VS Code started. Start it again from VS Code.")));
      settle!.reject(new CrmError(l10n.t("The browser answered with a different state than the sign-in expected; start the sign-in again")));
    } else if (error) {
      const description = url.searchParams.get("error_description") ?? error;
      res.writeHead(200, { "content-type": "text/html" }).end(page(l10n.t("Sign-in refused"), l10n.t("The org said: {0}. You can close this tab.", description.replace(/[<>&]/g, ""))));
      settle!.reject(new CrmError(l10n.t("The org refused the sign-in: {0} ({1})", description, error)));
    } else {
      res.writeHead(200, { "content-type": "text/html" }).end(page(l10n.t("Signed in"), l10n.t("You are signed in. You can close this tab and return to VS Code.")));
      settle!.resolve(url.searchParams.get("code") ?? "");
    }
    close();
  };
  const servers = await listenOnLoopback(handler, port);
  const timer = setTimeout(() => settle!.reject(new CrmError(l10n.t("The browser sign-in was not completed within 5 minutes; start it again"))), options.timeoutMs ?? 300_000);
  const onAbort = () => settle!.reject(new CancelledError(l10n.t("The browser sign-in was cancelled")));
  options.signal?.addEventListener("abort", onAbort, { once: true });
  function close() {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    for (const server of servers) {
      server.close();
      server.closeAllConnections?.();
    }
  }
  code.catch(() => undefined).finally(close);
  const pending: PendingRedirect = { redirectUri: callbackUrl(port), startUri: `http://localhost:${port}/`, code, close };
  return pending;
}
