/** Refresh-token rotation (an app with rotation on): every refresh answers with a new refresh token and spends the old one. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { AccessTokenAuth, Crm, RefreshTokenAuth, type AuthSession } from "../../../src/client";
import { useEmulator } from "../../helpers/emulator";
import { browserSession } from "../../helpers/oauth";

const emu = useEmulator({ rotateRefreshTokens: true });

/** Expires every access token, then makes one call: each round forces one refresh with the newest refresh token. */
async function surviveExpiries(crm: Crm, rounds: number): Promise<AuthSession[]> {
  const refreshed: AuthSession[] = [];
  crm.on("tokenRefreshed", (s) => refreshed.push(s));
  for (let i = 0; i < rounds; i++) {
    emu().setFault("expireTokens", true);
    const limits = await crm.getOrgLimits();
    assert.ok(limits.DailyApiRequests, `call after expiry ${i + 1}`);
  }
  return refreshed;
}

test("a refresh-token client survives three expiries in a row, sending the newest refresh token each time", async () => {
  const start = await browserSession(emu());
  const c = emu().credentials;
  const crm = new Crm({ auth: new RefreshTokenAuth({ loginUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret, refreshToken: start.refreshToken! }) });
  try {
    const connected = await crm.connect();
    assert.notEqual(connected.refreshToken, start.refreshToken, "signing in with a refresh token rotated it already");
    const refreshed = await surviveExpiries(crm, 3);
    assert.equal(refreshed.length, 3);
    assert.equal(new Set(refreshed.map((s) => s.refreshToken)).size, 3, "each refresh brought a new refresh token");
    assert.equal(crm.getSession()!.refreshToken, refreshed[2]!.refreshToken, "the session keeps the newest");
    const sent = emu().requests.filter((r) => r.path === "/services/oauth2/token").map((r) => new URLSearchParams(r.body).get("refresh_token"));
    assert.deepEqual(sent.slice(-3), [connected.refreshToken, refreshed[0]!.refreshToken, refreshed[1]!.refreshToken], "each refresh sent the one the previous answer gave");
  } finally {
    crm.close();
  }
});

test("an access token with a refresh token (what the extension stores) follows rotation too", async () => {
  const start = await browserSession(emu());
  const c = emu().credentials;
  const crm = new Crm({ auth: new AccessTokenAuth({ accessToken: start.accessToken, instanceUrl: start.instanceUrl, refreshToken: start.refreshToken, clientId: c.clientId, clientSecret: c.clientSecret, loginUrl: c.loginUrl }) });
  try {
    await crm.connect();
    const refreshed = await surviveExpiries(crm, 3);
    assert.equal(refreshed.length, 3);
    assert.notEqual(refreshed[2]!.refreshToken, start.refreshToken);
  } finally {
    crm.close();
  }
});
