/**
 * `npm run bench:soql`: SOQL completion and diagnostics on the emulator's `large` seed with a warm describe
 * cache — completion p95 on the 3,000-field object, and diagnostics of a 200-line file. Figures go to
 * bench/results/soql.json and the SOQL section of bench/results/README.md.
 */
import { recordResults } from "./readme";
import { Crm } from "../src/client";
import type { SoqlCatalog } from "../src/soql/catalog";
import { completionsAt } from "../src/soql/completion";
import { diagnose } from "../src/soql/diagnostics";
import { OrgSchema } from "../src/connections/schema";
import { DEMO } from "../src/demo-org/seed";
import { startEmulatorProcess } from "./emulator-process";

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function main() {
  const emu = await startEmulatorProcess("large");
  const crm = await Crm.create({ endpointUrl: emu.url, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, username: DEMO.username, password: DEMO.password, securityToken: DEMO.securityToken });
  const schema = new OrgSchema(crm);
  const objects = await schema.objects();
  for (const name of ["Wide_Object__c", "Account", "Contact", "User", "Big_Table__c"]) await schema.details(name);
  crm.close();
  emu.stop();
  const catalog: SoqlCatalog = { objects: () => objects, fields: (n) => schema.peek(n)?.fields, childRelationships: (n) => schema.peek(n)?.childRelationships };

  const completionMs: number[] = [];
  const cases = ["SELECT Id, Field_0| FROM Wide_Object__c", "SELECT Id FROM Wide_Object__c WHERE Field_0002__c = |", "SELECT Id FROM Wide_Object__c ORDER BY |", "SELECT Id FROM Wi|", "SELECT Account__r.Owner.| FROM Big_Table__c"];
  for (let i = 0; i < 400; i++) {
    const text = cases[i % cases.length]!;
    const t = performance.now();
    completionsAt(text.replace("|", ""), text.indexOf("|"), catalog);
    completionMs.push(performance.now() - t);
  }
  const lines: string[] = [];
  for (let i = 0; lines.length < 200; i++) {
    lines.push(i % 4 === 3 ? "" : [`SELECT Id, Name, Field_00${String(10 + (i % 80)).padStart(2, "0")}__c`, "FROM Wide_Object__c", `WHERE Field_0003__c > ${i} AND Name LIKE 'W%'`][i % 4]!);
  }
  const file = lines.join("\n");
  const diagnosticsMs: number[] = [];
  diagnose(file, catalog); // warm the parser
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    diagnose(file, catalog);
    diagnosticsMs.push(performance.now() - t);
  }
  const result = {
    date: new Date().toISOString(), fields: schema.peek("Wide_Object__c")!.fields.length,
    completionP50Ms: Number(percentile(completionMs, 0.5).toFixed(3)), completionP95Ms: Number(percentile(completionMs, 0.95).toFixed(3)),
    diagnosticsMedianMs: Number(percentile(diagnosticsMs, 0.5).toFixed(2)), diagnosticsLines: 200,
  };
  recordResults("soql", result, "SOQL editor", `Written by \`npm run bench:soql\` (${result.date}), warm describe cache, \`large\` seed. Completion on the ${result.fields}-field object: p50 **${result.completionP50Ms} ms**, p95 **${result.completionP95Ms} ms** (budget p95 < 50 ms). Diagnostics of a ${result.diagnosticsLines}-line file: median **${result.diagnosticsMedianMs} ms** (budget < 30 ms).`);
  console.log(JSON.stringify(result));
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
