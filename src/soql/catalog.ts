/** What the SOQL features know about an org, from its cached describes. Kept vscode-free. */
import type { ChildRelationshipSummary, FieldSummary } from "../connections/schema";
import type { Scope } from "./statements";

export interface SoqlCatalog {
  /** Every object of the org (empty until describe global is cached). */
  objects(): { name: string; label: string }[];
  /** An object's fields, or undefined when its describe is not cached yet. */
  fields(objectName: string): FieldSummary[] | undefined;
  childRelationships(objectName: string): ChildRelationshipSummary[] | undefined;
}

export function findObject(catalog: SoqlCatalog, name: string): string | undefined {
  return catalog.objects().find((o) => o.name.toLowerCase() === name.toLowerCase())?.name;
}

/**
 * Walks a relationship path (`Account.Owner`) from an object; resolves to the object at its end, or says
 * which describe is missing (`needs`) or which part is unknown (`unknown`).
 */
export function walkPath(catalog: SoqlCatalog, from: string, parts: string[]): { object?: string; needs?: string; unknown?: string } {
  let current = from;
  for (const part of parts) {
    const fields = catalog.fields(current);
    if (!fields) return { needs: current };
    const ref = fields.find((f) => f.relationshipName?.toLowerCase() === part.toLowerCase());
    if (!ref || !ref.referenceTo[0]) return { unknown: part };
    current = ref.referenceTo[0];
  }
  return { object: current };
}

/** The object a scope reads: a child relationship's object in a relationship subquery, else the FROM object. */
export function objectOfScope(catalog: SoqlCatalog, scopes: Scope[], index: number, needs: Set<string>): string | undefined {
  const scope = scopes[index]!;
  if (!scope.from) return undefined;
  if (scope.subquery) {
    const parent = objectOfScope(catalog, scopes, scope.parent, needs);
    const children = parent ? catalog.childRelationships(parent) : undefined;
    if (parent && !children) needs.add(parent);
    const child = children?.find((c) => c.relationshipName.toLowerCase() === scope.from!.toLowerCase());
    if (child) return child.childSObject;
    // A semi-join (`Id IN (SELECT … FROM Object)`) names an object, not a relationship.
  }
  return findObject(catalog, scope.from);
}
