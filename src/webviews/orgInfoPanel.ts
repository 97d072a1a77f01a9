/** The Org Info panel: one per org. */
import * as vscode from "vscode";
import { CommandRefusal } from "../platform/errorMessages";
import { parseOrgInfoRequest, type HostToOrgInfo, type OrgInfoToHost, type OrgInfoView } from "./protocol/orgInfo";
import { readOrgInfo } from "./orgInfoModel";
import { PanelSet, type PanelDeps } from "./panels";

export function orgInfoPanels(deps: PanelDeps): PanelSet<OrgInfoToHost, OrgInfoView, HostToOrgInfo> {
  const aliasOf = (orgKey: string) => deps.manager.registry.get(orgKey)?.alias ?? vscode.l10n.t("Removed org");
  return new PanelSet<OrgInfoToHost, OrgInfoView, HostToOrgInfo>({
    viewType: "crm.orgInfo",
    script: "orgInfo",
    noun: vscode.l10n.t("Org Info"),
    title: (target) => vscode.l10n.t("{0}: Org Info", aliasOf(target.orgKey)),
    parseRequest: parseOrgInfoRequest,
    read: async (target) => {
      const org = deps.manager.registry.get(target.orgKey);
      if (!org) throw new CommandRefusal(vscode.l10n.t("That org was removed."));
      return readOrgInfo(deps.manager, org);
    },
    update: (info) => ({ type: "orgInfo", info }),
    handle: async (panel, request) => {
      if (request.type === "openInBrowser") await vscode.commands.executeCommand("crm.org.openInBrowser", panel.target.orgKey);
    },
  }, deps);
}
