/**
 * A knowledge folder as pages a reviewer opens from a pull request's artifact: each article (or each one changed
 * since a git ref) as a self-contained page laid out as Article Details lays it out, its rich text sanitized by
 * the panels' own policy and its images inlined, plus an index with what changed and the check's findings.
 * The pages carry no script, and their policy (CSP) lets none run: a hostile body stays text.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { type FolderIO, type LocalArticle, readManifest } from "../workflows/knowledgeFolder";
import type { Finding } from "../workflows/knowledgeCheck";
import { IMAGE_TYPES, MAX_IMAGE_BYTES, checkRelativePath, folderImageSources, guardFolder, readLocalArticle, withImageInline, type RecordedField } from "../workflows/folderFiles";
import { escapeHtml } from "./output";
import { sanitizeRichText } from "./richText";
import { UsageError } from "./usage";


/** The look of Article Details, in the reader's light, dark or high-contrast colours. */
const STYLE = `
:root { color-scheme: light dark; --fg: #1f1f1f; --bg: #ffffff; --muted: #616161; --link: #005fb8; --line: #e5e5e5; --error: #c72e0f; --warning: #8a5b00; }
@media (prefers-color-scheme: dark) { :root { --fg: #cccccc; --bg: #1f1f1f; --muted: #9d9d9d; --link: #4daafc; --line: #3c3c3c; --error: #f85149; --warning: #cca700; } }
@media (forced-colors: active) { :root { --fg: CanvasText; --bg: Canvas; --muted: GrayText; --link: LinkText; --line: CanvasText; --error: CanvasText; --warning: CanvasText; } }
body { color: var(--fg); background: var(--bg); font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 14px; padding: 0 20px 20px; }
header h1 { font-size: 1.4em; font-weight: 600; margin: 16px 0; }
.summary { font-size: 1.05em; margin: 0 0 12px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 20px; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
h2 { font-size: 1.1em; font-weight: 600; margin: 20px 0 8px; }
.language { border-top: 1px solid var(--line); margin-top: 28px; }
.rich-text .body { line-height: 1.5; max-width: 80ch; overflow-wrap: anywhere; }
.rich-text img { max-width: 100%; } .rich-text img[data-blocked] { display: none; }
a { color: var(--link); } .rich-text a:not([href]) { color: inherit; text-decoration: none; }
.muted { color: var(--muted); }
.finding.error { color: var(--error); } .finding.warning { color: var(--warning); }
table { border-collapse: collapse; } td, th { text-align: left; padding: 4px 12px 4px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
`;

/** A whole page: no script, and a policy that runs none, loads nothing, and shows images only from data URIs. */
function page(title: string, body: string): string {
  const nonce = randomBytes(18).toString("base64");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${STYLE}</style>
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * A page's file name from its folder's name: plain characters only, whatever the folder is called. A name that
 * had to change gets a digest of the original, so two folders ("a b", "a_b") never share one page.
 */
export function pageFile(article: string): string {
  const plain = article.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  return plain === article ? `${plain}.html` : `${plain}-${createHash("sha256").update(article).digest("hex").slice(0, 10)}.html`;
}

/**
 * Writes a page into the output folder, never through a link: a link planted there (index.html pointing at a
 * file of the runner) is refused at the moment of opening (O_NOFOLLOW), not followed.
 */
async function writePage(outDir: string, file: string, html: string): Promise<void> {
  const target = path.join(outDir, file);
  let handle;
  try {
    handle = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOOP") throw new UsageError(`${target} is a symbolic link: the preview writes its pages only as files of its own. Remove the link, or give another --out.`);
    throw err;
  }
  try {
    await handle.writeFile(html);
  } finally {
    await handle.close();
  }
}

/** The rich text with the folder's own images as data URIs (PNG, JPEG, GIF of at most 1 MB), then sanitized. */
async function shownRichText(io: FolderIO, name: string, html: string): Promise<string> {
  let out = html;
  for (const source of folderImageSources(html)) {
    let file: string;
    try {
      file = checkRelativePath(`${name}/${source}`);
    } catch {
      continue;
    }
    const type = IMAGE_TYPES[/\.(\w+)$/.exec(file)?.[1]?.toLowerCase() ?? ""];
    const found = type ? await io.stat(file).catch(() => undefined) : undefined;
    if (!type || found?.type !== "file" || found.size > MAX_IMAGE_BYTES) continue;
    out = withImageInline(out, source, type, (await io.read(file))!);
  }
  return sanitizeRichText(out);
}

async function articlePage(io: FolderIO, local: LocalArticle, fields: Record<string, RecordedField>, findings: Finding[]): Promise<string> {
  const label = (field: string) => fields[field]?.label ?? field;
  const version = async (v: { fields: Record<string, unknown>; richText: Record<string, string>; facts: Record<string, unknown> }, language?: string) => {
    const facts: [string, unknown][] = [
      ["Article number", v.facts.ArticleNumber], ["Version", v.facts.VersionNumber !== undefined ? `${String(v.facts.VersionNumber)} · ${String(v.facts.PublishStatus ?? "")}` : v.facts.PublishStatus],
      ["Validation", v.fields.ValidationStatus ?? v.facts.ValidationStatus], ["Language", language ?? v.facts.Language], ["URL name", v.fields.UrlName],
      ...(!language ? [["Data categories", local.dataCategories.map((c) => c.replace("/", " › ").replace(/_/g, " ")).join(", ") || "none"] as [string, unknown]] : []),
    ];
    const plain = Object.entries(v.fields).filter(([f, value]) => !["Title", "Summary", "UrlName", "ValidationStatus"].includes(f) && value !== null && value !== undefined && value !== "");
    const sections = await Promise.all(Object.entries(v.richText).map(async ([field, html]) =>
      `<section class="rich-text" aria-label="${escapeHtml(label(field))}" data-field="${escapeHtml(field)}"><h2>${escapeHtml(label(field))}</h2><div class="body">${await shownRichText(io, local.name, html)}</div></section>`));
    return [
      language ? `<h2 class="language">${escapeHtml(String(v.fields.Title ?? local.name))} (${escapeHtml(language)})</h2>` : `<header><h1>${escapeHtml(String(v.fields.Title ?? local.name))}</h1></header>`,
      v.fields.Summary ? `<p class="summary">${escapeHtml(v.fields.Summary)}</p>` : "",
      `<dl class="facts">${[...facts, ...plain.map(([f, value]) => [label(f), value] as [string, unknown])].filter(([, value]) => value !== undefined && value !== null && value !== "").map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join("")}</dl>`,
      ...sections,
    ].join("\n");
  };
  const parts = [await version(local), ...(await Promise.all(Object.entries(local.translations).map(([language, t]) => version(t, language))))];
  const notes = findings.length ? `<h2>Check</h2><ul>${findings.map(findingItem).join("")}</ul>` : "";
  return page(String(local.fields.Title ?? local.name), `<p><a href="index.html">All articles</a></p>\n${parts.join("\n")}\n${notes}\n<p class="muted">Preview of ${escapeHtml(local.name)}: rich text sanitized as Article Details shows it; no script runs in this page.</p>`);
}

const findingItem = (f: Finding) => `<li class="finding ${f.severity}">${f.severity}: ${escapeHtml(f.file)}${f.line ? `:${f.line}` : ""} — ${escapeHtml(f.message)}</li>`;

/**
 * Git as a pipeline may run it on a folder someone else wrote: the checkout's own repository only (a folder
 * that is a repository of its own — a `.git` planted in it — is refused: its config could name commands git
 * runs), with nothing in any config able to start a program (fsmonitor, hooks, external diffs, textconv,
 * submodules).
 */
const GIT_WITHOUT_COMMANDS = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "submodule.recurse=false", "-c", "diff.external="];

/** The article folders changed since a git ref (committed, staged, in the working tree or new), by asking git about the folder. */
export async function articlesChangedSince(folder: string, ref: string): Promise<Set<string>> {
  if (!ref || ref.startsWith("-")) throw new UsageError(`--changed-since takes a git ref (a branch, tag or commit), got '${ref}'`);
  const git = (cwd: string, args: string[]) => promisify(execFile)("git", [...GIT_WITHOUT_COMMANDS, ...args], { cwd, maxBuffer: 256 * 1024 * 1024 }).then((r) => r.stdout);
  const topOf = (dir: string) => git(dir, ["rev-parse", "--show-toplevel"]).then((out) => out.trim(), () => undefined);
  const [checkout, own] = await Promise.all([topOf(path.dirname(folder)), topOf(folder)]);
  if (!own) throw new UsageError(`--changed-since: ${folder} is not in a git checkout`);
  if (checkout !== own) throw new UsageError(`--changed-since: ${folder} is a git repository of its own (it holds a .git); only the checkout's history is asked, so remove it or give the folder without it`);
  await git(folder, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`]).catch(() => {
    throw new UsageError(`--changed-since: '${ref}' is not a commit git knows in ${folder} (in CI, fetch enough history: actions/checkout with fetch-depth: 0)`);
  });
  const changed = await git(folder, ["diff", "--name-only", "--relative", "-z", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", "--end-of-options", ref, "--", "."]);
  const untracked = await git(folder, ["ls-files", "--others", "--exclude-standard", "-z", "--", "."]);
  // A file inside an article's folder names the article; the folder's own files (its record) name none.
  return new Set(`${changed}${untracked}`.split("\0").map((file) => file.split("/")).filter((parts) => parts.length > 1).map((parts) => parts[0]!));
}

export interface PreviewSummary {
  pages: number;
  /** Article folders with a page (changed ones only, with --changed-since). */
  articles: string[];
}

/** Writes the preview: a page per chosen article and index.html. Articles whose files cannot be read are listed with why. */
export async function writePreview(folder: FolderIO, names: string[], findings: Finding[], outDir: string, changed: Set<string> | undefined): Promise<PreviewSummary> {
  // The same guard as push and check: nothing is read through a link, whatever the pull request put there.
  const io = guardFolder(folder);
  if ((await lstat(outDir).catch(() => undefined))?.isSymbolicLink()) throw new UsageError(`--out ${outDir} is a symbolic link: give the preview a folder of its own.`);
  await mkdir(outDir, { recursive: true });
  const fields = (await readManifest(io).catch(() => undefined))?.fields ?? {};
  const chosen = names.filter((n) => !changed || changed.has(n));
  const rows: string[] = [];
  for (const name of chosen) {
    const own = findings.filter((f) => f.article === name);
    let title = name;
    try {
      const local = await readLocalArticle(io, name);
      title = String(local.fields.Title ?? name);
      await writePage(outDir, pageFile(name), await articlePage(io, local, fields, own));
    } catch (err) {
      if (err instanceof UsageError) throw err;
      own.unshift({ rule: "folder", severity: "error", article: name, file: `${name}/article.yaml`, message: `No page: ${(err as Error).message}` });
    }
    const errors = own.filter((f) => f.severity === "error").length, warnings = own.length - errors;
    rows.push(`<tr><td><a href="${escapeHtml(pageFile(name))}">${escapeHtml(title)}</a><br><span class="muted">${escapeHtml(name)}</span></td><td>${errors ? `<span class="finding error">${errors} error${errors === 1 ? "" : "s"}</span>` : ""}${warnings ? ` <span class="finding warning">${warnings} warning${warnings === 1 ? "" : "s"}</span>` : ""}${own.length ? "" : "passes the check"}${own.length ? `<ul>${own.map(findingItem).join("")}</ul>` : ""}</td></tr>`);
  }
  const whole = findings.filter((f) => !f.article);
  const scope = changed ? `${chosen.length} article${chosen.length === 1 ? "" : "s"} changed (of ${names.length} in the folder)` : `${chosen.length} article${chosen.length === 1 ? "" : "s"}`;
  await writePage(outDir, "index.html", page("Knowledge preview", [
    `<header><h1>Knowledge preview</h1></header>`,
    `<p>${escapeHtml(scope)}.</p>`,
    whole.length ? `<ul>${whole.map(findingItem).join("")}</ul>` : "",
    chosen.length ? `<table><thead><tr><th scope="col">Article</th><th scope="col">Check</th></tr></thead><tbody>${rows.join("\n")}</tbody></table>` : `<p class="muted">No article changed.</p>`,
  ].join("\n")));
  return { pages: chosen.length, articles: chosen };
}
