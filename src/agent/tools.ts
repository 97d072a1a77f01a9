/**
 * Running the agent's tools (each in its own file under tools/, listed by catalog.ts) over one org: access is
 * decided here, before anything is sent — `off` answers nothing, `read` refuses every change, `stage` lets an
 * agent propose changes for a person to commit, `write` (MCP only) lets it apply them — then the input is checked
 * and the answer is plain text, bounded (a budget of characters per answer), naming the org it came from, never
 * holding a secret. The hosts (VS Code's language-model tools, the MCP server) say how a proposal is staged and who
 * confirms. No VS Code here: tested in plain Node against the emulator.
 */
import type { Crm, SObjectDescribe } from "../client";
import { productionLike, productionLikeWords, type OrgKind } from "../client/orgKind";
import { withWriteContext } from "../client/writeRecord";
import { toolNamed, type ToolName, type ToolSpec } from "./catalog";
import { quoted } from "./quoted";
import { TrustRefusal } from "./trust";
import { bounded, fenced } from "./tools/answers";
import { asInput, ToolInputError } from "./tools/input";
import type { AgentAccess, AgentHost, AgentOrg, AgentSchema, ToolAnswer } from "./tools/kit";

export type { AgentAccess, AgentHost, AgentOrg, ProposedChange, Scalar, ToolAnswer } from "./tools/kit";

export const ACCESS_MODES: readonly AgentAccess[] = ["off", "read", "stage", "write"];

/** The default for an org: an agent only reads a production org (or one whose kind is unknown) until a person says otherwise. */
export const defaultAccess = (kind: OrgKind | "unknown"): AgentAccess => (productionLike(kind) ? "read" : "stage");

export const DEFAULT_BUDGET = 16_000;

const header = (org: AgentOrg) => `Org: ${org.name} (${org.kind === "unknown" ? "kind unknown" : org.kind}; agent access: ${org.access})`;

/** Why a call may not run on this org, or undefined when it may. Checked before anything is sent. */
export function accessRefusal(spec: ToolSpec, org: AgentOrg, host: Pick<AgentHost, "personConfirms" | "allowProduction">): string | undefined {
  if (org.access === "off") return `Agent access to ${org.name} is off: no tool may read or change it. A person can allow it with the setting crm.agent.access (VS Code) or the server's --access.`;
  const needs = spec.effect === "write" || (spec.name === "crm_draft_article" && !host.personConfirms) ? "write" : spec.effect;
  if (needs === "stage" && org.access === "read") return `${org.name} allows agents to read only (access "read"): ${spec.name} was refused and nothing was sent. Ask the person to allow staged changes for this org (crm.agent.access "stage", or the server's --access stage).`;
  if (needs === "write" && org.access !== "write") return `${spec.name} writes to ${org.name}, and this server's access is "${org.access}": refused, nothing was sent. Writing needs --access write${productionLike(org.kind) ? " and --allow-production" : ""}.`;
  if (needs === "write" && productionLike(org.kind) && !host.allowProduction) return `${org.name} is ${productionLikeWords(org.kind)}: ${spec.name} was refused and nothing was sent. The server writes to it only when started with --allow-production.`;
  return undefined;
}

/** Runs a tool: access checked, input checked, the answer bounded and headed with the org. */
export async function runTool(name: ToolName | string, input: unknown, org: AgentOrg, host: AgentHost): Promise<ToolAnswer> {
  const tool = toolNamed(name);
  const spec = tool?.spec;
  if (!tool || !spec) return { text: `There is no tool named ${quoted(name)}.`, isError: true };
  const refused = accessRefusal(spec, org, host);
  if (refused) return { text: `${header(org)}\n${refused}`, isError: true };
  try {
    const args = asInput(input);
    // Whatever a tool sends is the agent's work, on VS Code and over MCP: each write's record says so.
    const run = await withWriteContext({ by: "agent" }, () => tool.run(args, org, host));
    if (typeof run === "string") return { text: fenced(header(org), run, host.budget) };
    return { text: fenced([header(org), ...(run.notes ?? [])].join("\n"), run.body, host.budget), ...(run.structured ? { structured: run.structured } : {}) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The org's own words (a refusal quoting a value) are its data too; bad input and the trust rules are the server's.
    if (err instanceof ToolInputError) return { text: bounded(`${header(org)}\nBad input: ${message}`, host.budget), isError: true };
    if (err instanceof TrustRefusal) return { text: bounded(`${header(org)}\nRefused: ${message}`, host.budget), isError: true };
    return { text: fenced(`${header(org)}\nFailed: the org answered`, message, host.budget), isError: true };
  }
}

/** A schema over the client alone (describes fetched once per process), for hosts without a session's schema. */
export function clientSchema(crm: Crm): AgentSchema {
  let objects: Promise<{ name: string; label: string; custom: boolean; queryable: boolean }[]> | undefined;
  const described = new Map<string, Promise<SObjectDescribe>>();
  return {
    objects: () => (objects ??= crm.getAllSobjects().then((g) => (g?.sobjects ?? []).map((o) => ({ name: o.name, label: o.label, custom: o.custom, queryable: o.queryable })))),
    describe: (object) => {
      const key = object.toLowerCase();
      let d = described.get(key);
      if (!d) {
        d = crm.getSobject(object, { describe: true });
        described.set(key, d);
        d.catch(() => described.delete(key));
      }
      return d;
    },
  };
}
