/** Activation constructs and registers only: no network I/O until a view or command needs the org. */
import * as vscode from "vscode";
import type { McpApi } from "./agent/mcpProvider";
import { registerCommands } from "./commands/register";
import { offerInterruptedImports } from "./commands/importData";
import { importDemoHelper } from "./connections/demo";
import type { ImportsInFlight } from "./connections/importsInFlight";
import type { OrgManager } from "./connections/orgManager";
import type { OrgRegistry } from "./connections/orgRegistry";
import type { WriteJournal } from "./connections/writeJournal";
import { useLocale } from "./platform/numbers";
import { Container } from "./container";

/**
 * What the extension hands its in-host tests (run in VS Code's test mode). Other extensions get nothing: the
 * org manager holds sessions and secrets, and is no public API.
 */
export interface CrmExplorerApi {
  manager: OrgManager;
  registry: OrgRegistry;
  orgInfo: Container["orgInfo"];
  journal: () => Promise<WriteJournal>;
  /** Imports under way, written down before their rows go (what Check Interrupted Imports reads). */
  imports: ImportsInFlight;
  /** The MCP server definition provider, registered with an API of VS Code 1.101's shape handed in by the test (so it sees what VS Code is handed). */
  registerMcpServerProvider: (api: McpApi) => vscode.Disposable;
}

export function activate(context: vscode.ExtensionContext): CrmExplorerApi | undefined {
  useLocale(vscode.env.language);
  const container = new Container(context);
  const { log, registry, imports } = container;
  registerCommands(context, container);
  // A local folder read, no network: an import a closed window left is offered to be checked at the org.
  void offerInterruptedImports(imports).catch((err: unknown) => log.warn(`the imports in flight could not be read: ${String(err)}`));
  const demoHelper = process.env.CRM_DEMO_HELPER;
  if (demoHelper) void importDemoHelper(registry, demoHelper).catch((err: unknown) => log.error("importing the demo org's helper file failed", err));
  log.info(`CRM Explorer ${String(context.extension.packageJSON.version)} activated`);
  return context.extensionMode === vscode.ExtensionMode.Test
    ? { manager: container.manager, registry, orgInfo: container.orgInfo, journal: container.journal, imports, registerMcpServerProvider: (api) => container.registerMcpServerProvider(api) }
    : undefined;
}

export function deactivate(): void {}
