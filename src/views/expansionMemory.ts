/**
 * Which rows of a view a person opened or closed, kept in the workspace's state: VS Code does not restore
 * an extension's tree after a window reload, so the view's items take their state from here (Published,
 * Archived, a group's feed open again as they were). Only rows with an id are remembered.
 */

/** The part of a `vscode.Memento` this needs (kept vscode-free so it can be tested in Node). */
export interface StateStore {
  get<T>(key: string, fallback: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

/** VS Code's `TreeItemCollapsibleState`: None 0, Collapsed 1, Expanded 2. */
interface Collapsible {
  id?: string;
  collapsibleState?: number;
}

/** Enough for every group of every org a person keeps; the oldest choice is forgotten first. */
export const REMEMBERED_ROWS = 500;

export class ExpansionMemory {
  private readonly key: string;

  constructor(private readonly store: StateStore, view: string) {
    this.key = `crm.${view}.expanded`;
  }

  private read(): Record<string, boolean> {
    return this.store.get<Record<string, boolean>>(this.key, {});
  }

  /** Records that a row was opened or closed (the latest choice last, so the bound drops the oldest). */
  set(id: string | undefined, open: boolean): void {
    if (!id) return;
    const rows = { ...this.read() };
    delete rows[id];
    rows[id] = open;
    const ids = Object.keys(rows);
    for (const old of ids.slice(0, Math.max(0, ids.length - REMEMBERED_ROWS))) delete rows[old];
    void this.store.update(this.key, rows);
  }

  /** The item as the person left it: a row they opened opens, one they closed stays closed. */
  apply<T extends Collapsible>(item: T): T {
    const open = item.id && item.collapsibleState ? this.read()[item.id] : undefined;
    if (open !== undefined) item.collapsibleState = open ? 2 : 1;
    return item;
  }
}
