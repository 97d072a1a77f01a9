/**
 * What a person sees when a command fails: one message and the actions that help. Pure, so the mapping
 * is tested in Node; the command wrapper shows it.
 */
import * as l10n from "@vscode/l10n";
import { APIRequestError, AuthenticationError, CancelledError, CrmError, InvalidResponseError, InvalidURLError, NetworkError } from "../client/errors";
import type { Redactor } from "./redact";

/** The org has no stored credentials: it was signed out (or its secrets were lost). Sign In Again names it. */
export class NotSignedInError extends CrmError {
  override name = "NotSignedInError";
  constructor(readonly org: { key: string; alias: string }) {
    super(l10n.t("{0} is signed out. Sign in again to use it.", org.alias));
  }
}

export type ErrorAction = "Sign In Again" | "Open Settings" | "Retry" | "Show Log";

/** An action's button, in the display language. */
export function actionLabel(action: ErrorAction): string {
  switch (action) {
    case "Sign In Again": return l10n.t("Sign In Again");
    case "Open Settings": return l10n.t("Open Settings");
    case "Retry": return l10n.t("Retry");
    case "Show Log": return l10n.t("Show Log");
  }
}

export interface ErrorReport {
  /** Null: stay silent (the person cancelled). */
  message: string | null;
  actions: ErrorAction[];
  severity: "error" | "warning";
}

/** A command that cannot go on, for the reason its message gives with the next step: shown as it is. */
export class CommandRefusal extends Error {
  override name = "CommandRefusal";
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
    return { message: clean(l10n.t("The session of the org{0} expired or was refused: {1}. Sign in again to continue.", org, why)), actions: ["Sign In Again", "Show Log"], severity: "warning" };
  }
  if (err instanceof AuthenticationError) {
    return { message: clean(l10n.t("Sign-in failed{0}: {1} ({2}). Check the login URL, consumer key and credentials.", org, err.errorDescription, err.error)), actions: ["Sign In Again", "Show Log"], severity: "error" };
  }
  if (err instanceof InvalidURLError) {
    return { message: clean(l10n.t("{0}. Check the org's URL in the CRM settings.", err.message)), actions: ["Open Settings"], severity: "error" };
  }
  if (err instanceof NetworkError) {
    const message = err.code === "ETIMEDOUT" ? l10n.t("The org{0} did not answer in time: {1}.", org, err.message) : l10n.t("The org{0} could not be reached: {1}.", org, err.message);
    return { message: clean(message), actions: ["Retry", "Show Log"], severity: "error" };
  }
  if (err instanceof APIRequestError) {
    if (err.errorCode === "REQUEST_LIMIT_EXCEEDED") {
      return { message: clean(l10n.t("The org{0} has used up its API requests for now ({1}). Try again later or ask an admin about the limit.", org, err.message)), actions: ["Show Log"], severity: "warning" };
    }
    const first = err.errors[0];
    const words = first ? `${first.errorCode}: ${first.message}` : err.message;
    const message = err.fields.length ? l10n.t("The org{0} refused the request: {1} (fields: {2})", org, words, err.fields.join(", ")) : l10n.t("The org{0} refused the request: {1}", org, words);
    return { message: clean(message), actions: err.status >= 500 ? ["Retry", "Show Log"] : ["Show Log"], severity: "error" };
  }
  if (err instanceof InvalidResponseError) return { message: clean(err.message), actions: ["Retry", "Show Log"], severity: "error" };
  if (err instanceof CommandRefusal || err instanceof CrmError || err instanceof TypeError || err instanceof RangeError) {
    return { message: clean(err.message), actions: ["Show Log"], severity: "error" };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message: clean(l10n.t("Something went wrong: {0}", message)), actions: ["Show Log"], severity: "error" };
}
