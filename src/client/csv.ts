/**
 * CSV as Bulk API 2.0 speaks it (RFC 4180: comma-separated, fields quoted when they hold a comma, quote or
 * line break, quotes doubled inside; LF or CRLF line endings). The client may import only Node, axios and
 * js-yaml, so this small reader and writer live here.
 */

/**
 * Reads CSV text into rows of fields, one row at a time (a result set of 50,000 rows is never held twice).
 * Fields are sliced out of the text, not built character by character. Text that ends inside a quoted
 * field is an error naming the line where that field starts.
 */
export function* csvRows(text: string): Generator<string[]> {
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const row: string[] = [];
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === 34 /* " */) {
        const startLine = line;
        let j = i + 1;
        let doubled = false;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) throw new SyntaxError(`CSV ends inside a quoted field that starts on line ${startLine}`);
          for (let k = text.indexOf("\n", j); k >= 0 && k < q; k = text.indexOf("\n", k + 1)) line++;
          if (text.charCodeAt(q + 1) === 34) {
            doubled = true;
            j = q + 2;
            continue;
          }
          value = text.slice(i + 1, q);
          i = q + 1;
          break;
        }
        if (doubled) value = value.replace(/""/g, '"');
        const next = text.charCodeAt(i);
        if (i < n && next !== 44 && next !== 10 && next !== 13) throw new SyntaxError(`CSV has text after a closing quote on line ${line}`);
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 44 /* , */ || c === 10 || c === 13) break;
          j++;
        }
        value = text.slice(i, j);
        i = j;
      }
      row.push(value);
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        continue;
      }
      // End of the record: LF, CRLF, a lone CR, or the end of the text.
      if (c === 13) i++;
      if (text.charCodeAt(i) === 10) i++;
      line++;
      break;
    }
    yield row;
  }
}

/** Splits CSV text arriving in pieces (a file read as a stream) into whole records, each one line of CSV text (a quoted field may hold line breaks); blank lines are skipped. */
export async function* csvRecordStream(pieces: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  for await (const batch of csvRecordBatches(pieces)) yield* batch;
}

/** The same records a batch at a time (those each piece completes): one step per piece, not per record, for loads of millions. */
export async function* csvRecordBatches(pieces: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): AsyncGenerator<string[]> {
  let pending = "";
  let quoted = false;
  let scanned = 0;
  const decoder = new TextDecoder();
  for await (const piece of pieces) {
    if (typeof piece !== "string" && !(piece instanceof Uint8Array)) throw new TypeError(`The CSV stream must yield text or bytes, got ${piece === null ? "null" : typeof piece}`);
    pending += typeof piece === "string" ? piece : decoder.decode(piece, { stream: true });
    let start = 0;
    let i = scanned;
    const batch: string[] = [];
    // The next quote, LF and CR at or after i, found with indexOf and kept until passed (-1: none in this text).
    let quote = -2;
    let lf = -2;
    let cr = -2;
    const next = (char: string, cached: number) => (cached === -1 || cached >= i ? cached : pending.indexOf(char, i));
    for (;;) {
      quote = next('"', quote);
      if (quoted) {
        if (quote < 0) break;
        quoted = false;
        i = quote + 1;
        continue;
      }
      lf = next("\n", lf);
      cr = next("\r", cr);
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (quote >= 0 && (end < 0 || quote < end)) {
        quoted = true;
        i = quote + 1;
        continue;
      }
      if (end < 0) break;
      const record = pending.slice(start, end);
      i = end + (pending.charCodeAt(end) === 13 && pending.charCodeAt(end + 1) === 10 ? 2 : 1);
      start = i;
      if (record.trim()) batch.push(record);
    }
    pending = pending.slice(start);
    scanned = pending.length;
    if (batch.length) yield batch;
  }
  pending += decoder.decode();
  if (quoted) throw new SyntaxError("The CSV ends inside a quoted field");
  if (pending.trim()) yield [pending];
}

/** The rows of CSV text arriving in pieces, one at a time (see csvRecordStream). */
export async function* csvRowStream(pieces: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): AsyncGenerator<string[]> {
  for await (const record of csvRecordStream(pieces)) yield* csvRows(record);
}

/** Reads CSV text into rows of fields (see csvRows). */
export function parseCsv(text: string): string[][] {
  return [...csvRows(text)];
}

/** One CSV field: quoted when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A row's value for a Bulk upload: `null` sets the field empty (`#N/A`), undefined or "" leaves it as it is,
 * dates as ISO text, everything else as its text.
 */
export function bulkValue(value: unknown): string {
  if (value === null) return "#N/A";
  if (value === undefined) return "";
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError("A Bulk API row holds a Date that is not a valid date (Invalid Date)");
    return value.toISOString();
  }
  if (typeof value === "object") throw new TypeError(`A Bulk API row holds plain values, got an object: ${JSON.stringify(value).slice(0, 80)}`);
  return String(value);
}

export const csvLine = (values: string[]) => values.map(csvField).join(",");

/** A row of a Bulk upload: empty values are quoted, so that a row of one empty column is a row, not a blank line the org skips. */
export const uploadLine = (values: string[]) => values.map((v) => (v === "" ? '""' : csvField(v))).join(",");
