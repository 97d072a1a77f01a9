/** `crm_explain`: the org's query plans for a SOQL statement, with advice; nothing runs. */
import { planAdvice, planLine } from "../../soql/planAdvice";
import { orgArg } from "./schemas";
import { text, ToolInputError } from "./input";
import type { AgentOrg, Input, Tool } from "./kit";

async function explain(input: Input, org: AgentOrg): Promise<string> {
  const soql = text(input, "soql");
  if (!/^\s*SELECT\s/i.test(soql)) throw new ToolInputError("soql must be a SELECT statement");
  const result = await org.crm.explain(soql);
  if (!result.plans.length) return "The org answered no query plan.";
  const lines = ["Plans, the chosen one first:", ...result.plans.map((p, i) => `${i + 1}. ${planLine(p)}`)];
  const advice = planAdvice(result, soql);
  lines.push(advice.length ? "Advice:" : "Advice: none — the chosen plan is selective.", ...advice.map((a) => `- ${a.severity}: ${a.message}`));
  return lines.join("\n");
}

export const tool: Tool = {
  spec: {
    name: "crm_explain",
    title: "Explain a SOQL query",
    vscode: { referenceName: "crmExplain", icon: "$(graph)", userDescription: "The query plan of a SOQL query, with advice" },
    effect: "read",
    description: "Asks the org how it would run a SOQL query (its query plans: index or table scan, relative cost, rows) without running it, with advice on making it selective.",
    inputSchema: { type: "object", properties: { soql: { type: "string", description: "A SOQL SELECT statement." }, org: orgArg }, required: ["soql"], additionalProperties: false },
  },
  run: explain,
};
