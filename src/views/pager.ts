/**
 * Paged lists for the Knowledge and Feeds views: one page per "Load more", never more; each row once even
 * when the list moves between pages; and a list started over (a refresh, a change, a new sort) supersedes a
 * load still on its way, whose answer is dropped without redrawing anything. No VS Code here: tested in Node.
 */
import { Emitter } from "../shared/events";
import { newById } from "../shared/lists";

/** One page as a source answers: its rows and where the next one starts (null: no more). */
export interface Page<R, C> {
  rows: R[];
  next: C | null;
}

export interface PagedState<R> {
  rows: R[];
  hasMore: boolean;
  /** Pages loaded (0 before the first answer). */
  pages: number;
  error?: unknown;
}

interface Entry<K, R, C> extends PagedState<R> {
  key: K;
  next: C | null;
  inFlight?: Promise<PagedState<R>>;
  /** The tree asked for the load on its way (a getChildren awaits it): its answer shows the rows. */
  answersTree?: boolean;
}

/** A model of paged lists (the groups of the Knowledge view, the feeds of the Feeds view) says how to read a page. */
export abstract class Pager<K, R extends { id: string }, C> {
  private readonly entries = new Map<string, Entry<K, R, C>>();
  protected readonly changed = new Emitter<K | undefined>();
  /** The list whose rows changed (undefined: all of them). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly keyOf: (key: K) => string) {}

  /** One page of a list: the first when `cursor` is undefined. */
  protected abstract fetch(key: K, cursor: C | undefined): Promise<Page<R, C>>;

  state(key: K): PagedState<R> | undefined {
    return this.entries.get(this.keyOf(key));
  }

  /** The first page unless a page is loaded already (or failed); a load on its way is shared. */
  ensureLoaded(key: K): Promise<PagedState<R>> {
    const entry = this.entries.get(this.keyOf(key));
    if (entry?.inFlight) return entry.inFlight;
    if (entry && (entry.pages > 0 || entry.error)) return Promise.resolve(entry);
    return this.loadMore(key);
  }

  /**
   * `ensureLoaded` for the tree's own request (its getChildren): the load's end redraws nothing, as the answer
   * shows its rows. A redraw then would make VS Code ask again and — when the tree has the focus, or had it a
   * moment before — focus the tree again when it is drawn: a command palette opened meanwhile closed.
   */
  loadForTree(key: K): Promise<PagedState<R>> {
    const loading = this.ensureLoaded(key);
    const entry = this.entries.get(this.keyOf(key));
    if (entry?.inFlight) entry.answersTree = true;
    return loading;
  }

  /** Fetches exactly one more page (one load at a time per list); its end redraws the list unless the tree asked for it. */
  loadMore(key: K): Promise<PagedState<R>> {
    const id = this.keyOf(key);
    let entry = this.entries.get(id);
    if (entry?.inFlight) return entry.inFlight;
    if (!entry) this.entries.set(id, (entry = { key, rows: [], hasMore: false, pages: 0, next: null }));
    const current = entry;
    current.error = undefined;
    current.answersTree = false;
    current.inFlight = (async () => {
      try {
        const page = await this.fetch(key, current.pages ? current.next ?? undefined : undefined);
        // A list written to between two pages can repeat a row on the next page: each row once.
        current.rows.push(...newById(current.rows, page.rows));
        current.next = page.next;
        current.hasMore = page.next !== null;
        current.pages++;
      } catch (err) {
        current.error = err;
      } finally {
        current.inFlight = undefined;
        // Started over meanwhile: this answer belongs to a list no longer shown.
        if (this.entries.get(id) === current && !current.answersTree) this.changed.fire(key);
      }
      return current;
    })();
    return current.inFlight;
  }

  /** Starts a list (or every list) over; it loads again when shown. */
  reset(key?: K): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(this.keyOf(key));
    this.changed.fire(key);
  }

  /** The lists loaded that hold a row passing `test`. */
  holding(test: (row: R) => boolean): K[] {
    return [...this.entries.values()].filter((e) => e.rows.some(test)).map((e) => e.key);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
