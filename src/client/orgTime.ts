/**
 * Times the org writes (`…T10:00:00.000+0000`) read as instants, and compared with times this machine noted: the
 * two clocks may differ, so a window this machine noted is widened by the skew allowed.
 */

/** How far the org's clock may stand from this machine's. */
export const CLOCK_SKEW_MS = 15 * 60_000;

/** A time as the org writes it (an offset without a colon) or as ISO, in milliseconds; NaN when it is none. */
export function orgInstant(text: unknown): number {
  return Date.parse(String(text).replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
}

/** Whether a time the org wrote falls between two times this machine noted (no end: still going), the skew allowed. */
export function withinSkew(orgTime: unknown, from: string, to?: string): boolean {
  const at = orgInstant(orgTime);
  return at >= Date.parse(from) - CLOCK_SKEW_MS && at <= (to === undefined ? Infinity : Date.parse(to) + CLOCK_SKEW_MS);
}
