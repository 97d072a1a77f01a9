/**
 * The describe resources' shapes (REST API: sObject Describe, Describe Global). The fields named here are
 * the ones the client and its callers read; every other field the org sends is kept and typed `unknown`.
 */

export interface PicklistValue {
  value: string;
  label: string | null;
  active: boolean;
  defaultValue: boolean;
  [field: string]: unknown;
}

export interface FieldDescribe {
  name: string;
  label: string;
  /** `string`, `textarea`, `reference`, `picklist`, `boolean`, `double`, `date`, `datetime`, `id`, … */
  type: string;
  length: number;
  precision?: number;
  scale?: number;
  nillable: boolean;
  createable: boolean;
  updateable: boolean;
  defaultedOnCreate: boolean;
  unique: boolean;
  externalId: boolean;
  referenceTo: string[];
  relationshipName: string | null;
  picklistValues: PicklistValue[];
  /** Only the listed picklist values are accepted. */
  restrictedPicklist: boolean;
  inlineHelpText: string | null;
  /** A formula or roll-up field: read-only whatever `updateable` says of the running user. */
  calculated: boolean;
  /** The field that names a record (Name, Subject, Title, …). */
  nameField: boolean;
  /** Rich text: the value is HTML. */
  htmlFormatted: boolean;
  /** `richtextarea`, `plaintextarea`, `imageurl`, … or null. */
  extraTypeInfo: string | null;
  [field: string]: unknown;
}

export interface ChildRelationship {
  childSObject: string;
  field: string;
  relationshipName: string | null;
  cascadeDelete: boolean;
  [field: string]: unknown;
}

export interface RecordTypeInfo {
  recordTypeId: string;
  name: string;
  developerName: string;
  active: boolean;
  available: boolean;
  defaultRecordTypeMapping: boolean;
  master: boolean;
  [field: string]: unknown;
}

/** One object of Describe Global. */
export interface GlobalSObject {
  name: string;
  label: string;
  labelPlural: string;
  keyPrefix: string | null;
  custom: boolean;
  queryable: boolean;
  createable: boolean;
  updateable: boolean;
  deletable: boolean;
  [field: string]: unknown;
}

/** An sObject's full describe: what Describe Global says of it, and its fields, relationships and record types. */
export interface SObjectDescribe extends GlobalSObject {
  fields: FieldDescribe[];
  childRelationships: ChildRelationship[];
  recordTypeInfos: RecordTypeInfo[];
}

export interface DescribeGlobal {
  encoding: string;
  maxBatchSize: number;
  sobjects: GlobalSObject[];
  [field: string]: unknown;
}

/** A rich-text field (its value is HTML): an article body. */
export const isRichText = (f: Pick<FieldDescribe, "extraTypeInfo" | "htmlFormatted">) => f.extraTypeInfo === "richtextarea" || f.htmlFormatted === true;

/** Required to create: not nillable, not defaulted, createable, not a boolean (which always has a value). */
export const isRequiredOnCreate = (f: FieldDescribe) => f.nillable === false && f.defaultedOnCreate !== true && f.createable === true && f.type !== "boolean";
