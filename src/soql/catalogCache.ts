/** An org's describes as the SOQL features need them: synchronous reads, loading on demand. */
import type { Uri } from "vscode";
import type { ObjectDetails } from "../views/objectsModel";
import type { ObjectsTreeProvider } from "../views/objectsView";
import type { SoqlCatalog } from "./catalog";

/** A synchronous view of describes already fetched, filled on demand from the Objects models. */
export class SoqlCatalogCache implements SoqlCatalog {
  private objectList: { name: string; label: string }[] = [];
  private readonly details = new Map<string, ObjectDetails>();
  /** `orgKey`: the org whose describes these are (the active org when undefined). */
  constructor(private readonly tree: ObjectsTreeProvider, private readonly orgKey?: string) {}

  /**
   * Describe global, once per org (needed before anything else). False when no org can answer (none is
   * active, or it is signed out): then only the syntax is checked and keywords offered.
   */
  async prepare(): Promise<boolean> {
    if (this.objectList.length) return true;
    try {
      this.objectList = await (await this.tree.current(this.orgKey)).objects();
      return true;
    } catch {
      return false;
    }
  }
  /** Fetches the describes of these objects (each once; the session revalidates them). */
  async load(names: string[]): Promise<void> {
    if (!(await this.prepare())) return;
    const model = await this.tree.current(this.orgKey);
    await Promise.all(names.filter((n) => !this.details.has(n)).map(async (n) => {
      try {
        this.details.set(n, await model.details(n));
      } catch {
        // an unknown object simply has no fields to offer
      }
    }));
  }
  objects = () => this.objectList;
  fields = (name: string) => this.details.get(this.canonical(name))?.fields;
  childRelationships = (name: string) => this.details.get(this.canonical(name))?.childRelationships;
  private canonical(name: string): string {
    return this.objectList.find((o) => o.name.toLowerCase() === name.toLowerCase())?.name ?? name;
  }
  clear(): void {
    this.objectList = [];
    this.details.clear();
  }
}

/** One catalog per org: a SOQL document completes and checks against the org it runs on. */
export class SoqlCatalogs {
  private readonly byOrg = new Map<string, SoqlCatalogCache>();
  constructor(private readonly tree: ObjectsTreeProvider, private readonly orgKeyFor: (uri: Uri) => string | undefined) {}

  for(uri: Uri): SoqlCatalogCache {
    const key = this.orgKeyFor(uri) ?? "";
    let catalog = this.byOrg.get(key);
    if (!catalog) this.byOrg.set(key, (catalog = new SoqlCatalogCache(this.tree, key || undefined)));
    return catalog;
  }

  clear(): void {
    this.byOrg.clear();
  }
}
