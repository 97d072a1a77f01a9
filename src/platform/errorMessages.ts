/**
 * What a person sees when a command fails: one message and the actions that help. Pure, so the mapping
 * is tested in Node; the command wrapper shows it.
 */
import { APIRequestError, AuthenticationError, CancelledError, CrmError, InvalidResponseError, InvalidURLError, MissingRequiredDataError, NetworkError } from "../client/errors";
import type { Redactor } from "./redact";

export type ErrorAction = "Sign In Again" | "Open Settings" | "Retry" | "Show Log";

export interface ErrorReport {
  /** Null: stay silent (the person cancelled). */
  message: string | null;
  actions: ErrorAction[];
  severity: "error" | "warning";
}

/** Thrown when a person dismisses a prompt; never shown. */
export class UserCancelled extends Error {
  override name = "UserCancelled";
  constructor() {
    super("cancelled");
  }
}

function isCancellation(err: unknown): boolean {
  return err instanceof UserCancelled || err instanceof CancelledError || (err instanceof Error && (err.name === "Canceled" || err.name === "CancellationError"));
}

export function describeError(err: unknown, context: { orgAlias?: string; redactor?: Redactor } = {}): ErrorReport {
  const clean = (text: string) => (context.redactor ? context.redactor.redact(text) : text);
  const org = context.orgAlias ? ` (${context.orgAlias})` : "";
  if (isCancellation(err)) return { message: null, actions: [], severity: "error" };
  if ((err instanceof APIRequestError && err.status === 401) || (err instanceof AuthenticationError && (err.status === 401 || err.error === "invalid_grant"))) {
    const why = err instanceof AuthenticationError ? err.errorDescription : err.message;
    return { message: clean(`The session of the org${org} expired or was refused: ${why}. Sign in again to continue.`), actions: ["Sign In Again", "Show Log"], severity: "warning" };
  }
  if (err instanceof AuthenticationError) {
    return { message: clean(`Sign-in failed${org}: ${err.errorDescription} (${err.error}). Check the login URL, consumer key and credentials.`), actions: ["Sign In Again", "Show Log"], severity: "error" };
  }
  if (err instanceof InvalidURLError) {
    return { message: clean(`${err.message}. Check the org's URL in the CRM settings.`), actions: ["Open Settings"], severity: "error" };
  }
  if (err instanceof NetworkError) {
    const what = err.code === "ETIMEDOUT" ? "did not answer in time" : "could not be reached";
    return { message: clean(`The org${org} ${what}: ${err.message}.`), actions: ["Retry", "Show Log"], severity: "error" };
  }
  if (err instanceof APIRequestError) {
    if (err.errorCode === "REQUEST_LIMIT_EXCEEDED") {
      return { message: clean(`The org${org} has used up its API requests for now (${err.message}). Try again later or ask an admin about the limit.`), actions: ["Show Log"], severity: "warning" };
    }
    const first = err.errors[0];
    const words = first ? `${first.errorCode}: ${first.message}` : err.message;
    const fields = err.fields.length ? ` (fields: ${err.fields.join(", ")})` : "";
    return { message: clean(`The org${org} refused the request: ${words}${fields}`), actions: err.status >= 500 ? ["Retry", "Show Log"] : ["Show Log"], severity: "error" };
  }
  if (err instanceof InvalidResponseError) return { message: clean(err.message), actions: ["Retry", "Show Log"], severity: "error" };
  if (err instanceof MissingRequiredDataError || err instanceof CrmError || err instanceof TypeError || err instanceof RangeError) {
    return { message: clean(err.message), actions: ["Show Log"], severity: "error" };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message: clean(`Something went wrong: ${message}`), actions: ["Show Log"], severity: "error" };
}
