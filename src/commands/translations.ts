/**
 * Translations from the Knowledge tree, Article Details or the palette: submit an article for translation,
 * edit a translation side by side with its master, publish or delete it, see what changed in the master since
 * an out-of-date translation, and compare any two versions of an article.
 */
import * as vscode from "vscode";
import type { KnowledgeArticleVersion, TranslationVersion } from "../client";
import type { OrgManager } from "../connections/orgManager";
import { masterAsTranslated } from "../client/versions";
import { comparisonTexts } from "../documents/versionText";
import type { CrmFileSystem } from "../documents/crmFileSystem";
import { CommandRefusal, UserCancelled } from "../platform/errorMessages";
import { readSettings } from "../platform/settings";
import type { ActiveOrg } from "../views/activeOrg";
import { isArticleTarget, type ArticleRow } from "../views/knowledgeModel";
import { languageLabel } from "../shared/languages";
import { TranslationNode } from "../views/knowledgeView";
import { openArticlePairs } from "./documents";
import type { CommandId } from "./commandIds";
import { articleOf, outcomeOf, showPublishOutcome, withViewProgress } from "./knowledge";

export interface TranslationDeps {
  manager: OrgManager;
  active: ActiveOrg;
  files: CrmFileSystem;
  showDiff(left: { label: string; text: string }, right: { label: string; text: string }, title: string): Promise<void>;
}

const sobject = () => readSettings().knowledgeSobject;
const versionLabel = (v: Pick<KnowledgeArticleVersion, "VersionNumber" | "PublishStatus" | "Language">) => `${v.Language && v.Language !== "en_US" ? `${languageLabel(String(v.Language))} ` : ""}v${v.VersionNumber} · ${v.PublishStatus}`;

export function translationCommands(deps: TranslationDeps): Record<Extract<CommandId, `crm.translation.${string}`>, (...args: unknown[]) => unknown> {
  const { manager, active, files } = deps;
  const orgKeyOf = async (node: unknown) => (isArticleTarget(node) ? node.orgKey : (await active.session()).record.key);
  const session = async (node: unknown) => manager.session(await orgKeyOf(node));

  /** A translation a command acts on: the tree's node, or an article then one of its translations picked from the palette. */
  async function translationOf(node: unknown, title: string, accept: (t: TranslationVersion) => boolean): Promise<{ orgKey: string; translation: TranslationVersion; master: ArticleRow }> {
    if (node instanceof TranslationNode) {
      const t = node.article;
      return { orgKey: node.orgKey, master: node.master, translation: { Id: t.id, KnowledgeArticleId: t.knowledgeArticleId, ArticleNumber: t.articleNumber, Title: t.title, UrlName: t.urlName, VersionNumber: t.versionNumber, PublishStatus: t.publishStatus, Language: t.language, LastModifiedDate: t.lastModifiedDate ?? undefined } };
    }
    const master = await articleOf(active, node, vscode.l10n.t("{0}: of which article?", title));
    const orgKey = await orgKeyOf(node);
    const all = (await (await manager.session(orgKey)).crm.knowledge.getTranslations(master.knowledgeArticleId, { sobject: sobject() })).filter(accept);
    if (!all.length) throw new CommandRefusal(vscode.l10n.t("'{0}' has no translation this applies to.", master.title));
    const picked = await vscode.window.showQuickPick(all.map((t) => ({ label: languageLabel(t.Language), description: vscode.l10n.t("{0} · v{1} · {2}", t.PublishStatus, t.VersionNumber, t.Title), t })), { title });
    if (!picked) throw new UserCancelled();
    return { orgKey, master, translation: picked.t };
  }

  /** Two versions in the diff editor as aligned field texts (rich text formatted), differing fields first. */
  async function compare(orgKey: string, left: { id: string; label: string }, right: { id: string; label: string }, title: string): Promise<void> {
    const s = await manager.session(orgKey);
    const comparison = await s.crm.knowledge.compareVersions(left.id, right.id, { sobject: sobject(), describe: await s.schema.describe(sobject()) });
    const texts = comparisonTexts(comparison);
    await deps.showDiff({ label: `${left.label}.md`, text: texts.left }, { label: `${right.label}.md`, text: texts.right }, texts.differing === 1 ? vscode.l10n.t("{0} (1 differing field)", title) : vscode.l10n.t("{0} ({1} differing fields)", title, texts.differing));
  }

  return {
    "crm.translation.submit": async (node) => {
      const a = await articleOf(active, node, vscode.l10n.t("Submit which article for translation?"));
      const s = await session(node);
      const settings = await s.knowledgeLanguages();
      if (!settings) throw new CommandRefusal(vscode.l10n.t("{0} did not answer with its knowledge languages; is Knowledge enabled for your user?", s.record.alias));
      const existing = await s.crm.knowledge.getTranslations(a.knowledgeArticleId, { sobject: sobject() });
      const choices = settings.languages.filter((l) => l.active && l.name !== settings.defaultLanguage).map((l) => {
        const has = existing.filter((t) => t.Language === l.name).map((t) => t.PublishStatus);
        return { label: languageLabel(l.name), description: has.length ? vscode.l10n.t("has {0}", has.join(", ").toLowerCase()) : "", language: l.name };
      });
      if (!choices.length) throw new CommandRefusal(vscode.l10n.t("{0} has no active knowledge language besides {1}. Add languages in Setup › Knowledge Settings.", s.record.alias, languageLabel(settings.defaultLanguage)));
      const picked = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t("Submit '{0}' for translation into", a.title), canPickMany: true });
      if (!picked?.length) throw new UserCancelled();
      const drafts = await withViewProgress(vscode.l10n.t("Submitting for translation"), () => s.crm.knowledge.submitForTranslation(a.knowledgeArticleId, picked.map((p) => p.language), { sobject: sobject() }));
      const names = picked.map((p) => p.label).join(", ");
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t("Submitted '{0}' for translation into {1}.", a.title, names), ...(drafts.length === 1 ? [vscode.l10n.t("Edit Side by Side")] : []));
      if (choice) await openSideBySide(s.record.key, a, drafts[0]!);
    },
    "crm.translation.edit": async (node) => {
      const { orgKey, translation, master } = await translationOf(node, vscode.l10n.t("Edit which translation side by side?"), (t) => t.PublishStatus !== "Archived");
      let draft = translation;
      if (translation.PublishStatus === "Online") {
        const createDraft = vscode.l10n.t("Create Draft");
        const choice = await vscode.window.showInformationMessage(vscode.l10n.t("The {0} translation of '{1}' is published. Edits go to a draft.", languageLabel(translation.Language), master.title), { modal: true, detail: vscode.l10n.t("Create a draft of it (the published translation stays online) and open it?") }, createDraft);
        if (choice !== createDraft) throw new UserCancelled();
        const s = await manager.session(orgKey);
        draft = { ...translation, Id: await withViewProgress(vscode.l10n.t("Creating the draft"), () => s.crm.knowledge.createDraftFromOnlineTranslation(translation.Id, { sobject: sobject() })), PublishStatus: "Draft" };
      }
      await openSideBySide(orgKey, master, draft);
    },
    "crm.translation.publish": async (node, nodes) => {
      const selected = Array.isArray(nodes) ? nodes.filter((n): n is TranslationNode => n instanceof TranslationNode && n.article.publishStatus === "Draft") : [];
      const targets = selected.length ? selected.map((n) => ({ orgKey: n.orgKey, id: n.article.id, name: vscode.l10n.t("the {0} translation of '{1}'", languageLabel(n.article.language), n.master.title) }))
        : [await translationOf(node, vscode.l10n.t("Publish which draft translation?"), (t) => t.PublishStatus === "Draft")].map((t) => ({ orgKey: t.orgKey, id: t.translation.Id, name: vscode.l10n.t("the {0} translation of '{1}'", languageLabel(t.translation.Language), t.master.title) }));
      const s = await manager.session(targets[0]!.orgKey);
      const [result] = await withViewProgress(vscode.l10n.t("Publishing translations"), () => s.crm.knowledge.publishTranslations(targets.map((t) => t.id)));
      showPublishOutcome(targets.map((t) => ({ name: t.name, word: outcomeOf(result, t.id) })), "translations");
    },
    "crm.translation.delete": async (node) => {
      const { orgKey, translation, master } = await translationOf(node, vscode.l10n.t("Delete which translation?"), (t) => t.PublishStatus !== "Online");
      const deleteTranslation = vscode.l10n.t("Delete Translation");
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t("Delete the {0} translation of '{1}' ({2}, version {3})?", languageLabel(translation.Language), master.title, translation.PublishStatus.toLowerCase(), translation.VersionNumber),
        { modal: true, detail: vscode.l10n.t("Its text is lost. The master article and other languages stay as they are.") }, deleteTranslation,
      );
      if (choice !== deleteTranslation) throw new UserCancelled();
      await withViewProgress(vscode.l10n.t("Deleting the translation"), async () => (await manager.session(orgKey)).crm.knowledge.deleteTranslation(translation.Id));
    },
    "crm.translation.showMasterChanges": async (node) => {
      const { orgKey, translation, master } = await translationOf(node, vscode.l10n.t("Show the master's changes since which translation?"), () => true);
      const s = await manager.session(orgKey);
      const masters = await s.crm.knowledge.getVersionsOfArticle(master.knowledgeArticleId, { sobject: sobject() });
      const current = masters.find((m) => m.PublishStatus === "Online");
      if (!current) throw new CommandRefusal(vscode.l10n.t("'{0}' has no published version.", master.title));
      const then = masterAsTranslated(masters, translation);
      if (!then) throw new CommandRefusal(vscode.l10n.t("No version of '{0}' published before the {1} translation's last change is kept (a minor publication replaces the version it publishes over). Compare the translation with the master instead.", master.title, languageLabel(translation.Language)));
      if (then.Id === current.Id) return void vscode.window.showInformationMessage(vscode.l10n.t("The {0} translation is up to date: the master has not been published since its last change.", languageLabel(translation.Language)));
      await compare(orgKey, { id: then.Id, label: vscode.l10n.t("master v{0} (as translated)", then.VersionNumber) }, { id: current.Id, label: vscode.l10n.t("master v{0} (now)", current.VersionNumber) },
        vscode.l10n.t("{0}: the master since the {1} translation", master.title, languageLabel(translation.Language)));
    },
    "crm.translation.compareVersions": async (node) => {
      const a = await articleOf(active, node, vscode.l10n.t("Compare versions of which article?"));
      const orgKey = await orgKeyOf(node);
      const s = await manager.session(orgKey);
      const [masters, translations] = await Promise.all([s.crm.knowledge.getVersionsOfArticle(a.knowledgeArticleId, { sobject: sobject() }), s.crm.knowledge.getTranslations(a.knowledgeArticleId, { sobject: sobject() })]);
      const others = [...masters, ...translations].filter((v) => v.Id.slice(0, 15) !== a.id.slice(0, 15));
      if (!others.length) throw new CommandRefusal(vscode.l10n.t("'{0}' has no other version or translation to compare with.", a.title));
      const self = versionLabel({ VersionNumber: a.versionNumber, PublishStatus: a.publishStatus, Language: node instanceof TranslationNode ? node.article.language : undefined });
      const picked = await vscode.window.showQuickPick(others.map((v) => ({ label: versionLabel(v), description: v.Title, v })), { title: vscode.l10n.t("Compare {0} of '{1}' with", self, a.title) });
      if (!picked) throw new UserCancelled();
      await compare(orgKey, { id: picked.v.Id, label: versionLabel(picked.v).replace(/ · /g, " ") }, { id: a.id, label: self.replace(/ · /g, " ") }, `${a.title}: ${versionLabel(picked.v)} ↔ ${self}`);
    },
  };

  /** The master on the left (read-only unless it is a draft), the translation draft on the right: fields, then each rich-text field. */
  async function openSideBySide(orgKey: string, master: Pick<ArticleRow, "id" | "title">, draft: Pick<TranslationVersion, "Id" | "Language">): Promise<void> {
    const alias = manager.registry.get(orgKey)?.alias ?? orgKey;
    await openArticlePairs(files, alias, master.id, draft.Id, vscode.l10n.t("{0}: master ↔ {1}", master.title, languageLabel(draft.Language)));
  }
}
