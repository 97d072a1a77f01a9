/** `crm_describe`: the org's objects, or one object's fields and relationships. */
import type { FieldDescribe } from "../../client";
import { isRichText } from "../../client/describe";
import { inert } from "../inert";
import { classifiedFields } from "../trust";
import { orgArg } from "./schemas";
import { apiName, describeOrExplain } from "./input";
import type { AgentOrg, Input, Tool } from "./kit";

async function describe(input: Input, org: AgentOrg): Promise<string> {
  const objectName = input.object === undefined ? undefined : apiName(input, "object");
  if (!objectName) {
    const objects = await org.schema.objects();
    const lines = objects.filter((o) => o.queryable).map((o) => `${o.name} — ${inert(o.label)}${o.custom ? " (custom)" : ""}`);
    return `${lines.length} queryable objects (API name — label). Describe one with { "object": "<API name>" }.\n${lines.join("\n")}`;
  }
  const d = await describeOrExplain(org, objectName, "object");
  const { fields: classified } = await classifiedFields(org.crm, d.name);
  const lines = [`${d.name} — ${inert(d.label)}: ${d.fields.length} fields${d.createable === false ? " (records cannot be created)" : ""}`, "Fields (API name: type, label, marks):"];
  for (const f of d.fields) lines.push(`- ${fieldLine(f, classified.get(f.name.toLowerCase()), org.trust?.revealClassified === true)}`);
  const children = (d.childRelationships ?? []).filter((c) => c.relationshipName);
  if (children.length) {
    lines.push("Child relationships (use in a subquery: SELECT …, (SELECT … FROM <relationship>) FROM …):");
    for (const c of children) lines.push(`- ${c.relationshipName}: ${c.childSObject}.${c.field}`);
  }
  return lines.join("\n");
}

function fieldLine(f: FieldDescribe, classified: string | undefined, revealed: boolean): string {
  const type = f.type === "reference" ? `reference → ${(f.referenceTo ?? []).join(", ")}${f.relationshipName ? ` (as ${f.relationshipName})` : ""}` : isRichText(f) ? "rich text" : f.length && ["string", "textarea", "email", "url", "phone"].includes(f.type) ? `${f.type}(${f.length})` : f.type;
  const marks = [
    f.nillable === false && f.createable && !f.defaultedOnCreate && f.type !== "boolean" ? "required" : "",
    !f.updateable && !f.createable ? "read-only" : "",
    f.externalId ? "external ID" : "",
    f.unique ? "unique" : "",
    classified ? `${classified} (${revealed ? "shown: a person revealed classified fields" : "withheld from agents"})` : "",
  ].filter(Boolean);
  const values = (f.picklistValues ?? []).filter((p) => p.active !== false).map((p) => inert(p.value));
  const picklist = values.length ? `; values: ${values.slice(0, 40).join(", ")}${values.length > 40 ? `, … (${values.length} in all)` : ""}` : "";
  return `${f.name}: ${type}, "${inert(f.label)}"${marks.length ? `, ${marks.join(", ")}` : ""}${picklist}`;
}

export const tool: Tool = {
  spec: {
    name: "crm_describe",
    title: "Describe CRM objects",
    vscode: { referenceName: "crmDescribe", icon: "$(symbol-class)", userDescription: "The org's objects, or one object's fields and relationships" },
    effect: "read",
    description: "Lists the org's objects (API name, label), or with `object` one object's fields: API name, type, label, whether required, picklist values, and relationships (lookups and child relationships). Use before writing SOQL or proposing changes, to get field names right.",
    inputSchema: { type: "object", properties: { object: { type: "string", description: "An object's API name (Account, Case, Knowledge__kav). Leave out to list objects." }, org: orgArg }, additionalProperties: false },
  },
  run: describe,
};
