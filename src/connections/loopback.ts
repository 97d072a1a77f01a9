/**
 * The redirect end of the browser sign-in: a one-shot HTTP server on 127.0.0.1 with a random port that
 * waits for `/OauthRedirect?code=…&state=…`, checks the state, and thanks the browser. Its root `/`
 * redirects to the org's authorize page, so the browser can be sent to the bare loopback address: hosts
 * such as code-server rewrite localhost URLs given to openExternal and keep only the host and port.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

export async function listenForRedirect(options: { state: string; signal?: AbortSignal; timeoutMs?: number }): Promise<PendingRedirect> {
  let settle: { resolve: (code: string) => void; reject: (err: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
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
      res.writeHead(400, { "content-type": "text/html" }).end(page("Sign-in not accepted", "This answer does not belong to the sign-in VS Code started. Start it again from VS Code."));
      settle!.reject(new CrmError("The browser answered with a different state than the sign-in expected; start the sign-in again"));
    } else if (error) {
      const description = url.searchParams.get("error_description") ?? error;
      res.writeHead(200, { "content-type": "text/html" }).end(page("Sign-in refused", `The org said: ${description.replace(/[<>&]/g, "")}. You can close this tab.`));
      settle!.reject(new CrmError(`The org refused the sign-in: ${description} (${error})`));
    } else {
      res.writeHead(200, { "content-type": "text/html" }).end(page("Signed in", "You are signed in. You can close this tab and return to VS Code."));
      settle!.resolve(url.searchParams.get("code") ?? "");
    }
    close();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const timer = setTimeout(() => settle!.reject(new CrmError("The browser sign-in was not completed within 5 minutes; start it again")), options.timeoutMs ?? 300_000);
  const onAbort = () => settle!.reject(new CancelledError("The browser sign-in was cancelled"));
  options.signal?.addEventListener("abort", onAbort, { once: true });
  function close() {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    server.close();
    server.closeAllConnections?.();
  }
  code.catch(() => undefined).finally(close);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pending: PendingRedirect = { redirectUri: `${origin}/OauthRedirect`, startUri: `${origin}/`, code, close };
  return pending;
}
