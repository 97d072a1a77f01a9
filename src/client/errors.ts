import type { IngestResult } from "./ingestResult";
/** Every error the client raises on purpose derives from CrmError. */
export class CrmError extends Error {
  override name = "CrmError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A required argument or piece of data is missing; `parameter` names it. */
export class MissingRequiredDataError extends CrmError {
  override name = "MissingRequiredDataError";
  constructor(message: string, readonly parameter?: string) {
    super(message);
  }
}

/** Two inputs contradict each other (for example a custom sObject with the knowledgeArticles endpoint). */
export class DataMismatchError extends CrmError {
  override name = "DataMismatchError";
}

/** A URL is not one the client may call: another origin than the org's instance, or plain http off loopback. */
export class InvalidURLError extends CrmError {
  override name = "InvalidURLError";
  constructor(message: string, readonly url?: string) {
    super(message);
  }
}

/** A field or field-like argument is invalid (for example an unknown access type). */
export class InvalidFieldError extends CrmError {
  override name = "InvalidFieldError";
}

/** One error entry of a REST error body: `[{ message, errorCode, fields }]`. */
export interface ApiErrorEntry {
  message: string;
  errorCode: string;
  fields?: string[];
}

/** The org answered with an error status. Carries no token: only method, path (no query) and the server's words. */
export class APIRequestError extends CrmError {
  override name = "APIRequestError";
  readonly status: number;
  readonly errorCode: string;
  readonly fields: string[];
  readonly method: string;
  readonly path: string;
  readonly errors: ApiErrorEntry[];
  constructor(init: { status: number; errorCode: string; message: string; fields?: string[]; method: string; path: string; errors?: ApiErrorEntry[] }) {
    super(init.message);
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.fields = init.fields ?? [];
    this.method = init.method;
    this.path = init.path;
    this.errors = init.errors ?? [{ message: init.message, errorCode: init.errorCode, fields: this.fields }];
  }

  /** The error for an answer of the org's error list (a response, or a composite subrequest's result). */
  static of(status: number, errors: ApiErrorEntry[], method: string, path: string, showFullError = true): APIRequestError {
    const first = errors[0]!;
    const message = showFullError
      ? `${method} ${path} failed with status ${status}: ${errors.map((e) => `${e.errorCode}: ${e.message}`).join("; ")}`
      : `${method} ${path} failed with status ${status} (${first.errorCode})`;
    return new APIRequestError({ status, errorCode: errors.length > 1 ? "MULTIPLE_API_ERRORS" : first.errorCode, message, fields: first.fields, method, path, errors });
  }
}

/** The OAuth token endpoint refused a sign-in (`{ error, error_description }`). */
export class AuthenticationError extends CrmError {
  override name = "AuthenticationError";
  constructor(
    message: string,
    readonly status: number,
    readonly error: string,
    readonly errorDescription: string,
  ) {
    super(message);
  }
}

/**
 * The request never got an answer: connection refused or reset, DNS failure, or timeout (`code`).
 * `outcomeUnknown` is true for a write (POST, PATCH) that may have reached the org before the answer was
 * lost: the change may have happened, so check before sending it again. The cause, when there is one, is
 * a plain Error with the socket's own words only: never the request, its headers or its body.
 */
export class NetworkError extends CrmError {
  override name = "NetworkError";
  readonly outcomeUnknown: boolean;
  constructor(
    message: string,
    readonly code: string,
    readonly method: string,
    readonly path: string,
    options?: { cause?: Error; outcomeUnknown?: boolean },
  ) {
    super(message, options?.cause ? { cause: scrubbedCause(options.cause) } : undefined);
    this.outcomeUnknown = options?.outcomeUnknown ?? false;
  }
}

/** A copy of a low-level error that keeps its message and code and drops everything else it carries. */
function scrubbedCause(err: Error): Error {
  const copy = new Error(err.message);
  copy.name = err.name;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** A success status came with a body that is not what its content type promises (for example cut-off JSON). */
export class InvalidResponseError extends CrmError {
  override name = "InvalidResponseError";
  constructor(
    message: string,
    readonly status: number,
    readonly method: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** A Bulk API job that ended Failed or Aborted, with the org's words. */
export class BulkJobError extends CrmError {
  override name = "BulkJobError";
  /** An import: what its jobs did before this one ended (counts, and the result files written). */
  partial?: IngestResult;
  constructor(readonly jobId: string, readonly state: string, readonly errorMessage: string | undefined) {
    super(`Bulk job ${jobId} ${state === "Aborted" ? "was aborted" : "failed"}${errorMessage ? `: ${errorMessage}` : ""}`);
  }
}

/**
 * A job's results do not add up to the rows uploaded to it: a row is unaccounted for. The rows the org wrote
 * stay written; check the job before loading anything again.
 */
export class IngestCountError extends CrmError {
  override name = "IngestCountError";
  constructor(readonly jobId: string, readonly uploaded: number, readonly successful: number, readonly failed: number, readonly unprocessed: number) {
    super(`${jobId ? `Bulk job ${jobId}` : "The import"} was sent ${uploaded} rows, but its results list ${successful} successful, ${failed} failed and ${unprocessed} unprocessed: ${Math.abs(uploaded - successful - failed - unprocessed)} ${uploaded > successful + failed + unprocessed ? "are unaccounted for" : "too many"}. Check the job's results in the org (Setup, Bulk Data Load Jobs) before loading these rows again.`);
  }
}

/** The caller cancelled the request through its AbortSignal. */
export class CancelledError extends CrmError {
  override name = "CancelledError";
}

const REDACTED = "[redacted]";

/**
 * Takes the given secrets (the client's own tokens) out of an error's text wherever the error carries it: its
 * message and stack, and the strings it holds (an org or proxy that echoes the request's headers puts the
 * bearer token in its error body). Changes the error in place and returns it.
 */
export function redactSecrets<E>(err: E, secrets: Iterable<string | undefined>): E {
  const list = [...secrets].filter((s): s is string => typeof s === "string" && s.length >= 8);
  if (!list.length || !err || typeof err !== "object") return err;
  const clean = (text: string) => (list.some((s) => text.includes(s)) ? list.reduce((t, s) => t.split(s).join(REDACTED), text) : text);
  const seen = new Set<object>();
  const scrub = (value: object, depth: number) => {
    if (seen.has(value) || depth > 4) return;
    seen.add(value);
    for (const key of Object.getOwnPropertyNames(value)) {
      const field = (value as Record<string, unknown>)[key];
      if (typeof field === "string") {
        const cleaned = clean(field);
        if (cleaned !== field) Object.defineProperty(value, key, { value: cleaned, writable: true, configurable: true, enumerable: Object.prototype.propertyIsEnumerable.call(value, key) });
      } else if (field && typeof field === "object") scrub(field, depth + 1);
    }
  };
  scrub(err, 0);
  return err;
}
