/** An org's schema as the SOQL features need it: synchronous reads of what is loaded, loading on demand. */
import * as l10n from "@vscode/l10n";
import type { Uri } from "vscode";
import type { OrgSchema } from "../connections/schema";
import type { SoqlCatalog } from "./catalog";

/** The schema of an org (the active org's when no key is given). */
export type SchemaFor = (orgKey?: string) => Promise<OrgSchema>;

/** A synchronous view of the describes the org's schema holds, filled on demand. */
export class SoqlCatalogCache implements SoqlCatalog {
  private schema?: OrgSchema;
  /** `orgKey`: the org whose describes these are (the active org when undefined). */
  constructor(private readonly schemaFor: SchemaFor, private readonly orgKey?: string) {}

  /**
   * Describe global, once per org (needed before anything else). False when no org can answer (none is
   * active, or it is signed out): then only the syntax is checked and keywords offered.
   */
  async prepare(): Promise<boolean> {
    try {
      const schema = await this.schemaFor(this.orgKey);
      await schema.objects();
      this.schema = schema;
      return true;
    } catch {
      return false;
    }
  }

  /** Reads the describes of these objects (the schema reads each once and shares it with every view). */
  async load(names: string[]): Promise<void> {
    const schema = await this.schemaFor(this.orgKey).catch(() => undefined);
    if (!schema) return;
    // Describe Global and these describes at once: a describe does not need the list of objects first (on a
    // cold cache that is one round trip instead of two). An unknown object simply has no fields to offer.
    await Promise.all([this.prepare(), ...names.map((n) => schema.details(n).catch(() => undefined))]);
  }

  objects = () => this.schema?.loadedObjects() ?? [];
  fields = (name: string) => this.schema?.peek(name)?.fields;
  childRelationships = (name: string) => this.schema?.peek(name)?.childRelationships;
}

/** A catalog that never asks an org: only the syntax is checked, keywords offered. */
const OFFLINE = new SoqlCatalogCache(() => Promise.reject(new Error(l10n.t("No org for this document"))));

/**
 * One catalog per org: a SOQL document completes and checks against the org it runs on — unless `restricted`
 * says the document may not make the extension contact an org by itself (a file of an untrusted workspace).
 */
export class SoqlCatalogs {
  private readonly byOrg = new Map<string, SoqlCatalogCache>();
  constructor(private readonly schemaFor: SchemaFor, private readonly orgKeyFor: (uri: Uri) => string | undefined, private readonly restricted: (uri: Uri) => boolean = () => false) {}

  for(uri: Uri): SoqlCatalogCache {
    if (this.restricted(uri)) return OFFLINE;
    const key = this.orgKeyFor(uri) ?? "";
    let catalog = this.byOrg.get(key);
    if (!catalog) this.byOrg.set(key, (catalog = new SoqlCatalogCache(this.schemaFor, key || undefined)));
    return catalog;
  }

  clear(): void {
    this.byOrg.clear();
  }
}
