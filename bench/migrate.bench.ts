/**
 * `npm run bench:migrate`: 100,000 Accounts, 300,000 Contacts and 200,000 Cases moved by a plan from one emulator
 * to another (each in a process of its own), every row and lookup then checked in the target by a query per
 * object. The run is the shipped library in a process of its own (migrate-run.cjs). Against it: the same Bulk jobs run bare (the run's three exports from the source, as its statements,
 * and the three imports into a fresh target), and the same migration at a tenth of the size, for how memory grows with the rows. Each
 * size's memory is measured three ways: a script's main thread as Node starts it, a thread bounded as crm-data runs its
 * commands, and a script started with the heap flags docs/migration.md gives. Figures go to bench/results/migrate.json and the README.
 */
import { Crm } from "../src/client";
import "../src/client/bulk";
import "../src/workflows/migration";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { startEmulatorProcess } from "./emulator-process";
import { recordResults } from "./readme";

const SIZES = { Account: 100_000, Contact: 300_000, Case: 200_000 };
const PLAN = { objects: [{ object: "Account", match: ["Name"] }, { object: "Contact", match: ["Email"] }, { object: "Case", match: ["Subject"] }] };
const poll = { intervalMs: 200, maxIntervalMs: 1_000 };
const fmt = (n: number) => n.toLocaleString("en-US");

async function client(helperFile: string): Promise<Crm> {
  return Crm.create({ helper: helperFile });
}

/** Rows of one object as CSV text, a few thousand at a time (the source is filled as a stream). */
async function* csv(header: string, count: number, line: (i: number) => string): AsyncGenerator<string> {
  yield `${header}\n`;
  for (let i = 0; i < count; i += 5_000) {
    const lines: string[] = [];
    for (let k = i; k < Math.min(count, i + 5_000); k++) lines.push(line(k));
    yield `${lines.join("\n")}\n`;
  }
}

/** Fills the source: accounts, their contacts (contact j under account j mod A), cases (case k of contact k mod C). */
async function fill(crm: Crm, scale: number): Promise<void> {
  const [a, c, k] = [SIZES.Account * scale, SIZES.Contact * scale, SIZES.Case * scale];
  const ids: Record<string, string[]> = { Account: new Array(a), Contact: new Array(c) };
  const keep = (object: string, pattern: RegExp, field: string) => (kind: string, row: Record<string, string | null>) => {
    if (kind === "successful") ids[object]![Number(pattern.exec(row[field]!)![1])] = row.sf__Id!;
  };
  await crm.bulk.ingest({ object: "Account", operation: "insert" }, csv("Name,Industry,Phone", a, (i) => `Acct ${i},Technology,+1 555 ${String(i).padStart(6, "0")}`), { poll, onResult: keep("Account", /^Acct (\d+)$/, "Name") });
  await crm.bulk.ingest({ object: "Contact", operation: "insert" }, csv("LastName,Email,AccountId", c, (j) => `Person ${j},c${j}@bench.example,${ids.Account![j % a]}`), { poll, onResult: keep("Contact", /^c(\d+)@/, "Email") });
  await crm.bulk.ingest({ object: "Case", operation: "insert" }, csv("Subject,Status,ContactId,AccountId", k, (n) => `Case ${n},New,${ids.Contact![n % c]},${ids.Account![(n % c) % a]}`), { poll });
}

/** Checks every row and lookup in the target: one Bulk query per object. */
async function verify(crm: Crm, scale: number): Promise<{ object: string; rows: number; wrong: number }[]> {
  const [a, c] = [SIZES.Account * scale, SIZES.Contact * scale];
  const checks: [string, string, (r: Record<string, string | null>) => boolean][] = [
    ["Account", "SELECT Name, Phone FROM Account", (r) => /^Acct \d+$/.test(r.Name!) && r.Phone === `+1 555 ${r.Name!.slice(5).padStart(6, "0")}`],
    ["Contact", "SELECT Email, Account.Name FROM Contact", (r) => r["Account.Name"] === `Acct ${Number(/^c(\d+)@/.exec(r.Email!)![1]) % a}`],
    ["Case", "SELECT Subject, Contact.Email, Account.Name FROM Case", (r) => {
      const n = Number(r.Subject!.slice(5));
      return r["Contact.Email"] === `c${n % c}@bench.example` && r["Account.Name"] === `Acct ${(n % c) % a}`;
    }],
  ];
  const out = [];
  for (const [object, soql, ok] of checks) {
    let rows = 0;
    let wrong = 0;
    for await (const r of crm.bulk.query(soql, { poll })) {
      rows++;
      if (!ok(r)) wrong++;
    }
    out.push({ object, rows, wrong });
  }
  return out;
}

const run = promisify(execFile);

/**
 * The run in a process of its own (bench/migrate-run.cjs, the shipped library), Node started with `nodeFlags`: its
 * record, and its peak RSS (the kernel's high-water mark).
 */
async function runAlone(nodeFlags: string[], ...argv: string[]): Promise<{ peakRssMB: number; result?: { ms: number; state: string; error?: string; requests: number; objects: { object: string; inserted: number; failed: number; via: string[] }[] } }> {
  const answer = await run(process.execPath, [...nodeFlags, "--require", path.resolve("bench/peak-rss.cjs"), path.resolve("bench/migrate-run.cjs"), ...argv], { maxBuffer: 1 << 24, timeout: 3_600_000 });
  const { peakRssMB } = JSON.parse(answer.stderr.trim().split("\n").at(-1)!) as { peakRssMB: number };
  const last = answer.stdout.trim().split("\n").at(-1);
  return { peakRssMB, ...(last ? { result: JSON.parse(last) } : {}) };
}

/** Node's options that bound a script's heap as crm-data bounds its command's thread (docs/migration.md names them). */
const SCRIPT_HEAP_FLAGS = ["--max-old-space-size=1024", "--max-semi-space-size=2"];

async function migrate(scale: number) {
  // Ten times the size: each emulator holds millions of records (a few hundred bytes each, with the jobs' results).
  const emulator = () => startEmulatorProcess("empty", { heapMB: scale > 1 ? 16_384 : undefined });
  const [from, to] = await Promise.all([emulator(), emulator()]);
  try {
    const [source, target] = await Promise.all([client(from.helperFile), client(to.helperFile)]);
    await fill(source, scale);
    const served = async (url: string) => ((await (await fetch(`${url}/__emulator/requests`)).json()) as { total: number }).total;
    const [sourceBefore, targetBefore] = await Promise.all([served(from.url), served(to.url)]);
    // What loading the library takes: the run's growth is measured from it.
    const startup = (await runAlone([], "--startup")).peakRssMB;
    const alone = await runAlone([], from.helperFile, to.helperFile, JSON.stringify(PLAN), JSON.stringify(poll));
    const ran = alone.result!;
    const requests = (await served(from.url)) - sourceBefore + (await served(to.url)) - targetBefore;
    const checked = await verify(target, scale);
    target.close();
    to.stop(); // checked: its millions of rows need not stay beside the next targets
    /** The same run into a fresh target, its heap bounded: its peak RSS growth. */
    const bounded = async (label: string, nodeFlags: string[], ...mode: string[]): Promise<number> => {
      const fresh = await emulator();
      try {
        const boundedStartup = (await runAlone(nodeFlags, ...mode, "--startup")).peakRssMB;
        const ranBounded = await runAlone(nodeFlags, ...mode, from.helperFile, fresh.helperFile, JSON.stringify(PLAN), JSON.stringify(poll));
        if (ranBounded.result?.state !== "complete") throw new Error(`the run ${label} ended ${ranBounded.result?.state}: ${ranBounded.result?.error ?? ""}`);
        return ranBounded.peakRssMB - boundedStartup;
      } finally {
        fresh.stop();
      }
    };
    // As crm-data runs its commands (a thread whose heap is bounded), and a script's main thread given the same bounds.
    const threadPeakRssGrowthMB = await bounded("in a thread", [], "--thread");
    // At ten times the size the script's flags are not run again (the nightly's hour goes to the three that decide).
    const flagsPeakRssGrowthMB = scale > 1 ? undefined : await bounded("with the heap flags", SCRIPT_HEAP_FLAGS);
    // The Bulk jobs of the run, bare: the three exports from the source, the three imports into a fresh target.
    let bare: number | undefined;
    if (scale >= 1) {
      const fresh = await emulator();
      try {
        const other = await client(fresh.helperFile);
        // The exports as the run sent them (its statements, from the source's log), the imports as the source was filled.
        const { bulkQueries } = (await (await fetch(`${from.url}/__emulator/requests?from=0`)).json()) as { bulkQueries: string[] };
        const began = performance.now();
        for (const soql of bulkQueries) for await (const _row of source.bulk.query(soql, { poll })) void _row;
        await fill(other, scale);
        bare = performance.now() - began;
        other.close();
      } finally {
        fresh.stop();
      }
    }
    source.close();
    if (ran.state !== "complete") throw new Error(`the run ended ${ran.state}: ${ran.error ?? ""}`);
    return { scale, state: ran.state, ms: ran.ms, peakRssGrowthMB: alone.peakRssMB - startup, threadPeakRssGrowthMB, flagsPeakRssGrowthMB, requests, targetRequests: ran.requests, objects: ran.objects, checked, bareBulkMs: bare };
  } finally {
    from.stop();
    to.stop();
  }
}

/**
 * The nightly size (6,000,000 rows) runs when asked, alone: `BENCH_MIGRATE_NIGHTLY=1 npm run bench:migrate`. Its figures
 * join those of the last run of the two smaller sizes (kept in bench/results/migrate.json), and a run of those keeps the
 * last nightly's: each run is dated in the table.
 */
const NIGHTLY = process.env.BENCH_MIGRATE_NIGHTLY === "1";
const RESULTS = "bench/results/migrate.json";
type Run = Awaited<ReturnType<typeof migrate>> & { date?: string };

async function main() {
  const dated = async (scale: number): Promise<Run> => ({ ...(await migrate(scale)), date: new Date().toISOString().slice(0, 10) });
  const last = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as { tenth: Run; full: Run; nightly?: Run }) : undefined;
  const tenth = NIGHTLY && last ? last.tenth : await dated(0.1);
  console.log("tenth", JSON.stringify(tenth));
  const full = NIGHTLY && last ? last.full : await dated(1);
  console.log("full", JSON.stringify(full));
  const nightly = NIGHTLY ? await dated(10) : last?.nightly;
  if (nightly) console.log("nightly", JSON.stringify(nightly));
  const rows = Object.values(SIZES).reduce((n, v) => n + v, 0);
  const exact = (r: Run) => r.state === "complete" && r.checked.every((c) => c.wrong === 0 && c.rows === SIZES[c.object as keyof typeof SIZES] * r.scale);
  const ratio = (r: Run) => r.ms / r.bareBulkMs!;
  const runs = [tenth, full, ...(nightly ? [nightly] : [])];
  const sized = (r: Run) => (r.scale === 1 ? "full" : r.scale < 1 ? "a tenth" : "ten times");
  const table = [
    "| run | rows | wall time | the same Bulk jobs bare | API requests | peak RSS growth | run on |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...runs.map((r) => `| ${sized(r)} | ${fmt(rows * r.scale)} | ${(r.ms / 1000).toFixed(1)} s | ${r.bareBulkMs ? `${(r.bareBulkMs / 1000).toFixed(1)} s` : "—"} | ${fmt(r.requests)} (${fmt(r.targetRequests)} to the target) | ${r.peakRssGrowthMB} MB | ${r.date ?? "—"} |`),
  ];
  const measured = runs.filter((r) => r.scale >= 1);
  const checks = measured.map((r) => r.checked.map((c) => `${c.object} ${fmt(c.rows)} rows, ${fmt(c.wrong)} wrong`).join("; ")).join(" — ");
  const withFlags = runs.filter((r) => r.flagsPeakRssGrowthMB !== undefined);
  const body = `${table.join("\n")}

- exact: every row and every lookup correct in the target, checked by a Bulk query per object: **${measured.every(exact) ? "met" : "not met"}** (${checks})
- wall time within 1.2× of the same Bulk jobs run bare one after another: **${measured.every((r) => ratio(r) <= 1.2) ? "met" : "not met"}** (${measured.map((r) => `${(r.ms / 1000).toFixed(1)} s against ${(r.bareBulkMs! / 1000).toFixed(1)} s at ${fmt(rows * r.scale)} rows: ${ratio(r).toFixed(2)}×`).join("; ")})
- peak RSS growth at most 100 MB at 600,000 rows${nightly ? " and at 6,000,000" : " (6,000,000 rows: the nightly run, `BENCH_MIGRATE_NIGHTLY=1`)"}, as \`crm-data\` runs it (its command in a thread whose heap is bounded: young generation 8 MB): **${measured.every((r) => r.threadPeakRssGrowthMB <= 100) ? "met" : "not met"}** (${runs.map((r) => `${r.threadPeakRssGrowthMB} MB at ${fmt(rows * r.scale)} rows`).join(", ")})
- the same from a script, run with \`node ${SCRIPT_HEAP_FLAGS.join(" ")}\`: **${withFlags.every((r) => r.flagsPeakRssGrowthMB! <= 100) ? "met" : "not met"}** (${withFlags.map((r) => `${r.flagsPeakRssGrowthMB} MB at ${fmt(rows * r.scale)} rows`).join(", ")}${nightly ? "; not run at 6,000,000" : ""}); with Node's heap settings as they come: **${measured.every((r) => r.peakRssGrowthMB <= 100) ? "met" : "not met"}** (${runs.map((r) => `${r.peakRssGrowthMB} MB at ${fmt(rows * r.scale)} rows`).join(", ")}). Rows are streamed, a chunk gathered in a file while the org loads the one before; the source → target ID maps and the match keys seen are tables on disk, 4 MB of each in memory; the IDs the run inserts go to its file of inserted IDs, not the heap. Unbounded, V8 lets a main thread's heap grow to a multiple of what is live between its full collections

Two emulators in processes of their own; the run in a third, with the shipped library (\`bench/migrate-run.cjs\`), its peak RSS growth the kernel's high-water mark less that of loading the library; Node ${process.version}.`;
  recordResults("migrate", { tenth, full, ...(nightly ? { nightly } : {}) }, "Migration: 600,000 records between two orgs", body);
  console.log(body);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
