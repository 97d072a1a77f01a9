/** Activation in the real host: no network I/O, every contributed command registered. */
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { COMMAND_IDS } from "../../../src/commands/commandIds";
import { EXTENSION_ID, api, requestCount } from "./env";

export function registerActivationTests(): void {
  suite("activation", () => {
    test("activating sends nothing to the org", async () => {
      const before = await requestCount();
      const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
      await api();
      assert.equal(ext.isActive, true);
      assert.equal(await requestCount(), before);
    });

    test("every contributed command is registered, and every registered crm.* command is contributed", async () => {
      await api();
      const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes;
      // VS Code adds commands of its own for each view (crm.orgs.focus, …): those are not ours to contribute.
      const viewIds = Object.values(manifest.views as Record<string, { id: string }[]>).flat().map((v) => v.id);
      const generated = new Set(viewIds.flatMap((v) => ["focus", "open", "removeView", "resetViewLocation", "toggleVisibility"].map((s) => `${v}.${s}`)));
      const registered = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith("crm.") && !generated.has(c));
      const contributed = (manifest.commands as { command: string }[]).map((c) => c.command);
      assert.deepEqual([...registered].sort(), [...contributed].sort());
      assert.deepEqual([...contributed].sort(), [...COMMAND_IDS].sort());
    });
  });
}
