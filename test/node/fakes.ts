/** In-memory stand-ins for VS Code's Memento and SecretStorage, for the vscode-free parts of the extension. */
import type { KeyValueStore, SecretStore } from "../../src/connections/orgRegistry";

export class MemoryState implements KeyValueStore {
  readonly data = new Map<string, unknown>();
  get<T>(key: string, defaultValue: T): T {
    return this.data.has(key) ? (structuredClone(this.data.get(key)) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, structuredClone(value));
  }
}

export class MemorySecrets implements SecretStore {
  readonly data = new Map<string, string>();
  async get(key: string) {
    return this.data.get(key);
  }
  async store(key: string, value: string) {
    this.data.set(key, value);
  }
  async delete(key: string) {
    this.data.delete(key);
  }
}

export const quietLog = () => {
  const lines: string[] = [];
  return { lines, log: { info: (l: string) => lines.push(l), debug: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) } };
};

/** An OrgManager (in-memory state and secrets) with the emulator's admin added by password; `secrets` collects what it asked to redact. */
export async function managerWithDemoOrg(credentials: { loginUrl: string; username: string; password: string; securityToken: string; clientId: string; clientSecret: string }, extra: { describeStore?: import("../../src/connections/describeStore").DescribeStore } = {}) {
  const { OrgManager } = await import("../../src/connections/orgManager");
  const { OrgRegistry } = await import("../../src/connections/orgRegistry");
  const secrets: string[] = [];
  const store = new MemorySecrets();
  const manager = new OrgManager(new OrgRegistry(new MemoryState(), store), {
    settings: () => ({ apiVersion: "", timeoutMs: 10_000, logRequestBodies: false }),
    log: quietLog().log,
    remember: (...s) => secrets.push(...s.filter((x): x is string => !!x)),
    ...extra,
  });
  const c = credentials;
  const org = await manager.add({ method: "password", alias: "Demo", connection: { grant_type: "password", endpoint_url: c.loginUrl, username: c.username, password: c.password, security_token: c.securityToken, client_id: c.clientId, client_secret: c.clientSecret } });
  return { manager, org, secrets, store };
}
