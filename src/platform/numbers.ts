/** Counts as people read them (1,234). */

let formatter: Intl.NumberFormat | undefined;

/** Built on first use: the first Intl formatter of a process costs about 10 ms, which activation must not pay. */
export const formatCount = (n: number): string => (formatter ??= new Intl.NumberFormat("en-US")).format(n);
