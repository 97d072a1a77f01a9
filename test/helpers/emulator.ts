/** Test helpers: an emulator per test file (stopped by the file that started it) and demo clients. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { after, before } from "node:test";
import { pathToFileURL } from "node:url";
import { Crm, type CrmOptions } from "../../src/client";
import { startEmulator, type Emulator, type EmulatorOptions, type LoggedRequest } from "../../src/demo-org";

/** Starts an emulator before the file's tests and stops it after them. */
export function useEmulator(options: EmulatorOptions = {}): () => Emulator {
  let emulator: Emulator | undefined;
  before(async () => {
    emulator = await startEmulator({ port: 0, ...options });
  });
  after(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error("emulator not started yet");
    return emulator;
  };
}

/** Username-password options for the emulator's demo admin. */
export function demoOptions(emu: Emulator, extra: Partial<CrmOptions> = {}): CrmOptions {
  const c = emu.credentials;
  return {
    endpointUrl: c.loginUrl, clientId: c.clientId, clientSecret: c.clientSecret, username: c.username, password: c.password,
    securityToken: c.securityToken, retry: { baseDelayMs: 1 }, ...extra,
  };
}

/** `track(crm)` closes a client after the file's tests, even when an assertion fails before its own close. */
export function closedAfterTests(): (crm: Crm) => Crm {
  const opened: Crm[] = [];
  after(() => opened.forEach((crm) => crm.close()));
  return (crm) => {
    opened.push(crm);
    return crm;
  };
}

/** A connected client for the demo admin; closed after the file's tests. */
export async function demoClient(emu: Emulator, extra: Partial<CrmOptions> = {}): Promise<Crm> {
  const crm = await Crm.create(demoOptions(emu, extra));
  after(() => crm.close());
  return crm;
}

/** A bearer token for raw HTTP tests of the emulator. */
export async function demoToken(emu: Emulator): Promise<string> {
  const c = emu.credentials;
  const res = await fetch(`${emu.url}/services/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password + c.securityToken }),
  });
  const body = (await res.json()) as { access_token: string };
  return body.access_token;
}

/** Raw HTTP against the emulator's data API with a token. */
export async function api(emu: Emulator, token: string, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${emu.url}${path.startsWith("/services") ? path : `/services/data/v62.0${path}`}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Moves the emulator's clock on, as time passing between two people's edits would (dates decide what is out of date). */
export function advanceClock(emu: Emulator, ms: number): void {
  const store = emu.seeded.store;
  const before = store.clock;
  store.clock = () => before() + ms;
}

/**
 * How many round trips one after another the requests took: the longest chain of requests each sent after the
 * previous one's answer (requests on their way together count once). A count, read from the emulator's log.
 */
export function sequentialRounds(requests: { receivedAt: number; answeredAt?: number }[]): number {
  const sorted = [...requests].sort((a, b) => (a.answeredAt ?? a.receivedAt) - (b.answeredAt ?? b.receivedAt));
  const chain: number[] = [];
  sorted.forEach((r, i) => {
    chain[i] = 1 + Math.max(0, ...sorted.slice(0, i).map((p, j) => ((p.answeredAt ?? p.receivedAt) <= r.receivedAt ? chain[j]! : 0)));
  });
  return Math.max(0, ...chain);
}

/**
 * The requests `work` sent, with latency added meanwhile so that requests on their way together overlap in the
 * log as they do on a real network (for `sequentialRounds`). The latency is a real org's, not a token one: on a
 * busy machine the event loop can take tens of milliseconds between two requests sent together, and with a
 * shorter wait the second would arrive after the first was answered and be counted as a round trip of its own.
 */
export async function sentDuring(emu: Emulator, work: () => Promise<unknown>, latencyMs = 150): Promise<LoggedRequest[]> {
  const since = emu.requests.length;
  emu.setFault("latencyMs", latencyMs);
  try {
    await work();
  } finally {
    emu.setFault("latencyMs", 0);
  }
  return emu.requests.slice(since);
}

/** The writes the emulator has answered so far (requests other than GET, the sign-in not counted): "nothing was sent" is this number unchanged. */
export const writesSeen = (emu: Emulator) => emu.requests.filter((r) => r.method !== "GET" && !r.path.includes("/oauth2/")).length;

const root = path.resolve(__dirname, "../..");
/** tsx's loader by its file, for a child process whose working folder has no tsx installed. */
export const TSX_LOADER = pathToFileURL(path.join(root, "node_modules", "tsx", "dist", "loader.mjs")).href;

/**
 * One of our command-line tools (`src/cli/<tool>.ts`, or a `script` of the tests' own) run as a person runs it, in
 * a process of its own, killed with SIGKILL once the org has carried out its `at`-th write that `counts` — before
 * that write's answer goes out.
 */
export async function killedAtWrite(emu: Emulator, run: { tool: string; script?: string; argv: string[]; cwd: string; env?: Record<string, string>; at: number; counts?: (path: string) => boolean }): Promise<void> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, run.script ?? path.join(root, "src", "cli", `${run.tool}.ts`), ...run.argv], { cwd: run.cwd, env: { PATH: process.env.PATH ?? "", ...run.env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  let seen = 0;
  emu.afterWrite = async ({ path: written }) => {
    if (!(run.counts?.(written) ?? true) || ++seen !== run.at) return;
    child.kill("SIGKILL");
    await once(child, "exit");
  };
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  emu.afterWrite = undefined;
  assert.equal(signal, "SIGKILL", `${run.tool} was killed at write ${run.at} (it ended with ${code} after ${seen} writes: ${stderr})`);
}
