/**
 * What every panel's protocol shares. A webview is a separate document, so its messages are untrusted input like
 * any other: each panel's protocol (beside this file) describes its messages once, as schemas, and both their
 * types and the checks on receipt, on both sides, come from that description.
 */
import * as z from "zod/mini";
import { isRecordId } from "../../client/ids";
import { runSpec } from "../../shared/runSpec";

/** The host's messages every panel understands. */
export const commonUpdates = [
  z.object({ type: z.literal("loading") }),
  z.object({ type: z.literal("error"), message: z.string() }),
] as const;
export type CommonUpdate = z.infer<(typeof commonUpdates)[number]>;

export const recordId = z.string().check(z.refine(isRecordId));
/** A whole number of 0 or more: a row, a column, a count. */
export const index = z.number().check(z.int(), z.gte(0));

/** A message checked against its schema: the message as described, or undefined (the receiver ignores it). */
export function parserOf<T>(schema: z.ZodMiniType<T>): (raw: unknown) => T | undefined {
  return (raw) => {
    const parsed = schema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  };
}

/** What identifies a panel's entity; saved as the webview's state so a reload can reopen it. */
const panelTarget = z.object({
  orgKey: z.string(),
  /** The entity within the org (empty for org-wide panels; a results panel's source). */
  id: z.string(),
  /** A results panel: the statement it runs. */
  spec: z.optional(runSpec),
});
export type PanelTarget = z.infer<typeof panelTarget>;
const readTarget = parserOf(panelTarget);

/** A saved panel state if it names a target (a state saved as `params: { api, text }` by an earlier version is read too). */
export function parsePanelTarget(raw: unknown): PanelTarget | undefined {
  const saved = raw && typeof raw === "object" && !("spec" in raw) && "params" in raw ? { ...raw, spec: (raw as { params: unknown }).params } : raw;
  return readTarget(saved);
}
