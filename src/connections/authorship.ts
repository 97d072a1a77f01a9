/**
 * Who a write is for: work run inside `writtenBy("agent", …)` (an agent's tool, a grid of an agent's proposal)
 * is recorded in the write history as that author's, whichever command, panel or client call sends it. The
 * mark follows the work's own async calls (AsyncLocalStorage), so concurrent work of a person stays theirs.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type WriteAuthor = "agent";

const author = new AsyncLocalStorage<WriteAuthor>();

export const writtenBy = <T>(by: WriteAuthor | undefined, work: () => T): T => (by ? author.run(by, work) : work());

export const currentAuthor = (): WriteAuthor | undefined => author.getStore();

const oneEntry = new AsyncLocalStorage<true>();

/**
 * Work whose many writes the write history keeps as one entry of its own (a migration run and its revert): the
 * writes still announce their changes to views and panels, but each is not an entry by itself.
 */
export const asOneEntry = <T>(work: () => T): T => oneEntry.run(true, work);

export const insideOneEntry = (): boolean => oneEntry.getStore() === true;
