/**
 * YAML for the library: the one module that loads js-yaml. It is an entry of its own in dist/
 * (`client-yaml.js`), loaded when a YAML file is first read or written, so the client core carries none of it.
 */
import { CORE_SCHEMA, DUMP_SCHEMA, dump, load } from "js-yaml";

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
  const plain = options.sortKeys || options.core || options.flowLevel !== undefined ? undefined : simpleBlockYaml(value);
  return plain ?? dump(value, { lineWidth: -1, ...(options.sortKeys ? { sortKeys: true } : {}), ...(options.core ? { schema: CORE_SCHEMA, noRefs: true } : {}), ...(options.flowLevel !== undefined ? { flowLevel: options.flowLevel } : {}) });
}

// ---- the common case without js-yaml's styling -------------------------------------------------------

/**
 * What `dump` writes (default schema, no line width) for a mapping of mappings, lists and scalars whose keys are
 * names and whose strings are each one line of ordinary text — an article's file, of which a pull of 10,000
 * articles writes 40,000 — or `undefined` for anything else, which `dump` writes. js-yaml styles each scalar by
 * the YAML grammar (about 4 µs a scalar, seconds of a pull's thread); here each string is checked against the
 * same rules (YAML 1.2.2 §7.3.3, ns-plain) and js-yaml's schema says whether its plain form would read back as
 * another type. Byte for byte `dump`'s text: test/unit/client/yaml.test.ts compares the two over hostile strings.
 */
export function simpleBlockYaml(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const seen = new Set<object>(); // an object met twice is an anchor and an alias in dump's text
  const lines: string[] = [];
  const mapping = (map: Record<string, unknown>, indent: string): boolean => {
    if (seen.has(map)) return false;
    seen.add(map);
    for (const key of Object.keys(map)) {
      if (!NAME.test(key) || !readsAsText(key)) return false;
      const item = map[key];
      if (Array.isArray(item)) {
        if (seen.has(item)) return false;
        seen.add(item);
        if (!item.length) lines.push(`${indent}${key}: []`);
        else {
          lines.push(`${indent}${key}:`);
          for (const entry of item) {
            const text = scalar(entry);
            if (text === undefined) return false;
            lines.push(`${indent}  - ${text}`);
          }
        }
      } else if (isPlainObject(item)) {
        if (!Object.keys(item).length) lines.push(`${indent}${key}: {}`);
        else {
          lines.push(`${indent}${key}:`);
          if (!mapping(item, `${indent}  `)) return false;
        }
      } else {
        const text = scalar(item);
        if (text === undefined) return false;
        lines.push(`${indent}${key}: ${text}`);
      }
    }
    return true;
  };
  if (!Object.keys(value).length) return "{}\n";
  return mapping(value, "") ? `${lines.join("\n")}\n` : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
/** A key written as it is, if the schema reads it back as text. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters a one-line string may hold for its plain or single-quoted form: no tab, line break, C1 control, no-break space, line or paragraph separator, byte order mark, noncharacter or astral character (dump escapes or chooses among those). */
const ORDINARY_LINE = /^[\x20-\x7E\u00A1-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]*$/;
/** YAML 1.2.2 c-indicator: a plain scalar may not start with one (but for `-`, `?` and `:` before a non-space). */
const INDICATORS = "-?:,[]{}#&*!|>'\"%@`";

/** js-yaml's own resolution of a plain scalar (typed in its declarations, documented as internal: the differential test would catch a change). */
const readsAsText = (text: string) => DUMP_SCHEMA.resolveImplicitScalarTag(text).tag === DUMP_SCHEMA.defaultScalarTag;

function scalar(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : undefined;
  if (typeof value !== "string") return undefined;
  if (value === "") return "''";
  if (!ORDINARY_LINE.test(value) || /^\s+$/.test(value)) return undefined; // dump quotes these with escapes
  return canBePlain(value) ? value : `'${value.replace(/'/g, "''")}'`;
}

/** ns-plain-one-line (flow-out) of YAML 1.2.2, for a string of ORDINARY_LINE characters, read back as text. */
function canBePlain(text: string): boolean {
  const first = text[0]!;
  if (first === " " || text.endsWith(" ")) return false;
  if (INDICATORS.includes(first) && !("-?:".includes(first) && text.length > 1 && text[1] !== " ")) return false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === ":" && (i + 1 === text.length || text[i + 1] === " ")) return false; // ': ' or a final ':' would start a value
    if (c === "#" && text[i - 1] === " ") return false; // ' #' would start a comment
  }
  // '=' is YAML 1.1's value key, which dump keeps quoted.
  return text !== "=" && readsAsText(text);
}
