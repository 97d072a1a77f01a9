import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { COMMAND_IDS } from "../../src/commands/ids";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));

test("every registered command is contributed and every contributed command is registered", () => {
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(contributed, [...COMMAND_IDS].sort());
});

test("commands are named crm.<area>.<verb> and carry the CRM category", () => {
  for (const c of manifest.contributes.commands) {
    assert.match(c.command, /^crm\.[a-z]+\.[a-zA-Z0-9]+$/);
    assert.equal(c.category, "CRM", c.command);
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
  // A workspace holding a knowledge folder shows its articles' status in the Explorer from the start (local files only).
  assert.deepEqual(manifest.activationEvents, ["onWebviewPanel:crm.orgInfo", "onWebviewPanel:crm.article", "onWebviewPanel:crm.results", "onWebviewPanel:crm.preview", "onFileSystem:crm", "workspaceContains:**/crm-knowledge.yaml"]);
  assert.equal(manifest.engines.vscode, "^1.90.0");
  assert.equal(manifest.devDependencies["@types/vscode"], "1.90.0");
});

test("no setting holds a secret", () => {
  for (const key of Object.keys(manifest.contributes.configuration.properties)) assert.doesNotMatch(key, /password|secret|token(?!s)|privateKey/i);
});

test("workspace trust and virtual workspaces are declared, and every restricted setting is a contributed one", () => {
  const { untrustedWorkspaces, virtualWorkspaces } = manifest.capabilities;
  assert.equal(untrustedWorkspaces.supported, "limited");
  assert.match(untrustedWorkspaces.description, /nothing in it makes CRM Explorer contact an org by itself/);
  const settings = Object.keys(manifest.contributes.configuration.properties);
  for (const key of untrustedWorkspaces.restrictedConfigurations) assert.ok(settings.includes(key), key);
  // Where a sign-in goes, which app signs in and where posts go must never come from an untrusted workspace.
  for (const key of ["crm.login.productionUrl", "crm.login.sandboxUrl", "crm.oauth.clientId", "crm.feed.siteId"]) assert.ok(untrustedWorkspaces.restrictedConfigurations.includes(key), key);
  assert.equal(virtualWorkspaces.supported, "limited");
  assert.ok(virtualWorkspaces.description.length > 20);
});

test("the getting-started walkthrough: four steps, each with a picture that ships and an event that completes it", () => {
  const [walkthrough] = manifest.contributes.walkthroughs;
  assert.equal(walkthrough.steps.length, 4);
  const commands = new Set(COMMAND_IDS as readonly string[]);
  for (const step of walkthrough.steps) {
    assert.ok(existsSync(step.media.image), `${step.id}: ${step.media.image} exists`);
    assert.match(step.media.image, /^media\//, "pictures ship in the VSIX (media/ is packaged)");
    assert.ok(step.media.altText.length > 20, `${step.id} describes its picture`);
    assert.ok(step.completionEvents.length > 0, `${step.id} can be completed`);
    for (const event of step.completionEvents) {
      const command = /^onCommand:(.+)$/.exec(event)?.[1];
      if (command) assert.ok(commands.has(command), `${step.id}: ${command} is a command of ours`);
      else assert.match(event, /^onContext:crm\./, `${step.id}: ${event}`);
    }
    for (const [, command] of step.description.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.has(command!), `${step.id} links ${command}`);
  }
});
