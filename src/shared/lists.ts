/** Small list helpers shared by the views' models. No VS Code here. */

/** The items of `incoming` whose id is not in `existing`, each once: a page that repeats rows adds nothing twice. */
export function newById<T extends { id: string }>(existing: readonly { id: string }[], incoming: readonly T[]): T[] {
  const known = new Set(existing.map((e) => e.id));
  return incoming.filter((item) => !known.has(item.id) && known.add(item.id));
}
