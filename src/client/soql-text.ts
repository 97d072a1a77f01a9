/** Safe building of SOQL and SOSL text (the original interpolated values unescaped). */

/** A SOQL string literal with quotes, backslashes and control characters escaped. */
export function soqlLiteral(value: string): string {
  if (typeof value !== "string") throw new TypeError(`a SOQL string value must be a string, got ${typeof value}`);
  const escaped = value.replace(/[\\'"\n\r\t\f\b]/g, (c) => ({ "\\": "\\\\", "'": "\\'", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\f": "\\f", "\b": "\\b" })[c]!);
  return `'${escaped}'`;
}

/** The original's `replace_quotes`: double quotes become single quotes, but only outside single-quoted literals. */
export function replaceDoubleQuotes(query: string): string {
  let out = "";
  let inLiteral = false;
  for (let i = 0; i < query.length; i++) {
    const c = query[i]!;
    if (inLiteral) {
      out += c;
      if (c === "\\") out += query[++i] ?? "";
      else if (c === "'") inLiteral = false;
    } else if (c === "'") {
      inLiteral = true;
      out += c;
    } else out += c === '"' ? "'" : c;
  }
  return out;
}

/** Escapes SOSL's reserved characters inside a FIND {…} term. */
export function escapeSoslTerm(term: string): string {
  if (typeof term !== "string" || !term.trim()) throw new TypeError("the search text must be a non-empty string");
  return term.replace(/[?&|!{}[\]()^~*:\\"'+-]/g, (c) => `\\${c}`);
}
