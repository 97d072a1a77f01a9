/**
 * The Queries view's content: the workspace's saved queries (the library, `.soql` files with a header) and
 * each org's query history, narrowed by a search over names, tags, descriptions, orgs and statements.
 * No VS Code here: tested in Node.
 */
import type { HistoryEntry } from "../soql/runHistory";
import { parseLibraryHeader } from "../soql/library";
import { stripComments } from "../soql/runText";

export interface SavedQuery {
  /** The file's URI, as text. */
  uri: string;
  /** The header's name, else the file's name. */
  name: string;
  org?: string;
  tags: string[];
  description?: string;
  /** The statement(s), header and comments left out. */
  statement: string;
}

export interface OrgHistory {
  orgKey: string;
  alias: string;
  entries: HistoryEntry[];
}

/** A saved query from a `.soql` file's text. */
export function savedQuery(uri: string, text: string): SavedQuery {
  const header = parseLibraryHeader(text);
  const file = decodeURIComponent(uri.slice(uri.lastIndexOf("/") + 1)).replace(/\.soql$/i, "");
  return {
    uri, name: header.name ?? file, tags: header.tags, statement: stripComments(text).replace(/\s+/g, " "),
    ...(header.org ? { org: header.org } : {}), ...(header.description ? { description: header.description } : {}),
  };
}

const matches = (words: string[], ...texts: (string | undefined)[]) => {
  const hay = texts.filter(Boolean).join(" ").toLowerCase();
  return words.every((w) => hay.includes(w));
};

/** The library (by name) and the histories (newest first) that hold every word of the search. */
export function queriesMatching(library: SavedQuery[], histories: OrgHistory[], search: string): { library: SavedQuery[]; histories: OrgHistory[] } {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return {
    library: library.filter((q) => matches(words, q.name, q.org, q.tags.join(" "), q.description, q.statement)).sort((a, b) => a.name.localeCompare(b.name)),
    histories: histories.map((h) => ({ ...h, entries: h.entries.filter((e) => matches(words, e.text, h.alias, e.api)) })).filter((h) => h.entries.length || !words.length),
  };
}
