/** Turning what a person typed into a field value the API accepts, by the field's describe type. Pure. */
import type { FieldSummary } from "../connections/schema";

export function coerceFieldValue(field: Pick<FieldSummary, "name" | "type" | "length" | "picklistValues">, text: string): unknown {
  const value = text.trim();
  if (value === "") return null;
  switch (field.type) {
    case "int":
      if (!/^-?\d+$/.test(value)) throw new RangeError(`${field.name} takes a whole number, got '${value}'`);
      return Number(value);
    case "double": case "currency": case "percent":
      if (Number.isNaN(Number(value))) throw new RangeError(`${field.name} takes a number, got '${value}'`);
      return Number(value);
    case "boolean":
      if (!/^(true|false)$/i.test(value)) throw new RangeError(`${field.name} takes true or false, got '${value}'`);
      return value.toLowerCase() === "true";
    case "date":
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new RangeError(`${field.name} takes a date as YYYY-MM-DD, got '${value}'`);
      return value;
    case "datetime":
      if (Number.isNaN(Date.parse(value))) throw new RangeError(`${field.name} takes a date and time such as 2026-01-31T09:00:00Z, got '${value}'`);
      return new Date(value).toISOString();
    case "picklist":
      if (field.picklistValues.length && !field.picklistValues.includes(value)) throw new RangeError(`${field.name} takes one of ${field.picklistValues.join(", ")}; got '${value}'`);
      return value;
    case "multipicklist": {
      const parts = value.split(";").map((p) => p.trim()).filter(Boolean);
      const unknown = parts.filter((p) => field.picklistValues.length && !field.picklistValues.includes(p));
      if (unknown.length) throw new RangeError(`${field.name} takes values from ${field.picklistValues.join(", ")}; not ${unknown.join(", ")}`);
      return parts.join(";");
    }
    default:
      if (field.length && value.length > field.length) throw new RangeError(`${field.name} takes at most ${field.length} characters, got ${value.length}`);
      return value;
  }
}
