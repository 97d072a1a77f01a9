/** Orgs in the real host: SecretStorage round trip, nothing secret in state or settings, sessions, commands. */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, demoConnection, requestCount } from "./env";

export function registerOrgTests(): void {
  suite("orgs", () => {
    test("adding an org keeps its secrets in SecretStorage only", async () => {
      const { manager, registry } = await api();
      const record = await manager.add({ method: "password", alias: "Host demo", connection: demoConnection() });
      const stored = await registry.readConnection(record.key);
      assert.equal(stored?.password, "demo-password", "the secret store round-trips");
      const state = JSON.stringify(registry.list());
      for (const secret of ["demo-password", "DEMOTOKEN1234", "demo-consumer-secret"]) {
        assert.ok(!state.includes(secret), `${secret} not in globalState`);
        assert.ok(!JSON.stringify(vscode.workspace.getConfiguration("crm")).includes(secret), `${secret} not in settings`);
      }
      assert.equal(registry.list().find((o) => o.key === record.key)?.username, "admin@demo.crm");
    });

    test("a session reaches the org and reports API usage; commands switch the active org", async () => {
      const { manager, registry } = await api();
      const second = await manager.add({ method: "password", alias: "Host second", connection: demoConnection() });
      const session = await manager.session(second.key);
      const limits = await session.crm.getOrgLimits();
      assert.ok(limits.DailyApiRequests);
      assert.ok(session.apiUsage && session.apiUsage.max === 15000);
      await vscode.commands.executeCommand("crm.org.setActive", second.key);
      assert.equal(registry.activeKey, second.key);
    });

    test("a panel reads the org from the click on: its first request leaves before its webview says ready", async () => {
      const { manager, orgInfo } = await api();
      const record = await manager.add({ method: "password", alias: "Host panel", connection: demoConnection() });
      const { crm } = await manager.session(record.key); // signed in, as after any earlier action: the panel's own reads are timed
      // The client reports a request when answered, with its duration: it left at (now − duration).
      const limitsSent = new Promise<number>((resolve) => crm.on("request", (info) => info.path.endsWith("/limits") && resolve(performance.now() - info.durationMs)));
      const panel = orgInfo.show({ orgKey: record.key, id: "" });
      const readyAt = await new Promise<number>((resolve) => panel.onDidBecomeReady(() => resolve(performance.now())));
      const sentAt = await limitsSent;
      assert.ok(sentAt < readyAt, `the limits were asked for ${Math.round(readyAt - sentAt)} ms before the webview could show anything`);
      panel.webviewPanel.dispose();
    });

    test("Sign Out revokes at the org and deletes the secrets; the org stays, signed out", async () => {
      const { manager, registry } = await api();
      const record = registry.list().find((o) => o.alias === "Host second")!;
      await (await manager.session(record.key)).crm.getOrgLimits();
      const revokesBefore = await requestCount("/services/oauth2/revoke");
      await vscode.commands.executeCommand("crm.org.signOut", record.key);
      assert.equal(await requestCount("/services/oauth2/revoke"), revokesBefore + 1);
      assert.equal(await registry.readConnection(record.key), undefined);
      assert.equal(registry.get(record.key)?.signedIn, false);
    });
  });
}
