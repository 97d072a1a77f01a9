/**
 * package.json's `contributes.languageModelTools`, and their people-facing strings in
 * package.nls.json, generated from the agent tools' specs (src/agent/tools/*.ts: the one place a tool is
 * described). `npm run manifest` writes them (scripts/write-manifest.ts); test/unit/manifest.test.ts fails while
 * the files differ from what it would write.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TOOLS } from "../src/agent/catalog";

const nlsKey = (tool: string, part: "displayName" | "userDescription") => `languageModelTools.${tool}.${part}`;

/** The contributions VS Code reads, and the English strings they name. */
export function toolContributions(): { tools: Record<string, unknown>[]; strings: Record<string, string> } {
  const strings: Record<string, string> = {};
  const tools = TOOLS.filter((t) => !t.mcpOnly).map((t) => {
    if (!t.vscode) throw new Error(`${t.name}: a tool VS Code offers needs its vscode part (reference name, icon, line for people)`);
    strings[nlsKey(t.name, "displayName")] = t.title;
    strings[nlsKey(t.name, "userDescription")] = t.vscode.userDescription;
    return {
      name: t.name, displayName: `%${nlsKey(t.name, "displayName")}%`, toolReferenceName: t.vscode.referenceName, canBeReferencedInPrompt: true, icon: t.vscode.icon,
      userDescription: `%${nlsKey(t.name, "userDescription")}%`, modelDescription: t.description, inputSchema: t.inputSchema, tags: ["crm", "salesforce"],
    };
  });
  return { tools, strings };
}

/** Writes both files (a string no tool uses any more leaves package.nls.json). */
export function writeToolManifest(root = "."): void {
  const { tools, strings } = toolContributions();
  const manifestFile = path.join(root, "package.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { contributes: Record<string, unknown> };
  manifest.contributes.languageModelTools = tools;
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const nlsFile = path.join(root, "package.nls.json");
  const nls = JSON.parse(readFileSync(nlsFile, "utf8")) as Record<string, string>;
  const kept = Object.fromEntries(Object.entries(nls).filter(([key]) => !key.startsWith("languageModelTools.") || key in strings));
  writeFileSync(nlsFile, `${JSON.stringify({ ...kept, ...strings }, null, 2)}\n`);
}
