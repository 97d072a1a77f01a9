/** Feed commands: post (to a group, a user, a record, or my profile; @mentions become mention segments), comment, user feeds. */
import { formatCount } from "../platform/numbers";
import * as vscode from "vscode";
import { textToSegments } from "../client/feed";
import { isRecordId } from "../client/ids";
import { UserCancelled } from "../platform/errorMessages";
import { pickWhileLoading } from "../platform/quickPick";
import type { ActiveOrg } from "../views/activeOrg";
import { FeedItemNode, FeedMoreNode, FeedNode, OlderCommentsNode, type FeedsTreeProvider } from "../views/feedsView";
import type { CommandId } from "./commandIds";

/** The org a node belongs to (undefined: the active org). */
const orgOf = (node: unknown) => (node instanceof FeedNode || node instanceof FeedItemNode || node instanceof FeedMoreNode ? node.orgKey : undefined);

export function feedCommands(active: ActiveOrg, provider: FeedsTreeProvider, siteId: () => string | undefined): Record<Extract<CommandId, `crm.feed.${string}`>, (...args: unknown[]) => unknown> {
  /** The client of an org (the active one when no key is given). */
  const crm = async (org?: string) => (await active.sessionFor(org)).crm;
  const site = () => siteId() || undefined;

  /**
   * People and groups that may be @mentioned, for turning "@Name" into mention segments. When the org
   * will not list people by any means, undefined: the post goes out as plain text, and the person is told.
   */
  async function mentionable(org: string | undefined): Promise<{ id: string; name: string }[] | undefined> {
    const c = await crm(org);
    const [users, groups] = await Promise.all([
      c.feed.findUsers({ siteId: site() }).then((r) => r.users, () => undefined),
      (await provider.current(org)).groups().catch(() => []),
    ]);
    return users && [...users, ...groups];
  }

  /** Segments for a text; @names become mentions when people can be listed. */
  async function segmentsFor(text: string, org: string | undefined): Promise<ReturnType<typeof textToSegments>> {
    if (!text.includes("@")) return textToSegments(text, []);
    const people = await mentionable(org);
    if (!people) void vscode.window.showWarningMessage(vscode.l10n.t("The org did not list its people, so @names were sent as plain text (no one was notified)."));
    return textToSegments(text, people ?? []);
  }

  async function message(title: string): Promise<string> {
    const text = await vscode.window.showInputBox({ title, prompt: vscode.l10n.t("Mention people or groups with @Their Name"), validateInput: (v) => (v.trim() ? (v.length > 10_000 ? vscode.l10n.t("At most {0} characters", formatCount(10_000)) : undefined) : vscode.l10n.t("Write something to post")), ignoreFocusOut: true });
    if (!text) throw new UserCancelled();
    return text;
  }

  async function pickUser(title: string, org?: string): Promise<{ id: string; name: string }> {
    const c = await crm(org);
    const users = (async () => (await c.feed.findUsers({ siteId: site() })).users.map((u) => ({ label: u.name, description: u.title ?? "", u })))();
    const picked = await vscode.window.showQuickPick(users, { title, matchOnDescription: true });
    if (!picked) throw new UserCancelled();
    return picked.u;
  }

  return {
    "crm.feed.refresh": () => provider.refresh(),
    "crm.feed.loadMore": async (node) => {
      if (node instanceof FeedMoreNode) await (await provider.current(node.orgKey)).loadMore(node.ref);
    },
    "crm.feed.loadOlderComments": async (node) => {
      if (node instanceof OlderCommentsNode) await provider.loadOlderComments(node.itemNode);
    },
    "crm.feed.showUserFeed": async () => {
      const user = await pickUser(vscode.l10n.t("Show whose feed?"));
      (await provider.current()).addUserFeed(user.id, user.name);
    },
    "crm.feed.post": async (node) => {
      const org = orgOf(node);
      let subject: string;
      if (node instanceof FeedNode && node.ref.kind !== "news") {
        subject = node.ref.id;
      } else if (node instanceof FeedNode) {
        subject = "me";
      } else {
        const model = await provider.current(org);
        const picked = await pickWhileLoading<vscode.QuickPickItem & { subject: string }>({
          title: vscode.l10n.t("Post to"),
          first: [{ label: `$(account) ${vscode.l10n.t("My profile")}`, subject: "me" }],
          later: model.groups().then((groups) => groups.map((g) => ({ label: `$(comment-discussion) ${g.name}`, description: vscode.l10n.t("{0} members", formatCount(g.memberCount)), subject: g.id }))),
          last: [{ label: `$(person) ${vscode.l10n.t("A user…")}`, subject: "user" }, { label: `$(symbol-class) ${vscode.l10n.t("A record by ID…")}`, subject: "record" }],
        });
        if (!picked) throw new UserCancelled();
        subject = picked.subject;
        if (subject === "user") subject = (await pickUser(vscode.l10n.t("Post to whose feed?"), org)).id;
        if (subject === "record") {
          const id = await vscode.window.showInputBox({ title: vscode.l10n.t("Post to the feed of record"), validateInput: (v) => (isRecordId(v.trim()) ? undefined : vscode.l10n.t("A 15- or 18-character record ID")) });
          if (!id) throw new UserCancelled();
          subject = id.trim();
        }
      }
      const text = await message(vscode.l10n.t("Post"));
      const segments = await segmentsFor(text, org);
      await vscode.window.withProgress({ location: { viewId: "crm.feeds" }, title: vscode.l10n.t("Posting") }, async () => (await crm(org)).feed.postFeedItem(subject, { messageSegments: segments, siteId: site() }));
      vscode.window.setStatusBarMessage(vscode.l10n.t("Posted"), 3000);
    },
    "crm.feed.comment": async (node) => {
      const org = orgOf(node);
      let item: FeedItemNode;
      if (node instanceof FeedItemNode) item = node;
      else {
        const model = await provider.current(org);
        const news = await model.ensureLoaded({ kind: "news" });
        const picked = await vscode.window.showQuickPick(news.rows.map((i) => ({ label: `${i.author}: ${i.text.slice(0, 80)}`, description: i.parentName, node: new FeedItemNode(i, { kind: "news" }, active.record!.key) })), { title: vscode.l10n.t("Comment on which post?"), matchOnDescription: true });
        if (!picked) throw new UserCancelled();
        item = picked.node;
      }
      const text = await message(vscode.l10n.t("Comment on {0}'s post", item.item.author));
      const segments = await segmentsFor(text, item.orgKey);
      await vscode.window.withProgress({ location: { viewId: "crm.feeds" }, title: vscode.l10n.t("Commenting") }, async () => (await crm(item.orgKey)).feed.postComment(item.item.id, { messageSegments: segments, siteId: site() }));
      vscode.window.setStatusBarMessage(vscode.l10n.t("Commented"), 3000);
    },
  };
}
