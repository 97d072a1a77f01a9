import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
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
