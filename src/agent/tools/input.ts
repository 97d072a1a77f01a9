/** The tools' input checks: each bad argument named, with what was expected (ToolInputError). */
import type { SObjectDescribe } from "../../client";
import { valueProblem, valueProblemText } from "../../client/fieldValues";
import { API_NAME, isRecordId } from "../../client/ids";
import { quoted } from "../quoted";
import type { AgentOrg, Input, Scalar } from "./kit";



/** A bad argument: named, with what was expected. */
export class ToolInputError extends Error {
  override name = "ToolInputError";
}

export function asInput(input: unknown): Input {
  if (input === undefined || input === null) return {};
  if (typeof input !== "object" || Array.isArray(input)) throw new ToolInputError("the input must be an object of named arguments");
  return input as Input;
}

export function text(input: Input, name: string): string {
  const v = input[name];
  if (typeof v !== "string" || !v.trim()) throw new ToolInputError(`${name} must be a non-empty string${v === undefined ? " (it is missing)" : `, got ${quoted(v)}`}`);
  return v.trim();
}

export function optionalText(input: Input, name: string): string | undefined {
  return input[name] === undefined ? undefined : text(input, name);
}

export function whole(input: Input, name: string, fallback: number, max: number): number {
  const v = input[name];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > max) throw new ToolInputError(`${name} must be a whole number from 1 to ${max}, got ${quoted(v)}`);
  return v;
}

/** An API name as the org spells them: a letter, then letters, digits and underscores — 80 characters at most (custom names are 40 plus a suffix). */

export function apiName(input: Input, name: string): string {
  const v = text(input, name);
  if (!API_NAME.test(v)) throw new ToolInputError(`${name} must be an API name (letters, digits, underscores), got ${quoted(v)}`);
  return v;
}

export function recordId(value: unknown, name: string): string {
  if (!isRecordId(value)) throw new ToolInputError(`${name} must be a 15- or 18-character record ID, got ${quoted(value)}`);
  return value;
}

function knowledgeLanguage(input: Input): string | undefined {
  const v = optionalText(input, "language");
  if (v !== undefined && !/^[a-z]{2,3}(?:_[A-Za-z]{2,4})?$/.test(v)) throw new ToolInputError(`language must be a knowledge language code such as en_US or fr, got ${quoted(v)}`);
  return v;
}

export function fieldValues(value: unknown, where: string): Record<string, Scalar> {
  if (value === undefined) return {};
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new ToolInputError(`${where} must be an object of field API names and values`);
  const out: Record<string, Scalar> = {};
  for (const [field, v] of Object.entries(value as Input)) {
    if (!API_NAME.test(field)) throw new ToolInputError(`${where}: ${quoted(field)} is not a field API name`);
    if (v !== null && !["string", "number", "boolean"].includes(typeof v)) throw new ToolInputError(`${where}.${field} must be a string, number, boolean or null`);
    out[field] = v as Scalar;
  }
  return out;
}

/** Fields an operation may set on an object, checked against its describe. */
export function checkFields(d: SObjectDescribe, fields: Record<string, Scalar>, operation: "create" | "update", where: string): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = d.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (!field) throw new ToolInputError(`${where}: ${d.name} has no field ${name} (crm_describe lists its fields)`);
    if (operation === "create" ? !field.createable : !field.updateable) throw new ToolInputError(`${where}: ${d.name}.${field.name} cannot be ${operation === "create" ? "set on a new record" : "changed"}`);
    // The value against its field (type, length, restricted picklist): the rule Import Data and migrations use.
    const problem = value === null ? undefined : valueProblem(field, String(value));
    if (problem) throw new ToolInputError(`${where}: ${d.name}.${valueProblemText({ ...field, label: field.name }, String(value), problem)}`);
    out[field.name] = value;
  }
  return out;
}

/** Refuses SOQL/SOSL clauses that write (view and reference tracking, statistics): an agent's query only reads. */
export function readOnly(statement: string, name: string): string {
  if (/\bFOR\s+(?:UPDATE|VIEW|REFERENCE)\b|\bUPDATE\s+(?:TRACKING|VIEWSTAT)\b/i.test(statement)) throw new ToolInputError(`${name} may only read: FOR UPDATE, FOR VIEW, FOR REFERENCE and UPDATE TRACKING/VIEWSTAT change the org and are refused`);
  return statement;
}

export async function describeOrExplain(org: AgentOrg, object: string, where: string): Promise<SObjectDescribe> {
  try {
    return await org.schema.describe(object);
  } catch (err) {
    throw new ToolInputError(`${where}: ${org.name} has no object ${object} that this user can see (${(err as Error).message})`);
  }
}

async function userLanguage(org: AgentOrg): Promise<string> {
  const known = org.crm.currentUserInfo?.language;
  if (typeof known === "string" && known) return known;
  const info = await org.crm.retrieveCurrentUserInfo();
  return typeof info.language === "string" && info.language ? info.language : "en_US";
}

/** The language asked for (`language`), else the signed-in user's. */
export async function articleLanguage(input: Input, org: AgentOrg): Promise<string> {
  return knowledgeLanguage(input) ?? (await userLanguage(org));
}
