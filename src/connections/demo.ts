import type { OrgRecord, OrgRegistry } from "./orgRegistry";

/**
 * `npm start` passes the demo org's helper file in CRM_DEMO_HELPER: it is imported once, with no network
 * call (activation stays offline); the first use of the org signs in. Its secrets go to the secret store.
 */
export async function importDemoHelper(registry: OrgRegistry, helperPath: string): Promise<OrgRecord | undefined> {
  const { readHelperFile } = await import("../client/connection-info");
  const connection = readHelperFile(helperPath).connection;
  const loginUrl = connection.endpoint_url ?? "";
  if (registry.list().some((o) => o.loginUrl === loginUrl && o.username === connection.username)) return undefined;
  return registry.add({ alias: "Demo org", method: "helper", username: connection.username, loginUrl, instanceUrl: loginUrl, clientId: connection.client_id ?? connection.client_key }, connection);
}
