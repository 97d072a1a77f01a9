/** Hover facts and formatting for SOQL: pure, tested in Node. */
import * as l10n from "@vscode/l10n";
import { fieldMarkers } from "../connections/schema";
import { objectOfScope, walkPath, type SoqlCatalog } from "./catalog";
import { soqlParser } from "./parser";
import { splitStatements, tokenize } from "./statements";

export interface HoverInfo {
  start: number;
  end: number;
  markdown: string;
}

/** What a word of a statement names: a field (through its path) or the FROM object. */
export function hoverAt(statement: string, offset: number, catalog: SoqlCatalog): HoverInfo | undefined {
  const { tokens, scopes } = tokenize(statement);
  const token = tokens.find((t) => t.kind === "word" && offset >= t.start && offset <= t.end);
  if (!token) return undefined;
  const scope = scopes[token.scope]!;
  const needs = new Set<string>();
  if (scope.fromToken === token) {
    const object = objectOfScope(catalog, scopes, token.scope, needs);
    const label = catalog.objects().find((o) => o.name === object)?.label;
    if (!object) return undefined;
    const relationship = scope.subquery && object.toLowerCase() !== token.text.toLowerCase() ? `\n\n${l10n.t("Child relationship `{0}`", token.text)}` : "";
    return { start: token.start, end: token.end, markdown: `**${label ?? object}** \`${object}\`${relationship}` };
  }
  const object = objectOfScope(catalog, scopes, token.scope, needs);
  if (!object) return undefined;
  const parts = token.text.replace(/\.$/, "").split(".");
  const walked = walkPath(catalog, object, parts.slice(0, -1));
  const field = walked.object ? catalog.fields(walked.object)?.find((f) => f.name.toLowerCase() === parts[parts.length - 1]!.toLowerCase()) : undefined;
  if (!field) return undefined;
  const lines = [`**${field.label}** \`${walked.object}.${field.name}\``, ""];
  const type = [field.length ? `${field.type} (${field.length})` : field.type, ...fieldMarkers(field)].join(" · ");
  lines.push(l10n.t("- Type: {0}", type));
  const references = field.referenceTo.join(", ");
  if (field.referenceTo.length) lines.push(field.relationshipName ? l10n.t("- References: {0} (as `{1}`)", references, field.relationshipName) : l10n.t("- References: {0}", references));
  if (field.picklistValues.length) lines.push(l10n.t("- Values: {0}", `${field.picklistValues.slice(0, 15).join(", ")}${field.picklistValues.length > 15 ? ", …" : ""}`));
  if (field.helpText) lines.push("", field.helpText);
  return { start: token.start, end: token.end, markdown: lines.join("\n") };
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Formats every statement that parses, through the parser's composer; a statement that does not parse
 * is left exactly as it is. Only edits that keep the query the same (re-parsed equal) are returned.
 */
export function formatDocument(doc: string): TextEdit[] {
  const { parseQuery, formatQuery } = soqlParser();
  const edits: TextEdit[] = [];
  for (const { text, start } of splitStatements(doc)) {
    if (/^FIND\b/i.test(text)) continue;
    try {
      const formatted = formatQuery(text, { fieldMaxLineLength: 80 });
      if (formatted !== text && JSON.stringify(parseQuery(formatted)) === JSON.stringify(parseQuery(text))) edits.push({ start, end: start + text.length, text: formatted });
    } catch {
      // not valid SOQL: the diagnostics say why; formatting leaves it alone
    }
  }
  return edits;
}
