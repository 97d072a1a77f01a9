import * as vscode from "vscode";
import type { ActiveOrg } from "./activeOrg";

export const DESCRIBE_SCHEME = "crm-describe";

/** Read-only documents `crm-describe:/<Object>.json` with the active org's full describe. */
export class DescribeDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly active: ActiveOrg) {}
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const objectName = uri.path.replace(/^\//, "").replace(/\.json$/, "");
    const session = await this.active.sessionFor(uri.query || undefined);
    return JSON.stringify(await session.schema.describe(objectName), null, 2);
  }
}
