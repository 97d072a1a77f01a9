/**
 * Tree change events that never overlap a pending getChildren. VS Code registers every returned element's
 * id when a getChildren answer arrives; when a change event makes it ask again while an earlier answer is
 * still pending, both answers register the same ids ("Element with id … is already registered") and the
 * node stays empty. So changes that arrive while any getChildren is pending wait until none is, and the
 * changes gathered meanwhile go out together (one refresh of everything when the whole tree changed).
 * A later refresh thereby supersedes an earlier one: nothing interleaves. No VS Code here: tested in Node.
 */
export class TreeChangeQueue<N> {
  private pending = 0;
  private readonly queued = new Set<N | undefined>();
  private flushTimer?: ReturnType<typeof setTimeout>;

  /** `emit` is the view's onDidChangeTreeData emitter. */
  constructor(private readonly emit: (node: N | undefined) => void) {}

  /** Asks VS Code to redraw a node (or the whole tree) once no getChildren is pending. */
  fire(node?: N): void {
    this.queued.add(node);
    this.scheduleFlush();
  }

  /** Wraps one getChildren: changes fired while it runs are held until it (and every other) has answered. */
  async track<T>(load: () => Promise<T>): Promise<T> {
    this.pending++;
    try {
      return await load();
    } finally {
      this.pending--;
      this.scheduleFlush();
    }
  }

  private scheduleFlush(): void {
    if (this.pending > 0 || this.flushTimer || !this.queued.size) return;
    // A macrotask, so the answer VS Code is about to receive is taken in before the next request.
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      if (this.pending > 0) return;
      const nodes = this.queued.has(undefined) ? [undefined] : [...this.queued];
      this.queued.clear();
      for (const node of nodes) this.emit(node);
    }, 0);
  }

  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.queued.clear();
  }
}
