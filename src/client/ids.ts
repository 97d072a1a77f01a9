/** Record IDs: 15-character case-sensitive and 18-character case-insensitive forms. */

const CHECKSUM_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const ID_PATTERN = /^[a-zA-Z0-9]{15}(?:[a-zA-Z0-5]{3})?$/;

/** True when `value` has the shape of a 15- or 18-character record ID. */
export function isRecordId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

/**
 * Converts a 15-character record ID to its 18-character form; an 18-character ID is returned as is.
 * @throws TypeError when `recordId` is not a string; RangeError for a wrong length or character.
 */
export function get18CharId(recordId: string): string {
  if (typeof recordId !== "string") {
    throw new TypeError(`recordId must be a string of 15 or 18 characters, got ${typeof recordId}`);
  }
  if (recordId.length !== 15 && recordId.length !== 18) {
    throw new RangeError(`recordId must be 15 or 18 characters long, got ${recordId.length} ('${recordId}')`);
  }
  if (!ID_PATTERN.test(recordId)) {
    throw new RangeError(`recordId may contain only letters and digits, got '${recordId}'`);
  }
  if (recordId.length === 18) return recordId;
  let suffix = "";
  for (let chunk = 0; chunk < 3; chunk++) {
    let bits = 0;
    for (let j = 0; j < 5; j++) {
      const code = recordId.charCodeAt(chunk * 5 + j);
      if (code >= 65 && code <= 90) bits |= 1 << j;
    }
    suffix += CHECKSUM_ALPHABET[bits];
  }
  return recordId + suffix;
}

/** Two IDs name the same record when their 15-character cores are equal (case-sensitively). */
export function sameRecordId(a: string, b: string): boolean {
  return a.slice(0, 15) === b.slice(0, 15);
}

/** Checks an ID argument and returns it; the message names the argument. */
export function requireRecordId(value: unknown, argument: string): string {
  if (typeof value !== "string") {
    throw new TypeError(`${argument} must be a 15- or 18-character record ID string, got ${value === null ? "null" : typeof value}`);
  }
  if (!isRecordId(value)) {
    throw new RangeError(`${argument} must be a 15- or 18-character record ID, got '${value}'`);
  }
  return value;
}

const SOBJECT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** An sObject (or field) API name: letters, digits and underscores, starting with a letter. */
export function requireSobjectName(value: unknown, argument = "sobject"): string {
  if (typeof value !== "string") throw new TypeError(`${argument} must be an sObject API name string such as 'Account', got ${typeof value}`);
  if (!SOBJECT_NAME.test(value)) throw new RangeError(`${argument} '${value}' is not an sObject API name (letters, digits and underscores)`);
  return value;
}
