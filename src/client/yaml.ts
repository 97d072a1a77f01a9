/**
 * YAML for the library: the one module that loads js-yaml. It is an entry of its own in dist/
 * (`client-yaml.js`), loaded when a YAML file is first read or written, so the client core carries none of it.
 */
import { CORE_SCHEMA, dump, load } from "js-yaml";

export interface YamlReadOptions {
  /** Named in parse errors. */
  filename?: string;
  /** Plain data only: no anchors or aliases (a few hundred bytes of aliases can expand to gigabytes), a nesting limit. */
  plainData?: boolean;
  /** YAML's core schema: a date stays the text it is (no Date objects), as JSON would read it. */
  core?: boolean;
}

export function parseYaml(text: string, options: YamlReadOptions = {}): unknown {
  return load(text, { ...(options.filename ? { filename: options.filename } : {}), ...(options.plainData ? { maxAliases: 0, maxDepth: 20 } : {}), ...(options.core ? { schema: CORE_SCHEMA } : {}) });
}

/** `core`: the core schema, and a value met twice written twice (no anchors); `flowLevel`: from this depth down, collections are written on one line (`[a, b]`). */
export function dumpYaml(value: unknown, options: { sortKeys?: boolean; core?: boolean; flowLevel?: number } = {}): string {
  return dump(value, { lineWidth: -1, ...(options.sortKeys ? { sortKeys: true } : {}), ...(options.core ? { schema: CORE_SCHEMA, noRefs: true } : {}), ...(options.flowLevel !== undefined ? { flowLevel: options.flowLevel } : {}) });
}
