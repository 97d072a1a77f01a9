/** Marks a function deprecated: usable as a TypeScript method decorator and as a function wrapper. */

export interface DeprecationOptions {
  /** Version in which the deprecation started (required). */
  since: string;
  replacement?: string;
  removal?: string;
  /** Warning type passed to process.emitWarning. Default "DeprecationWarning". */
  category?: string;
  /** Stack frames above the wrapper that identify the call site. Default 1 (the direct caller). */
  stackLevel?: number;
  /** Name shown in the message; defaults to the function's name. */
  name?: string;
}

function deprecationMessage(name: string, o: DeprecationOptions): string {
  return [`${name} is deprecated since ${o.since}.`, o.replacement && `Use ${o.replacement} instead.`, o.removal && `It will be removed in ${o.removal}.`].filter(Boolean).join(" ");
}

function callSite(level: number): string {
  const lines = (new Error().stack ?? "").split("\n").slice(1);
  // lines[0] is callSite, lines[1] the wrapper, lines[1 + level] the caller we report.
  return (lines[1 + level] ?? "").trim();
}

/** A wrapper around `fn` that warns once per distinct call site through process.emitWarning. */
function wrap<A extends unknown[], R, T>(fn: (this: T, ...args: A) => R, options: DeprecationOptions, fallbackName: string): (this: T, ...args: A) => R {
  if (typeof options?.since !== "string" || !options.since) throw new TypeError("deprecated() needs { since: '<version>' }");
  const message = deprecationMessage(options.name ?? (fn.name || fallbackName), options);
  const warned = new Set<string>();
  return function (this: T, ...args: A): R {
    const site = callSite(options.stackLevel ?? 1);
    if (!warned.has(site)) {
      warned.add(site);
      process.emitWarning(message, { type: options.category ?? "DeprecationWarning", code: "CRM_DEPRECATED", detail: site ? `called ${site}` : undefined });
    }
    return fn.apply(this, args);
  };
}

/**
 * `@deprecated({ since: "0.2.0", replacement: "newName" })` on a class method, or
 * `deprecated({ since: "0.2.0" })(fn)` around a function.
 */
export function deprecated(options: DeprecationOptions) {
  return function <A extends unknown[], R, T>(target: (this: T, ...args: A) => R, context?: ClassMethodDecoratorContext | string): (this: T, ...args: A) => R {
    const name = typeof context === "object" && context ? String(context.name) : typeof context === "string" ? context : target.name;
    return wrap(target, options, name);
  };
}
