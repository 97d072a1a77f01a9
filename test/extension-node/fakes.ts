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
