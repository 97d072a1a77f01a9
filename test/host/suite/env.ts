/** What the runner hands the in-host tests through code-server's environment. */
import * as vscode from "vscode";
import type { CrmExplorerApi } from "../../../src/extension";

export const EXTENSION_ID = "crm-explorer.crm-explorer";

export function emulatorUrl(): string {
  const url = process.env.CRM_TEST_EMULATOR_URL;
  if (!url) throw new Error("CRM_TEST_EMULATOR_URL is not set: run the in-host suite through test/host/inHost.test.ts");
  return url;
}

export async function requestCount(path?: string): Promise<number> {
  const res = await fetch(`${emulatorUrl()}/__emulator/requests${path ? `?path=${encodeURIComponent(path)}` : ""}`);
  return ((await res.json()) as { count: number }).count;
}

/** The extension's internals, which it hands out only in VS Code's test mode (this suite's). */
export async function api(): Promise<CrmExplorerApi> {
  const ext = vscode.extensions.getExtension<CrmExplorerApi | undefined>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  const internals = await ext.activate();
  if (!internals) throw new Error("the extension handed out no internals: the in-host suite must run in VS Code's test mode");
  return internals;
}

export function demoConnection() {
  return {
    grant_type: "password" as const, endpoint_url: emulatorUrl(), username: "admin@demo.crm", password: "demo-password", security_token: "DEMOTOKEN1234",
    client_id: "3MVG9demoConsumerKey", client_secret: "demo-consumer-secret",
  };
}

/** How many writes (anything but a read or a sign-in) the org has answered. */
export async function writeCount(): Promise<number> {
  const res = await fetch(`${emulatorUrl()}/__emulator/requests`);
  return ((await res.json()) as { writes: number }).writes;
}
