/**
 * Importing a CSV into an object: its columns matched to the object's fields (API name or label, either
 * case), and a dry run that checks every row against the describe — types, required fields, lengths,
 * picklist values, ID formats — before anything is sent. No VS Code here: tested in Node.
 */
import * as l10n from "@vscode/l10n";
import type { FieldDescribe, SObjectDescribe } from "../client";
import type { IngestOperation } from "../client/bulk";
import { csvLine } from "../client/csv";
import { valueProblem } from "../client/fieldValues";
import { isRequiredOnCreate } from "./schema";

/** A column of the file and the field it loads (none: the column is left out). */
export interface ColumnMapping {
  column: string;
  field?: string;
}

export interface RowProblem {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  column?: string;
  message: string;
}

/** What a field accepts for an operation: the Id field is how update, upsert and delete name their records. */
function writable(field: FieldDescribe, operation: IngestOperation): boolean {
  if (field.name === "Id") return operation !== "insert";
  if (operation === "delete" || operation === "hardDelete") return false;
  return field.calculated !== true && (operation === "insert" ? field.createable : operation === "update" ? field.updateable : field.createable || field.updateable);
}

/** The fields a column can load for an operation. */
export function loadableFields(describe: SObjectDescribe, operation: IngestOperation): FieldDescribe[] {
  return describe.fields.filter((f) => writable(f, operation) && f.type !== "address" && f.type !== "location");
}

/** Each column matched to a loadable field by API name, then by label (either case); unmatched columns load nothing. */
export function mapColumns(header: string[], describe: SObjectDescribe, operation: IngestOperation): ColumnMapping[] {
  const fields = loadableFields(describe, operation);
  const taken = new Set<string>();
  return header.map((column) => {
    const key = column.trim().toLowerCase();
    const field = fields.find((f) => f.name.toLowerCase() === key && !taken.has(f.name)) ?? fields.find((f) => f.label.toLowerCase() === key && !taken.has(f.name));
    if (!field) return { column };
    taken.add(field.name);
    return { column, field: field.name };
  });
}

function checkValue(field: FieldDescribe, text: string): string | undefined {
  const problem = valueProblem(field, text);
  switch (problem?.kind) {
    case undefined: return undefined;
    case "empty": return l10n.t("{0} cannot be empty (#N/A)", field.label);
    case "boolean": return l10n.t("{0} must be true or false, not '{1}'", field.label, text);
    case "int": return l10n.t("{0} must be a whole number, not '{1}'", field.label, text);
    case "number": return l10n.t("{0} must be a number, not '{1}'", field.label, text);
    case "date": return l10n.t("{0} must be a date as YYYY-MM-DD, not '{1}'", field.label, text);
    case "datetime": return l10n.t("{0} must be a date and time such as 2026-01-31T09:00:00Z, not '{1}'", field.label, text);
    case "email": return l10n.t("{0} must be an email address, not '{1}'", field.label, text);
    case "id": return l10n.t("{0} must be a 15- or 18-character record ID, not '{1}'", field.label, text);
    case "picklist": return l10n.t("{0} must be one of {1}, not '{2}'", field.label, problem.allowed.join(", "), problem.value);
    case "length": return l10n.t("{0} holds at most {1} characters; this value has {2}", field.label, problem.max, problem.length);
  }
}

/** The dry run, a row at a time (a file of any size is checked as it is read): the header's problems, then each row's. */
export interface RowChecker {
  /** Problems of the mapping as a whole (line 1): a missing key column, required fields no column loads. Empty when it can go on. */
  header: RowProblem[];
  /** Whether the rows can be checked at all (a missing key column makes every row moot). */
  checksRows: boolean;
  row(row: string[], line: number): RowProblem[];
}

/**
 * Checks rows as the org would, before anything is sent: each value against its field, the fields an insert
 * requires, and the Id (or external ID) that names the record for update, upsert and delete.
 */
export function rowChecker(mapping: ColumnMapping[], describe: SObjectDescribe, operation: IngestOperation, externalIdFieldName?: string): RowChecker {
  const fields = new Map(describe.fields.map((f) => [f.name, f]));
  const mapped = mapping.map((m, index) => ({ ...m, index })).filter((m): m is ColumnMapping & { field: string; index: number } => !!m.field);
  const key = operation === "upsert" ? externalIdFieldName : operation === "insert" ? undefined : "Id";
  if (key && !mapped.some((m) => m.field === key)) return { header: [{ line: 1, message: l10n.t("No column loads {0}, which names the record to {1}", key, operation) }], checksRows: false, row: () => [] };
  const required = operation === "insert" ? describe.fields.filter(isRequiredOnCreate).filter((f) => !mapped.some((m) => m.field === f.name)) : [];
  const header = required.length ? [{ line: 1, message: l10n.t("No column loads {0}, required to create a record", required.map((f) => f.label).join(", ")) }] : [];
  return {
    header,
    checksRows: true,
    row: (row, line) => {
      const problems: RowProblem[] = [];
      for (const m of mapped) {
        const text = row[m.index] ?? "";
        const field = fields.get(m.field)!;
        if (text === "") {
          if (m.field === key) problems.push({ line, column: m.column, message: l10n.t("{0} is empty: it names the record to {1}", field.label, operation) });
          else if (operation === "insert" && isRequiredOnCreate(field)) problems.push({ line, column: m.column, message: l10n.t("{0} is required", field.label) });
          continue;
        }
        const problem = checkValue(field, text);
        if (problem) problems.push({ line, column: m.column, message: problem });
      }
      return problems;
    },
  };
}

/** The dry run of rows held in memory (see rowChecker). */
export function dryRun(rows: string[][], mapping: ColumnMapping[], describe: SObjectDescribe, operation: IngestOperation, externalIdFieldName?: string): RowProblem[] {
  const checker = rowChecker(mapping, describe, operation, externalIdFieldName);
  if (!checker.checksRows) return checker.header;
  return [...checker.header, ...rows.flatMap((row, i) => checker.row(row, i + 2))];
}

/** The CSV a Bulk job loads, a line at a time from rows read as they come (a file of any size): the mapped columns under their fields' API names, the header line first, rows in the file's order. */
export async function* mappedLines(rows: AsyncIterable<string[]>, mapping: ColumnMapping[]): AsyncGenerator<string> {
  const used = mapping.map((m, index) => ({ ...m, index })).filter((m) => m.field);
  yield `${csvLine(used.map((m) => m.field!))}\n`;
  for await (const row of rows) yield `${csvLine(used.map((m) => row[m.index] ?? ""))}\n`;
}
