/** The text of an error log line, kept free of vscode so the "no secret" tests can check it in Node. */
import type { Redactor } from "./redact";

/** `line: Name: message` and the first stack frames, redacted. Never the error's cause or other fields. */
export function errorLogLine(line: string, err: unknown, redactor: Redactor): string {
  const detail = err instanceof Error
    ? `${err.name}: ${err.message}${err.stack ? `\n${err.stack.split("\n").slice(1, 6).join("\n")}` : ""}`
    : err === undefined ? "" : String(err);
  return redactor.redact(detail ? `${line}: ${detail}` : line);
}
