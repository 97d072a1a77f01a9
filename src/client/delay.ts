/** Waiting that an AbortSignal can cut short (retry backoff, polling). */
import { CancelledError } from "./errors";

/** Resolves after `ms`, or rejects with CancelledError(`cancelled`) as soon as `signal` aborts. */
export function delay(ms: number, signal: AbortSignal | undefined, cancelled: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError(cancelled));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError(cancelled));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
