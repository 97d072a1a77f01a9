/**
 * API groups plug into the client: a module (`knowledge`, `bulk`, …) registers its functions when it is
 * loaded, as `crm.<group>`, and the core (sign-in, transport, REST, query) knows none of them. A feature
 * pulls in only the modules it uses: `import "crm-explorer/client/bulk"` adds `crm.bulk`.
 */
/** What the plug-ins need of the client (the core's class is not named here: it is the one that loads them). */
interface PluggedClient {
  redact(err: unknown): unknown;
}

/**
 * A module function with the client bound as its first argument, keeping up to three overloads (an
 * option such as `fullResponse` changes what it resolves to): fewer overloads match the same pattern.
 */
type BoundFunction<F> = F extends { (crm: never, ...a: infer A1): infer R1; (crm: never, ...a: infer A2): infer R2; (crm: never, ...a: infer A3): infer R3 }
  ? { (...a: A1): R1; (...a: A2): R2; (...a: A3): R3 }
  : never;

/** A group of module functions with the client bound as their first argument. */
export type Bound<M> = { [K in keyof M]: BoundFunction<M[K]> };

function bindGroup<M extends object>(crm: PluggedClient, api: M): Bound<M> {
  const group: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(api)) {
    if (typeof fn !== "function") continue;
    group[name] = (...args: unknown[]) => {
      const result = (fn as (c: PluggedClient, ...a: unknown[]) => unknown)(crm, ...args);
      // An error a module builds from the org's words never carries the client's own token either.
      return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(crm.redact(err))) : result;
    };
  }
  return group as Bound<M>;
}

const groups = new Map<string, object>();
let clientPrototype: object | undefined;

function install(prototype: object, name: string, api: object): void {
  Object.defineProperty(prototype, name, {
    configurable: true,
    get(this: PluggedClient) {
      const group = bindGroup(this, api);
      Object.defineProperty(this, name, { value: group, configurable: true });
      return group;
    },
  });
}

/**
 * Makes `crm.<name>` the module's functions with that client bound, on every client (made once per client, when
 * first used). A module may load before the core does: it is installed when the core's class is defined.
 */
export function plugIn<M extends object>(name: string, api: M): void {
  groups.set(name, api);
  if (clientPrototype) install(clientPrototype, name, api);
}

/** Groups that come with an entry of their own, and the import that adds each. */
const OWN_ENTRIES: Record<string, string> = { bulk: "crm-explorer/client/bulk" };

/** A group used before its entry was imported: said, with the import that adds it, instead of `undefined`. */
export class PlugInNotLoadedError extends Error {
  override name = "PlugInNotLoadedError";
}

/** Called once by the core with its class: the groups loaded so far, and every one loaded later, become its properties. */
export function acceptPlugIns(prototype: object): void {
  clientPrototype = prototype;
  for (const [name, entry] of Object.entries(OWN_ENTRIES)) {
    if (groups.has(name)) continue;
    Object.defineProperty(prototype, name, {
      configurable: true,
      get() {
        throw new PlugInNotLoadedError(`crm.${name} is not loaded: import "${entry}" once, and every client has it`);
      },
    });
  }
  for (const [name, api] of groups) install(prototype, name, api);
}
