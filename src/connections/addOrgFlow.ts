/**
 * The Add Org wizard as data: which steps each sign-in method asks, in order, with validation. A runner
 * walks them with Back and keeps every answer, so a failed verification returns to the steps with
 * nothing lost. Pure: the VS Code quick input is one `FlowIO`, tests script another.
 */
import { readFileSync } from "node:fs";
import * as l10n from "@vscode/l10n";
import type { HelperConnection } from "../client";
import { checkOrgUrl } from "../client/urls";
import { UserCancelled } from "../platform/errorMessages";
import type { NewOrg } from "./orgManager";
import { methodLabel, type SignInMethod } from "./orgRegistry";
import type { FlowSettings } from "../platform/settings";

export const BACK = Symbol("back");
export type Back = typeof BACK;

export type AnswerKey =
  | "method" | "loginKind" | "loginUrl" | "username" | "password" | "securityToken" | "clientId" | "clientSecret"
  | "privateKeyFile" | "instanceUrl" | "accessToken" | "helperFile" | "cliOrg" | "alias";
export type Answers = Partial<Record<AnswerKey, string>>;

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
  value: string;
}

export interface Step {
  key: AnswerKey;
  kind: "input" | "pick" | "file";
  title: string;
  prompt?: string;
  placeholder?: string;
  password?: boolean;
  optional?: boolean;
  items?: (answers: Answers) => PickItem[] | Promise<PickItem[]>;
  validate?: (value: string, answers: Answers) => string | undefined;
  when?: (answers: Answers) => boolean;
  fileFilters?: Record<string, string[]>;
}

export interface StepPosition {
  step: number;
  total: number;
  /** Shown on this step: why the wizard came back here (a failed verification). */
  notice?: string;
}

export interface FlowIO {
  input(step: Step, value: string | undefined, position: StepPosition): Promise<string | Back>;
  pick(step: Step, items: PickItem[], value: string | undefined, position: StepPosition): Promise<string | Back>;
  file(step: Step, value: string | undefined, position: StepPosition): Promise<string | Back>;
}


const is = (...methods: SignInMethod[]) => (a: Answers) => methods.includes(a.method as SignInMethod);
const urlProblem = (value: string) => {
  try {
    checkOrgUrl(value, "The URL");
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};
/** `missing`: what to say when the answer is empty. */
const required = (missing: string) => (value: string) => (value.trim() ? undefined : missing);

export function addOrgSteps(settings: FlowSettings, cliOrgs: () => Promise<PickItem[]>): Step[] {
  return [
    {
      key: "method", kind: "pick", title: l10n.t("How do you sign in to this org?"),
      items: () => [
        { value: "browser", label: methodLabel("browser"), detail: l10n.t("Opens the org's login page in your browser (OAuth with PKCE); recommended on your own machine") },
        { value: "device", label: methodLabel("device"), detail: l10n.t("You enter a code at the org's page in any browser; for remote windows (SSH, WSL, Codespaces, code-server)") },
        { value: "password", label: methodLabel("password"), detail: l10n.t("Username, password and security token, with a connected app's consumer key and secret") },
        { value: "clientCredentials", label: methodLabel("clientCredentials"), detail: l10n.t("A connected app's consumer key and secret; runs as its integration user") },
        { value: "jwt", label: methodLabel("jwt"), detail: l10n.t("Username, consumer key and the private key of the connected app's certificate") },
        { value: "accessToken", label: methodLabel("accessToken"), detail: l10n.t("An existing access token and its instance URL (cannot renew itself)") },
        { value: "helper", label: methodLabel("helper"), detail: l10n.t("A JSON or YAML helper file with a `connection` section") },
        { value: "sfCli", label: methodLabel("sfCli"), detail: l10n.t("An org you are signed in to with `sf`") },
      ],
    },
    {
      key: "loginKind", kind: "pick", title: l10n.t("Where do you log in?"), when: is("browser", "device", "password", "jwt"),
      items: () => [
        { value: "production", label: l10n.t("Production or Developer Edition"), description: settings.productionUrl },
        { value: "sandbox", label: l10n.t("Sandbox"), description: settings.sandboxUrl },
        { value: "custom", label: l10n.t("My Domain or another URL"), description: "https://yourdomain.my.salesforce.com" },
      ],
    },
    {
      key: "loginUrl", kind: "input", title: l10n.t("Login URL"), prompt: l10n.t("The org's My Domain (or login) URL"), placeholder: "https://acme.my.salesforce.com",
      when: (a) => a.loginKind === "custom" || a.method === "clientCredentials", validate: (v) => urlProblem(v.trim()),
    },
    { key: "username", kind: "input", title: l10n.t("Username"), placeholder: "ada@acme.com", when: is("password", "jwt"), validate: required(l10n.t("Enter the username")) },
    { key: "password", kind: "input", title: l10n.t("Password"), password: true, when: is("password"), validate: required(l10n.t("Enter the password")) },
    { key: "securityToken", kind: "input", title: l10n.t("Security token"), prompt: l10n.t("Leave empty when your IP range is trusted"), password: true, optional: true, when: is("password") },
    {
      key: "clientId", kind: "input", title: l10n.t("Consumer key"), prompt: l10n.t("The connected app's consumer key (default from the crm.oauth.clientId setting)"),
      when: is("browser", "device", "password", "clientCredentials", "jwt"), validate: required(l10n.t("Enter the consumer key")),
    },
    { key: "clientSecret", kind: "input", title: l10n.t("Consumer secret"), password: true, when: is("password", "clientCredentials"), validate: required(l10n.t("Enter the consumer secret")) },
    { key: "privateKeyFile", kind: "file", title: l10n.t("Private key file (PEM)"), when: is("jwt"), fileFilters: { [l10n.t("PEM private key")]: ["pem", "key"] } },
    { key: "instanceUrl", kind: "input", title: l10n.t("Instance URL"), placeholder: "https://acme.my.salesforce.com", when: is("accessToken"), validate: (v) => urlProblem(v.trim()) },
    { key: "accessToken", kind: "input", title: l10n.t("Access token"), password: true, when: is("accessToken"), validate: required(l10n.t("Enter the access token")) },
    { key: "helperFile", kind: "file", title: l10n.t("Helper file"), when: is("helper"), fileFilters: { [l10n.t("Helper files")]: ["json", "yaml", "yml"] } },
    { key: "cliOrg", kind: "pick", title: l10n.t("Org signed in with the Salesforce CLI"), when: is("sfCli"), items: () => cliOrgs() },
    { key: "alias", kind: "input", title: l10n.t("Name for this org"), prompt: l10n.t("How the org is shown in VS Code (leave empty for the username)"), optional: true },
  ];
}

/** The initial value of a step before the person types anything. */
function defaultFor(step: Step, settings: FlowSettings): string | undefined {
  return step.key === "clientId" ? settings.clientId || undefined : undefined;
}

/**
 * Walks the steps that apply, starting at `startAt` (a step key) when given: Back goes to the previous
 * applicable step, and every answer is kept for when the person comes forward again.
 */
export async function runFlow(steps: Step[], io: FlowIO, answers: Answers, settings: FlowSettings, startAt?: AnswerKey, notice?: string): Promise<Answers> {
  const applicable = () => steps.filter((s) => !s.when || s.when(answers));
  let index = startAt ? Math.max(applicable().findIndex((s) => s.key === startAt), 0) : 0;
  while (index < applicable().length) {
    const list = applicable();
    const step = list[index]!;
    const position: StepPosition = { step: index + 1, total: list.length, notice };
    notice = undefined;
    const current = answers[step.key] ?? defaultFor(step, settings);
    let value: string | Back;
    if (step.kind === "pick") value = await io.pick(step, await step.items!(answers), current, position);
    else if (step.kind === "file") value = await io.file(step, current, position);
    else value = await io.input(step, current, position);
    if (value === BACK) {
      if (index === 0) throw new UserCancelled();
      index--;
      continue;
    }
    const problem = step.validate && !(step.optional && !value) ? step.validate(value, answers) : undefined;
    if (problem) throw new TypeError(`${step.title}: ${problem}`);
    answers[step.key] = value;
    index++;
  }
  return answers;
}

export function loginUrlOf(answers: Answers, settings: FlowSettings): string {
  if (answers.method === "clientCredentials" || answers.loginKind === "custom") return answers.loginUrl!.trim();
  return answers.loginKind === "sandbox" ? settings.sandboxUrl : settings.productionUrl;
}

/** Turns the answers of a method that needs no browser or CLI round trip into the org to verify. */
export async function newOrgFromAnswers(answers: Answers, settings: FlowSettings): Promise<NewOrg> {
  const method = answers.method as SignInMethod;
  const alias = answers.alias?.trim() || undefined;
  let connection: HelperConnection;
  switch (method) {
    case "password":
      connection = { grant_type: "password", endpoint_url: loginUrlOf(answers, settings), username: answers.username!.trim(), password: answers.password!, security_token: answers.securityToken ?? "", client_id: answers.clientId!.trim(), client_secret: answers.clientSecret! };
      break;
    case "clientCredentials":
      connection = { grant_type: "client_credentials", endpoint_url: loginUrlOf(answers, settings), client_id: answers.clientId!.trim(), client_secret: answers.clientSecret! };
      break;
    case "jwt":
      connection = { grant_type: "jwt_bearer", endpoint_url: loginUrlOf(answers, settings), username: answers.username!.trim(), client_id: answers.clientId!.trim(), private_key: readFileSync(answers.privateKeyFile!, "utf8") };
      break;
    case "accessToken":
      connection = { grant_type: "access_token", access_token: answers.accessToken!.trim(), instance_url: answers.instanceUrl!.trim() };
      break;
    case "helper":
      connection = (await import("../client/connection-info")).readHelperFile(answers.helperFile!).connection;
      break;
    default:
      throw new TypeError(l10n.t("{0} needs a browser or CLI round trip, not just answers", String(method)));
  }
  return { method, alias, loginUrl: connection.endpoint_url, connection };
}
