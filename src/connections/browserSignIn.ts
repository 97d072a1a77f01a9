/** Browser sign-in: authorization code with PKCE, a loopback redirect, the state checked, the code exchanged. */
import type { HelperConnection } from "../client";
import { buildAuthorizationUrl, createOAuthState, createPkcePair, exchangeAuthorizationCode } from "../client/auth";
import { listenForRedirect } from "./loopback";

export interface BrowserSignInOptions {
  loginUrl: string;
  clientId: string;
  /** Opens the authorization URL (vscode.env.openExternal in the extension). */
  openExternal(url: string): Promise<boolean>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Resolves with the connection to store: the tokens, the instance and what is needed to refresh. */
export async function browserSignIn(o: BrowserSignInOptions): Promise<HelperConnection> {
  const pkce = createPkcePair();
  const state = createOAuthState();
  const redirect = await listenForRedirect({ state, signal: o.signal, timeoutMs: o.timeoutMs });
  const { createTokenPoster } = await import("../client/transport");
  const poster = createTokenPoster();
  try {
    redirect.authorizeUrl = buildAuthorizationUrl({ loginUrl: o.loginUrl, clientId: o.clientId, redirectUri: redirect.redirectUri, codeChallenge: pkce.challenge, state });
    if (!(await o.openExternal(redirect.startUri))) throw new Error("The browser could not be opened for the sign-in");
    const code = await redirect.code;
    const session = await exchangeAuthorizationCode(poster.post, { loginUrl: o.loginUrl, clientId: o.clientId, code, redirectUri: redirect.redirectUri, codeVerifier: pkce.verifier });
    return {
      grant_type: "access_token", access_token: session.accessToken, refresh_token: session.refreshToken, instance_url: session.instanceUrl,
      client_id: o.clientId, endpoint_url: o.loginUrl,
    };
  } finally {
    redirect.close();
    poster.close();
  }
}
