/** The Org Info panel's messages (see common.ts). */
import * as z from "zod/mini";
import { commonUpdates, parserOf } from "./common";

/** One limit as the Org Info panel draws it. */
const limitBar = z.object({
  name: z.string(),
  label: z.string(),
  used: z.number(),
  max: z.number(),
  /** used / max in [0, 1]; 0 when max is 0. */
  pressure: z.number(),
});
export type LimitBar = z.infer<typeof limitBar>;

const orgInfoView = z.object({
  alias: z.string(),
  instanceUrl: z.string(),
  apiVersion: z.string(),
  user: z.object({ name: z.string(), username: z.string(), email: z.string(), userId: z.string(), locale: z.string() }),
  limits: z.array(limitBar),
  fetchedAt: z.string(),
});
export type OrgInfoView = z.infer<typeof orgInfoView>;

const hostToOrgInfo = z.discriminatedUnion("type", [...commonUpdates, z.object({ type: z.literal("orgInfo"), info: orgInfoView })]);
export type HostToOrgInfo = z.infer<typeof hostToOrgInfo>;

const orgInfoToHost = z.discriminatedUnion("type", [z.object({ type: z.literal("ready") }), z.object({ type: z.literal("refresh") }), z.object({ type: z.literal("openInBrowser") })]);
export type OrgInfoToHost = z.infer<typeof orgInfoToHost>;

export const parseOrgInfoUpdate = parserOf(hostToOrgInfo);
export const parseOrgInfoRequest = parserOf(orgInfoToHost);
