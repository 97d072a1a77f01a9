/**
 * The real-VS-Code harness (../shared/reference/vscode-host-recipe.md): code-server 4.100.3 on 127.0.0.1
 * with its own short-lived folders, and headless Chromium (playwright-core) opening the workbench with a
 * URL payload that loads the extension under development and, optionally, runs tests in its host.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { format } from "node:util";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export interface HostSetup {
  ok: boolean;
  reason?: string;
  codeServer?: string;
  chromium?: string;
}

/** Runs the idempotent set-up; never throws: the caller skips the tier loudly when it is not ok. */
export function ensureHost(): HostSetup {
  const result = spawnSync(process.execPath, [path.join(__dirname, "setup.mjs")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 15 * 60_000 });
  const line = result.stdout?.trim().split("\n").pop();
  try {
    return JSON.parse(line ?? "") as HostSetup;
  } catch {
    return { ok: false, reason: `the host set-up failed (exit ${result.status}): ${result.stdout}` };
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface CodeServer {
  url: string;
  port: number;
  root: string;
  workspace: string;
  stop(): Promise<void>;
}

/**
 * Starts code-server on a free loopback port with fresh user-data, extensions, HOME and TMPDIR folders.
 * `untrusted`: workspace trust is on and the workspace not trusted (Restricted Mode), as for a folder just cloned.
 * `locale`: the display language (`--locale`), with a language pack registered for it.
 */
export async function startCodeServer(entry: string, options: { env?: Record<string, string>; settings?: Record<string, unknown>; workspace?: string; untrusted?: boolean; locale?: string } = {}): Promise<CodeServer> {
  // Short root: the extension host makes Unix sockets under TMPDIR (108-byte path limit).
  const root = mkdtempSync("/tmp/crmh-");
  for (const dir of ["user-data/User", "extensions", "ws", "home", "tmp"]) mkdirSync(path.join(root, dir), { recursive: true });
  const port = await freePort();
  writeFileSync(path.join(root, "config.yaml"), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  writeFileSync(path.join(root, "user-data/User/settings.json"), JSON.stringify({
    "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off", "update.mode": "none", "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false, "extensions.ignoreRecommendations": true, "security.workspace.trust.enabled": options.untrusted === true,
    ...(options.untrusted ? { "security.workspace.trust.startupPrompt": "never", "security.workspace.trust.banner": "always" } : {}),
    "workbench.tips.enabled": false, "window.commandCenter": false, "chat.commandCenter.enabled": false,
    // Desktop VS Code's default (VS Code in a browser saves after a delay by default): a save is the person's Ctrl+S.
    "files.autoSave": "off", ...options.settings,
  }, null, 2));
  if (options.locale) installLanguagePack(path.join(root, "user-data"), options.locale);
  const workspace = options.workspace ?? path.join(root, "ws");
  const child: ChildProcess = spawn(process.execPath, [
    entry, "--config", path.join(root, "config.yaml"), "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check",
    ...(options.untrusted ? [] : ["--disable-workspace-trust"]), "--disable-getting-started-override", "--ignore-last-opened", "--user-data-dir", path.join(root, "user-data"),
    "--extensions-dir", path.join(root, "extensions"), ...(options.locale ? ["--locale", options.locale] : []),
  ], { detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, HOME: path.join(root, "home"), TMPDIR: path.join(root, "tmp"), ...options.env } });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited early (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer /healthz within 30 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url, port, root, workspace,
    stop: async () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((r) => setTimeout(r, 300));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Registers a language pack for `locale` as VS Code's language pack service records an installed one
 * (user-data/languagepacks.json), with no translations of VS Code's own: the server then resolves the
 * display language to `locale` and hands it to the extension host, which loads each extension's
 * `l10n/bundle.l10n.<locale>.json` — what a person with that language pack gets.
 */
function installLanguagePack(userData: string, locale: string): void {
  const translations = path.join(userData, "language-pack", "main.i18n.json");
  mkdirSync(path.dirname(translations), { recursive: true });
  writeFileSync(translations, JSON.stringify({ version: "1.0.0", contents: {} }));
  writeFileSync(path.join(userData, "languagepacks.json"), JSON.stringify({
    [locale]: { hash: `crm-test-${locale}`, extensions: [{ extensionIdentifier: { id: `crm-test.language-pack-${locale}` }, version: "1.0.0" }], translations: { vscode: translations }, label: locale },
  }));
}

export interface Workbench {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Opens the workbench in headless Chromium, loading `extensionPath` as the extension under development
 * and, with `testsPath`, running that module's `run()` inside the extension host.
 */
export async function openWorkbench(server: CodeServer, o: { extensionPath: string; testsPath?: string; onLog?: (line: string) => void; onExit?: (code: number) => void; chromiumPath?: string }): Promise<Workbench> {
  const profile = mkdtempSync("/tmp/crmb-");
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: o.chromiumPath ?? "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
    env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: path.join(profile, ".config"), XDG_CACHE_HOME: path.join(profile, ".cache") },
    viewport: { width: 1400, height: 1000 },
    // Journeys read what Copy put on the clipboard.
    permissions: ["clipboard-read", "clipboard-write"],
  });
  await context.exposeFunction("codeAutomationLog", (_type: string, args: unknown[]) => o.onLog?.(format(...(args ?? []))));
  await context.exposeFunction("codeAutomationExit", (code: number) => o.onExit?.(code));
  const remote = (p: string) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload: [string, string][] = [["extensionDevelopmentPath", remote(o.extensionPath)]];
  if (o.testsPath) payload.push(["extensionTestsPath", remote(o.testsPath)]);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  await page.waitForSelector(".monaco-workbench .part.activitybar .action-item", { timeout: 60_000 });
  return {
    context, page,
    close: async () => {
      // A graceful unload ends the window's extension host; an abrupt close would leave it waiting.
      await page.goto("about:blank").catch(() => undefined);
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
