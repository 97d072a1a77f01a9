/**
 * The Composite API as documented: `/composite` runs up to 25 subrequests in order, each able to use an
 * earlier one's answer through `@{referenceId.path}`; with allOrNone a failure rolls every change back and
 * the others answer 400 PROCESSING_HALTED; without it, only the subrequests that refer to a failed one are
 * not run. `/composite/batch` runs up to 25 independent subrequests, optionally halting on the first error.
 * Every answer is HTTP 200 with a result per subrequest.
 */
import { type Ctx, type Reply, type Route, bodyObject, json } from "./context";
import { ApiError } from "./soql";

/** Runs one request of the data API as the server would (the route's reply, or its ApiError). */
export type Dispatch = (ctx: Ctx, method: string, url: string, body: unknown) => Promise<Reply>;

/** Headers a subrequest inherits from the top-level request and may not set itself (the org answers 400). */
const INHERITED = ["accept", "authorization", "content-type"];

/**
 * The request a subrequest is: the top-level request's headers without its own conditions, plus the
 * subrequest's `httpHeaders` (If-Unmodified-Since, If-Match and the like apply to that subrequest alone).
 */
function subrequestCtx(ctx: Ctx, httpHeaders: unknown): Ctx {
  const headers: Ctx["headers"] = Object.fromEntries(Object.entries(ctx.headers).filter(([name]) => !name.startsWith("if-")));
  for (const [name, value] of Object.entries(httpHeaders && typeof httpHeaders === "object" ? httpHeaders : {})) headers[name.toLowerCase()] = String(value);
  return { ...ctx, headers };
}

function checkHeaders(list: Record<string, unknown>[]): void {
  for (const sub of list) {
    const named = Object.keys(sub.httpHeaders && typeof sub.httpHeaders === "object" ? sub.httpHeaders : {}).find((h) => INHERITED.includes(h.toLowerCase()));
    if (named) throw new ApiError(400, "INVALID_INPUT", `The ${named} header is inherited from the composite request and cannot be set on subrequest '${String(sub.referenceId ?? "")}'`);
  }
}

const MAX_SUBREQUESTS = 25;
const REFERENCE = /@\{([A-Za-z][A-Za-z0-9_]*)((?:\.[A-Za-z_][\w]*|\[\d+\])*)\}/g;

const halted = (message: string) => ({ status: 400, body: [{ errorCode: "PROCESSING_HALTED", message }] });

/** The value a reference's path names in an earlier subrequest's answer (`id`, `records[0].Id`). */
function lookUp(body: unknown, path: string): unknown {
  let value: unknown = body;
  for (const step of path.match(/[A-Za-z_]\w*|\d+/g) ?? []) value = value && typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined;
  return value;
}

function subrequests(ctx: Ctx, key: "compositeRequest" | "batchRequests"): Record<string, unknown>[] {
  const list = bodyObject(ctx)[key];
  if (!Array.isArray(list) || !list.length) throw new ApiError(400, "JSON_PARSER_ERROR", `${key} must be a non-empty array`);
  if (list.length > MAX_SUBREQUESTS) throw new ApiError(400, "LIMIT_EXCEEDED", `Composite and batch requests take at most ${MAX_SUBREQUESTS} subrequests, got ${list.length}`);
  return list as Record<string, unknown>[];
}

/** A subrequest's URL within this version's data API: `/services/data/vNN.N/…` → `/…?query`. */
function dataPath(ctx: Ctx, url: unknown): string {
  const m = typeof url === "string" ? /^\/services\/data\/v(\d+\.\d)(\/[^]*)$/.exec(url) : null;
  if (!m) throw new ApiError(400, "INVALID_INPUT", `The url of a subrequest must start with /services/data/v${ctx.version}/, got ${JSON.stringify(url)}`);
  return m[2]!;
}

export function compositeRoutes(dispatch: Dispatch): Route[] {
  return [
    {
      method: "POST", pattern: /^\/composite\/?$/,
      handler: async (ctx) => {
        const list = subrequests(ctx, "compositeRequest");
        const allOrNone = bodyObject(ctx).allOrNone === true;
        const ids = list.map((s) => s.referenceId);
        for (const id of ids) {
          if (typeof id !== "string" || !/^[A-Za-z][A-Za-z0-9_]*$/.test(id)) throw new ApiError(400, "INVALID_INPUT", `A referenceId must start with a letter and hold only letters, digits and underscores, got ${JSON.stringify(id)}`);
        }
        const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
        if (duplicate) throw new ApiError(400, "INVALID_INPUT", `Duplicate referenceId: ${String(duplicate)}`);
        checkHeaders(list);
        const restore = allOrNone ? ctx.store.snapshot() : undefined;
        const answers = new Map<string, { status: number; body: unknown }>();
        const results: { body: unknown; httpHeaders: Record<string, string>; httpStatusCode: number; referenceId: string }[] = [];
        for (const sub of list) {
          const referenceId = String(sub.referenceId);
          let reply: { status: number; body?: unknown; headers?: Record<string, string> };
          // A reference to a failed or unknown subrequest stops this one; its value is put in the text otherwise.
          const resolve = (text: string) => text.replace(REFERENCE, (_all, ref: string, path: string) => {
            const earlier = answers.get(ref);
            const value = earlier && earlier.status < 300 ? lookUp(earlier.body, path) : undefined;
            if (value === undefined || value === null) throw halted(`Invalid reference specified. No value for ${ref}${path} found in ${ref}. Provided referenceId ('${ref}') refers to a subrequest that failed, came later or does not exist.`);
            return String(value);
          });
          try {
            const url = resolve(String(sub.url ?? ""));
            const body = sub.body === undefined ? undefined : JSON.parse(resolve(JSON.stringify(sub.body)));
            reply = await dispatch(subrequestCtx(ctx, sub.httpHeaders), String(sub.method ?? "GET").toUpperCase(), dataPath(ctx, url), body);
          } catch (err) {
            if (err instanceof ApiError) reply = { status: err.status, body: [{ errorCode: err.errorCode, message: err.message, ...(err.fields ? { fields: err.fields } : {}) }] };
            else if (err && typeof err === "object" && "status" in err) reply = err as { status: number; body: unknown };
            else throw err;
          }
          answers.set(referenceId, { status: reply.status, body: reply.body });
          results.push({ body: reply.body ?? null, httpHeaders: reply.headers ?? {}, httpStatusCode: reply.status, referenceId });
        }
        if (restore && results.some((r) => r.httpStatusCode >= 400)) {
          restore();
          const rolledBack = halted("The transaction was rolled back since another operation in the same transaction failed.");
          for (const r of results.filter((x) => x.httpStatusCode < 400)) Object.assign(r, { httpStatusCode: rolledBack.status, body: rolledBack.body, httpHeaders: {} });
        }
        return json(200, { compositeResponse: results });
      },
    },
    {
      method: "POST", pattern: /^\/composite\/batch\/?$/,
      handler: async (ctx) => {
        const list = subrequests(ctx, "batchRequests");
        const haltOnError = bodyObject(ctx).haltOnError === true;
        const results: { statusCode: number; result: unknown }[] = [];
        let stop = false;
        for (const sub of list) {
          if (stop) {
            results.push({ statusCode: 412, result: [{ errorCode: "BATCH_PROCESSING_HALTED", message: "Batch processing halted per request" }] });
            continue;
          }
          // Batch URLs are relative to /services/data: `v62.0/sobjects/Account/001…`.
          const url = typeof sub.url === "string" ? `/services/data/${sub.url.replace(/^\/?(?:services\/data\/)?/, "")}` : sub.url;
          try {
            const reply = await dispatch(subrequestCtx(ctx, undefined), String(sub.method ?? "GET").toUpperCase(), dataPath(ctx, url), sub.richInput);
            results.push({ statusCode: reply.status, result: reply.body ?? null });
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            results.push({ statusCode: err.status, result: [{ errorCode: err.errorCode, message: err.message }] });
          }
          stop = haltOnError && results.at(-1)!.statusCode >= 400;
        }
        return json(200, { hasErrors: results.some((r) => r.statusCode >= 400), results });
      },
    },
  ];
}
