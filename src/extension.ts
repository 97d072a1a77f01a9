import * as vscode from "vscode";

/** Activation constructs and registers only; it does no network I/O (DESIGN.md §4). */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel("CRM Explorer", { log: true });
  context.subscriptions.push(log);
  log.info(`CRM Explorer ${String(context.extension.packageJSON.version)} activated`);
}

export function deactivate(): void {}
