/** The one "CRM Explorer" log channel; every line passes through the redactor first. */
import * as vscode from "vscode";
import { errorLogLine } from "./errorLogLine";
import type { Redactor } from "./redact";

export class Log implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel("CRM Explorer", { log: true });

  constructor(private readonly redactor: Redactor) {}

  info(line: string): void {
    this.channel.info(this.redactor.redact(line));
  }
  debug(line: string): void {
    this.channel.debug(this.redactor.redact(line));
  }
  warn(line: string): void {
    this.channel.warn(this.redactor.redact(line));
  }
  error(line: string, err?: unknown): void {
    this.channel.error(errorLogLine(line, err, this.redactor));
  }
  show(): void {
    this.channel.show(true);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
