/**
 * Editing in tabs: open a record or an article draft as `crm:` documents (the tab titled by its name),
 * new ones from templates, the sanitized preview of an article body, and Compare Draft with Online.
 */
import * as vscode from "vscode";
import { compareRecords } from "./compare";
import type { OrgManager } from "../connections/orgManager";
import { isRichText } from "../connections/schema";
import { articleFilePath, newPath, recordPath } from "../documents/crmFiles";
import { CRM_SCHEME, type CrmFileSystem } from "../documents/crmFileSystem";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { readSettings } from "../platform/settings";
import type { ActiveOrg } from "../views/activeOrg";
import { isArticleTarget } from "../views/knowledgeModel";
import type { PanelTarget } from "../webviews/panels";
import type { CommandId } from "./commandIds";
import { isRecordId } from "../client/ids";
import { articleOf } from "./knowledge";

export interface DocumentCommandDeps {
  /** A text beside a document, in the diff editor. */
  showDiff(left: { label: string; text: string }, right: vscode.Uri | { label: string; text: string }, title: string): Promise<void>;
  manager: OrgManager;
  active: ActiveOrg;
  files: CrmFileSystem;
  preview: { show(target: PanelTarget, options?: { preserveFocus?: boolean; beside?: boolean }): unknown };
}

const crmUri = (path: string) => vscode.Uri.from({ scheme: CRM_SCHEME, path });

/** Opens a `crm:` document in a tab titled with the record's name (VS Code would show the ID). */
export async function openCrmDocument(files: CrmFileSystem, path: string, options: { preserveFocus?: boolean } = {}): Promise<void> {
  const uri = crmUri(path);
  const name = await files.files.displayName(path);
  const file = path.split("/").pop()!;
  const label = file.endsWith(".html") ? `${name} — ${file.slice(0, -5)}` : file === "fields.json" ? `${name} — fields` : name;
  await vscode.commands.executeCommand("vscode.open", uri, { preview: false, preserveFocus: options.preserveFocus }, label);
}

/**
 * Two versions of an article file by file in one changes tab (fields, then each rich-text field), the right
 * side's documents editable when it is a draft; where VS Code has no changes tab, the body alone in a diff.
 */
export async function openArticlePairs(files: CrmFileSystem, alias: string, leftId: string, rightId: string, title: string): Promise<void> {
  const sobject = readSettings().knowledgeSobject;
  const names = ["fields.json", ...(await files.files.readDirectory(articleFilePath(alias, sobject, rightId, ""))).map(([n]) => n).filter((n) => n.endsWith(".html"))];
  const pairs = names.map((n) => [crmUri(articleFilePath(alias, sobject, rightId, n)), crmUri(articleFilePath(alias, sobject, leftId, n)), crmUri(articleFilePath(alias, sobject, rightId, n))]);
  const body = pairs.find(([u]) => u!.path.endsWith(".html")) ?? pairs[0]!;
  await vscode.commands.executeCommand("vscode.changes", title, pairs).then(undefined, () => vscode.commands.executeCommand("vscode.diff", body[1], body[2], title));
}

/** The object an ID belongs to, by its key prefix (from the org's schema). */
export async function sobjectOfId(manager: OrgManager, orgKey: string, id: string): Promise<string> {
  const sobject = await (await manager.session(orgKey)).schema.objectOfId(id);
  if (!sobject) throw new CommandRefusal(vscode.l10n.t("No object in this org has the key prefix {0}, so ID {1} cannot be opened.", id.slice(0, 3), id));
  return sobject.name;
}

export function documentCommands(deps: DocumentCommandDeps): Record<Extract<CommandId, `crm.document.${string}`>, (...args: unknown[]) => unknown> {
  const { manager, active, files } = deps;
  const aliasOf = (orgKey: string) => manager.registry.get(orgKey)?.alias ?? orgKey;
  const knowledgeSobject = () => readSettings().knowledgeSobject;

  async function orgKeyOr(orgKey: unknown): Promise<string> {
    return typeof orgKey === "string" ? orgKey : (await active.session()).record.key;
  }

  /** The article's first rich-text field: the body a person means when they edit "the article". */
  async function bodyField(orgKey: string): Promise<string> {
    const describe = await (await manager.session(orgKey)).schema.describe(knowledgeSobject());
    const field = describe.fields.find(isRichText);
    if (!field) throw new CommandRefusal(vscode.l10n.t("{0} has no rich-text field to edit; use Edit Article Fields.", knowledgeSobject()));
    return field.name;
  }

  type ArticleRef = { orgKey: string; id: string; title: string; status: string; knowledgeArticleId: string };

  /** An article version known only by its ID: its title, state and master, read from the org. */
  async function readArticle(orgKey: string, id: string): Promise<ArticleRef> {
    const details = await (await manager.session(orgKey)).crm.getSobjectRecord(knowledgeSobject(), id, { fields: ["Title", "PublishStatus", "KnowledgeArticleId"] });
    return { orgKey, id, title: String(details.Title), status: String(details.PublishStatus), knowledgeArticleId: String(details.KnowledgeArticleId) };
  }

  /** The article a command is about: a tree node, `{ orgKey, id }`, the `crm:` article document in front, or one picked. */
  async function articleTarget(node: unknown, title: string): Promise<ArticleRef> {
    const uri = node instanceof vscode.Uri ? node : node === undefined ? vscode.window.activeTextEditor?.document.uri : undefined;
    const p = uri?.scheme === CRM_SCHEME ? files.files.parse(uri.path) : undefined;
    if (uri && p && (p.kind === "articleFile" || p.kind === "article")) return readArticle(files.orgKeyOf(uri)!, p.id);
    const ref = node as { orgKey?: unknown; id?: unknown } | undefined;
    if (ref && typeof ref.orgKey === "string" && typeof ref.id === "string" && !isArticleTarget(node)) return readArticle(ref.orgKey, ref.id);
    const a = await articleOf(active, node, title);
    const orgKey = (node as { orgKey?: string } | undefined)?.orgKey ?? (await active.session()).record.key;
    return { orgKey, id: a.id, title: a.title, status: a.publishStatus, knowledgeArticleId: a.knowledgeArticleId };
  }

  return {
    "crm.document.compareRecords": () => compareRecords({ manager, files, showDiff: deps.showDiff }),
    "crm.document.openRecord": async (orgKeyArg: unknown, idArg: unknown) => {
      const orgKey = await orgKeyOr(orgKeyArg);
      const id = typeof idArg === "string" ? idArg : await vscode.window.showInputBox({
        title: vscode.l10n.t("Open a record in an editor"), prompt: vscode.l10n.t("Its 15- or 18-character ID"), ignoreFocusOut: true,
        validateInput: (v) => (isRecordId(v.trim()) ? undefined : vscode.l10n.t("A record ID has 15 or 18 letters and digits")),
      });
      if (!id) throw new UserCancelled();
      const sobject = await sobjectOfId(manager, orgKey, id.trim());
      if (sobject === knowledgeSobject()) return vscode.commands.executeCommand("crm.document.editArticle", { orgKey, id: id.trim() });
      await openCrmDocument(files, recordPath(aliasOf(orgKey), sobject, id.trim()));
    },
    "crm.document.newRecord": async () => {
      const orgKey = await orgKeyOr(undefined);
      const all = await (await manager.session(orgKey)).schema.objects();
      const picked = await vscode.window.showQuickPick(all.filter((o) => o.name !== knowledgeSobject()).map((o) => ({ label: o.label, description: o.name, name: o.name })), { title: vscode.l10n.t("New record of which object?"), matchOnDescription: true });
      if (!picked) throw new UserCancelled();
      await vscode.commands.executeCommand("vscode.open", crmUri(newPath(aliasOf(orgKey), picked.name)), { preview: false }, `New ${picked.label}`);
    },
    "crm.document.newArticle": async () => {
      const orgKey = await orgKeyOr(undefined);
      await vscode.commands.executeCommand("vscode.open", crmUri(newPath(aliasOf(orgKey), knowledgeSobject())), { preview: false }, "New article");
    },
    "crm.document.editArticle": async (node: unknown) => {
      const a = await articleTarget(node, vscode.l10n.t("Edit which article?"));
      let draftId = a.id;
      if (a.status !== "Draft") {
        const createDraft = vscode.l10n.t("Create Draft");
        const state = a.status === "Online" ? vscode.l10n.t("'{0}' is published. Edits go to a draft.", a.title) : vscode.l10n.t("'{0}' is archived. Edits go to a draft.", a.title);
        const choice = await vscode.window.showInformationMessage(state, { modal: true, detail: vscode.l10n.t("Create a draft of it and open the draft?") }, createDraft);
        if (choice !== createDraft) throw new UserCancelled();
        const crm = (await manager.session(a.orgKey)).crm;
        draftId = a.status === "Online"
          ? String(await crm.knowledge.createDraftFromOnlineArticle(a.id, { unpublish: false }))
          : await crm.knowledge.createDraftFromMasterVersion({ knowledgeArticleId: a.knowledgeArticleId, sobject: knowledgeSobject() });
      }
      await openCrmDocument(files, articleFilePath(aliasOf(a.orgKey), knowledgeSobject(), draftId, `${await bodyField(a.orgKey)}.html`));
    },
    "crm.document.editArticleFields": async (node: unknown) => {
      const a = await articleTarget(node, vscode.l10n.t("Edit the fields of which article?"));
      await openCrmDocument(files, articleFilePath(aliasOf(a.orgKey), knowledgeSobject(), a.id, "fields.json"));
    },
    "crm.document.save": async () => {
      const document = vscode.window.activeTextEditor?.document;
      // Bound to Ctrl+S only in `crm:` documents; anywhere else it is VS Code's own save.
      if (document?.uri.scheme !== CRM_SCHEME) return void (await vscode.commands.executeCommand("workbench.action.files.save"));
      await files.saveDocument(document);
    },
    "crm.document.preview": async (uriArg: unknown) => {
      const uri = uriArg instanceof vscode.Uri ? uriArg : vscode.window.activeTextEditor?.document.uri;
      if (uri?.scheme !== CRM_SCHEME || !uri.path.endsWith(".html")) throw new CommandRefusal(vscode.l10n.t("Open an article's .html document (CRM: Edit Article in Editor) to preview it."));
      deps.preview.show({ orgKey: files.orgKeyOf(uri) ?? "", id: uri.toString() }, { preserveFocus: true, beside: true });
    },
    "crm.document.compareWithOnline": async (node: unknown) => {
      const a = await articleTarget(node, vscode.l10n.t("Compare which draft with its online version?"));
      if (a.status !== "Draft") throw new CommandRefusal(vscode.l10n.t("'{0}' is not a draft. Compare a draft with the online version.", a.title));
      const crm = (await manager.session(a.orgKey)).crm;
      const online = (await crm.knowledge.getVersionsOfArticle(a.knowledgeArticleId, { sobject: knowledgeSobject() })).find((v) => v.PublishStatus === "Online");
      if (!online) throw new CommandRefusal(vscode.l10n.t("'{0}' has no published version to compare with.", a.title));
      await openArticlePairs(files, aliasOf(a.orgKey), String(online.Id), a.id, `${a.title}: online ↔ draft`);
    },
  };
}
