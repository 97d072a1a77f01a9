/** The one "CRM Explorer" log channel; every line passes through the redactor first. */
import * as vscode from "vscode";
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
    const detail = err instanceof Error ? `${err.name}: ${err.message}${err.stack ? `\n${err.stack.split("\n").slice(1, 6).join("\n")}` : ""}` : err === undefined ? "" : String(err);
    this.channel.error(this.redactor.redact(detail ? `${line}: ${detail}` : line));
  }
  show(): void {
    this.channel.show(true);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
