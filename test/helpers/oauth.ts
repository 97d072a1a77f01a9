/** A browser sign-in done by code (authorize page → code → token), for tests that need a refresh token. */
import { buildAuthorizationUrl, createOAuthState, createPkcePair, createTokenPoster, exchangeAuthorizationCode, type AuthSession } from "../../src/client";
import type { Emulator } from "../../src/demo-org";

export async function browserSession(emu: Emulator): Promise<AuthSession> {
  const c = emu.credentials;
  const pkce = createPkcePair();
  const redirectUri = "http://localhost:1717/OauthRedirect";
  const url = buildAuthorizationUrl({ loginUrl: c.loginUrl, clientId: c.clientId, redirectUri, codeChallenge: pkce.challenge, state: createOAuthState() });
  const code = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!).searchParams.get("code")!;
  const poster = createTokenPoster();
  try {
    return await exchangeAuthorizationCode(poster.post, { loginUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret, code, redirectUri, codeVerifier: pkce.verifier });
  } finally {
    poster.close();
  }
}

/**
 * A free loopback port for a browser sign-in in a test, listed in the emulated app's callback URLs (orgs
 * match them exactly), so parallel test files never meet on the default port.
 */
export async function freeCallbackPort(emu: Emulator): Promise<number> {
  const { createServer } = await import("node:net");
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
  emu.oauth.app.callbackUrls.push(`http://localhost:${port}/OauthRedirect`);
  return port;
}
