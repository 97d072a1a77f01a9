/** Splitting a scratch file into statements and a statement into tokens and query scopes. */

export interface Statement {
  text: string;
  /** Offset of the statement's first character in the document. */
  start: number;
}

/** Statements are separated by semicolons or blank lines; comment-only text is skipped. */
export function splitStatements(doc: string): Statement[] {
  const out: Statement[] = [];
  const re = /;|\n[ \t]*\n/g;
  let last = 0;
  const push = (end: number) => {
    const raw = doc.slice(last, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text && !/^(\/\/|--)[^\n]*$/.test(text)) out.push({ text, start: last + lead });
  };
  for (let m = re.exec(doc); m; m = re.exec(doc)) {
    if (insideString(doc, m.index)) continue;
    push(m.index);
    last = m.index + m[0].length;
  }
  push(doc.length);
  return out;
}

function insideString(doc: string, offset: number): boolean {
  let open = false;
  for (let i = 0; i < offset; i++) {
    if (doc[i] === "\\") i++;
    else if (doc[i] === "'") open = !open;
  }
  return open;
}

export type TokenKind = "word" | "string" | "number" | "punct" | "op";
export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
  /** Paren depth at the token (opening parens count inside). */
  depth: number;
  /** Index of the scope (query or subquery) the token belongs to. */
  scope: number;
}

export interface Scope {
  parent: number;
  /** Is this scope a subquery `(SELECT …)`? Plain parens belong to their enclosing scope. */
  subquery: boolean;
  from?: string;
  fromToken?: Token;
}

const TOKEN_RE = /'(?:[^'\\]|\\.)*'?|\/\/[^\n]*|--[^\n]*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\.?|:\s*\d+|-?\d+(?:\.\d+)?(?:-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-][\d:]+)?)?)?|!=|<=|>=|[=<>]|[(),]/g;

/** Tokens with their scope: each `(SELECT` opens a subquery scope. */
export function tokenize(text: string): { tokens: Token[]; scopes: Scope[] } {
  const tokens: Token[] = [];
  const scopes: Scope[] = [{ parent: -1, subquery: false }];
  const stack: number[] = [0];
  let depth = 0;
  const raw = [...text.matchAll(TOKEN_RE)].filter((m) => !m[0].startsWith("//") && !m[0].startsWith("--"));
  raw.forEach((m, i) => {
    const t = m[0];
    const start = m.index!;
    if (t === "(") {
      depth++;
      const next = raw[i + 1]?.[0]?.toUpperCase();
      if (next === "SELECT") {
        scopes.push({ parent: stack[stack.length - 1]!, subquery: true });
        stack.push(scopes.length - 1);
      } else stack.push(stack[stack.length - 1]!);
      tokens.push({ kind: "punct", text: t, start, end: start + 1, depth, scope: stack[stack.length - 1]! });
      return;
    }
    if (t === ")") {
      tokens.push({ kind: "punct", text: t, start, end: start + 1, depth, scope: stack[stack.length - 1]! });
      if (stack.length > 1) stack.pop();
      depth = Math.max(0, depth - 1);
      return;
    }
    const kind: TokenKind = t.startsWith("'") ? "string" : /^[A-Za-z_]/.test(t) ? "word" : /^[-\d]/.test(t) ? "number" : t === "," ? "punct" : "op";
    tokens.push({ kind, text: t, start, end: start + t.length, depth, scope: stack[stack.length - 1]! });
  });
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === "word" && t.text.toUpperCase() === "FROM") {
      const next = tokens[i + 1];
      if (next?.kind === "word" && next.scope === t.scope) {
        scopes[t.scope]!.from = next.text;
        scopes[t.scope]!.fromToken = next;
      }
    }
  }
  return { tokens, scopes };
}
