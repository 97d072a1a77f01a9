/** `crm_query`: a read-only SOQL query or SOSL search, its rows as a bounded table and as data. */
import { checkStatement, screen } from "../trust";
import { orgArg, soslArg } from "./schemas";
import { optionalText, readOnly, whole, ToolInputError } from "./input";
import { roomFor, table } from "./answers";
import type { AgentHost, AgentOrg, Input, Row, Tool, ToolRun } from "./kit";

async function query(input: Input, org: AgentOrg, host: AgentHost): Promise<ToolRun> {
  const soql = optionalText(input, "soql");
  const sosl = optionalText(input, "sosl");
  if (!!soql === !!sosl) throw new ToolInputError("give exactly one of soql (a SELECT statement) or sosl (a FIND statement)");
  const limit = whole(input, "limit", 50, 2000);
  if (sosl) {
    if (!/^\s*FIND\s/i.test(sosl)) throw new ToolInputError("sosl must be a FIND statement");
    const found = await screen(org, (await org.crm.search(readOnly(sosl, "sosl"))).searchRecords);
    const searchRecords = found.rows;
    const byType = new Map<string, Row[]>();
    for (const r of searchRecords) {
      const type = String((r.attributes as { type?: unknown } | undefined)?.type ?? "Record");
      byType.set(type, [...(byType.get(type) ?? []), r]);
    }
    const parts = [`SOSL found ${searchRecords.length} record${searchRecords.length === 1 ? "" : "s"}.`];
    let room = roomFor(host);
    for (const [type, rows] of byType) {
      const t = table(rows.slice(0, limit), room);
      room -= t.text.length;
      parts.push(`${type} (${rows.length}${t.shown < rows.length ? `, ${t.shown} shown` : ""}):\n${t.text}`);
    }
    return { body: parts.join("\n\n"), notes: found.notes };
  }
  if (!/^\s*SELECT\s/i.test(soql!)) throw new ToolInputError("soql must be a SELECT statement (crm_query only reads)");
  await checkStatement(readOnly(soql!, "soql"), org);
  let page = await org.crm.soqlQuery(soql!);
  const rows: Row[] = [...page.records];
  while (rows.length < limit && !page.done && page.nextRecordsUrl) {
    page = await org.crm.soqlQuery(page.nextRecordsUrl, { nextRecordsUrl: true });
    rows.push(...page.records);
  }
  const screened = await screen(org, rows.slice(0, limit));
  const t = table(screened.rows, roomFor(host));
  const total = page.totalSize;
  const more = total - t.shown;
  const note = more > 0
    ? `\n${t.shown} of ${total} rows shown; ${more} more. Narrow the query (a WHERE filter, fewer fields, ORDER BY with LIMIT) or raise limit (up to 2000; the answer still holds about ${host.budget} characters).`
    : "";
  const shown = screened.rows.slice(0, t.shown).map(({ attributes: _attributes, ...values }) => values);
  return { body: `totalSize: ${total}\n${t.text}${note}`, structured: { org: org.name, totalSize: total, rows: shown }, notes: screened.notes };
}

export const tool: Tool = {
  spec: {
    name: "crm_query",
    title: "Query CRM records",
    vscode: { referenceName: "crmQuery", icon: "$(table)", userDescription: "Run a read-only SOQL query or SOSL search (rows capped)" },
    effect: "read",
    description: "Runs a read-only SOQL query (`soql`) or SOSL search (`sosl`) and returns rows as a compact table with the total size. Results are capped: a note says how many more rows there are and how to narrow the query. Select only the fields you need and filter with WHERE.",
    inputSchema: {
      type: "object",
      properties: {
        soql: { type: "string", description: "A SOQL SELECT statement." },
        sosl: soslArg,
        limit: { type: "integer", minimum: 1, maximum: 2000, description: "Most rows to return (default 50)." },
        org: orgArg,
      },
      additionalProperties: false,
    },
  },
  run: query,
};
