/** One wrapper around every command: errors become an actionable message; cancellation stays silent. */
import * as vscode from "vscode";
import { actionLabel, describeError, NotSignedInError } from "./errorMessages";
import type { Log } from "./log";
import type { Redactor } from "./redact";

export type Handler = (...args: unknown[]) => unknown;

export function wrapCommand(id: string, handler: Handler, deps: { log: Log; redactor: Redactor }): Handler {
  const run = async (...args: unknown[]): Promise<unknown> => {
    try {
      return await handler(...args);
    } catch (err) {
      const report = describeError(err, { redactor: deps.redactor, orgAlias: err instanceof NotSignedInError ? err.org.alias : undefined });
      if (!report.message) {
        deps.log.debug(`${id}: cancelled`);
        return undefined;
      }
      deps.log.error(`${id} failed`, err);
      const show = report.severity === "warning" ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
      const labels = report.actions.map(actionLabel);
      const chosen = await show(report.message, ...labels);
      const choice = chosen === undefined ? undefined : report.actions[labels.indexOf(chosen)];
      switch (choice) {
        case "Sign In Again":
          return vscode.commands.executeCommand("crm.org.signInAgain", err instanceof NotSignedInError ? err.org.key : undefined);
        case "Open Settings":
          return vscode.commands.executeCommand("workbench.action.openSettings", "crm.");
        case "Retry":
          return run(...args);
        case "Show Log":
          deps.log.show();
          return undefined;
        default:
          return undefined;
      }
    }
  };
  return run;
}
