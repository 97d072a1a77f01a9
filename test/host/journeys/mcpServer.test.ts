/**
 * Journey: VS Code's own MCP support starts the extension's server for the active org. "MCP: List Servers"
 * shows it under CRM Explorer, stopped until asked; Start Server resolves it (the loopback server and its key
 * are made now) and VS Code connects, discovers the nine tools and finds every input schema valid. The
 * schemas are checked against JSON Schema draft-07, which VS Code downloads; this machine reaches no such
 * host, so the user settings hand VS Code the same meta-schema from ajv.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { workbenchSession } from "./session";

const draft07 = JSON.parse(readFileSync(createRequire(import.meta.url).resolve("ajv/dist/refs/json-schema-draft-07.json"), "utf8")) as object;
const { journey } = workbenchSession({ settings: { "json.schemas": [{ url: "https://json-schema.org/draft-07/schema", schema: draft07 }] } });

journey("MCP: VS Code lists the active org's server, starts it and finds its nine tools valid", async ({ ui, emulator, workbench }) => {
  const page = workbench.page;
  await ui.addDemoOrg(emulator.url);
  const picker = page.locator(".quick-input-widget:visible");
  const row = (text: string | RegExp) => picker.locator(".monaco-list-row", { hasText: text });
  /** MCP: List Servers, then one of our server's actions (VS Code's pickers have no title to wait for). */
  const serverAction = async (action: string) => {
    await ui.runCommand("MCP: List Servers");
    await row("CRM Explorer: Demo org").click();
    await row(action).click();
    await picker.waitFor({ state: "hidden" });
  };

  await ui.runCommand("MCP: List Servers");
  await row("CRM Explorer: Demo org").waitFor();
  assert.match(await row("CRM Explorer: Demo org").innerText(), /Stopped/, "listed, started only when asked");
  assert.match(await picker.innerText(), /CRM Explorer \(active org\)/, "under the provider's label");
  await page.keyboard.press("Escape");
  await serverAction("Start Server");
  // VS Code reveals the server's output as it starts it (and with it takes the focus): wait for that first.
  const output = page.locator(".part.panel .view-lines");
  await output.getByText("Discovered 9 tools").waitFor({ timeout: 20_000 });
  // The list is a snapshot of the states when it opens.
  await ui.runCommand("MCP: List Servers");
  assert.match(await row("CRM Explorer: Demo org").innerText(), /Running/);
  await page.keyboard.press("Escape");
  await picker.waitFor({ state: "hidden" });
  // VS Code checks each tool's schema once discovered, and says which it dropped; a restart lists them again.
  await serverAction("Restart Server");
  await output.getByText("Discovered 9 tools").nth(1).waitFor({ timeout: 20_000 });
  await ui.screenshot("46-agent-mcp-server");
  const log = await output.innerText();
  assert.doesNotMatch(log, /invalid JSON schemas|will be omitted/, log);
  assert.doesNotMatch(log, /Bearer|access_token/i, "no key or token in VS Code's log");
  assert.equal(await page.locator(".notifications-toasts", { hasText: /invalid parameters/ }).count(), 0);
});
