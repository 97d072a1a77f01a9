/** Org commands: add (every sign-in method), sign in again, sign out, set active, switch, rename, remove, open. */
import * as vscode from "vscode";
import { withCancellableProgress } from "../platform/progress";
import { addOrgSteps, loginUrlOf, newOrgFromAnswers, runFlow, type AnswerKey, type Answers } from "../connections/addOrgFlow";
import { browserSignIn, deviceSignIn } from "../connections/browserSignIn";
import { DEMO_ORG } from "../connections/demo";
import { NotSignedInError, type NewOrg, type OrgManager } from "../connections/orgManager";
import { METHOD_LABELS, type OrgRecord } from "../connections/orgRegistry";
import { quickInputFlow } from "../connections/quickInputFlow";
import { guardsWrites } from "../connections/writeGuard";
import { displayCliOrg, listCliOrgs } from "../connections/sfCli";
import { describeError, UserCancelled } from "../platform/errorMessages";
import type { Log } from "../platform/log";
import type { Redactor } from "../platform/redact";
import { readSettings } from "../platform/settings";
import { OrgNode } from "../views/orgsView";
import type { PanelTarget } from "../webviews/panels";
import type { CommandId } from "./ids";

export interface OrgCommandDeps {
  manager: OrgManager;
  log: Log;
  redactor: Redactor;
  orgInfo: { show(target: PanelTarget): unknown };
  /** The demo org that runs inside the extension. */
  demo: { start(preferredUrl?: string): Promise<string> };
}

/** The org a command is for: the tree node it was invoked on, a key, or one picked from the palette. */
async function resolveOrg(manager: OrgManager, arg: unknown, title: string): Promise<OrgRecord> {
  if (arg instanceof OrgNode) return arg.org;
  if (typeof arg === "string" && manager.registry.get(arg)) return manager.registry.get(arg)!;
  const orgs = manager.registry.list();
  if (!orgs.length) throw new Error("No org has been added yet. Run 'CRM: Add Org' first.");
  const active = manager.registry.activeKey;
  const picked = await vscode.window.showQuickPick(
    orgs.map((org) => ({ label: org.alias, description: `${org.username ?? ""} · ${new URL(org.instanceUrl).host}${org.signedIn ? "" : " · signed out"}`, detail: org.key === active ? "active" : undefined, org })),
    { title, placeHolder: "Type to filter by name, user or host", matchOnDescription: true },
  );
  if (!picked) throw new UserCancelled();
  return picked.org;
}

/** Runs the browser or CLI round trip a method needs, or builds the connection from the answers. */
async function orgFromAnswers(answers: Answers, log: Log): Promise<NewOrg> {
  const settings = readSettings();
  if (answers.method === "browser") {
    const loginUrl = loginUrlOf(answers, settings);
    const connection = await withCancellableProgress("Waiting for the sign-in in your browser…", (signal) =>
      browserSignIn({ loginUrl, clientId: answers.clientId!.trim(), callbackPort: settings.callbackPort, signal, openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))) }));
    return { method: "browser", alias: answers.alias?.trim() || undefined, loginUrl, connection };
  }
  if (answers.method === "device") {
    const loginUrl = loginUrlOf(answers, settings);
    const connection = await withCancellableProgress("Sign-in with a code", (signal, progress) => deviceSignIn({
      loginUrl, clientId: answers.clientId!.trim(), signal,
      show: ({ userCode, verificationUri }) => {
        progress.report({ message: `enter ${userCode} at ${verificationUri} in any browser; waiting…` });
        void vscode.window.showInformationMessage(`To sign in, open ${verificationUri} in any browser and enter the code ${userCode}.`, "Copy Code and Open").then(async (choice) => {
          if (!choice) return;
          await vscode.env.clipboard.writeText(userCode);
          await vscode.env.openExternal(vscode.Uri.parse(verificationUri, true));
        });
      },
    }));
    return { method: "device", alias: answers.alias?.trim() || undefined, loginUrl, connection };
  }
  if (answers.method === "sfCli") {
    const details = await displayCliOrg(answers.cliOrg!);
    log.info(`imported ${details.username} from the Salesforce CLI`);
    return { method: "sfCli", alias: answers.alias?.trim() || undefined, connection: { grant_type: "access_token", access_token: details.accessToken, instance_url: details.instanceUrl, username: details.username } };
  }
  return newOrgFromAnswers(answers, settings);
}

/**
 * Asks, signs in and verifies; on failure says why and reopens the wizard at its last step with every
 * answer kept, until the org is saved or the person cancels.
 */
async function askAndVerify(deps: OrgCommandDeps, answers: Answers, save: (org: NewOrg) => Promise<OrgRecord>, startAt?: AnswerKey): Promise<OrgRecord> {
  const settings = readSettings();
  const steps = addOrgSteps(settings, async () => (await listCliOrgs()).map((o) => ({ label: o.alias ?? o.username, description: o.username, detail: o.connected ? o.instanceUrl : "not connected: run `sf org login web` for it", value: o.username })));
  let resumeAt = startAt;
  let notice: string | undefined;
  for (;;) {
    await runFlow(steps, quickInputFlow("Add Org"), answers, settings, resumeAt, notice);
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Checking the org…" }, async () => save(await orgFromAnswers(answers, deps.log)));
    } catch (err) {
      const report = describeError(err, { redactor: deps.redactor });
      if (!report.message) throw err;
      deps.log.error("verifying the org failed", err);
      void vscode.window.showErrorMessage(`${report.message} Your answers are kept: correct them and try again.`);
      notice = `${report.message} Go Back to correct an answer, or press Enter to try again.`;
      resumeAt = "alias";
    }
  }
}

export function orgCommands(deps: OrgCommandDeps): Record<Extract<CommandId, `crm.org.${string}`>, (...args: unknown[]) => unknown> {
  const { manager } = deps;
  return {
    "crm.org.add": async () => {
      const record = await askAndVerify(deps, {}, (org) => manager.add(org));
      void vscode.window.showInformationMessage(`Added ${record.alias} (${record.username}).`);
      return record.key;
    },

    "crm.org.addDemo": async () => {
      const helper = process.env.CRM_DEMO_HELPER;
      let url: string | undefined = DEMO_ORG.url;
      let builtIn = false;
      if (!helper) {
        const choice = await vscode.window.showQuickPick([
          { label: "$(play) The built-in demo org", detail: "Runs inside VS Code on this machine with sample data: nothing is sent anywhere. Its changes last while the window is open.", builtIn: true },
          { label: "$(plug) A demo emulator at an address…", detail: "The project's emulator (npm run emulator), on this machine or a colleague's.", builtIn: false },
        ], { title: "Try the Demo Org" });
        if (!choice) throw new UserCancelled();
        builtIn = choice.builtIn;
        url = builtIn
          ? await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Starting the demo org…" }, () => deps.demo.start())
          : await vscode.window.showInputBox({ title: "Demo emulator address", prompt: "The emulator's URL (`npm run emulator` prints it)", value: DEMO_ORG.url, ignoreFocusOut: true });
        if (!url) throw new UserCancelled();
      }
      const org: NewOrg = helper
        ? { ...(await newOrgFromAnswers({ method: "helper", helperFile: helper }, readSettings())), alias: "Demo org" }
        : { method: "password", alias: "Demo org", connection: { grant_type: "password", endpoint_url: url.trim(), username: DEMO_ORG.username, password: DEMO_ORG.password, security_token: DEMO_ORG.securityToken, client_id: DEMO_ORG.clientId, client_secret: DEMO_ORG.clientSecret } };
      let record = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Connecting to the demo org…" }, () => manager.add(org));
      if (builtIn) record = await manager.registry.update(record.key, { builtInDemo: true });
      void vscode.window.showInformationMessage(`Added ${record.alias} (${record.username}).`);
      return record.key;
    },

    "crm.org.signInAgain": async (arg) => {
      const org = await resolveOrg(manager, arg, "Sign in again to which org?");
      const known: Answers = { method: org.method, username: org.username, clientId: org.clientId, alias: org.alias, instanceUrl: org.instanceUrl, loginUrl: org.loginUrl, loginKind: org.loginUrl ? "custom" : undefined };
      await askAndVerify(deps, known, async (next) => manager.signInAgain(org.key, next.connection), org.method === "helper" || org.method === "sfCli" ? undefined : "loginKind");
      void vscode.window.showInformationMessage(`Signed in to ${org.alias} again.`);
    },

    "crm.org.signOut": async (arg) => {
      const org = await resolveOrg(manager, arg, "Sign out of which org?");
      const outcome = await manager.signOut(org.key);
      const note = outcome.revoked ? "the token was revoked at the org" : `the org could not revoke the token (${outcome.reason}); the stored secrets are deleted anyway`;
      void vscode.window.showInformationMessage(`Signed out of ${org.alias}: ${note}.`);
    },

    "crm.org.setActive": async (arg) => {
      const org = await resolveOrg(manager, arg, "Which org becomes active?");
      await manager.registry.setActive(org.key);
    },

    "crm.org.switch": async () => {
      const active = manager.registry.activeKey;
      type Choice = vscode.QuickPickItem & { key?: string; action?: "add" };
      const items: Choice[] = [
        ...manager.registry.list().map((o) => ({ label: `${o.key === active ? "$(check) " : ""}${o.alias}`, description: `${o.username ?? ""} · ${new URL(o.instanceUrl).host}`, detail: o.signedIn ? METHOD_LABELS[o.method] : "signed out", key: o.key })),
        { label: "$(add) Add Org…", action: "add" },
      ];
      const picked = await vscode.window.showQuickPick(items, { placeHolder: "Switch the active org" });
      if (!picked) return;
      if (picked.action === "add") return vscode.commands.executeCommand("crm.org.add");
      await manager.registry.setActive(picked.key!);
    },

    "crm.org.rename": async (arg) => {
      const org = await resolveOrg(manager, arg, "Rename which org?");
      const alias = await vscode.window.showInputBox({
        title: `Rename ${org.alias}`, value: org.alias,
        validateInput: (v) => (!v.trim() ? "Enter a name" : manager.registry.uniqueAlias(v.trim(), org.key) !== v.trim() ? `Another org is already called '${v.trim()}'` : undefined),
      });
      if (alias === undefined) throw new UserCancelled();
      await manager.registry.rename(org.key, alias);
    },

    "crm.org.remove": async (arg) => {
      const org = await resolveOrg(manager, arg, "Remove which org?");
      const choice = await vscode.window.showWarningMessage(
        `Remove ${org.alias} (${org.username ?? org.instanceUrl})?`,
        { modal: true, detail: "Its stored credentials are deleted from this machine. The org itself is not changed." },
        "Remove",
      );
      if (choice !== "Remove") throw new UserCancelled();
      await manager.remove(org.key);
    },

    "crm.org.writeGuard": async (arg) => {
      const org = await resolveOrg(manager, arg, "Production write confirmations for which org?");
      const on = guardsWrites(org);
      const picked = await vscode.window.showQuickPick([
        { label: "Ask before every write", description: on ? "current" : "", on: true },
        { label: "Do not ask", description: on ? "" : "current", detail: org.kind === "production" || org.kind === undefined ? "Saves, publishes, posts and other writes go to this org without a question." : undefined, on: false },
      ], { title: `Production write confirmations for ${org.alias} (${org.kind ?? "kind unknown"})` });
      if (!picked) throw new UserCancelled();
      await manager.setWriteGuard(org.key, picked.on);
      void vscode.window.showInformationMessage(picked.on ? `Writes to ${org.alias} ask first${org.kind && org.kind !== "production" ? ` once it is a production org (it is a ${org.kind} org)` : ""}.` : `Writes to ${org.alias} no longer ask first.`);
    },

    "crm.org.refreshAll": async () => {
      const orgs = manager.registry.list().filter((o) => o.signedIn);
      if (!orgs.length) return void vscode.window.showInformationMessage("No org is signed in.");
      const outcomes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Checking ${orgs.length} org(s)` }, async (progress) =>
        Promise.all(orgs.map(async (o) => {
          const outcome = await manager.check(o.key);
          progress.report({ increment: 100 / orgs.length, message: o.alias });
          return { org: o, outcome };
        })));
      const failed = outcomes.filter((r) => !r.outcome.ok);
      const summary = `${outcomes.length - failed.length} of ${outcomes.length} org(s) answered.${failed.length ? ` ${failed.map((f) => `${f.org.alias}: ${f.outcome.reason}`).join("; ")}` : ""}`;
      if (!failed.length) return void vscode.window.showInformationMessage(summary);
      const signedOut = failed.filter((f) => !manager.registry.get(f.org.key)?.signedIn);
      const choice = await vscode.window.showWarningMessage(summary, ...(signedOut.length ? ["Sign In Again"] : []));
      if (choice) await vscode.commands.executeCommand("crm.org.signInAgain", signedOut[0]!.org.key);
    },

    "crm.org.openInBrowser": async (arg) => {
      const org = await resolveOrg(manager, arg, "Open which org in the browser?");
      await vscode.env.openExternal(vscode.Uri.parse(`${org.instanceUrl}/lightning/page/home`));
    },
    "crm.org.showInfo": async (arg) => {
      // From the palette or the status bar: the active org, the one people mean.
      const org = await resolveOrg(manager, arg ?? manager.registry.activeKey, "Show the limits and user of which org?");
      if (!org.signedIn) throw new NotSignedInError(org);
      deps.orgInfo.show({ orgKey: org.key, id: "" });
    },
  };
}
