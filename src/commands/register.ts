/** Registers every command in one place, each through the error wrapper. */
import * as vscode from "vscode";
import { wrapCommand } from "../platform/commandWrapper";
import { COMMAND_IDS, type CommandId } from "./ids";
import { orgCommands, type OrgCommandDeps } from "./orgs";

export function registerCommands(context: vscode.ExtensionContext, deps: OrgCommandDeps): void {
  const handlers: Record<CommandId, (...args: unknown[]) => unknown> = {
    ...orgCommands(deps),
    "crm.log.show": () => deps.log.show(),
  };
  for (const id of COMMAND_IDS) {
    context.subscriptions.push(vscode.commands.registerCommand(id, wrapCommand(id, handlers[id], deps)));
  }
}
