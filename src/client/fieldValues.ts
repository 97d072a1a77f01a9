/**
 * What a field of the describe accepts: one check of a value (as text, the form of a CSV cell or a Bulk row)
 * against its field's type, length and restricted picklist, shared by the extension's Import Data, the
 * migration's dry run and an agent's proposals. The problem is returned as data: each caller words it in its own language.
 */
import type { FieldDescribe } from "./describe";
import { isRecordId } from "./ids";

export type ValueProblem =
  | { kind: "empty" | "boolean" | "int" | "number" | "date" | "datetime" | "email" | "id" }
  | { kind: "picklist"; allowed: string[]; value: string }
  | { kind: "length"; max: number; length: number };


/** The problem the org would find with `text` in `field`, or undefined when it accepts it. `#N/A` is Bulk's empty. */
export function valueProblem(field: FieldDescribe, text: string): ValueProblem | undefined {
  if (text === "#N/A") return field.nillable ? undefined : { kind: "empty" };
  const bad = (kind: "boolean" | "int" | "number" | "date" | "datetime" | "email" | "id", ok: boolean): ValueProblem | undefined => (ok ? undefined : { kind });
  switch (field.type) {
    case "boolean": return bad("boolean", /^(true|false)$/i.test(text));
    case "int": return bad("int", /^-?\d+$/.test(text));
    case "double": case "currency": case "percent": return bad("number", text.trim() !== "" && Number.isFinite(Number(text)));
    case "date": return bad("date", /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)));
    case "datetime": return bad("datetime", !Number.isNaN(Date.parse(text)) && /^\d{4}-\d{2}-\d{2}T/.test(text));
    case "email": return bad("email", /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text)) ?? lengthProblem(field, text);
    case "id": case "reference": return bad("id", isRecordId(text));
    case "picklist": case "multipicklist": {
      if (!field.restrictedPicklist) return lengthProblem(field, text);
      const allowed = field.picklistValues.filter((p) => p.active !== false).map((p) => p.value);
      const refused = (field.type === "multipicklist" ? text.split(";") : [text]).find((v) => !allowed.includes(v));
      return refused === undefined ? undefined : { kind: "picklist", allowed, value: refused };
    }
    default:
      return lengthProblem(field, text);
  }
}

function lengthProblem(field: FieldDescribe, text: string): ValueProblem | undefined {
  return field.length && text.length > field.length ? { kind: "length", max: field.length, length: text.length } : undefined;
}

/** The problem in English, naming the field by its label (the client's and the command-line tools' words). */
export function valueProblemText(field: FieldDescribe, text: string, problem: ValueProblem): string {
  switch (problem.kind) {
    case "empty": return `${field.label} cannot be empty`;
    case "boolean": return `${field.label} must be true or false, not '${text}'`;
    case "int": return `${field.label} must be a whole number, not '${text}'`;
    case "number": return `${field.label} must be a number, not '${text}'`;
    case "date": return `${field.label} must be a date as YYYY-MM-DD, not '${text}'`;
    case "datetime": return `${field.label} must be a date and time such as 2026-01-31T09:00:00Z, not '${text}'`;
    case "email": return `${field.label} must be an email address, not '${text}'`;
    case "id": return `${field.label} must be a 15- or 18-character record ID, not '${text}'`;
    case "picklist": return `${field.label} must be one of ${problem.allowed.join(", ")}, not '${problem.value}'`;
    case "length": return `${field.label} holds at most ${problem.max} characters; this value has ${problem.length}`;
  }
}
