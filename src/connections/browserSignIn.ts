/** Browser sign-in: authorization code with PKCE, a loopback redirect, the state checked, the code exchanged. */
import * as l10n from "@vscode/l10n";
import { CommandRefusal } from "../platform/errorMessages";
import type { HelperConnection } from "../client";
import { buildAuthorizationUrl, createOAuthState, createPkcePair, exchangeAuthorizationCode, pollDeviceToken, requestDeviceCode, type AuthSession, type DeviceCode } from "../client/auth";
import { listenForRedirect } from "./loopback";

export interface BrowserSignInOptions {
  loginUrl: string;
  clientId: string;
  /** Opens the authorization URL (vscode.env.openExternal in the extension). */
  openExternal(url: string): Promise<boolean>;
  /** The loopback port of the callback URL (crm.signIn.callbackPort; 1717 by default). */
  callbackPort?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Resolves with the connection to store: the tokens, the instance and what is needed to refresh. */
export async function browserSignIn(o: BrowserSignInOptions): Promise<HelperConnection> {
  const pkce = createPkcePair();
  const state = createOAuthState();
  const redirect = await listenForRedirect({ state, port: o.callbackPort, signal: o.signal, timeoutMs: o.timeoutMs });
  const { createTokenPoster } = await import("../client/transport");
  const poster = createTokenPoster();
  try {
    redirect.authorizeUrl = buildAuthorizationUrl({ loginUrl: o.loginUrl, clientId: o.clientId, redirectUri: redirect.redirectUri, codeChallenge: pkce.challenge, state });
    if (!(await o.openExternal(redirect.startUri))) throw new CommandRefusal(l10n.t("The browser could not be opened for the sign-in"));
    const code = await redirect.code;
    const session = await exchangeAuthorizationCode(poster.post, { loginUrl: o.loginUrl, clientId: o.clientId, code, redirectUri: redirect.redirectUri, codeVerifier: pkce.verifier });
    return connectionOf(session, o);
  } finally {
    redirect.close();
    poster.close();
  }
}

/** What a browser or device sign-in leaves to store: the tokens, the instance, and what refreshing needs. */
function connectionOf(session: AuthSession, o: { loginUrl: string; clientId: string }): HelperConnection {
  return {
    grant_type: "access_token", access_token: session.accessToken, refresh_token: session.refreshToken, instance_url: session.instanceUrl,
    client_id: o.clientId, endpoint_url: o.loginUrl,
  };
}

export interface DeviceSignInOptions {
  loginUrl: string;
  clientId: string;
  /** Tells the person the code and where to enter it (from any browser, on any machine). */
  show(device: Pick<DeviceCode, "userCode" | "verificationUri">): void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Device sign-in: for windows whose extension host is not beside the person's browser (SSH, WSL,
 * Codespaces, code-server), where no loopback redirect can reach it. The person enters a code at the
 * org's verification page; this polls the org until they have.
 */
export async function deviceSignIn(o: DeviceSignInOptions): Promise<HelperConnection> {
  const { createTokenPoster } = await import("../client/transport");
  const poster = createTokenPoster();
  try {
    const device = await requestDeviceCode(poster.post, { loginUrl: o.loginUrl, clientId: o.clientId });
    o.show({ userCode: device.userCode, verificationUri: device.verificationUri });
    return connectionOf(await pollDeviceToken(poster.post, { loginUrl: o.loginUrl, clientId: o.clientId, device, signal: o.signal, timeoutMs: o.timeoutMs }), o);
  } finally {
    poster.close();
  }
}
