/**
 * Accepts the command line @vscode/test-electron gives VS Code: ignores the Electron flags, honours
 * --extensionDevelopmentPath=, --extensionTestsPath= and a folder argument, runs the tests in code-server's
 * extension host, and exits with their code — so `runTests({ vscodeExecutablePath: launcher.sh })` works here.
 */
import path from "node:path";
import { ensureHost, openWorkbench, startCodeServer } from "./harness";

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  const inline = process.argv.find((a) => a.startsWith(prefix));
  if (inline) return inline.slice(prefix.length);
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<number> {
  const extensionPath = option("extensionDevelopmentPath");
  const testsPath = option("extensionTestsPath");
  if (!extensionPath || !testsPath) {
    console.error("launcher: --extensionDevelopmentPath= and --extensionTestsPath= are required");
    return 2;
  }
  const folder = process.argv.slice(2).find((a) => !a.startsWith("-") && path.isAbsolute(a));
  const host = ensureHost();
  if (!host.ok) {
    console.error(`launcher: the code-server host is not available: ${host.reason}`);
    return 1;
  }
  const server = await startCodeServer(host.codeServer!, { workspace: folder });
  let finish!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (finish = resolve));
  const workbench = await openWorkbench(server, { extensionPath: path.resolve(extensionPath), testsPath: path.resolve(testsPath), onLog: (line) => console.log(line), onExit: (code) => finish(code) });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([exited, new Promise<number>((resolve) => (timer = setTimeout(() => (console.error("launcher: no result within 5 minutes"), resolve(1)), 300_000)))]);
  } finally {
    clearTimeout(timer);
    await workbench.close();
    await server.stop();
  }
}

void main().then((code) => process.exit(code), (err) => {
  console.error(err);
  process.exit(1);
});
