/**
 * `crm-explorer-mcp`: the agent's tools for one org as an MCP server over stdio. Reads only by default;
 * `--access stage` lets an agent propose change sets, `--access write` lets it apply them — and a production
 * org (or one whose kind cannot be read) still refuses every write unless `--allow-production`. Every write the
 * org accepts is appended to `--journal` with the values it replaced. Nothing but the protocol goes to stdout;
 * what the server says to a person goes to stderr.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Crm } from "../client";
import { DEFAULT_KNOWLEDGE_SOBJECT } from "../client/constants";
import { crmMcpServer } from "../agent/mcpServer";
import { clientSchema, DEFAULT_BUDGET, type AgentAccess, type AgentOrg } from "../agent/tools";
import { CREDENTIALS_HELP, signIn } from "./credentials";
import { EXIT, UsageError, oneOf, parseArgs, value, flag, type CliContext } from "./usage";
import { textLines } from "./output";
import { guardedWrites } from "./writeSafety";

export const MCP_HELP = `crm-explorer-mcp — CRM Explorer's agent tools for one org, as an MCP server over stdio

Usage: crm-explorer-mcp [--helper <file>] [--access read|stage|write] [--allow-production]
                        [--journal <file>] [--budget <characters>] [--knowledge-object <name>]
                        [--lockdown] [--reveal-classified]

  --access            read (default): describe, query, search and read only
                      stage: also propose change sets (crm_propose_changes); nothing is written
                      write: also apply them (crm_apply_changes) and draft articles
  --allow-production  let a production org (or one of unknown kind) take writes
  --journal <file>    append every write the org accepts (JSON lines, with the values replaced)
  --budget <n>        most characters in one tool answer (default ${DEFAULT_BUDGET})
  --knowledge-object  the knowledge article type (default ${DEFAULT_KNOWLEDGE_SOBJECT})
  --lockdown          withhold the text of records written outside the company (guests,
                      portal users, web forms, e-mails)
  --reveal-classified show fields the org classifies as sensitive (withheld by default)

${CREDENTIALS_HELP}`;

const ACCESS: readonly AgentAccess[] = ["read", "stage", "write"];

/** Parses the arguments, signs in, and serves until stdin closes; the exit code for a usage error. */
export async function runMcpCli(ctx: CliContext, transport: () => Promise<Transport>): Promise<number> {
  let crm: Crm | undefined;
  try {
    const args = parseArgs(ctx.argv, { flags: ["allow-production", "help", "lockdown", "reveal-classified"], values: ["helper", "access", "journal", "budget", "knowledge-object"] }, "crm-explorer-mcp");
    if (flag(args, "help")) {
      // Asked for, help is the answer (stdout), as for the other tools: no server runs.
      ctx.out(MCP_HELP);
      return EXIT.clean;
    }
    if (args.positional.length) throw new UsageError(`crm-explorer-mcp takes no positional arguments (got '${args.positional[0]}')`);
    const access = oneOf(args, "access", ACCESS, "read");
    const budgetText = value(args, "budget");
    const budget = budgetText === undefined ? DEFAULT_BUDGET : Number(budgetText);
    if (!Number.isInteger(budget) || budget < 2_000 || budget > 200_000) throw new UsageError(`--budget must be a whole number of characters from 2000 to 200000, got '${budgetText}'`);
    const knowledgeSobject = value(args, "knowledge-object") ?? DEFAULT_KNOWLEDGE_SOBJECT;
    if (!/^\w+$/.test(knowledgeSobject)) throw new UsageError(`--knowledge-object must be an object's API name, got '${knowledgeSobject}'`);
    const allowProduction = flag(args, "allow-production");
    const safety = guardedWrites({ allowProduction, journalFile: value(args, "journal"), tool: "crm-explorer-mcp" });
    crm = await signIn(value(args, "helper"), ctx, safety.clientOptions);
    safety.watch(crm);
    const kind = await crm.getOrgKind().catch(() => "unknown" as const);
    const org: AgentOrg = { crm, name: new URL(crm.instanceUrl!).host, kind, access, schema: clientSchema(crm), knowledgeSobject, trust: { lockdown: flag(args, "lockdown"), revealClassified: flag(args, "reveal-classified") } };
    const server = crmMcpServer({ org, budget, allowProduction, version: "0.1.0" });
    const client = crm;
    const closed = new Promise<void>((resolve) => (server.onclose = () => resolve()));
    const channel = await transport();
    await server.connect(channel);
    const trustWords = [org.trust?.lockdown ? "lockdown" : "", org.trust?.revealClassified ? "classified fields shown" : ""].filter(Boolean).map((w) => `, ${w}`).join("");
    ctx.err(`crm-explorer-mcp: serving ${org.name} (${kind}) with ${access} access${allowProduction ? ", production writes allowed" : ""}${trustWords}`);
    await closed;
    client.close();
    // Never a silent end: stdin closing is the session's normal end; anything else is a failure, said as such.
    const why = (channel as { closedBecause?: string }).closedBecause ?? "the connection closed";
    ctx.err(`crm-explorer-mcp: stopped: ${why}`);
    return why === "stdin closed" ? EXIT.clean : EXIT.findings;
  } catch (err) {
    crm?.close();
    if (err instanceof UsageError) {
      ctx.err(textLines(`crm-explorer-mcp: ${err.message}`));
      return EXIT.usage;
    }
    ctx.err(textLines(`crm-explorer-mcp: ${(err as Error).message}`));
    return EXIT.findings;
  }
}
