/**
 * Editing a results cell: which editor a field gets, and what typed or pasted text means for it. The
 * webview checks as a person types; the host checks again before staging. The org still has the last word
 * (required fields, validation rules, duplicates): those refusals come back per row on commit.
 * Pure: no VS Code, no DOM.
 */
import * as l10n from "@vscode/l10n";
import { canonicalRecordId, RECORD_ID } from "../client/ids";

/** A value one cell holds and an editor edits (a child subquery's cell is not edited in place). */
export type CellValue = string | number | boolean | null;

export type EditorKind = "text" | "textarea" | "number" | "checkbox" | "date" | "datetime" | "picklist" | "multipicklist" | "reference";

/** How a column's cells are edited (sent to the webview with the column). */
export interface CellEditor {
  /** The field's API name on the record the row is. */
  field: string;
  kind: EditorKind;
  /** Digits after the decimal point (number, currency, percent). */
  scale?: number;
  /** Longest text the field holds. */
  length?: number;
  /** Active picklist values. */
  options?: string[];
  /** A value outside `options` is refused. */
  restricted?: boolean;
  /** Lookups: key prefixes of the objects the ID may name. */
  prefixes?: string[];
}

/** The describe facts an editor is made from (a FieldDescribe has them all). */
export interface EditableField {
  name: string;
  type: string;
  scale?: number;
  length?: number;
  picklistValues?: { value: string; active?: boolean }[];
  restrictedPicklist?: boolean;
  extraTypeInfo?: string | null;
  htmlFormatted?: boolean;
}

const NUMERIC = new Set(["double", "currency", "percent", "int", "long"]);
const TEXT = new Set(["string", "email", "phone", "url", "encryptedstring", "combobox"]);

/** The editor for a field type; undefined for types a cell cannot edit (rich text, addresses, base64). */
export function editorFor(field: EditableField, prefixes: string[] = []): CellEditor | undefined {
  const base = { field: field.name };
  if (NUMERIC.has(field.type)) return { ...base, kind: "number", scale: field.type === "int" || field.type === "long" ? 0 : field.scale ?? 0 };
  if (TEXT.has(field.type)) return { ...base, kind: "text", ...(field.length ? { length: field.length } : {}) };
  if (field.type === "textarea") {
    if (field.extraTypeInfo === "richtextarea" || field.htmlFormatted) return undefined; // rich text is edited in its record's tab
    return { ...base, kind: "textarea", ...(field.length ? { length: field.length } : {}) };
  }
  if (field.type === "boolean") return { ...base, kind: "checkbox" };
  if (field.type === "date") return { ...base, kind: "date" };
  if (field.type === "datetime") return { ...base, kind: "datetime" };
  if (field.type === "picklist" || field.type === "multipicklist") {
    const options = (field.picklistValues ?? []).filter((p) => p.active !== false).map((p) => p.value);
    return { ...base, kind: field.type, options, restricted: field.restrictedPicklist === true };
  }
  if (field.type === "reference") return { ...base, kind: "reference", prefixes };
  return undefined;
}

export type Parsed = { ok: true; value: CellValue } | { ok: false; error: string };

const ok = (value: CellValue): Parsed => ({ ok: true, value });
const refuse = (error: string): Parsed => ({ ok: false, error });

function validDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function pickOne(text: string, editor: CellEditor): Parsed {
  const match = editor.options?.find((o) => o.toLowerCase() === text.toLowerCase());
  if (match !== undefined) return ok(match);
  if (editor.restricted) {
    const shown = (editor.options ?? []).slice(0, 6).join(", ");
    return refuse(l10n.t("“{0}” is not a value of {1}; choose one of {2}.", text, editor.field, `${shown}${(editor.options?.length ?? 0) > 6 ? ", …" : ""}`));
  }
  return ok(text);
}

/** What text typed or pasted into a cell means for its field: the value to stage, or why it cannot be. */
export function parseCellInput(raw: string, editor: CellEditor): Parsed {
  const text = editor.kind === "textarea" || editor.kind === "text" ? raw : raw.trim();
  if (text === "" && editor.kind !== "checkbox") return ok(null);
  switch (editor.kind) {
    case "number": {
      const cleaned = text.replace(/[\s,]/g, "").replace(/%$/, "");
      const value = Number(cleaned);
      if (!cleaned || !Number.isFinite(value)) return refuse(l10n.t("{0} takes a number; “{1}” is not one.", editor.field, text));
      const decimals = cleaned.split(".")[1]?.length ?? 0;
      if (editor.scale !== undefined && decimals > editor.scale) {
        return refuse(editor.scale === 0 ? l10n.t("{0} takes whole numbers.", editor.field) : l10n.t("{0} takes at most {1} digits after the decimal point.", editor.field, editor.scale ?? 0));
      }
      return ok(value);
    }
    case "checkbox": {
      const lower = text.toLowerCase();
      if (["true", "yes", "1", "x", "✓"].includes(lower)) return ok(true);
      if (["false", "no", "0", ""].includes(lower)) return ok(false);
      return refuse(l10n.t("{0} is a checkbox: type true or false.", editor.field));
    }
    case "date": {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
      if (!m || !validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return refuse(l10n.t("{0} takes a date as YYYY-MM-DD; “{1}” is not one.", editor.field, text));
      return ok(text);
    }
    case "datetime": {
      // A datetime-local value (no zone) is the person's local time; ISO 8601 with a zone is taken as written.
      const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
      const time = m ? Date.parse(m[7] ? text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2") : `${text.replace(" ", "T")}`) : NaN;
      if (!m || !validDate(Number(m[1]), Number(m[2]), Number(m[3])) || Number.isNaN(time)) {
        return refuse(l10n.t("{0} takes a date and time such as 2026-05-01T14:30:00Z; “{1}” is not one.", editor.field, text));
      }
      return ok(new Date(time).toISOString().replace(/\.000Z$/, ".000+0000").replace(/Z$/, "+0000"));
    }
    case "picklist":
      return pickOne(text, editor);
    case "multipicklist": {
      const values: string[] = [];
      for (const part of text.split(";").map((p) => p.trim()).filter(Boolean)) {
        const one = pickOne(part, editor);
        if (!one.ok) return one;
        if (!values.includes(one.value as string)) values.push(one.value as string);
      }
      return ok(values.length ? values.join(";") : null);
    }
    case "reference": {
      const id = canonicalRecordId(text);
      if (!RECORD_ID.test(text)) return refuse(l10n.t("{0} takes a record ID of 15 or 18 letters and digits; “{1}” is not one.", editor.field, text));
      if (!id) return refuse(l10n.t("“{0}” is not a record ID: its last three characters do not match.", text));
      if (editor.prefixes?.length && !editor.prefixes.includes(id.slice(0, 3))) return refuse(l10n.t("{0} points to another kind of record; “{1}” names none of them.", editor.field, text));
      return ok(id);
    }
    default:
      if (editor.length && text.length > editor.length) return refuse(l10n.t("{0} holds at most {1} characters; this is {2}.", editor.field, editor.length, text.length));
      return ok(text);
  }
}

/** The text a value shows in an editor (datetimes as the person's local time in a datetime-local input). */
export function editText(value: CellValue | object | undefined): string {
  if (value === null || value === undefined || typeof value === "object") return "";
  return String(value);
}

/** Parses tab-separated text copied from a spreadsheet (quoted fields may hold tabs, newlines and doubled quotes). */
export function parseTsv(text: string): string[][] {
  const body = text.replace(/\r\n?/g, "\n").replace(/\n$/, "");
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  for (;;) {
    let field: string;
    const quoted = body[i] === '"' ? /^"((?:[^"]|"")*)"(?=\t|\n|$)/.exec(body.slice(i)) : null;
    if (quoted) {
      field = quoted[1]!.replace(/""/g, '"');
      i += quoted[0].length;
    } else {
      const end = body.slice(i).search(/[\t\n]/);
      field = end < 0 ? body.slice(i) : body.slice(i, i + end);
      i += field.length;
    }
    row.push(field);
    if (body[i] === "\t") {
      i++;
      continue;
    }
    rows.push(row);
    row = [];
    if (i >= body.length) return rows;
    i++; // the line break
  }
}
