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
import { UserCancelled } from "../platform/errorMessages";
import { readSettings } from "../platform/settings";
import type { ActiveOrg } from "../views/activeOrg";
import { isArticleTarget, type ArticleRow } from "../views/knowledgeModel";
import { languageLabel } from "../shared/languages";
import { TranslationNode } from "../views/knowledgeView";
import { openArticlePairs } from "./documents";
import type { CommandId } from "./ids";
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
    const master = await articleOf(active, node, `${title}: of which article?`);
    const orgKey = await orgKeyOf(node);
    const all = (await (await manager.session(orgKey)).crm.knowledge.getTranslations(master.knowledgeArticleId, { sobject: sobject() })).filter(accept);
    if (!all.length) throw new Error(`'${master.title}' has no translation this applies to.`);
    const picked = await vscode.window.showQuickPick(all.map((t) => ({ label: languageLabel(t.Language), description: `${t.PublishStatus} · v${t.VersionNumber} · ${t.Title}`, t })), { title });
    if (!picked) throw new UserCancelled();
    return { orgKey, master, translation: picked.t };
  }

  /** Two versions in the diff editor as aligned field texts (rich text formatted), differing fields first. */
  async function compare(orgKey: string, left: { id: string; label: string }, right: { id: string; label: string }, title: string): Promise<void> {
    const s = await manager.session(orgKey);
    const comparison = await s.crm.knowledge.compareVersions(left.id, right.id, { sobject: sobject(), describe: await s.schema.describe(sobject()) });
    const texts = comparisonTexts(comparison);
    await deps.showDiff({ label: `${left.label}.md`, text: texts.left }, { label: `${right.label}.md`, text: texts.right }, `${title} (${texts.differing} differing ${texts.differing === 1 ? "field" : "fields"})`);
  }

  return {
    "crm.translation.submit": async (node) => {
      const a = await articleOf(active, node, "Submit which article for translation?");
      const s = await session(node);
      const settings = await s.knowledgeLanguages();
      if (!settings) throw new Error(`${s.record.alias} did not answer with its knowledge languages; is Knowledge enabled for your user?`);
      const existing = await s.crm.knowledge.getTranslations(a.knowledgeArticleId, { sobject: sobject() });
      const choices = settings.languages.filter((l) => l.active && l.name !== settings.defaultLanguage).map((l) => {
        const has = existing.filter((t) => t.Language === l.name).map((t) => t.PublishStatus);
        return { label: languageLabel(l.name), description: has.length ? `has ${has.join(", ").toLowerCase()}` : "", language: l.name };
      });
      if (!choices.length) throw new Error(`${s.record.alias} has no active knowledge language besides ${languageLabel(settings.defaultLanguage)}. Add languages in Setup › Knowledge Settings.`);
      const picked = await vscode.window.showQuickPick(choices, { title: `Submit '${a.title}' for translation into`, canPickMany: true });
      if (!picked?.length) throw new UserCancelled();
      const drafts = await withViewProgress("Submitting for translation", () => s.crm.knowledge.submitForTranslation(a.knowledgeArticleId, picked.map((p) => p.language), { sobject: sobject() }));
      const names = picked.map((p) => p.label).join(", ");
      const choice = await vscode.window.showInformationMessage(`Submitted '${a.title}' for translation into ${names}.`, ...(drafts.length === 1 ? ["Edit Side by Side"] : []));
      if (choice) await openSideBySide(s.record.key, a, drafts[0]!);
    },
    "crm.translation.edit": async (node) => {
      const { orgKey, translation, master } = await translationOf(node, "Edit which translation side by side?", (t) => t.PublishStatus !== "Archived");
      let draft = translation;
      if (translation.PublishStatus === "Online") {
        const choice = await vscode.window.showInformationMessage(`The ${languageLabel(translation.Language)} translation of '${master.title}' is published. Edits go to a draft.`, { modal: true, detail: "Create a draft of it (the published translation stays online) and open it?" }, "Create Draft");
        if (choice !== "Create Draft") throw new UserCancelled();
        const s = await manager.session(orgKey);
        draft = { ...translation, Id: await withViewProgress("Creating the draft", () => s.crm.knowledge.createDraftFromOnlineTranslation(translation.Id, { sobject: sobject() })), PublishStatus: "Draft" };
      }
      await openSideBySide(orgKey, master, draft);
    },
    "crm.translation.publish": async (node, nodes) => {
      const selected = Array.isArray(nodes) ? nodes.filter((n): n is TranslationNode => n instanceof TranslationNode && n.article.publishStatus === "Draft") : [];
      const targets = selected.length ? selected.map((n) => ({ orgKey: n.orgKey, id: n.article.id, name: `${languageLabel(n.article.language)} of '${n.master.title}'` }))
        : [await translationOf(node, "Publish which draft translation?", (t) => t.PublishStatus === "Draft")].map((t) => ({ orgKey: t.orgKey, id: t.translation.Id, name: `${languageLabel(t.translation.Language)} of '${t.master.title}'` }));
      const s = await manager.session(targets[0]!.orgKey);
      const [result] = await withViewProgress("Publishing translations", () => s.crm.knowledge.publishTranslations(targets.map((t) => t.id)));
      showPublishOutcome(targets.map((t) => ({ name: `the ${t.name}`, word: outcomeOf(result, t.id) })), targets.length === 1 ? "translation" : "translations");
    },
    "crm.translation.delete": async (node) => {
      const { orgKey, translation, master } = await translationOf(node, "Delete which translation?", (t) => t.PublishStatus !== "Online");
      const name = `the ${languageLabel(translation.Language)} translation of '${master.title}'`;
      const choice = await vscode.window.showWarningMessage(`Delete ${name} (${translation.PublishStatus.toLowerCase()}, version ${translation.VersionNumber})?`, { modal: true, detail: "Its text is lost. The master article and other languages stay as they are." }, "Delete Translation");
      if (choice !== "Delete Translation") throw new UserCancelled();
      await withViewProgress("Deleting the translation", async () => (await manager.session(orgKey)).crm.knowledge.deleteTranslation(translation.Id));
    },
    "crm.translation.showMasterChanges": async (node) => {
      const { orgKey, translation, master } = await translationOf(node, "Show the master's changes since which translation?", () => true);
      const s = await manager.session(orgKey);
      const masters = await s.crm.knowledge.getVersionsOfArticle(master.knowledgeArticleId, { sobject: sobject() });
      const current = masters.find((m) => m.PublishStatus === "Online");
      if (!current) throw new Error(`'${master.title}' has no published version.`);
      const then = masterAsTranslated(masters, translation);
      if (!then) throw new Error(`No version of '${master.title}' published before the ${languageLabel(translation.Language)} translation's last change is kept (a minor publication replaces the version it publishes over). Compare the translation with the master instead.`);
      if (then.Id === current.Id) return void vscode.window.showInformationMessage(`The ${languageLabel(translation.Language)} translation is up to date: the master has not been published since its last change.`);
      await compare(orgKey, { id: then.Id, label: `master v${then.VersionNumber} (as translated)` }, { id: current.Id, label: `master v${current.VersionNumber} (now)` }, `${master.title}: the master since the ${languageLabel(translation.Language)} translation`);
    },
    "crm.translation.compareVersions": async (node) => {
      const a = await articleOf(active, node, "Compare versions of which article?");
      const orgKey = await orgKeyOf(node);
      const s = await manager.session(orgKey);
      const [masters, translations] = await Promise.all([s.crm.knowledge.getVersionsOfArticle(a.knowledgeArticleId, { sobject: sobject() }), s.crm.knowledge.getTranslations(a.knowledgeArticleId, { sobject: sobject() })]);
      const others = [...masters, ...translations].filter((v) => v.Id.slice(0, 15) !== a.id.slice(0, 15));
      if (!others.length) throw new Error(`'${a.title}' has no other version or translation to compare with.`);
      const self = versionLabel({ VersionNumber: a.versionNumber, PublishStatus: a.publishStatus, Language: node instanceof TranslationNode ? node.article.language : undefined });
      const picked = await vscode.window.showQuickPick(others.map((v) => ({ label: versionLabel(v), description: v.Title, v })), { title: `Compare ${self} of '${a.title}' with` });
      if (!picked) throw new UserCancelled();
      await compare(orgKey, { id: picked.v.Id, label: versionLabel(picked.v).replace(/ · /g, " ") }, { id: a.id, label: self.replace(/ · /g, " ") }, `${a.title}: ${versionLabel(picked.v)} ↔ ${self}`);
    },
  };

  /** The master on the left (read-only unless it is a draft), the translation draft on the right: fields, then each rich-text field. */
  async function openSideBySide(orgKey: string, master: Pick<ArticleRow, "id" | "title">, draft: Pick<TranslationVersion, "Id" | "Language">): Promise<void> {
    const alias = manager.registry.get(orgKey)?.alias ?? orgKey;
    await openArticlePairs(files, alias, master.id, draft.Id, `${master.title}: master ↔ ${languageLabel(draft.Language)}`);
  }
}
