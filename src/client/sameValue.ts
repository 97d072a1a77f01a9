/**
 * Whether two values of a field are the same value: the one rule behind every "changed since?" and "nothing to
 * write" decision — Write History's revert, a migration's decisions, revert and reconciling, the grid's staged
 * edits. The org answers in its own forms whatever form was written: numbers as numbers or text ("12.50"),
 * datetimes as `…T10:00:00.000+0000`, record IDs in 15 or 18 characters, checkboxes as booleans or "true"; empty
 * is null, "" or missing. With the field's type (its describe's `type`) the type decides; without it, the
 * values' own shapes do.
 */
import { isRecordId, sameRecordId } from "./ids";
import { orgInstant } from "./orgTime";

const NUMBER_TYPES = new Set(["int", "double", "currency", "percent", "long"]);
const DATETIME = /^\d{4}-\d{2}-\d{2}T/;
const NUMERIC = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

export function sameValue(a: unknown, b: unknown, type?: string): boolean {
  const x = empty(a) ? null : a;
  const y = empty(b) ? null : b;
  if (x === y) return true;
  if (x === null || y === null) return false;
  if (type !== undefined) {
    if (NUMBER_TYPES.has(type)) return sameNumber(x, y);
    if (type === "datetime") return sameInstant(x, y);
    if (type === "reference" || type === "id") return sameRecordId(String(x), String(y));
    if (type === "boolean") return String(x).toLowerCase() === String(y).toLowerCase();
    return String(x) === String(y);
  }
  if (typeof x === "number" || typeof y === "number") return sameNumber(x, y);
  if (typeof x === "boolean" || typeof y === "boolean") return String(x).toLowerCase() === String(y).toLowerCase();
  if (typeof x !== "string" || typeof y !== "string") return false;
  if (isRecordId(x) && isRecordId(y)) return sameRecordId(x, y);
  if (DATETIME.test(x) && DATETIME.test(y)) return sameInstant(x, y);
  if (NUMERIC.test(x) && NUMERIC.test(y)) return Number(x) === Number(y);
  return /^(true|false)$/i.test(x) && x.toLowerCase() === y.toLowerCase();
}

const empty = (v: unknown) => v === null || v === undefined || v === "";

/** Numbers compare as numbers, to a billionth (a currency read back as 12.5 is the 12.50 written). */
function sameNumber(a: unknown, b: unknown): boolean {
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) < 1e-9;
}

function sameInstant(a: unknown, b: unknown): boolean {
  const x = orgInstant(a);
  return Number.isFinite(x) && x === orgInstant(b);
}
