/** Turning what a person typed into a field value the API accepts, by the field's describe type. Pure. */
import * as l10n from "@vscode/l10n";
import type { FieldSummary } from "../connections/schema";

export function coerceFieldValue(field: Pick<FieldSummary, "name" | "type" | "length" | "picklistValues">, text: string): unknown {
  const value = text.trim();
  if (value === "") return null;
  switch (field.type) {
    case "int":
      if (!/^-?\d+$/.test(value)) throw new RangeError(l10n.t("{0} takes a whole number, got '{1}'", field.name, value));
      return Number(value);
    case "double": case "currency": case "percent":
      if (Number.isNaN(Number(value))) throw new RangeError(l10n.t("{0} takes a number, got '{1}'", field.name, value));
      return Number(value);
    case "boolean":
      if (!/^(true|false)$/i.test(value)) throw new RangeError(l10n.t("{0} takes true or false, got '{1}'", field.name, value));
      return value.toLowerCase() === "true";
    case "date":
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new RangeError(l10n.t("{0} takes a date as YYYY-MM-DD, got '{1}'", field.name, value));
      return value;
    case "datetime":
      if (Number.isNaN(Date.parse(value))) throw new RangeError(l10n.t("{0} takes a date and time such as 2026-01-31T09:00:00Z, got '{1}'", field.name, value));
      return new Date(value).toISOString();
    case "picklist":
      if (field.picklistValues.length && !field.picklistValues.includes(value)) throw new RangeError(l10n.t("{0} takes one of {1}; got '{2}'", field.name, field.picklistValues.join(", "), value));
      return value;
    case "multipicklist": {
      const parts = value.split(";").map((p) => p.trim()).filter(Boolean);
      const unknown = parts.filter((p) => field.picklistValues.length && !field.picklistValues.includes(p));
      if (unknown.length) throw new RangeError(l10n.t("{0} takes values from {1}; not {2}", field.name, field.picklistValues.join(", "), unknown.join(", ")));
      return parts.join(";");
    }
    default:
      if (field.length && value.length > field.length) throw new RangeError(l10n.t("{0} takes at most {1} characters, got {2}", field.name, field.length, value.length));
      return value;
  }
}
