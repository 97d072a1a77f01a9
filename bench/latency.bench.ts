/**
 * `npm run bench:latency [-- --latency 100]`: each user action in a real VS Code (code-server) against the
 * emulator with a fixed added latency per request, as a real org 50–250 ms away. Per action: time to first
 * useful paint and to completion, to the first request the org received, the requests sent, and the sequential round trips (from the emulator's
 * request timings) — in all and up to the first paint, against the floor the API allows. The same requests
 * are then sent as a plain sequence of jsforce calls, one at a time, at the same latency: the ratio says what
 * parallel and composite requests save. Written to bench/results/latency.json and the README.
 */
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { Connection } from "@jsforce/jsforce-node";
import type { Frame, Page } from "playwright-core";
import { recordResults } from "./readme";
import { DEMO, startEmulator, type Emulator, type LoggedRequest } from "../src/demo-org";
import { sequentialRounds } from "../test/helpers/emulator";
import { ensureHost, openWorkbench, startCodeServer } from "../test/host/harness";
import { Driver } from "../test/host/workbench";

const { values } = parseArgs({ options: { latency: { type: "string", default: "100" } } });
const LATENCY_MS = Number(values.latency);
if (!Number.isInteger(LATENCY_MS) || LATENCY_MS < 0) throw new RangeError(`--latency must be a whole number of milliseconds, got '${values.latency}'`);
const QUIET_MS = 600;

interface Step {
  action: string;
  /** The fewest sequential round trips the API allows before the first useful paint, and why. */
  floor: number;
  floorWhy: string;
  /** What the user did before (not timed; its requests are not counted). */
  prepare?: () => Promise<void>;
  /** The user's gesture: the clock starts just before it. */
  start: () => Promise<void>;
  /** Resolves when the first useful thing shows. */
  painted: () => Promise<void>;
  /** Resolves when everything the action shows is there (default: the first paint). */
  done?: () => Promise<void>;
}

interface Measured {
  action: string;
  /** From the gesture to the first request the org received (null: the action sends nothing). */
  firstRequestMs: number | null;
  firstPaintMs: number;
  doneMs: number;
  /** How long at least one request was on its way (the gaps in between are VS Code's or the user's time). */
  networkMs: number;
  requests: number;
  rounds: number;
  roundsToPaint: number;
  floor: number;
  floorWhy: string;
  withinGoal: boolean;
  sent: string[];
  jsforceMs: number;
  /** jsforce's time over ours; null when the action sends nothing. */
  ratio: number | null;
}

/** The length of the union of the requests' [arrived, answered] intervals. */
function busyTime(log: LoggedRequest[]): number {
  let total = 0;
  let end = -Infinity;
  for (const r of [...log].sort((a, b) => a.receivedAt - b.receivedAt)) {
    const answered = r.answeredAt ?? r.receivedAt;
    if (answered <= end) continue;
    total += answered - Math.max(r.receivedAt, end);
    end = answered;
  }
  return total;
}

const pathOf = (r: LoggedRequest) => `${r.method} ${r.path.replace(/^\/services\/data\/v[\d.]+/, "")}`;

/** Waits until no request is on its way and none has arrived for a while. */
async function quiet(emulator: Emulator, page: Page): Promise<void> {
  let seen = -1;
  let still = 0;
  while (still < QUIET_MS) {
    const pending = emulator.requests.some((r) => r.answeredAt === undefined);
    if (emulator.requests.length === seen && !pending) still += 100;
    else still = 0;
    seen = emulator.requests.length;
    await page.waitForTimeout(100);
  }
}

async function measure(emulator: Emulator, page: Page, step: Step): Promise<Omit<Measured, "jsforceMs" | "ratio"> & { log: LoggedRequest[] }> {
  await step.prepare?.();
  await quiet(emulator, page);
  const since = emulator.requests.length;
  const t0 = performance.now();
  await step.start();
  await step.painted();
  const paintAt = performance.now();
  await step.done?.();
  const shownAt = performance.now();
  await quiet(emulator, page);
  const log = emulator.requests.slice(since);
  const lastAnswer = Math.max(0, ...log.map((r) => r.answeredAt ?? 0));
  const roundsToPaint = sequentialRounds(log.filter((r) => (r.answeredAt ?? Infinity) <= paintAt));
  const result = {
    action: step.action, firstRequestMs: log.length ? Math.round(Math.min(...log.map((r) => r.receivedAt)) - t0) : null, firstPaintMs: Math.round(paintAt - t0), doneMs: Math.round(Math.max(shownAt, lastAnswer) - t0),
    networkMs: Math.round(busyTime(log)),
    requests: log.length, rounds: sequentialRounds(log), roundsToPaint, floor: step.floor, floorWhy: step.floorWhy,
    withinGoal: roundsToPaint <= step.floor + 1, sent: log.map(pathOf), log,
  };
  console.log(log.map((r) => `    ${pathOf(r)} ${Math.round(r.receivedAt - t0)}–${Math.round((r.answeredAt ?? 0) - t0)} ms`).join("\n"));
  console.log(`${step.action}: paint ${result.firstPaintMs} ms (${roundsToPaint} rounds, floor ${step.floor}), done ${result.doneMs} ms, ${result.requests} requests in ${result.rounds} rounds`);
  return result;
}

/** The same requests as a plain sequence of jsforce calls, one at a time (a sign-in as jsforce's login). */
async function jsforceSequence(emulator: Emulator, log: LoggedRequest[]): Promise<number> {
  const options = { loginUrl: emulator.url, version: "62.0", oauth2: { loginUrl: emulator.url, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, redirectUri: "http://localhost/cb" } };
  let conn = new Connection(options);
  await conn.login(DEMO.username, DEMO.password + DEMO.securityToken);
  emulator.setFault("latencyMs", LATENCY_MS);
  const started = performance.now();
  try {
    for (const r of log) {
      if (r.path === "/services/oauth2/token") {
        // jsforce signs in with the same grant, its own way.
        conn = new Connection(options);
        await conn.login(DEMO.username, DEMO.password + DEMO.securityToken);
        continue;
      }
      const headers: Record<string, string> = { "content-type": "application/json" };
      for (const name of ["if-modified-since", "if-unmodified-since", "sforce-query-options"]) if (typeof r.headers[name] === "string") headers[name] = r.headers[name] as string;
      // An answer the org refuses now (a cursor already read, a write already made) still cost its round trip.
      await conn.request({ method: r.method as "GET", url: `${r.path}${r.query}`, body: r.body || undefined, headers }).catch(() => undefined);
    }
    return Math.round(performance.now() - started);
  } finally {
    emulator.setFault("latencyMs", 0);
  }
}

/** Opens a tree row by its twistie as soon as it shows (one click, as a person does; no waiting after). */
async function openRow(ui: Driver, view: string, label: string): Promise<void> {
  const row = ui.rowIn(view, label);
  await row.waitFor({ timeout: 60_000 });
  if ((await row.getAttribute("aria-expanded")) !== "true") await row.locator(".monaco-tl-twistie").click({ force: true });
}

/** The frame of a webview once it shows this text. */
const frameShowing = (ui: Driver, text: string | RegExp, timeout = 60_000): Promise<Frame> => ui.webview(text, timeout);

async function main() {
  const host = ensureHost();
  if (!host.ok) throw new Error(`the host cannot be set up: ${host.reason}`);
  execFileSync(process.execPath, ["esbuild.mjs"], { stdio: "inherit" });
  const emulator = await startEmulator({ port: 0, seed: "demo" });
  // Five articles a page, so that every Knowledge group fits in the view.
  const server = await startCodeServer(host.codeServer!, { settings: { "crm.knowledge.pageSize": 5, "files.autoSave": "off" } });
  const workbench = await openWorkbench(server, { extensionPath: process.cwd() });
  const page = workbench.page;
  const ui = new Driver(page);
  const results: Measured[] = [];
  try {
    // Set-up at loopback speed: the demo org added, the describe cache empty, then a new window (every
    // session cold, as when VS Code starts) with the Explorer in front.
    await ui.addDemoOrg(emulator.url);
    await ui.runCommand("CRM: Clear Describe Cache");
    // Every Knowledge group expanded once, as a user leaves them; the window restores that after the reload.
    await ui.collapsePane("Orgs");
    await ui.expandPane("Knowledge");
    for (const group of ["Published", "Archived"]) {
      await ui.scrollTree("Knowledge", "End");
      await ui.expandRow("Knowledge", group);
    }
    await ui.expandPane("Orgs");
    for (const pane of ["Objects", "Knowledge", "Feeds", "Queries"]) await ui.collapsePane(pane);
    await ui.openContainer("Explorer");
    await ui.reloadWindow();
    emulator.setFault("latencyMs", LATENCY_MS);

    const article = emulator.seeded.store.liveRecords("Knowledge__kav").find((v) => /rtaImage/.test(String(v.Answer__c)) && v.PublishStatus === "Online")!;
    const contact = emulator.seeded.store.liveRecords("Contact")[7]!;
    // An article row: its description starts with the article number.
    const knowledgeRows = async (atLeast: number) => {
      await page.waitForFunction(({ n }) => {
        const pane = [...document.querySelectorAll(".part.sidebar .pane")].find((p) => p.querySelector(".pane-header")?.getAttribute("aria-label")?.includes("Knowledge"));
        return [...(pane?.querySelectorAll(".monaco-list-row .label-description") ?? [])].filter((d) => /^#/.test(d.textContent ?? "")).length >= n;
      }, { n: atLeast }, { timeout: 60_000, polling: 50 });
    };
    let resultsFrame: Frame | undefined;
    const steps: Step[] = [
      {
        action: "Open the CRM view with an org", floor: 0, floorWhy: "the org list is held locally",
        start: () => ui.openContainer("CRM"), painted: () => ui.rowIn("Orgs", "Demo org").waitFor({ timeout: 60_000 }),
      },
      {
        action: "Expand the Queries view (no request: VS Code's own first rendering of a view)", floor: 0, floorWhy: "the library is local",
        prepare: () => ui.collapsePane("Orgs"),
        start: () => ui.expandPane("Queries"),
        painted: () => ui.rowIn("Queries", "Library").waitFor({ timeout: 60_000 }),
      },
      {
        action: "Expand Knowledge, every group", floor: 2, floorWhy: "sign-in | the groups' first pages",
        prepare: () => ui.collapsePane("Queries"),
        start: async () => {
          await ui.expandPane("Knowledge");
          // Expanded before the reload, the groups come back expanded; otherwise they are opened here.
          for (const group of ["Drafts", "Published", "Archived"]) await openRow(ui, "Knowledge", group);
        },
        painted: () => knowledgeRows(1),
      },
      {
        action: "Open Article Details with images", floor: 1, floorWhy: "the record",
        prepare: async () => {
          await ui.viewAction("Knowledge", "Filter Articles by Title");
          await ui.answer("Filter articles by title", String(article.Title));
          await ui.rowIn("Knowledge", String(article.Title)).waitFor({ timeout: 60_000 });
        },
        start: () => ui.rowIn("Knowledge", String(article.Title)).click(),
        painted: async () => void (await frameShowing(ui, new RegExp(`${String(article.Title)}[\\s\\S]*Version ID`))),
        done: async () => {
          const frame = await frameShowing(ui, String(article.Title));
          await frame.locator(".rich-text img[src^='data:']").first().waitFor({ timeout: 60_000 });
        },
      },
      {
        action: "Open Org Info", floor: 1, floorWhy: "the limits and the user together",
        // The gesture is Enter on the command (typing it into the palette is the person's, not the product's, time).
        prepare: () => ui.typeCommand("CRM: Show Org Info (Limits and User)"),
        start: () => ui.pressEnterOnCommand("CRM: Show Org Info (Limits and User)"), painted: async () => void (await frameShowing(ui, "Daily API Requests")),
      },
      {
        action: "Expand Objects and one object", floor: 2, floorWhy: "the objects | the object's describe",
        prepare: () => ui.collapsePane("Knowledge"),
        start: async () => {
          await ui.expandPane("Objects");
          await openRow(ui, "Objects", "Standard");
          await openRow(ui, "Objects", "Contact");
        },
        painted: async () => void (await ui.waitForRow("Objects", "Last Name")),
      },
      {
        action: "Complete a field in a SOQL document (cold cache)", floor: 1, floorWhy: "the objects and the FROM object's describe together",
        prepare: async () => {
          await ui.runCommand("CRM: Clear Describe Cache");
          await ui.runCommand("CRM: New SOQL Query");
          await ui.statusBarText(/^SOQL$/);
        },
        start: async () => {
          await ui.typeInEditor("SELECT  FROM Case");
          await page.keyboard.press("Control+Home");
          for (let i = 0; i < "SELECT ".length; i++) await page.keyboard.press("ArrowRight");
          await page.keyboard.press("Control+Space");
        },
        painted: () => page.locator(".editor-widget.suggest-widget .monaco-list-row .label-name", { hasText: /^CaseNumber$/ }).first().waitFor({ timeout: 60_000 }),
      },
      {
        action: "Run a query, then Fetch All of 10,000 rows", floor: 1, floorWhy: "the first page (the other four each need the one before)",
        prepare: async () => {
          await page.keyboard.press("Escape");
          await ui.runCommand("CRM: New SOQL Query");
          await ui.statusBarText(/^SOQL$/);
          await ui.typeInEditor("SELECT Id, Subject, Status FROM Task LIMIT 10000");
          await page.locator(".part.editor .codelens-decoration", { hasText: "Demo org" }).first().waitFor({ timeout: 60_000 });
        },
        start: () => page.locator(".part.editor .codelens-decoration a", { hasText: /^\s*Run$/ }).first().click(),
        painted: async () => {
          resultsFrame = await frameShowing(ui, /of 10,?000 rows/);
        },
        done: async () => {
          await resultsFrame!.locator("vscode-button", { hasText: "Fetch All" }).click();
          await resultsFrame!.locator(".status", { hasText: /10,?000 of 10,?000 rows/ }).waitFor({ timeout: 120_000 });
        },
      },
      {
        action: "Post to a feed", floor: 1, floorWhy: "the post (its answer is the new item)",
        prepare: async () => {
          await ui.collapsePane("Objects");
          await ui.expandPane("Feeds");
          const news = ui.rowIn("Feeds", "My News Feed");
          await news.hover();
          await news.locator('.action-label[aria-label^="Post to Feed"]').click();
          const input = (await ui.quickInput("Post")).locator(".quick-input-box input");
          await input.fill("Latency bench post");
        },
        start: () => page.keyboard.press("Enter"),
        painted: async () => void (await ui.waitForRow("Feeds", "Ada Lovelace: Latency bench post")),
      },
      {
        action: "Save a record", floor: 1, floorWhy: "the update and the read of the saved record together",
        prepare: async () => {
          await ui.runCommand("CRM: Open Record in Editor…");
          await ui.answer("Open a record in an editor", String(contact.Id));
          await page.locator(".part.editor .tab.active", { hasText: String(contact.Name) }).waitFor({ timeout: 60_000 });
          await page.waitForFunction(() => (document.querySelector(".part.editor .editor-group-container.active .view-lines")?.textContent ?? "").includes("LastName"), undefined, { timeout: 60_000 });
          // Find and Replace: the title gets a suffix.
          await page.locator(".part.editor .editor-group-container.active .monaco-editor").first().click();
          await page.keyboard.press("Control+H");
          const find = page.locator(".editor-widget.find-widget");
          await find.locator(".find-part textarea, .find-part input").first().fill(`"Title": "${String(contact.Title)}"`);
          await find.locator(".replace-part textarea, .replace-part input").first().fill(`"Title": "${String(contact.Title)} (bench)"`);
          await page.keyboard.press("Control+Alt+Enter");
          await page.keyboard.press("Escape");
          await page.locator(".part.editor .tab.dirty", { hasText: String(contact.Name) }).waitFor({ timeout: 10_000 });
        },
        start: () => page.keyboard.press("Control+S"),
        painted: async () => {
          await page.locator(".part.editor .tab.dirty", { hasText: String(contact.Name) }).waitFor({ state: "detached", timeout: 60_000 });
        },
      },
    ];
    for (const step of steps) {
      const measured = await measure(emulator, page, step);
      const jsforceMs = await jsforceSequence(emulator, measured.log);
      emulator.setFault("latencyMs", LATENCY_MS);
      const { log: _log, ...rest } = measured;
      results.push({ ...rest, jsforceMs, ratio: measured.networkMs ? Math.round((jsforceMs / measured.networkMs) * 10) / 10 : null });
    }
  } catch (err) {
    await ui.screenshot("bench-latency-failed").catch(() => undefined);
    throw err;
  } finally {
    await workbench.close();
    await server.stop();
    await emulator.close();
  }
  write(results);
}

function write(results: Measured[]) {
  const table = [
    "| action | first request | first paint | done | requests | round trips: all (to paint / floor) | network | jsforce, one at a time | ratio |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...results.map((r) => `| ${r.action} | ${r.firstRequestMs === null ? "—" : `${r.firstRequestMs} ms`} | ${r.firstPaintMs} ms | ${r.doneMs} ms | ${r.requests} | ${r.rounds} (${r.roundsToPaint} / ${r.floor}) | ${r.networkMs} ms | ${r.requests ? `${r.jsforceMs} ms` : "—"} | ${r.ratio === null ? "—" : `${r.ratio}×`} |`),
  ].join("\n");
  const date = new Date().toISOString();
  const within = results.filter((r) => r.withinGoal).length;
  recordResults("latency", { date, latencyMs: LATENCY_MS, host: "code-server 4.100.3 (VS Code 1.100.3)", results }, "Latency: round trips per action",
    `Written by \`npm run bench:latency\` (${date}): each action in a real VS Code (code-server) against the emulator with **${LATENCY_MS} ms** added to every request, the window reloaded first so every session starts cold. "Round trips" counts requests each sent only after an earlier answer (from the emulator's timings); "to paint" counts those answered before the first useful paint, against the floor the API allows; the goal is at most one above it — met by ${within} of ${results.length} actions. "Network" is how long at least one request was on its way; jsforce sends the same requests one at a time at the same latency, and the ratio is its time over ours. Paint and done times also hold VS Code's own work (the palette, a view's first rendering in a new window, a webview starting), which no request count changes.\n\n${table}`);
  console.log(table);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
