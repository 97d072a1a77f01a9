#!/usr/bin/env node
// Keeps knowledge articles in a folder, for version control and for moving them between orgs — in a team's CI,
// with plain Node on the built client:
//   node examples/knowledge-folder.mjs pull   helper.json kb/ ["LastPublishedDate = LAST_N_DAYS:30"]
//   node examples/knowledge-folder.mjs status helper.json kb/
//   node examples/knowledge-folder.mjs push   helper.json kb/ [--publish] [--overwrite]
// (helper.json is a helper file: { "connection": { "endpoint_url": …, "client_id": …, … } }). A push prints the
// dry run first; articles changed in the org since the pull are refused unless --overwrite. Exit code 1 when
// an article failed or was refused.
import { Crm } from "crm-explorer/client";
import * as knowledgeFolder from "crm-explorer/workflows/knowledge-folder";

const [command, helper, dir, ...rest] = process.argv.slice(2);
if (!["pull", "status", "push"].includes(command) || !helper || !dir) {
  console.error("usage: node examples/knowledge-folder.mjs pull|status|push <helper.json|helper.yaml> <folder> [SOQL condition | --publish --overwrite]");
  process.exit(2);
}

const crm = await Crm.create({ helper });
const folder = knowledgeFolder.nodeFolder(dir);
try {
  if (command === "pull") {
    const where = rest.find((a) => !a.startsWith("--"));
    const pulled = await knowledgeFolder.pullArticles(crm, folder, where ? { where } : {});
    for (const a of pulled) console.log(`pulled ${a.name} (${a.publishStatus}, ${a.images} images${a.translations.length ? `, ${a.translations.join(", ")}` : ""})`);
    console.log(`Pulled ${pulled.length} articles into ${dir}`);
  } else if (command === "status") {
    const { articles } = await knowledgeFolder.folderStatus(folder, { crm });
    for (const a of articles) console.log(`${a.conflict ? "C" : a.local === "new" ? "N" : a.local === "modified" ? "M" : a.org === "changed" ? "O" : " "} ${a.name}`);
  } else {
    const plan = await knowledgeFolder.planPush(crm, folder);
    for (const e of plan.entries) console.log(`plan ${e.name}: ${e.action}${e.translations.length ? ` + ${e.translations.map((t) => `${t.language} ${t.action}`).join(", ")}` : ""}${e.conflict ? ` — CONFLICT: ${e.conflict}` : ""}`);
    const results = await knowledgeFolder.pushFolder(crm, folder, { plan, publish: rest.includes("--publish"), overwrite: rest.includes("--overwrite") });
    for (const r of results.filter((x) => x.outcome !== "unchanged")) console.log(`${r.outcome} ${r.name}${r.published ? " (published)" : ""}${r.message ? `: ${r.message}` : ""}${r.warnings.map((w) => `; ${w}`).join("")}`);
    const pushed = results.filter((r) => r.outcome === "pushed").length;
    console.log(`Pushed ${pushed} of ${results.length} articles`);
    if (results.some((r) => r.outcome === "failed" || r.outcome === "conflict")) process.exitCode = 1;
  }
} finally {
  crm.close();
}
