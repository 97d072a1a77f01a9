/**
 * The Add Org wizard as data: which steps each sign-in method asks, in order, with validation. A runner
 * walks them with Back and keeps every answer, so a failed verification returns to the steps with
 * nothing lost. Pure: the VS Code quick input is one `FlowIO`, tests script another.
 */
import { readFileSync } from "node:fs";
import type { HelperConnection } from "../client";
import { checkOrgUrl } from "../client/urls";
import { UserCancelled } from "../platform/errorMessages";
import type { NewOrg } from "./orgManager";
import { METHOD_LABELS, type SignInMethod } from "./orgRegistry";

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

export interface FlowSettings {
  productionUrl: string;
  sandboxUrl: string;
  /** Default consumer key (crm.oauth.clientId). */
  clientId: string;
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
const required = (what: string) => (value: string) => (value.trim() ? undefined : `Enter the ${what}`);

export function addOrgSteps(settings: FlowSettings, cliOrgs: () => Promise<PickItem[]>): Step[] {
  return [
    {
      key: "method", kind: "pick", title: "How do you sign in to this org?",
      items: () => [
        { value: "browser", label: METHOD_LABELS.browser, detail: "Opens the org's login page in your browser (OAuth with PKCE); recommended on your own machine" },
        { value: "device", label: METHOD_LABELS.device, detail: "You enter a code at the org's page in any browser; for remote windows (SSH, WSL, Codespaces, code-server)" },
        { value: "password", label: METHOD_LABELS.password, detail: "Username, password and security token, with a connected app's consumer key and secret" },
        { value: "clientCredentials", label: METHOD_LABELS.clientCredentials, detail: "A connected app's consumer key and secret; runs as its integration user" },
        { value: "jwt", label: METHOD_LABELS.jwt, detail: "Username, consumer key and the private key of the connected app's certificate" },
        { value: "accessToken", label: METHOD_LABELS.accessToken, detail: "An existing access token and its instance URL (cannot renew itself)" },
        { value: "helper", label: METHOD_LABELS.helper, detail: "A JSON or YAML helper file with a `connection` section" },
        { value: "sfCli", label: METHOD_LABELS.sfCli, detail: "An org you are signed in to with `sf`" },
      ],
    },
    {
      key: "loginKind", kind: "pick", title: "Where do you log in?", when: is("browser", "device", "password", "jwt"),
      items: () => [
        { value: "production", label: "Production or Developer Edition", description: settings.productionUrl },
        { value: "sandbox", label: "Sandbox", description: settings.sandboxUrl },
        { value: "custom", label: "My Domain or another URL", description: "https://yourdomain.my.salesforce.com" },
      ],
    },
    {
      key: "loginUrl", kind: "input", title: "Login URL", prompt: "The org's My Domain (or login) URL", placeholder: "https://acme.my.salesforce.com",
      when: (a) => a.loginKind === "custom" || a.method === "clientCredentials", validate: (v) => urlProblem(v.trim()),
    },
    { key: "username", kind: "input", title: "Username", placeholder: "ada@acme.com", when: is("password", "jwt"), validate: required("username") },
    { key: "password", kind: "input", title: "Password", password: true, when: is("password"), validate: required("password") },
    { key: "securityToken", kind: "input", title: "Security token", prompt: "Leave empty when your IP range is trusted", password: true, optional: true, when: is("password") },
    { key: "clientId", kind: "input", title: "Consumer key", prompt: "The connected app's consumer key (default from the crm.oauth.clientId setting)", when: is("browser", "device", "password", "clientCredentials", "jwt"), validate: required("consumer key") },
    { key: "clientSecret", kind: "input", title: "Consumer secret", password: true, when: is("password", "clientCredentials"), validate: required("consumer secret") },
    { key: "privateKeyFile", kind: "file", title: "Private key file (PEM)", when: is("jwt"), fileFilters: { "PEM private key": ["pem", "key"] } },
    { key: "instanceUrl", kind: "input", title: "Instance URL", placeholder: "https://acme.my.salesforce.com", when: is("accessToken"), validate: (v) => urlProblem(v.trim()) },
    { key: "accessToken", kind: "input", title: "Access token", password: true, when: is("accessToken"), validate: required("access token") },
    { key: "helperFile", kind: "file", title: "Helper file", when: is("helper"), fileFilters: { "Helper files": ["json", "yaml", "yml"] } },
    { key: "cliOrg", kind: "pick", title: "Org signed in with the Salesforce CLI", when: is("sfCli"), items: () => cliOrgs() },
    { key: "alias", kind: "input", title: "Name for this org", prompt: "How the org is shown in VS Code (leave empty for the username)", optional: true },
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
      throw new TypeError(`${String(method)} needs a browser or CLI round trip, not just answers`);
  }
  return { method, alias, loginUrl: connection.endpoint_url, connection };
}
