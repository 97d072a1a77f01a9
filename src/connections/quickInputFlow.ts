/** The Add Org wizard's steps as one multi-step quick input with Back, step numbers and inline validation. */
import * as vscode from "vscode";
import { UserCancelled } from "../platform/errorMessages";
import { BACK, type Back, type FlowIO, type PickItem, type Step } from "./addOrgFlow";

export function quickInputFlow(title: string): FlowIO {
  const titled = (step: Step) => `${title}: ${step.title}`;
  return {
    input: (step, value, position) =>
      new Promise<string | Back>((resolve, reject) => {
        const box = vscode.window.createInputBox();
        box.title = titled(step);
        box.step = position.step;
        box.totalSteps = position.total;
        box.value = value ?? "";
        box.prompt = step.prompt;
        box.placeholder = step.placeholder;
        box.password = step.password ?? false;
        box.ignoreFocusOut = true;
        box.buttons = position.step > 1 ? [vscode.QuickInputButtons.Back] : [];
        let done = false;
        const check = (v: string) => (step.optional && !v ? undefined : step.validate?.(v, {}));
        // Why the wizard came back (a failed sign-in) stays until the person changes something.
        if (position.notice) box.validationMessage = { message: position.notice, severity: vscode.InputBoxValidationSeverity.Warning };
        box.onDidChangeValue((v) => (box.validationMessage = check(v)));
        box.onDidTriggerButton(() => ((done = true), box.hide(), resolve(BACK)));
        box.onDidAccept(() => {
          const problem = check(box.value);
          if (problem) {
            box.validationMessage = problem;
            return;
          }
          done = true;
          box.hide();
          resolve(box.value);
        });
        box.onDidHide(() => {
          box.dispose();
          if (!done) reject(new UserCancelled());
        });
        box.show();
      }),
    pick: (step, items, value, position) =>
      new Promise<string | Back>((resolve, reject) => {
        const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { value: string }>();
        pick.title = titled(step);
        pick.step = position.step;
        pick.totalSteps = position.total;
        pick.items = items.map((i: PickItem) => ({ label: i.label, description: i.description, detail: i.detail, value: i.value }));
        const current = pick.items.find((i) => i.value === value);
        if (current) pick.activeItems = [current];
        pick.ignoreFocusOut = true;
        pick.matchOnDescription = true;
        pick.buttons = position.step > 1 ? [vscode.QuickInputButtons.Back] : [];
        if (position.notice) pick.placeholder = position.notice;
        let done = false;
        pick.onDidTriggerButton(() => ((done = true), pick.hide(), resolve(BACK)));
        pick.onDidAccept(() => {
          const chosen = pick.selectedItems[0];
          if (!chosen) return;
          done = true;
          pick.hide();
          resolve(chosen.value);
        });
        pick.onDidHide(() => {
          pick.dispose();
          if (!done) reject(new UserCancelled());
        });
        pick.show();
      }),
    file: async (step, value) => {
      const uris = await vscode.window.showOpenDialog({
        title: step.title, canSelectMany: false, filters: step.fileFilters, defaultUri: value ? vscode.Uri.file(value) : undefined, openLabel: vscode.l10n.t("Use this file"),
      });
      if (!uris?.[0]) throw new UserCancelled();
      return uris[0].fsPath;
    },
  };
}
