/** One workbench per journey file: code-server + Chromium + the emulator, and a journey() that skips loudly. */
import { after, before, test, type TestContext } from "node:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator, type Emulator } from "../../../src/demo-org";
import { ensureHost, openWorkbench, startCodeServer, type CodeServer, type HostSetup, type Workbench } from "../harness";
import { PSEUDO_LOCALE, pseudoExtension, type PseudoExtension } from "../pseudoLocale";
import { Driver } from "../workbench";
import { autoSaveModes, type AutoSaveMode } from "./editingKit";

export const root = path.resolve(__dirname, "../../..");

let autoSave: AutoSaveMode = "off";

/**
 * Loads a journey file with VS Code's auto save in `mode`: a `*.autoSave.test.ts` file runs another file's
 * journeys again so (their names and screenshots say which mode ran).
 */
export function withAutoSave(mode: AutoSaveMode, load: () => unknown): void {
  autoSave = mode;
  load();
}

/** The host, or undefined after marking the test skipped with the reason (never a silent pass). */
export function hostOrSkip(t: TestContext): HostSetup | undefined {
  const host = ensureHost();
  if (host.ok) return host;
  console.warn(`HOST TIER SKIPPED: ${host.reason}`);
  t.skip(`host tier skipped: ${host.reason}`);
  return undefined;
}

export interface Session {
  emulator: Emulator;
  server: CodeServer;
  workbench: Workbench;
  ui: Driver;
  /** With `pseudoLocalized`: the extension as loaded, and what its strings read as. */
  pseudo?: PseudoExtension;
}

/**
 * One workbench for a journey file. `workspaceFiles`: the workspace folder's files (path → text);
 * `untrusted`: the workspace opens in Restricted Mode. `pseudoLocalized`: VS Code's display language is the
 * pseudo language and the extension carries its pseudo-localized strings.
 */
export function workbenchSession(options: { settings?: Record<string, unknown>; setup?: (s: Session) => Promise<void>; workspaceFiles?: Record<string, string>; untrusted?: boolean; pseudoLocalized?: boolean } = {}) {
  const host = ensureHost();
  const mode = autoSave;
  const settings = { ...autoSaveModes[mode], ...options.settings };
  const inMode = (name: string) => (mode === "off" ? name : `${name} (auto save ${mode})`);
  let session: Session | undefined;
  const consoleLines: string[] = [];
  before(async () => {
    if (!host.ok) return;
    execFileSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "pipe" });
    const emulator = await startEmulator({ port: 0, seed: "demo" });
    let workspace: string | undefined;
    if (options.workspaceFiles) {
      workspace = mkdtempSync("/tmp/crmw-");
      for (const [file, text] of Object.entries(options.workspaceFiles)) {
        mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
        writeFileSync(path.join(workspace, file), text);
      }
    }
    const pseudo = options.pseudoLocalized ? pseudoExtension(root) : undefined;
    const locale = pseudo ? PSEUDO_LOCALE : undefined;
    const server = await startCodeServer(host.codeServer!, { settings, workspace, untrusted: options.untrusted, locale });
    const workbench = await openWorkbench(server, { extensionPath: pseudo?.dir ?? root });
    // What the workbench and its webviews said (errors above all), kept beside a failed journey's screenshot.
    workbench.page.on("console", (m) => void consoleLines.push(`${new Date().toISOString()} ${m.type()} ${m.text()}`.slice(0, 2_000)));
    workbench.page.on("pageerror", (err) => void consoleLines.push(`${new Date().toISOString()} pageerror ${err.message}`));
    session = { emulator, server, workbench, ui: new Driver(workbench.page, mode === "off" ? "" : `-auto-save-${mode}`), pseudo };
    await options.setup?.(session);
  });
  after(async () => {
    await session?.workbench.close();
    await session?.server.stop();
    await session?.emulator.close();
    if (session?.pseudo) rmSync(session.pseudo.dir, { recursive: true, force: true });
  });
  /** A journey: skipped with the reason when the host is missing; a screenshot is saved when it fails. */
  const journey = (name: string, fn: (s: Session) => Promise<void>, timeout = 120_000) =>
    test(inMode(name), { timeout }, async (t) => {
      if (!hostOrSkip(t)) return;
      try {
        await fn(session!);
      } catch (err) {
        const shot = await session?.ui.screenshot(`failed-${name.slice(0, 40).replace(/\W+/g, "-")}`).catch(() => undefined);
        if (shot) {
          const state = await session!.ui.state().catch((e: Error) => [`state unreadable: ${e.message}`]);
          writeFileSync(shot.replace(/\.png$/, ".console.txt"), [...consoleLines.slice(-400), "", ...state, "", ...extensionLogTail(session!.server)].join("\n"));
        }
        throw err;
      }
    });
  return { journey };
}

/**
 * The end of the extension's own log (its output channel, as VS Code writes it under the server's user data): each
 * request it sent and each command that failed — whether a command a journey waited for ran at all.
 */
function extensionLogTail(server: CodeServer, lines = 60): string[] {
  const logs = path.join(server.root, "user-data", "logs");
  const files = existsSync(logs) ? readdirSync(logs, { recursive: true }).map(String).filter((f) => f.endsWith(`${path.sep}CRM Explorer.log`)).sort() : [];
  return ["--- the extension's log", ...files.flatMap((f) => readFileSync(path.join(logs, f), "utf8").trimEnd().split("\n").slice(-lines))];
}

/** Answers the username-password steps of the Add Org wizard (from the login URL on). */
export async function answerPasswordSteps(ui: Driver, emulator: Emulator, alias: string): Promise<void> {
  const c = emulator.credentials;
  await ui.answer("Login URL", emulator.url);
  await ui.answer("Username", c.username);
  await ui.answer("Password", c.password);
  await ui.answer("Security token", c.securityToken);
  await ui.answer("Consumer key", c.clientId);
  await ui.answer("Consumer secret", c.clientSecret);
  await ui.answer("Name for this org", alias);
}
