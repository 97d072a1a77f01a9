/**
 * Record IDs: 15-character case-sensitive and 18-character case-insensitive forms. The one rule every room
 * checks an ID by: 15 letters and digits, then, in the 18-character form, 3 checksum characters from A–Z and
 * 0–5 (any case, as the 18-character form is case-insensitive) that can be its own: each marks which of five
 * characters are capitals, so a mark on a digit is a mistyped ID.
 */

const CHECKSUM_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

/** The pattern (unanchored source) of a record ID whose key prefix matches `prefix`, a pattern of three characters; empty for any ID. */
export function recordIdSource(prefix = ""): string {
  return `${prefix}[a-zA-Z0-9]{${prefix ? 12 : 15}}(?:[a-zA-Z0-5]{3})?`;
}

/** A whole string that is a record ID. */
export const RECORD_ID = new RegExp(`^${recordIdSource()}$`);
const ID_PATTERN = RECORD_ID;

/** True when `value` is a 15- or 18-character record ID (an 18-character one with a checksum that can be its own). */
export function isRecordId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value) && (value.length === 15 || canonicalRecordId(value) !== undefined);
}

/**
 * The 18-character form in its true case: a 15-character ID gains its checksum; an 18-character one, which may
 * have lost its case (pasted through a case-insensitive tool), gets its core's case back from its checksum.
 * Undefined when `id` is no record ID.
 */
export function canonicalRecordId(id: string): string | undefined {
  if (!ID_PATTERN.test(id)) return undefined;
  if (id.length === 15) return get18CharId(id);
  const suffix = id.slice(15).toUpperCase();
  let core = "";
  for (let chunk = 0; chunk < 3; chunk++) {
    const bits = CHECKSUM_ALPHABET.indexOf(suffix[chunk]!);
    for (let j = 0; j < 5; j++) {
      const char = id[chunk * 5 + j]!;
      const capital = (bits & (1 << j)) !== 0;
      if (capital && !/[a-zA-Z]/.test(char)) return undefined;
      core += capital ? char.toUpperCase() : char.toLowerCase();
    }
  }
  return core + suffix;
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
    throw new RangeError(`recordId may contain only letters and digits (and a checksum of A–Z and 0–5), got '${recordId}'`);
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

/**
 * The one rule for an API name — an object's, a field's, a record type's developer name: a letter, then letters,
 * digits and underscores, 80 characters at most (a namespaced custom field is at most 15 + 2 + 40 + 3). Every name
 * that goes into SOQL, a REST path or a file name is held to it.
 */
export const API_NAME_SOURCE = "[A-Za-z][A-Za-z0-9_]{0,79}";
export const API_NAME = new RegExp(`^${API_NAME_SOURCE}$`);

export const isApiName = (value: unknown): value is string => typeof value === "string" && API_NAME.test(value);

/** An sObject (or field) API name, checked; the message names the argument. */
export function requireSobjectName(value: unknown, argument = "sobject"): string {
  if (typeof value !== "string") throw new TypeError(`${argument} must be an sObject API name string such as 'Account', got ${typeof value}`);
  if (!API_NAME.test(value)) throw new RangeError(`${argument} '${value}' is not an sObject API name (letters, digits and underscores)`);
  return value;
}
