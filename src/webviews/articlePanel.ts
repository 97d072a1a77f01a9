/** The Article Details panel: one per article version; its buttons run the Knowledge commands. */
import * as l10n from "@vscode/l10n";
import { readSettings } from "../platform/settings";
import { parseArticleRequest, type ArticleAction, type ArticleDetailsView, type ArticleToHost, type HostToArticle } from "./protocol/article";
import { touchesArticle } from "../connections/changes";
import { readArticleDetails } from "./articleModel";
import { PanelSet, type PanelDeps } from "./panels";

export type ArticlePanels = PanelSet<ArticleToHost, ArticleDetailsView, HostToArticle>;

/** Runs the Knowledge command behind a panel button (it reports its own errors and cancellations). */
export type RunArticleAction = (orgKey: string, article: ArticleDetailsView, action: ArticleAction) => Promise<void>;

export function articlePanels(deps: PanelDeps, runAction: RunArticleAction): ArticlePanels {
  const panels: ArticlePanels = new PanelSet<ArticleToHost, ArticleDetailsView, HostToArticle>({
    viewType: "crm.article",
    script: "article",
    noun: l10n.t("Article details"),
    title: (_target, article) => (article ? `${article.title} (v${article.versionNumber})` : l10n.t("Article")),
    parseRequest: parseArticleRequest,
    read: async (target) => readArticleDetails(await deps.manager.session(target.orgKey), target.id, readSettings().knowledgeSobject),
    update: (article) => ({ type: "article", article }),
    handle: async (panel, request) => {
      if (request.type === "openVersion") return panels.retarget(panel, { orgKey: panel.target.orgKey, id: request.id });
      if (request.type !== "action" || !panel.data) return;
      // The panel follows the write the action makes (below), like any other write to its article.
      await runAction(panel.target.orgKey, panel.data, request.action);
    },
  }, deps);
  // A change to the article from anywhere (tree, palette, this panel, an editor tab) shows it as it now is.
  deps.manager.onDidChange((change) => {
    for (const panel of panels.all()) {
      if (panel.target.orgKey === change.orgKey && touchesArticle(change, panel.data ?? { id: panel.target.id })) void panel.load();
    }
  });
  return panels;
}

