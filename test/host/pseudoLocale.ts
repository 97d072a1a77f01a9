/**
 * The extension as a person with a language pack sees it, in the pseudo language (qps-ploc) the ecosystem
 * tests localization with: @vscode/l10n-dev turns every string of the manifest's package.nls.json and of
 * the runtime bundle into accented look-alikes ("Open" → "ǾǾƥḗḗƞ"), so an English word left on screen is
 * a string that does not go through localization.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getL10nPseudoLocalized } from "@vscode/l10n-dev";

export const PSEUDO_LOCALE = "qps-ploc";

export interface PseudoExtension {
  /** The extension folder to load: the manifest, dist and media of `root` (built first), with the pseudo-localized files beside. */
  dir: string;
  /** What an English runtime string (a vscode.l10n.t / l10n.t message) reads as. */
  t(english: string): string;
  /** What a manifest string (package.nls.json key) reads as. */
  nls(key: string): string;
}

const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;

/** Writes the pseudo-localized extension folder (in a temporary folder; the repository is left as it is). */
export function pseudoExtension(root: string): PseudoExtension {
  const dir = mkdtempSync("/tmp/crmx-");
  // dist is copied, not linked: the extension host tells extensions apart by the real path of their code.
  for (const file of ["package.json", "package.nls.json", "dist"]) cpSync(path.join(root, file), path.join(dir, file), { recursive: true });
  symlinkSync(path.join(root, "media"), path.join(dir, "media"));
  mkdirSync(path.join(dir, "l10n"));
  const bundle = read(path.join(root, "l10n/bundle.l10n.json"));
  const nls = read(path.join(root, "package.nls.json"));
  const pseudoBundle = getL10nPseudoLocalized(bundle) as Record<string, string>;
  const pseudoNls = getL10nPseudoLocalized(nls) as Record<string, string>;
  writeFileSync(path.join(dir, "l10n/bundle.l10n.json"), JSON.stringify(bundle));
  writeFileSync(path.join(dir, `l10n/bundle.l10n.${PSEUDO_LOCALE}.json`), JSON.stringify(pseudoBundle));
  writeFileSync(path.join(dir, `package.nls.${PSEUDO_LOCALE}.json`), JSON.stringify(pseudoNls));
  const lookup = (table: Record<string, string>, key: string) => {
    const found = table[key];
    if (found === undefined) throw new Error(`no localized string for '${key}'`);
    return found;
  };
  return { dir, t: (english) => lookup(pseudoBundle, english), nls: (key) => lookup(pseudoNls, key) };
}

/**
 * The English words left in `text` once the org's own data (`data`: names, titles, values the org sent),
 * URLs, record IDs, times and codicon names are taken out. Pseudo-localized text has no run of two ASCII
 * letters, so every word returned is a string shown without localization.
 */
export function untranslatedWords(text: string, data: string[] = []): string[] {
  let rest = text;
  for (const d of [...data].filter(Boolean).sort((a, b) => b.length - a.length)) rest = rest.split(d).join(" ");
  rest = rest
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\b(?=[0-9A-Za-z]*\d)[0-9A-Za-z]{15,18}\b/g, " ") // record IDs
    .replace(/\b\d{1,2}:\d{2}(:\d{2})?\s?(AM|PM)?/gi, " "); // times the browser formats
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}
