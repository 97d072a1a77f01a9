/** Data category trees, as the org's data category groups give them (`getDataCategoryGroups`). */
import type { DataCategory } from "../client/knowledge";

/** A category and every category under it, by name (`found`: the category was met higher up). */
export function descendants(categories: DataCategory[], name: string, found = false): string[] {
  return categories.flatMap((c) => (found || c.name === name ? [c.name, ...descendants(c.childCategories ?? [], name, true)] : descendants(c.childCategories ?? [], name, false)));
}

/** Whether the category (or `All`) is in the group's tree. */
export function categoryExists(groups: { name: string; topCategories: DataCategory[] }[], group: string, category: string): boolean {
  const tree = groups.find((g) => g.name === group);
  return !!tree && (category === "All" || descendants(tree.topCategories, category).length > 0);
}
