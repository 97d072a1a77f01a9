import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { TOOLS } from "../../src/agent/catalog";
import { toolContributions } from "../../scripts/tool-manifest";
import { COMMAND_IDS } from "../../src/commands/commandIds";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const nls = JSON.parse(readFileSync("package.nls.json", "utf8")) as Record<string, string>;
/** A manifest string as VS Code shows it: `%key%` looked up in package.nls.json. */
const shown = (value: string) => (/^%[\w.-]+%$/.test(value) ? nls[value.slice(1, -1)] : value);

test("every registered command is contributed and every contributed command is registered", () => {
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(contributed, [...COMMAND_IDS].sort());
});

test("commands are named crm.<area>.<verb> and carry the CRM category", () => {
  for (const c of manifest.contributes.commands) {
    assert.match(c.command, /^crm\.[a-z]+\.[a-zA-Z0-9]+$/);
    assert.equal(shown(c.category), "CRM", c.command);
  }
});

test("menus only name contributed commands", () => {
  const known = new Set(COMMAND_IDS as readonly string[]);
  for (const entries of Object.values(manifest.contributes.menus) as { command: string }[][]) {
    for (const entry of entries) assert.ok(known.has(entry.command), entry.command);
  }
});

test("activation is implied by views and commands, plus restoring a panel or a crm: editor after a reload (no '*', no startup activation)", () => {
  // VS Code does not derive onWebviewPanel events; each restorable panel needs its own, and restored crm: tabs need the file system.
  // A workspace holding a knowledge folder shows its articles' status in the Explorer from the start (local files only);
  // one holding a migration plan shows its Dry Run and Run above the plan (nothing is read until one is clicked).
  assert.deepEqual(manifest.activationEvents, ["onWebviewPanel:crm.orgInfo", "onWebviewPanel:crm.article", "onWebviewPanel:crm.results", "onWebviewPanel:crm.preview", "onFileSystem:crm", "workspaceContains:**/crm-knowledge.yaml", "workspaceContains:**/*.migration.yaml", "workspaceContains:**/*.migration.yml"]);
  assert.equal(manifest.engines.vscode, "^1.95.0");
  assert.equal(manifest.devDependencies["@types/vscode"], "1.95.0");
});

test("no setting holds a secret", () => {
  for (const key of Object.keys(manifest.contributes.configuration.properties)) assert.doesNotMatch(key, /password|secret|token(?!s)|privateKey/i);
});

test("workspace trust and virtual workspaces are declared, and every restricted setting is a contributed one", () => {
  const { untrustedWorkspaces, virtualWorkspaces } = manifest.capabilities;
  assert.equal(untrustedWorkspaces.supported, "limited");
  assert.match(shown(untrustedWorkspaces.description)!, /nothing in it makes CRM Explorer contact an org by itself/);
  const settings = Object.keys(manifest.contributes.configuration.properties);
  for (const key of untrustedWorkspaces.restrictedConfigurations) assert.ok(settings.includes(key), key);
  // Where a sign-in goes, which app signs in and where posts go must never come from an untrusted workspace.
  for (const key of ["crm.login.productionUrl", "crm.login.sandboxUrl", "crm.oauth.clientId", "crm.feed.siteId"]) assert.ok(untrustedWorkspaces.restrictedConfigurations.includes(key), key);
  assert.equal(virtualWorkspaces.supported, "limited");
  assert.ok(shown(virtualWorkspaces.description)!.length > 20);
});

test("the getting-started walkthrough: four steps, each with a picture that ships and an event that completes it", () => {
  const [walkthrough] = manifest.contributes.walkthroughs;
  assert.equal(walkthrough.steps.length, 4);
  const commands = new Set(COMMAND_IDS as readonly string[]);
  for (const step of walkthrough.steps) {
    assert.ok(existsSync(step.media.image), `${step.id}: ${step.media.image} exists`);
    assert.match(step.media.image, /^media\//, "pictures ship in the VSIX (media/ is packaged)");
    assert.ok(shown(step.media.altText)!.length > 20, `${step.id} describes its picture`);
    assert.ok(step.completionEvents.length > 0, `${step.id} can be completed`);
    for (const event of step.completionEvents) {
      const command = /^onCommand:(.+)$/.exec(event)?.[1];
      if (command) assert.ok(commands.has(command), `${step.id}: ${command} is a command of ours`);
      else assert.match(event, /^onContext:crm\./, `${step.id}: ${event}`);
    }
    for (const [, command] of shown(step.description)!.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.has(command!), `${step.id} links ${command}`);
  }
});

/** Every user-facing string of the manifest, with where it is. */
function userFacing(): [where: string, value: string][] {
  const c = manifest.contributes;
  const out: [string, string][] = [["displayName", manifest.displayName], ["description", manifest.description]];
  for (const v of c.viewsContainers.activitybar) out.push([`viewsContainer ${v.id}`, v.title]);
  for (const views of Object.values(c.views) as { id: string; name: string; contextualTitle?: string }[][]) {
    for (const v of views) out.push([`view ${v.id}`, v.name], ...(v.contextualTitle ? [[`view ${v.id} contextualTitle`, v.contextualTitle] as [string, string]] : []));
  }
  for (const w of c.walkthroughs) {
    out.push([`walkthrough ${w.id}`, w.title], [`walkthrough ${w.id} description`, w.description]);
    for (const s of w.steps) out.push([`step ${s.id}`, s.title], [`step ${s.id} description`, s.description], [`step ${s.id} altText`, s.media.altText]);
  }
  c.viewsWelcome.forEach((w: { view: string; contents: string }, i: number) => out.push([`viewsWelcome ${i} (${w.view})`, w.contents]));
  for (const cmd of c.commands) out.push([`command ${cmd.command}`, cmd.title], [`command ${cmd.command} category`, cmd.category]);
  out.push(["configuration title", c.configuration.title]);
  for (const [key, prop] of Object.entries(c.configuration.properties) as [string, Record<string, unknown>][]) {
    for (const field of ["description", "markdownDescription", "patternErrorMessage", "deprecationMessage", "markdownDeprecationMessage"]) {
      if (typeof prop[field] === "string") out.push([`${key} ${field}`, prop[field] as string]);
    }
    for (const field of ["enumDescriptions", "markdownEnumDescriptions"]) (prop[field] as string[] | undefined)?.forEach((v, i) => out.push([`${key} ${field}[${i}]`, v]));
  }
  for (const p of [...c.mcpServerDefinitionProviders, ...c.modelContextServerCollections]) out.push([`mcpServerDefinitionProvider ${p.id}`, p.label]);
  for (const n of c.notebooks) out.push([`notebook ${n.type}`, n.displayName]);
  for (const r of c.notebookRenderer) out.push([`notebookRenderer ${r.id}`, r.displayName]);
  for (const t of c.languageModelTools) out.push([`languageModelTool ${t.name}`, t.displayName], [`languageModelTool ${t.name} userDescription`, t.userDescription]);
  out.push(["untrustedWorkspaces", manifest.capabilities.untrustedWorkspaces.description], ["virtualWorkspaces", manifest.capabilities.virtualWorkspaces.description]);
  return out;
}

test("every user-facing manifest string comes from package.nls.json, and every key there is used", () => {
  const strings = userFacing();
  assert.ok(strings.length > 100, "the walk reaches the commands, settings, views and walkthrough");
  assert.deepEqual(strings.filter(([, value]) => !/^%[\w.-]+%$/.test(value)).map(([where]) => where), [], "literal strings: move them to package.nls.json");
  assert.deepEqual(strings.filter(([, value]) => shown(value) === undefined).map(([where, value]) => `${where}: ${value}`), [], "keys missing from package.nls.json");
  const used = new Set(strings.map(([, value]) => value.slice(1, -1)));
  assert.deepEqual(Object.keys(nls).filter((key) => !used.has(key)), [], "keys no manifest string uses");
});

test("the contributed language-model tools are generated from the agent tools' specs (npm run manifest): the same tools, model descriptions, input schemas and strings", () => {
  const { tools, strings } = toolContributions();
  assert.deepEqual(manifest.contributes.languageModelTools, tools, "package.json differs from the tools' specs: run npm run manifest");
  for (const [key, value] of Object.entries(strings)) assert.equal(nls[key], value, `package.nls.json's ${key}: run npm run manifest`);
  assert.deepEqual((tools as { name: string }[]).map((t) => t.name), TOOLS.filter((t) => !t.mcpOnly).map((t) => t.name), "every tool but the MCP-only apply");
  for (const t of tools as { toolReferenceName: string }[]) assert.match(t.toolReferenceName, /^crm[A-Z]\w+$/);
});

test("agents' access is a user setting only: a workspace cannot grant it", () => {
  assert.equal(manifest.contributes.configuration.properties["crm.agent.access"].scope, "application");
});
