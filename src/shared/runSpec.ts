/**
 * What a results panel runs and what the org says of it, shared by the SOQL features, the commands and the panel's
 * protocol: each type comes from its schema, which validates it when it crosses into a webview or back.
 */
import * as z from "zod/mini";

export const QUERY_APIS = ["soql", "tooling", "sosl"] as const;
export type QueryApiName = (typeof QUERY_APIS)[number];
export const queryApi = z.enum(QUERY_APIS);
export function isQueryApi(value: unknown): value is QueryApiName {
  return QUERY_APIS.includes(value as QueryApiName);
}

/** A statement a results panel runs, and the API it runs on. */
export const runSpec = z.object({
  api: queryApi,
  /** The statement as written (comments are removed before it is sent). */
  text: z.string(),
  /** Only ask the org how it would run the statement (its query plan); read no rows. */
  explain: z.optional(z.boolean()),
});
export type RunSpec = z.infer<typeof runSpec>;

/** A statement's query plans as the panel shows them, with what they advise. */
export const planView = z.object({
  plans: z.array(z.object({
    leadingOperationType: z.string(), relativeCost: z.number(), cardinality: z.number(), sobjectCardinality: z.number(),
    sobjectType: z.string(), fields: z.array(z.string()), notes: z.array(z.string()),
  })),
  advice: z.array(z.object({ severity: z.enum(["warning", "info"]), message: z.string() })),
});
export type PlanView = z.infer<typeof planView>;
