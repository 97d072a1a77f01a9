/**
 * One model per org, created once even when several views ask at the same moment (at start-up every group
 * asks together): the first request creates it, the others wait for the same one. No VS Code here.
 */
type MaybeDisposable = { dispose?(): void };

export class PerOrg<M extends object> {
  private readonly creating = new Map<string, Promise<M>>();
  private readonly ready = new Map<string, M>();

  constructor(private readonly create: (orgKey: string) => Promise<M>) {}

  get(orgKey: string): Promise<M> {
    let model = this.creating.get(orgKey);
    if (!model) {
      const made = this.create(orgKey);
      model = made;
      made.then(
        (m) => (this.creating.get(orgKey) === made ? this.ready.set(orgKey, m) : (m as MaybeDisposable).dispose?.()),
        // A failed creation (for example signing in failed) is not kept: the next request tries again.
        () => this.creating.get(orgKey) === made && this.creating.delete(orgKey),
      );
      this.creating.set(orgKey, made);
    }
    return model;
  }

  /** The org's model if it exists already (for synchronous reads such as tree item descriptions). */
  peek(orgKey: string): M | undefined {
    return this.ready.get(orgKey);
  }

  /** The models that exist now. */
  existing(): M[] {
    return [...this.ready.values()];
  }

  /** Forgets every model; those still being created are disposed when they arrive. */
  clear(): void {
    for (const model of this.ready.values()) (model as MaybeDisposable).dispose?.();
    this.ready.clear();
    this.creating.clear();
  }
}
