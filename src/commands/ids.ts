/** Every command the extension registers; package.json contributes exactly these (a test checks both ways). */
export const COMMAND_IDS = [
  "crm.org.add",
  "crm.org.addDemo",
  "crm.org.signInAgain",
  "crm.org.signOut",
  "crm.org.setActive",
  "crm.org.switch",
  "crm.org.rename",
  "crm.org.remove",
  "crm.org.openInBrowser",
  "crm.log.show",
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
