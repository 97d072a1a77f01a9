/**
 * Every run, per org: the statement, when, how many rows, how long. Kept in global storage (across
 * restarts and workspaces), newest first, capped by `crm.soql.historySize`. No VS Code here.
 */
import type { KeyValueStore } from "../connections/orgRegistry";
import type { QueryApi } from "./runText";

export interface HistoryEntry {
  text: string;
  api: QueryApi;
  ranAt: string;
  rows: number;
  durationMs: number;
}

const keyOf = (orgKey: string) => `crm.soql.history.${orgKey}`;

export class QueryHistory {
  constructor(private readonly store: KeyValueStore, private readonly limit: () => number) {}

  list(orgKey: string): HistoryEntry[] {
    return this.store.get<HistoryEntry[]>(keyOf(orgKey), []);
  }

  /** Adds a run; the same statement run again moves to the top instead of appearing twice. */
  async add(orgKey: string, entry: HistoryEntry): Promise<void> {
    const text = entry.text.trim();
    const rest = this.list(orgKey).filter((e) => !(e.text === text && e.api === entry.api));
    await this.store.update(keyOf(orgKey), [{ ...entry, text }, ...rest].slice(0, Math.max(1, this.limit())));
  }

  async clear(orgKey: string): Promise<void> {
    await this.store.update(keyOf(orgKey), undefined);
  }
}

/** Where a document's statements run: the org it is pinned to and whether it queries the Tooling API. */
export interface DocumentPin {
  orgKey?: string;
  tooling?: boolean;
}

const PINS_KEY = "crm.soql.pins";

/** Pins by document URI, kept with the workspace so a reopened scratch file runs where it did. */
export class DocumentPins {
  constructor(private readonly store: KeyValueStore) {}

  get(uri: string): DocumentPin {
    return this.store.get<Record<string, DocumentPin>>(PINS_KEY, {})[uri] ?? {};
  }

  async set(uri: string, pin: DocumentPin): Promise<void> {
    const all = { ...this.store.get<Record<string, DocumentPin>>(PINS_KEY, {}) };
    all[uri] = { ...all[uri], ...pin };
    await this.store.update(PINS_KEY, all);
  }

  async forget(uri: string): Promise<void> {
    const all = { ...this.store.get<Record<string, DocumentPin>>(PINS_KEY, {}) };
    if (!(uri in all)) return;
    delete all[uri];
    await this.store.update(PINS_KEY, all);
  }
}
