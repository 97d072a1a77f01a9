/**
 * Record documents in the real host, in a race a person cannot time by hand: Ctrl+S pressed while VS Code's
 * automatic save of the same document is under way. VS Code then makes no save of its own for Ctrl+S (it lets
 * the one under way stand in), so that automatic save must record what Ctrl+S sent — not be refused and leave
 * a document the org already holds marked unsaved.
 */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { api, demoConnection, writeCount } from "./env";

const files = () => vscode.workspace.getConfiguration("files");

export function registerDocumentTests(): void {
  suite("record documents", () => {
    let orgKey = "";
    suiteSetup(async () => {
      const { manager } = await api();
      orgKey = (await manager.add({ method: "password", alias: "Host documents", connection: demoConnection() })).key;
      await files().update("autoSave", "afterDelay", vscode.ConfigurationTarget.Global);
      await files().update("autoSaveDelay", 100, vscode.ConfigurationTarget.Global);
    });
    suiteTeardown(async () => {
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
      await files().update("autoSave", undefined, vscode.ConfigurationTarget.Global);
      await files().update("autoSaveDelay", undefined, vscode.ConfigurationTarget.Global);
    });

    test("Ctrl+S during an automatic save: the org gets the edit once, and VS Code's save under way records it", async () => {
      const { manager } = await api();
      const { crm } = await manager.session(orgKey);
      const contact = (await crm.queryAll<{ Id: string; Title: string | null }>("SELECT Id, Title FROM Contact ORDER BY Id LIMIT 1")).records[0]!;
      await vscode.commands.executeCommand("crm.document.openRecord", orgKey, contact.Id);
      const document = vscode.window.activeTextEditor!.document;
      assert.equal(document.uri.scheme, "crm");

      // VS Code's automatic save is held in its will-save step: while it is there, VS Code makes no other save of the document.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const autoSaving = new Promise<void>((resolve) => {
        const listening = vscode.workspace.onWillSaveTextDocument((event) => {
          if (event.document !== document || event.reason !== vscode.TextDocumentSaveReason.AfterDelay) return;
          listening.dispose();
          event.waitUntil(held);
          resolve();
        });
      });
      const line = `"Title": ${JSON.stringify(contact.Title)}`;
      const at = document.getText().indexOf(line);
      assert.ok(at >= 0, `the document shows ${line}`);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(document.positionAt(at), document.positionAt(at + line.length)), `"Title": "Saved during an auto save"`);
      await vscode.workspace.applyEdit(edit);
      await autoSaving;

      const writesBefore = await writeCount();
      const saved = new Promise<void>((resolve) => {
        const listening = vscode.workspace.onDidSaveTextDocument((d) => d === document && (listening.dispose(), resolve()));
      });
      await vscode.commands.executeCommand("crm.document.save");
      assert.equal(document.isDirty, true, "VS Code left Ctrl+S's save to the automatic one under way");
      release();
      await Promise.race([saved, new Promise((_, reject) => setTimeout(() => reject(new Error("VS Code's save under way did not record what Ctrl+S sent: the document stays unsaved")), 10_000))]);

      assert.equal(document.isDirty, false);
      assert.equal(await writeCount(), writesBefore + 1, "sent once, by Ctrl+S");
      const after = (await crm.queryAll<{ Title: string }>(`SELECT Title FROM Contact WHERE Id = '${contact.Id}'`)).records[0]!;
      assert.equal(after.Title, "Saved during an auto save");
    });
  });
}
