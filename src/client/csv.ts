/**
 * CSV as Bulk API 2.0 speaks it (RFC 4180: comma-separated, fields quoted when they hold a comma, quote or
 * line break, quotes doubled inside; LF or CRLF line endings). The client may import only Node, axios and
 * js-yaml, so this small reader and writer live here.
 */

/** Reads CSV text into rows of fields. Text that ends inside a quoted field is an error naming the line. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let fieldStartLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      fieldStartLine = line;
    } else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      line++;
    } else field += c;
  }
  if (quoted) throw new SyntaxError(`CSV ends inside a quoted field that starts on line ${fieldStartLine}`);
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
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
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") throw new TypeError(`A Bulk API row holds plain values, got an object: ${JSON.stringify(value).slice(0, 80)}`);
  return String(value);
}

export const csvLine = (values: string[]) => values.map(csvField).join(",");
