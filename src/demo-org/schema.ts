/** sObject definitions of the emulated org and the describe results built from them (crm-rest-api.md §3.4–3.6). */

export type FieldType =
  | "id" | "string" | "textarea" | "boolean" | "int" | "double" | "currency" | "percent" | "date" | "datetime"
  | "email" | "phone" | "url" | "picklist" | "multipicklist" | "reference";

export interface FieldDef {
  name: string;
  type: FieldType;
  label?: string;
  length?: number;
  referenceTo?: string[];
  relationshipName?: string;
  picklist?: string[];
  nillable?: boolean;
  createable?: boolean;
  updateable?: boolean;
  unique?: boolean;
  externalId?: boolean;
  richText?: boolean;
  nameField?: boolean;
  autoNumber?: boolean;
  defaultValue?: unknown;
  inlineHelpText?: string;
  /** Deleting the parent deletes the records whose field points to it (an account's contacts). */
  cascadeDelete?: boolean;
  /** How the org classifies the field (FieldDefinition's SecurityClassification and ComplianceGroup). */
  classification?: { level?: string; compliance?: string[] };
}

export interface ObjectDef {
  name: string;
  label: string;
  labelPlural: string;
  keyPrefix: string;
  custom: boolean;
  fields: FieldDef[];
  /** Lower-cased field name → field, filled by `defineOrg`. */
  fieldMap: Map<string, FieldDef>;
  /** Lower-cased relationship name → reference field. */
  relationshipMap: Map<string, FieldDef>;
  childRelationships: ChildRelationship[];
  recordTypes: string[];
  createable: boolean;
  updateable: boolean;
  deletable: boolean;
  queryable: boolean;
  searchable: boolean;
  feedEnabled: boolean;
  /** Time the describe last changed (for If-Modified-Since). */
  lastModified: number;
}

export interface ChildRelationship {
  childSObject: string;
  field: string;
  relationshipName: string | null;
  cascadeDelete: boolean;
}

/** Input shape for an object definition; system fields are added automatically. */
export interface ObjectSpec {
  name: string;
  label?: string;
  labelPlural?: string;
  keyPrefix: string;
  fields: FieldDef[];
  owned?: boolean;
  recordTypes?: string[];
  createable?: boolean;
  updateable?: boolean;
  deletable?: boolean;
  queryable?: boolean;
  searchable?: boolean;
  feedEnabled?: boolean;
}

const systemFields = (owned: boolean): FieldDef[] => [
  { name: "Id", type: "id", label: "Record ID", nillable: false, createable: false, updateable: false },
  { name: "IsDeleted", type: "boolean", label: "Deleted", nillable: false, createable: false, updateable: false },
  ...(owned
    ? [{ name: "OwnerId", type: "reference", label: "Owner ID", referenceTo: ["User"], relationshipName: "Owner", nillable: false } as FieldDef]
    : []),
  { name: "CreatedDate", type: "datetime", label: "Created Date", nillable: false, createable: false, updateable: false },
  { name: "CreatedById", type: "reference", label: "Created By ID", referenceTo: ["User"], relationshipName: "CreatedBy", nillable: false, createable: false, updateable: false },
  { name: "LastModifiedDate", type: "datetime", label: "Last Modified Date", nillable: false, createable: false, updateable: false },
  { name: "LastModifiedById", type: "reference", label: "Last Modified By ID", referenceTo: ["User"], relationshipName: "LastModifiedBy", nillable: false, createable: false, updateable: false },
  { name: "SystemModstamp", type: "datetime", label: "System Modstamp", nillable: false, createable: false, updateable: false },
];

function labelFromName(name: string): string {
  return name.replace(/__c$/, "").replace(/_+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");
}

export function defineObjects(specs: ObjectSpec[], now: number): Map<string, ObjectDef> {
  const objects = new Map<string, ObjectDef>();
  for (const spec of specs) {
    const custom = spec.name.endsWith("__c") || spec.name.endsWith("__kav");
    const label = spec.label ?? labelFromName(spec.name);
    const fields = [...systemFields(spec.owned ?? true), ...spec.fields].map((f) => ({ ...f, label: f.label ?? labelFromName(f.name) }));
    if (spec.recordTypes?.length) {
      fields.push({ name: "RecordTypeId", type: "reference", label: "Record Type ID", referenceTo: ["RecordType"], relationshipName: "RecordType" });
    }
    const def: ObjectDef = {
      name: spec.name,
      label,
      labelPlural: spec.labelPlural ?? `${label}s`,
      keyPrefix: spec.keyPrefix,
      custom,
      fields,
      fieldMap: new Map(fields.map((f) => [f.name.toLowerCase(), f])),
      relationshipMap: new Map(fields.filter((f) => f.relationshipName).map((f) => [f.relationshipName!.toLowerCase(), f])),
      childRelationships: [],
      recordTypes: spec.recordTypes ?? [],
      createable: spec.createable ?? true,
      updateable: spec.updateable ?? true,
      deletable: spec.deletable ?? true,
      queryable: spec.queryable ?? true,
      searchable: spec.searchable ?? true,
      feedEnabled: spec.feedEnabled ?? false,
      lastModified: now,
    };
    objects.set(spec.name.toLowerCase(), def);
  }
  for (const def of objects.values()) {
    for (const field of def.fields) {
      if (field.type !== "reference" || !field.relationshipName || field.name === "CreatedById" || field.name === "LastModifiedById") continue;
      for (const target of field.referenceTo ?? []) {
        const parent = objects.get(target.toLowerCase());
        if (!parent) continue;
        const childName = field.name === "OwnerId" ? null : def.custom ? `${def.name.replace(/__c$/, "")}s__r` : def.labelPlural.replace(/\s/g, "");
        parent.childRelationships.push({
          childSObject: def.name,
          field: field.name,
          relationshipName: childName,
          cascadeDelete: field.cascadeDelete ?? false,
        });
      }
    }
  }
  return objects;
}

function soapType(type: FieldType): string {
  switch (type) {
    case "id": case "reference": return "tns:ID";
    case "boolean": return "xsd:boolean";
    case "int": return "xsd:int";
    case "double": case "currency": case "percent": return "xsd:double";
    case "date": return "xsd:date";
    case "datetime": return "xsd:dateTime";
    default: return "xsd:string";
  }
}

function defaultLength(field: FieldDef): number {
  if (field.length !== undefined) return field.length;
  switch (field.type) {
    case "id": case "reference": return 18;
    case "string": case "email": case "phone": case "picklist": return 255;
    case "url": return 255;
    case "textarea": return field.richText ? 131072 : 32768;
    case "multipicklist": return 4099;
    default: return 0;
  }
}

export function describeField(field: FieldDef): Record<string, unknown> {
  const system = ["Id", "IsDeleted", "CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById", "SystemModstamp"].includes(field.name);
  const length = defaultLength(field);
  return {
    aggregatable: field.type !== "textarea", aiPredictionField: false, autoNumber: field.autoNumber ?? false,
    byteLength: length * 3, calculated: false, calculatedFormula: null, cascadeDelete: false, caseSensitive: false,
    compoundFieldName: null, controllerName: null,
    createable: field.createable ?? (!system && !field.autoNumber), custom: field.name.endsWith("__c"),
    defaultValue: field.defaultValue ?? (field.type === "boolean" ? false : null), defaultValueFormula: null,
    defaultedOnCreate: field.type === "boolean" || field.name === "OwnerId" || system, dependentPicklist: false,
    deprecatedAndHidden: false, digits: 0, displayLocationInDecimal: false, encrypted: false,
    externalId: field.externalId ?? false, extraTypeInfo: field.richText ? "richtextarea" : null,
    filterable: field.type !== "textarea", filteredLookupInfo: null, formulaTreatNullNumberAsZero: false,
    groupable: !["textarea", "double", "currency", "percent", "datetime"].includes(field.type), highScaleNumber: false,
    htmlFormatted: field.richText ?? false, idLookup: field.type === "id" || (field.externalId ?? false),
    inlineHelpText: field.inlineHelpText ?? null, label: field.label, length, mask: null, maskType: null,
    name: field.name, nameField: field.nameField ?? false, namePointing: (field.referenceTo?.length ?? 0) > 1,
    nillable: field.type === "boolean" ? false : field.nillable ?? true, permissionable: !system && field.nillable !== false,
    picklistValues: (field.picklist ?? []).map((value, i) => ({ active: true, defaultValue: i === 0 && field.defaultValue === value, label: value, validFor: null, value })),
    polymorphicForeignKey: (field.referenceTo?.length ?? 0) > 1,
    precision: ["double", "currency", "percent"].includes(field.type) ? 18 : 0,
    queryByDistance: false, referenceTargetField: null, referenceTo: field.referenceTo ?? [],
    relationshipName: field.relationshipName ?? null, relationshipOrder: null, restrictedDelete: false,
    restrictedPicklist: field.type === "picklist", scale: ["double", "currency", "percent"].includes(field.type) ? 2 : 0,
    searchPrefilterable: false, soapType: soapType(field.type), sortable: field.type !== "textarea" && field.type !== "multipicklist",
    type: field.type, unique: field.unique ?? false, updateable: field.updateable ?? (!system && !field.autoNumber),
    writeRequiresMasterRead: false,
  };
}

export function globalEntry(def: ObjectDef, version: string): Record<string, unknown> {
  const base = `/services/data/v${version}/sobjects/${def.name}`;
  return {
    activateable: false, createable: def.createable, custom: def.custom, customSetting: false, deletable: def.deletable,
    deprecatedAndHidden: false, feedEnabled: def.feedEnabled, hasSubtypes: false, isSubtype: false, keyPrefix: def.keyPrefix,
    label: def.label, labelPlural: def.labelPlural, layoutable: true, mergeable: false, mruEnabled: true, name: def.name,
    queryable: def.queryable, replicateable: true, retrieveable: true, searchable: def.searchable, triggerable: true,
    undeletable: def.deletable, updateable: def.updateable,
    urls: { sobject: base, describe: `${base}/describe`, rowTemplate: `${base}/{ID}` },
  };
}

export function describeObject(def: ObjectDef, version: string, recordTypeIds: Map<string, string>): Record<string, unknown> {
  const base = `/services/data/v${version}/sobjects/${def.name}`;
  const master = { active: true, available: true, defaultRecordTypeMapping: def.recordTypes.length === 0, developerName: "Master", master: true, name: "Master", recordTypeId: "012000000000000AAA", urls: { layout: `${base}/describe/layouts/012000000000000AAA` } };
  return {
    ...globalEntry(def, version),
    actionOverrides: [], compactLayoutable: true, listviewable: null, lookupLayoutable: null, namedLayoutInfos: [],
    networkScopeFieldName: null, searchLayoutable: true, sobjectDescribeOption: "FULL", supportedScopes: [{ label: "All", name: "everything" }],
    fields: def.fields.map(describeField),
    childRelationships: def.childRelationships.map((c) => ({ ...c, deprecatedAndHidden: false, junctionIdListNames: [], junctionReferenceTo: [], restrictedDelete: false })),
    recordTypeInfos: [
      ...def.recordTypes.map((developerName, i) => {
        const id = recordTypeIds.get(`${def.name}.${developerName}`) ?? "";
        return { active: true, available: true, defaultRecordTypeMapping: i === 0, developerName, master: false, name: developerName.replace(/_/g, " "), recordTypeId: id, urls: { layout: `${base}/describe/layouts/${id}` } };
      }),
      master,
    ],
    urls: {
      sobject: base, describe: `${base}/describe`, rowTemplate: `${base}/{ID}`, layouts: `${base}/describe/layouts`,
      compactLayouts: `${base}/describe/compactLayouts`, quickActions: `${base}/quickActions`,
      uiDetailTemplate: `/{ID}`, uiEditTemplate: `/{ID}/e`, uiNewRecord: `/${def.keyPrefix}/e`,
    },
  };
}
