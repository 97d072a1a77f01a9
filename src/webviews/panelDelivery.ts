/**
 * How a panel's messages reach its webview: only while the webview's script runs (from its `ready` until it is
 * hidden, when VS Code drops its document), and none lost — what is posted meanwhile waits, in order, and is
 * delivered at the next `ready`. The panel's state (loading, its data, an error) supersedes what waited before
 * it, and a webview that starts over after a hide is given that state first. No VS Code here: tested in Node.
 */
export class PanelDelivery<M> {
  /** The last state message (loading, data or error): what a webview starting over is given. */
  state?: M;
  private listening = false;
  private queue: M[] = [];

  constructor(private readonly send: (message: M) => void) {}

  /** A passing message (progress, a notice): sent now, or when the webview can take it. */
  post(message: M): void {
    if (this.listening) this.send(message);
    else this.queue.push(message);
  }

  /** What the panel shows now, kept for a webview that starts over. */
  show(message: M): void {
    this.keep(message);
    if (this.listening) this.send(message);
  }

  /** Keeps the state without sending it, when smaller messages already told the open webview (staged edits). */
  keep(message: M): void {
    this.state = message;
    // What waits for the webview starts from this state: what was queued before it is superseded.
    if (!this.listening) this.queue = [message];
  }

  /** The webview's script runs: what waited is delivered in order (or, after a hide, the state). */
  ready(): void {
    this.listening = true;
    const waiting = this.queue.length ? this.queue : this.state !== undefined ? [this.state] : [];
    this.queue = [];
    waiting.forEach(this.send);
  }

  /** The webview was hidden: its document is gone until its next `ready`. */
  hidden(): void {
    this.listening = false;
  }
}
