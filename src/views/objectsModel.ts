/**
 * The Objects view's data for one org: the schema's objects grouped into Favorites, Standard and Custom,
 * filtered by text. No VS Code here: tested in Node.
 */
import type { KeyValueStore } from "../connections/orgRegistry";
import type { OrgSchema, SobjectSummary } from "../connections/schema";

export type GroupName = "favorites" | "standard" | "custom";

export class ObjectsModel {
  filter = "";

  constructor(readonly schema: OrgSchema, private readonly favoritesStore: KeyValueStore, private readonly orgKey: string) {}

  private favoritesKey(): string {
    return `crm.favorites.${this.orgKey}`;
  }

  favorites(): string[] {
    return this.favoritesStore.get<string[]>(this.favoritesKey(), []);
  }

  async setFavorite(objectName: string, on: boolean): Promise<void> {
    const current = new Set(this.favorites());
    if (on) current.add(objectName);
    else current.delete(objectName);
    await this.favoritesStore.update(this.favoritesKey(), [...current].sort());
  }

  private matches(o: SobjectSummary): boolean {
    if (!this.filter) return true;
    const f = this.filter.toLowerCase();
    return o.name.toLowerCase().includes(f) || o.label.toLowerCase().includes(f);
  }

  /** The objects of a group, filtered. */
  async group(name: GroupName): Promise<SobjectSummary[]> {
    const all = (await this.schema.objects()).filter((o) => this.matches(o));
    if (name === "favorites") {
      const favorites = new Set(this.favorites());
      return all.filter((o) => favorites.has(o.name));
    }
    return all.filter((o) => o.custom === (name === "custom"));
  }

  async counts(): Promise<Record<GroupName, number>> {
    const [favorites, standard, custom] = await Promise.all([this.group("favorites"), this.group("standard"), this.group("custom")]);
    return { favorites: favorites.length, standard: standard.length, custom: custom.length };
  }
}
