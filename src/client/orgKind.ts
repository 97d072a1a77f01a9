/** What an org is, and the production rule: no imports, so any room (the extension's activation too) may load it alone. */

/** What an org is, from its Organization record. */
export type OrgKind = "production" | "sandbox" | "scratch" | "developer" | "trial";

/**
 * The production rule every write path goes by: a production org, and one whose kind could not be read
 * (`unknown`, or not read yet), is treated as production.
 */
export function productionLike(kind: OrgKind | "unknown" | undefined): boolean {
  return kind === undefined || kind === "unknown" || kind === "production";
}

/** What a refusal of the production rule calls the org, in the tools' English ("a production org", or why it counts as one). */
export function productionLikeWords(kind: OrgKind | "unknown" | undefined): string {
  return kind === "production" ? "a production org" : "an org whose kind could not be read";
}

/**
 * The kind of an org from its Organization record: a sandbox with a trial expiry is a scratch org, a
 * sandbox otherwise; a Developer Edition org is a developer org; another org with a trial expiry is a
 * trial; anything else is production.
 */
export function orgKindOf(organization: { IsSandbox?: unknown; OrganizationType?: unknown; TrialExpirationDate?: unknown }): OrgKind {
  const trial = typeof organization.TrialExpirationDate === "string" && organization.TrialExpirationDate !== "";
  if (organization.IsSandbox === true) return trial ? "scratch" : "sandbox";
  if (organization.OrganizationType === "Developer Edition") return "developer";
  return trial ? "trial" : "production";
}
