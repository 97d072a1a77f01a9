/** Org commands: add (every sign-in method), sign in again, sign out, set active, switch, rename, remove, open. */
import * as vscode from "vscode";
import { withCancellableProgress } from "../platform/progress";
import { addOrgSteps, loginUrlOf, newOrgFromAnswers, runFlow, type AnswerKey, type Answers } from "../connections/addOrgFlow";
import { browserSignIn, deviceSignIn } from "../connections/browserSignIn";
import { DEMO_ORG } from "../demo-org/credentials";
import type { NewOrg, OrgManager } from "../connections/orgManager";
import { NotSignedInError } from "../platform/errorMessages";
import { methodLabel, type OrgRecord } from "../connections/orgRegistry";
import { quickInputFlow } from "../connections/quickInputFlow";
import { guardsWrites } from "../connections/writeGuard";
import { productionLike } from "../client/orgKind";
import { displayCliOrg, listCliOrgs } from "../connections/sfCli";
import { CommandRefusal, describeError, UserCancelled } from "../platform/errorMessages";
import type { Log } from "../platform/log";
import type { Redactor } from "../platform/redact";
import { readSettings } from "../platform/settings";
import { OrgNode } from "../views/orgsView";
import type { PanelTarget } from "../webviews/panels";
import type { CommandId } from "./commandIds";

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
  if (!orgs.length) throw new CommandRefusal(vscode.l10n.t("No org has been added yet. Run 'CRM: Add Org' first."));
  const active = manager.registry.activeKey;
  const picked = await vscode.window.showQuickPick(
    orgs.map((org) => ({ label: org.alias, description: `${org.username ?? ""} · ${new URL(org.instanceUrl).host}${org.signedIn ? "" : " · signed out"}`, detail: org.key === active ? "active" : undefined, org })),
    { title, placeHolder: vscode.l10n.t("Type to filter by name, user or host"), matchOnDescription: true },
  );
  if (!picked) throw new UserCancelled();
  return picked.org;
}

/** Runs the browser or CLI round trip a method needs, or builds the connection from the answers. */
async function orgFromAnswers(answers: Answers, log: Log): Promise<NewOrg> {
  const settings = readSettings();
  if (answers.method === "browser") {
    const loginUrl = loginUrlOf(answers, settings);
    const connection = await withCancellableProgress(vscode.l10n.t("Waiting for the sign-in in your browser…"), (signal) =>
      browserSignIn({ loginUrl, clientId: answers.clientId!.trim(), callbackPort: settings.callbackPort, signal, openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))) }));
    return { method: "browser", alias: answers.alias?.trim() || undefined, loginUrl, connection };
  }
  if (answers.method === "device") {
    const loginUrl = loginUrlOf(answers, settings);
    const connection = await withCancellableProgress(vscode.l10n.t("Sign-in with a code"), (signal, progress) => deviceSignIn({
      loginUrl, clientId: answers.clientId!.trim(), signal,
      show: ({ userCode, verificationUri }) => {
        progress.report({ message: vscode.l10n.t("enter {0} at {1} in any browser; waiting…", userCode, verificationUri) });
        void vscode.window.showInformationMessage(vscode.l10n.t("To sign in, open {0} in any browser and enter the code {1}.", verificationUri, userCode), vscode.l10n.t("Copy Code and Open")).then(async (choice) => {
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
  const steps = addOrgSteps(settings, async () => (await listCliOrgs()).map((o) => ({ label: o.alias ?? o.username, description: o.username, detail: o.connected ? o.instanceUrl : vscode.l10n.t("not connected: run `sf org login web` for it"), value: o.username })));
  let resumeAt = startAt;
  let notice: string | undefined;
  for (;;) {
    await runFlow(steps, quickInputFlow(vscode.l10n.t("Add Org")), answers, settings, resumeAt, notice);
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Checking the org…") }, async () => save(await orgFromAnswers(answers, deps.log)));
    } catch (err) {
      const report = describeError(err, { redactor: deps.redactor });
      if (!report.message) throw err;
      deps.log.error("verifying the org failed", err);
      void vscode.window.showErrorMessage(vscode.l10n.t("{0} Your answers are kept: correct them and try again.", report.message));
      notice = vscode.l10n.t("{0} Go Back to correct an answer, or press Enter to try again.", report.message);
      resumeAt = "alias";
    }
  }
}

export function orgCommands(deps: OrgCommandDeps): Record<Extract<CommandId, `crm.org.${string}`>, (...args: unknown[]) => unknown> {
  const { manager } = deps;
  return {
    "crm.org.add": async () => {
      const record = await askAndVerify(deps, {}, (org) => manager.add(org));
      void vscode.window.showInformationMessage(vscode.l10n.t("Added {0} ({1}).", record.alias, record.username ?? ""));
      return record.key;
    },

    "crm.org.addDemo": async () => {
      const helper = process.env.CRM_DEMO_HELPER;
      let url: string | undefined = DEMO_ORG.url;
      let builtIn = false;
      if (!helper) {
        const choice = await vscode.window.showQuickPick([
          { label: `$(play) ${vscode.l10n.t("The built-in demo org")}`, detail: vscode.l10n.t("Runs inside VS Code on this machine with sample data: nothing is sent anywhere. Its changes last while the window is open."), builtIn: true },
          { label: `$(plug) ${vscode.l10n.t("A demo emulator at an address…")}`, detail: vscode.l10n.t("The project's emulator (npm run emulator), on this machine or a colleague's."), builtIn: false },
        ], { title: vscode.l10n.t("Try the Demo Org") });
        if (!choice) throw new UserCancelled();
        builtIn = choice.builtIn;
        url = builtIn
          ? await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Starting the demo org…") }, () => deps.demo.start())
          : await vscode.window.showInputBox({ title: vscode.l10n.t("Demo emulator address"), prompt: vscode.l10n.t("The emulator's URL (`npm run emulator` prints it)"), value: DEMO_ORG.url, ignoreFocusOut: true });
        if (!url) throw new UserCancelled();
      }
      const org: NewOrg = helper
        ? { ...(await newOrgFromAnswers({ method: "helper", helperFile: helper }, readSettings())), alias: "Demo org" }
        : { method: "password", alias: "Demo org", connection: { grant_type: "password", endpoint_url: url.trim(), username: DEMO_ORG.username, password: DEMO_ORG.password, security_token: DEMO_ORG.securityToken, client_id: DEMO_ORG.clientId, client_secret: DEMO_ORG.clientSecret } };
      let record = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("Connecting to the demo org…") }, () => manager.add(org));
      if (builtIn) record = await manager.registry.update(record.key, { builtInDemo: true });
      void vscode.window.showInformationMessage(vscode.l10n.t("Added {0} ({1}).", record.alias, record.username ?? ""));
      return record.key;
    },

    "crm.org.signInAgain": async (arg) => {
      const org = await resolveOrg(manager, arg, vscode.l10n.t("Sign in again to which org?"));
      const known: Answers = { method: org.method, username: org.username, clientId: org.clientId, alias: org.alias, instanceUrl: org.instanceUrl, loginUrl: org.loginUrl, loginKind: org.loginUrl ? "custom" : undefined };
      await askAndVerify(deps, known, async (next) => manager.signInAgain(org.key, next.connection), org.method === "helper" || org.method === "sfCli" ? undefined : "loginKind");
      void vscode.window.showInformationMessage(vscode.l10n.t("Signed in to {0} again.", org.alias));
    },

    "crm.org.signOut": async (arg) => {
      const org = await resolveOrg(manager, arg, vscode.l10n.t("Sign out of which org?"));
      const outcome = await manager.signOut(org.key);
      void vscode.window.showInformationMessage(outcome.revoked
        ? vscode.l10n.t("Signed out of {0}: the token was revoked at the org.", org.alias)
        : vscode.l10n.t("Signed out of {0}: the org could not revoke the token ({1}); the stored secrets are deleted anyway.", org.alias, outcome.reason ?? ""));
    },

    "crm.org.setActive": async (arg) => {
      const org = await resolveOrg(manager, arg, vscode.l10n.t("Which org becomes active?"));
      await manager.registry.setActive(org.key);
    },

    "crm.org.switch": async () => {
      const active = manager.registry.activeKey;
      type Choice = vscode.QuickPickItem & { key?: string; action?: "add" };
      const items: Choice[] = [
        ...manager.registry.list().map((o) => ({ label: `${o.key === active ? "$(check) " : ""}${o.alias}`, description: `${o.username ?? ""} · ${new URL(o.instanceUrl).host}`, detail: o.signedIn ? methodLabel(o.method) : vscode.l10n.t("signed out"), key: o.key })),
        { label: `$(add) ${vscode.l10n.t("Add Org…")}`, action: "add" },
      ];
      const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t("Switch the active org") });
      if (!picked) return;
      if (picked.action === "add") return vscode.commands.executeCommand("crm.org.add");
      await manager.registry.setActive(picked.key!);
    },

    "crm.org.rename": async (arg) => {
      const org = await resolveOrg(manager, arg, vscode.l10n.t("Rename which org?"));
      const alias = await vscode.window.showInputBox({
        title: vscode.l10n.t("Rename {0}", org.alias), value: org.alias,
        validateInput: (v) => (!v.trim() ? vscode.l10n.t("Enter a name") : manager.registry.uniqueAlias(v.trim(), org.key) !== v.trim() ? vscode.l10n.t("Another org is already called '{0}'", v.trim()) : undefined),
      });
      if (alias === undefined) throw new UserCancelled();
      await manager.registry.rename(org.key, alias);
    },

    "crm.org.remove": async (arg) => {
      const org = await resolveOrg(manager, arg, vscode.l10n.t("Remove which org?"));
      const remove = vscode.l10n.t("Remove");
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t("Remove {0} ({1})?", org.alias, org.username ?? org.instanceUrl),
        { modal: true, detail: vscode.l10n.t("Its stored credentials are deleted from this machine. The org itself is not changed.") },
        remove,
      );
      if (choice !== remove) throw new UserCancelled();
      await manager.remove(org.key);
    },

    "crm.org.writeGuard": async (arg) => {
      const org = await resolveOrg(manager, arg, vscode.l10n.t("Production write confirmations for which org?"));
      const on = guardsWrites(org);
      const picked = await vscode.window.showQuickPick([
        { label: vscode.l10n.t("Ask before every write"), description: on ? vscode.l10n.t("current") : "", on: true },
        { label: vscode.l10n.t("Do not ask"), description: on ? "" : vscode.l10n.t("current"), detail: productionLike(org.kind) ? vscode.l10n.t("Saves, publishes, posts and other writes go to this org without a question.") : undefined, on: false },
      ], { title: vscode.l10n.t("Production write confirmations for {0} ({1})", org.alias, org.kind ?? vscode.l10n.t("kind unknown")) });
      if (!picked) throw new UserCancelled();
      await manager.setWriteGuard(org.key, picked.on);
      void vscode.window.showInformationMessage(!picked.on
        ? vscode.l10n.t("Writes to {0} no longer ask first.", org.alias)
        : org.kind && !productionLike(org.kind)
          ? vscode.l10n.t("Writes to {0} ask first once it is a production org (it is a {1} org).", org.alias, org.kind)
          : vscode.l10n.t("Writes to {0} ask first.", org.alias));
    },

    "crm.org.refreshAll": async () => {
      const orgs = manager.registry.list().filter((o) => o.signedIn);
      if (!orgs.length) return void vscode.window.showInformationMessage(vscode.l10n.t("No org is signed in."));
      const outcomes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t("Checking {0} org(s)", orgs.length) }, async (progress) =>
        Promise.all(orgs.map(async (o) => {
          const outcome = await manager.check(o.key);
          progress.report({ increment: 100 / orgs.length, message: o.alias });
          return { org: o, outcome };
        })));
      const failed = outcomes.filter((r) => !r.outcome.ok);
      const answered = vscode.l10n.t("{0} of {1} org(s) answered.", outcomes.length - failed.length, outcomes.length);
      const summary = failed.length ? `${answered} ${failed.map((f) => `${f.org.alias}: ${f.outcome.reason}`).join("; ")}` : answered;
      if (!failed.length) return void vscode.window.showInformationMessage(summary);
      const signedOut = failed.filter((f) => !manager.registry.get(f.org.key)?.signedIn);
      const choice = await vscode.window.showWarningMessage(summary, ...(signedOut.length ? [vscode.l10n.t("Sign In Again")] : []));
      if (choice) await vscode.commands.executeCommand("crm.org.signInAgain", signedOut[0]!.org.key);
    },

    "crm.org.openInBrowser": async (arg) => {
      const org = await resolveOrg(manager, arg, vscode.l10n.t("Open which org in the browser?"));
      await vscode.env.openExternal(vscode.Uri.parse(`${org.instanceUrl}/lightning/page/home`));
    },
    "crm.org.showInfo": async (arg) => {
      // From the palette or the status bar: the active org, the one people mean.
      const org = await resolveOrg(manager, arg ?? manager.registry.activeKey, vscode.l10n.t("Show the limits and user of which org?"));
      if (!org.signedIn) throw new NotSignedInError(org);
      deps.orgInfo.show({ orgKey: org.key, id: "" });
    },
  };
}
