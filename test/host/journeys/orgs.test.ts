/**
 * Journeys in a real VS Code (code-server + headless Chromium) against the emulator: what a person does
 * with orgs, and what they would see. Skipped loudly when the host cannot be set up.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { answerPasswordSteps, workbenchSession } from "./session";

const { journey } = workbenchSession();

journey("first run: the CRM view guides with Add Org and Try the Demo Org", async ({ ui }) => {
  await ui.openContainer("CRM");
  const welcome = ui.pane("Orgs").locator(".welcome-view-content");
  await welcome.waitFor();
  const text = await welcome.innerText();
  assert.match(text, /No org yet/);
  for (const button of ["Add Org", "Try the Demo Org"]) assert.ok(await welcome.locator(".monaco-button", { hasText: button }).isVisible(), button);
  await ui.expandPane("Objects");
  await ui.pane("Objects").locator(".welcome-view-content", { hasText: "No org is active yet" }).waitFor({ timeout: 15_000 });
  await ui.screenshot("01-welcome");
});

journey("Try the Demo Org: the org appears in the Orgs view and the status bar shows it with API usage", async ({ ui, emulator }) => {
  await ui.tryDemoOrgAt(emulator.url);
  const row = await ui.waitForRow("Orgs", "Demo org");
  assert.equal(row.description, `developer · admin@demo.crm · ${new URL(emulator.url).host}`);
  const status = await ui.statusBarText(/Demo org/);
  assert.match(status, /Demo org · API \d+\/15,000/);
  await ui.screenshot("02-demo-org");
});

journey("Add Org with username and password through the wizard (with Back); it signs in once", async ({ ui, emulator }) => {
  const signIns = () => emulator.requests.filter((r) => r.method === "POST" && r.path === "/services/oauth2/token").length;
  const before = signIns();
  await ui.runCommand("CRM: Add Org…");
  await ui.pick("How do you sign in", "Username and password");
  await ui.pick("Where do you log in", "Sandbox");
  // Back to the previous step, then the right choice.
  await (await ui.quickInput("Username")).locator(".quick-input-titlebar .action-label[aria-label^='Back'], .quick-input-titlebar .codicon-quick-input-back").first().click();
  await ui.pick("Where do you log in", "My Domain or another URL");
  await answerPasswordSteps(ui, emulator, "Acme");
  await ui.waitForRow("Orgs", "Acme", /admin@demo\.crm/);
  await ui.page.waitForTimeout(1_000); // a second sign-in would follow the new row at once
  assert.equal(signIns() - before, 1, "the sign-in that verified the password is the session's");
});

journey("a failed verification says why and keeps what was typed", async ({ ui, emulator }) => {
  const c = emulator.credentials;
  await ui.runCommand("CRM: Add Org…");
  await ui.pick("How do you sign in", "Client credentials");
  await ui.answer("Login URL", emulator.url);
  await ui.answer("Consumer key", c.clientId);
  await ui.answer("Consumer secret", "wrong-secret");
  await ui.answer("Name for this org", "Integration");
  // The wizard is back at its last step, saying why, with the name still there; go back to fix the secret.
  const nameStep = await ui.quickInput("Name for this org");
  await nameStep.locator(".quick-input-message", { hasText: /invalid client credentials/ }).waitFor({ timeout: 15_000 });
  assert.equal(await nameStep.locator(".quick-input-box input").inputValue(), "Integration");
  await nameStep.locator(".quick-input-titlebar .action-label[aria-label^='Back'], .quick-input-titlebar .codicon-quick-input-back").first().click();
  const secretStep = await ui.quickInput("Consumer secret");
  assert.equal(await secretStep.locator(".quick-input-box input").inputValue(), "wrong-secret");
  await ui.answer("Consumer secret", c.clientSecret);
  await ui.answer("Name for this org", "Integration");
  await ui.waitForRow("Orgs", "Integration", /integration@demo\.crm/);
});

journey("Add Org with the browser: the org's authorize page redirects back to VS Code", async ({ ui, emulator, workbench }) => {
  await ui.runCommand("CRM: Add Org…");
  await ui.pick("How do you sign in", "Browser sign-in");
  await ui.pick("Where do you log in", "My Domain or another URL");
  await ui.answer("Login URL", emulator.url);
  const popup = workbench.context.waitForEvent("page", { timeout: 30_000 });
  await ui.answer("Consumer key", emulator.credentials.clientId);
  await ui.answer("Name for this org", "Browser org");
  // VS Code asks before opening an external site.
  const open = workbench.page.locator(".monaco-dialog-box .monaco-button", { hasText: /^Open$/ });
  await open.click({ timeout: 10_000 }).catch(() => undefined);
  const page = await popup;
  await page.waitForLoadState();
  console.log(`browser sign-in opened ${page.url()}`);
  assert.match(await page.locator("body").innerText({ timeout: 15_000 }), /You are signed in/);
  await page.close();
  await ui.waitForRow("Orgs", "Browser org", /admin@demo\.crm/);
});

journey("Add Org from a remote window: sign-in with a code, entered at the org's page in any browser", async ({ ui, emulator }) => {
  emulator.oauth.deviceIntervalSeconds = 1;
  await ui.runCommand("CRM: Add Org…");
  await ui.pick("How do you sign in", "Sign-in with a code");
  await ui.pick("Where do you log in", "My Domain or another URL");
  await ui.answer("Login URL", emulator.url);
  await ui.answer("Consumer key", emulator.credentials.clientId);
  await ui.answer("Name for this org", "Remote org");
  const text = await ui.notification(/To sign in, open \S+ in any browser and enter the code \w+/);
  const [, uri, code] = /open (\S+) in any browser and enter the code (\w+)/.exec(text)!;
  // The person, in a browser on their own machine: nothing has to reach back to the (remote) extension host.
  assert.ok((await fetch(`${uri}?user_code=${code}`)).ok);
  await ui.waitForRow("Orgs", "Remote org", /admin@demo\.crm/);
});

journey("switching orgs moves the status bar; its API usage grows with use", async ({ ui, emulator }) => {
  await ui.row("Acme").click();
  const before = await ui.statusBarText(/Acme · API/);
  await ui.runCommand("CRM: Sign In Again");
  await ui.pick("Sign in again", "Acme");
  await ui.pick("Where do you log in", "My Domain or another URL");
  await answerPasswordSteps(ui, emulator, "Acme");
  await ui.notification(/Signed in to Acme again/);
  const usage = (text: string) => Number(/API ([\d,]+)\//.exec(text)![1]!.replace(/,/g, ""));
  const afterText = await ui.statusBarText(/Acme · API/);
  assert.ok(usage(afterText) > usage(before), `${before} → ${afterText}`);
  await ui.screenshot("03-orgs-and-status");
});

journey("Sign Out revokes at the org and marks the org signed out; its menu then offers Sign In Again", async ({ ui, emulator }) => {
  assert.deepEqual(await ui.contextMenuEntries("Integration"), ["Open Org in Browser", "Show Org Info (Limits and User)", "Set Active Org", "Sign In Again", "Sign Out", "Rename Org…", "Remove Org…", "Production Write Confirmations…"]);
  const revokes = emulator.requests.filter((r) => r.path === "/services/oauth2/revoke").length;
  await ui.runCommand("CRM: Sign Out");
  await ui.pick("Sign out of which org", "Integration");
  await ui.waitForRow("Orgs", "Integration", /signed out/);
  await ui.notification(/Signed out of Integration/);
  assert.equal(emulator.requests.filter((r) => r.path === "/services/oauth2/revoke").length, revokes + 1);
  const signedOutMenu = await ui.contextMenuEntries("Integration");
  assert.ok(!signedOutMenu.includes("Sign Out") && !signedOutMenu.includes("Show Org Info (Limits and User)"), signedOutMenu.join(", "));
  await ui.screenshot("04-signed-out");
});

journey("nothing secret is on disk: settings, logs and state of the VS Code server", async ({ emulator, server }) => {
  const c = emulator.credentials;
  const secrets = [c.password, c.clientSecret, c.securityToken, ...[...emulator.oauth.sessions.keys()]];
  const leaks: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      const stat = statSync(file);
      if (stat.isDirectory()) walk(file);
      else if (stat.isFile() && stat.size < 20_000_000) {
        const content = readFileSync(file).toString("latin1");
        for (const secret of secrets) if (content.includes(secret)) leaks.push(`${file}: ${secret.slice(0, 6)}…`);
        if (/00D\w{12,15}![A-Za-z0-9._-]{20,}/.test(content)) leaks.push(`${file}: a session ID`);
      }
    }
  };
  walk(path.join(server.root, "user-data"));
  const logs = readdirSync(path.join(server.root, "user-data"), { recursive: true }).map(String).filter((f) => f.endsWith("CRM Explorer.log"));
  assert.ok(logs.length > 0, "the CRM Explorer log exists on disk");
  const log = readFileSync(path.join(server.root, "user-data", logs[0]!), "utf8");
  assert.match(log, /\[Acme\] |GET \/services\/data|activated/);
  assert.deepEqual(leaks, []);
});
