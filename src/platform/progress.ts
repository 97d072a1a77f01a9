/** Long work shown as a notification with a Cancel button that aborts it (the client takes the signal). */
import * as vscode from "vscode";

export function withCancellableProgress<T>(title: string, work: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Thenable<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    return work(controller.signal, progress);
  });
}
