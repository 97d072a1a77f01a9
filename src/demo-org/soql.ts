/** SOQL evaluation over the Store, driven by @jetstreamapp/soql-parser-js (crm-rest-api.md §3.8). */
import { parseQuery, type Query, type Subquery, type FieldType as SoqlField, type WhereClause, type OrderByClause, type FunctionExp, type GroupByClause } from "@jetstreamapp/soql-parser-js";
import { get18CharId } from "../client/ids";
import { orgInstant } from "../client/orgTime";
import type { FieldDef, ObjectDef } from "./schema";
import { parseSfDate, type Rec, type Store } from "./store";

export class ApiError extends Error {
  constructor(readonly status: number, readonly errorCode: string, message: string, readonly fields?: string[]) {
    super(message);
  }
}

export interface QueryContext {
  store: Store;
  version: string;
  userId: string;
  includeDeleted: boolean;
  /** The org's clock, for date literals. */
  now: number;
  /** Rows outside this filter do not exist for the query (SOSL uses it for its search-term matches). */
  rowFilter?: (row: Rec) => boolean;
  /**
   * A window of a generated table's rows to read (a page or a Bulk result set). A query that must see every
   * row of a large generated table at once (a filter, an order) times out, as a non-selective one does in an org.
   */
  window?: { offset: number; count: number };
}

/** Generated tables above this size are read a window at a time only. */
const GENERATED_SCAN_LIMIT = 100_000;

export interface QueryOutcome {
  totalSize: number;
  records: Record<string, unknown>[];
  /** `SELECT COUNT() …`: only totalSize matters. */
  isCount: boolean;
  /** With `projectLater`: the matching rows, projected a window at a time when read (`records` is then empty). */
  window?(offset: number, count: number): Record<string, unknown>[];
}

/** What a query yields per row before projection. */
type Row = Rec;

function preamble(soql: string, token: string | undefined): string {
  const col = token ? Math.max(soql.toLowerCase().indexOf(token.toLowerCase()), 0) + 1 : 1;
  return `\n${soql}\n${" ".repeat(col - 1)}^\nERROR at Row:1:Column:${col}\n`;
}

export function parseSoql(soql: string): Query {
  if (!soql || !soql.trim()) throw new ApiError(400, "MALFORMED_QUERY", "SOQL statements cannot be empty or null");
  try {
    return parseQuery(soql, { allowApexBindVariables: false });
  } catch (err) {
    const message = String((err as Error).message ?? err);
    const found = /found --> '(.*?)' <--/.exec(message)?.[1] ?? /token: (\S+)/.exec(message)?.[1];
    const unexpected = found ? `unexpected token: '${found}'` : message.split("\n")[0] ?? message;
    throw new ApiError(400, "MALFORMED_QUERY", `${preamble(soql, found)}${unexpected}`);
  }
}

const noSuchColumn = (soql: string, field: string, entity: string) =>
  new ApiError(400, "INVALID_FIELD", `${preamble(soql, field)}No such column '${field}' on entity '${entity}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.`);

const badRelationship = (soql: string, rel: string) =>
  new ApiError(400, "INVALID_FIELD", `${preamble(soql, rel)}Didn't understand relationship '${rel}' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names.`);

export const unsupportedType = (soql: string, name: string) =>
  new ApiError(400, "INVALID_TYPE", `${preamble(soql, name)}sObject type '${name}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`);

/** Resolves field paths (`Owner.Name`) to accessors, raising the API's errors for unknown names. */
class Resolver {
  constructor(readonly ctx: QueryContext, readonly soql: string) {}

  objectNamed(name: string): ObjectDef {
    const def = this.ctx.store.object(name);
    if (!def || !def.queryable) throw unsupportedType(this.soql, name);
    return def;
  }

  /** Returns the final field definition and a function reading the value from a row. */
  path(def: ObjectDef, dotted: string, alias?: string): { field: FieldDef; read: (row: Row) => unknown; parts: string[] } {
    let parts = dotted.split(".");
    if (alias && parts.length > 1 && parts[0]!.toLowerCase() === alias.toLowerCase()) parts = parts.slice(1);
    if (parts.length > 1 && parts[0]!.toLowerCase() === def.name.toLowerCase() && !def.relationshipMap.has(parts[0]!.toLowerCase())) parts = parts.slice(1);
    const hops: FieldDef[] = [];
    let current = def;
    for (const rel of parts.slice(0, -1)) {
      const ref = current.relationshipMap.get(rel.toLowerCase());
      if (!ref) throw badRelationship(this.soql, rel);
      hops.push(ref);
      const target = this.ctx.store.object(ref.referenceTo?.[0] ?? "");
      if (!target) throw badRelationship(this.soql, rel);
      current = target;
    }
    const last = parts[parts.length - 1]!;
    const field = current.fieldMap.get(last.toLowerCase());
    if (!field) throw noSuchColumn(this.soql, parts.length > 1 ? dotted : last, current.name);
    const store = this.ctx.store;
    const read = (row: Row): unknown => {
      let rec: Rec | undefined = row;
      for (const hop of hops) {
        rec = store.find(rec[hop.name] as string | null)?.rec;
        if (!rec) return null;
      }
      return rec[field.name] ?? null;
    };
    return { field, read, parts: [...hops.map((h) => h.relationshipName!), field.name] };
  }
}

// ---- literals and comparison -------------------------------------------------------------

function unquote(value: string): string {
  return value.slice(1, -1).replace(/\\(.)/g, (_m, c: string) => ({ n: "\n", t: "\t", r: "\r" })[c] ?? c);
}

function dayStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/** A date literal as the half-open range [from, to) in epoch ms. */
function dateRange(literal: string, n: number | undefined, now: number): [number, number] {
  const DAY = 86_400_000;
  const today = dayStart(now);
  const d = new Date(today);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const q = Math.floor(m / 3) * 3;
  const weekStart = today - d.getUTCDay() * DAY;
  const k = n ?? 1;
  const month = (offset: number) => Date.UTC(y, m + offset, 1);
  const quarter = (offset: number) => Date.UTC(y, q + offset * 3, 1);
  switch (literal.split(":")[0]) {
    case "YESTERDAY": return [today - DAY, today];
    case "TODAY": return [today, today + DAY];
    case "TOMORROW": return [today + DAY, today + 2 * DAY];
    case "LAST_WEEK": return [weekStart - 7 * DAY, weekStart];
    case "THIS_WEEK": return [weekStart, weekStart + 7 * DAY];
    case "NEXT_WEEK": return [weekStart + 7 * DAY, weekStart + 14 * DAY];
    case "LAST_MONTH": return [month(-1), month(0)];
    case "THIS_MONTH": return [month(0), month(1)];
    case "NEXT_MONTH": return [month(1), month(2)];
    case "LAST_90_DAYS": return [today - 90 * DAY, today + DAY];
    case "NEXT_90_DAYS": return [today + DAY, today + 91 * DAY];
    case "THIS_QUARTER": case "THIS_FISCAL_QUARTER": return [quarter(0), quarter(1)];
    case "LAST_QUARTER": case "LAST_FISCAL_QUARTER": return [quarter(-1), quarter(0)];
    case "NEXT_QUARTER": case "NEXT_FISCAL_QUARTER": return [quarter(1), quarter(2)];
    case "THIS_YEAR": case "THIS_FISCAL_YEAR": return [Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1)];
    case "LAST_YEAR": case "LAST_FISCAL_YEAR": return [Date.UTC(y - 1, 0, 1), Date.UTC(y, 0, 1)];
    case "NEXT_YEAR": case "NEXT_FISCAL_YEAR": return [Date.UTC(y + 1, 0, 1), Date.UTC(y + 2, 0, 1)];
    case "LAST_N_DAYS": return [today - k * DAY, today + DAY];
    case "NEXT_N_DAYS": return [today + DAY, today + (k + 1) * DAY];
    case "N_DAYS_AGO": return [today - k * DAY, today - (k - 1) * DAY];
    case "LAST_N_WEEKS": return [weekStart - k * 7 * DAY, weekStart];
    case "NEXT_N_WEEKS": return [weekStart + 7 * DAY, weekStart + (k + 1) * 7 * DAY];
    case "LAST_N_MONTHS": return [month(-k), month(0)];
    case "NEXT_N_MONTHS": return [month(1), month(k + 1)];
    case "LAST_N_QUARTERS": case "LAST_N_FISCAL_QUARTERS": return [quarter(-k), quarter(0)];
    case "NEXT_N_QUARTERS": case "NEXT_N_FISCAL_QUARTERS": return [quarter(1), quarter(k + 1)];
    case "LAST_N_YEARS": case "LAST_N_FISCAL_YEARS": return [Date.UTC(y - k, 0, 1), Date.UTC(y, 0, 1)];
    case "NEXT_N_YEARS": case "NEXT_N_FISCAL_YEARS": return [Date.UTC(y + 1, 0, 1), Date.UTC(y + k + 1, 0, 1)];
    default: throw new ApiError(400, "MALFORMED_QUERY", `unexpected date literal: ${literal}`);
  }
}

type Literal = { kind: "value"; value: unknown } | { kind: "range"; from: number; to: number };

function literal(raw: string, type: string | undefined, n: number | undefined, now: number): Literal {
  switch (type) {
    case "STRING": return { kind: "value", value: unquote(raw) };
    case "INTEGER": case "DECIMAL": return { kind: "value", value: Number(raw) };
    case "BOOLEAN": return { kind: "value", value: raw.toUpperCase() === "TRUE" };
    case "NULL": return { kind: "value", value: null };
    case "DATE": case "DATETIME": return { kind: "value", value: parseSfDate(raw) };
    case "DATE_LITERAL": case "DATE_N_LITERAL": {
      const [from, to] = dateRange(raw, n, now);
      return { kind: "range", from, to };
    }
    default: return { kind: "value", value: raw.startsWith("'") ? unquote(raw) : raw };
  }
}

function normalize(value: unknown, field: FieldDef): unknown {
  if (value === null || value === undefined) return null;
  if ((field.type === "date" || field.type === "datetime") && typeof value === "string") return parseSfDate(value);
  if ((field.type === "id" || field.type === "reference") && typeof value === "string" && value.length === 15) {
    try { return get18CharId(value); } catch { return value; }
  }
  if (typeof value === "string") return value.toLowerCase();
  return value;
}

/** ORDER BY's comparison over sort keys: each ascending or descending, nulls first or last. */
function byKeys<R>(keys: { read: (r: R) => unknown; desc: boolean; nullsFirst: boolean }[]): (a: R, b: R) => number {
  return (a, b) => {
    for (const k of keys) {
      const va = k.read(a), vb = k.read(b);
      if (va === null && vb === null) continue;
      if (va === null) return k.nullsFirst ? -1 : 1;
      if (vb === null) return k.nullsFirst ? 1 : -1;
      const c = compare(va, vb);
      if (c !== 0) return k.desc ? -c : c;
    }
    return 0;
  };
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return String(a).localeCompare(String(b), "en", { sensitivity: "base" });
}

function likeToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*").replace(/_/g, ".");
  return new RegExp(`^${body}$`, "is");
}

// ---- WHERE ---------------------------------------------------------------------------------

type Token = "(" | ")" | "AND" | "OR" | "NOT" | { test: (row: Row) => boolean };

export class Evaluator {
  readonly resolver: Resolver;
  constructor(readonly ctx: QueryContext, readonly soql: string) {
    this.resolver = new Resolver(ctx, soql);
  }

  private condition(def: ObjectDef, cond: Record<string, unknown>, alias?: string): (row: Row) => boolean {
    const operator = String(cond.operator);
    if (cond.fn) {
      throw new ApiError(400, "MALFORMED_QUERY", `${preamble(this.soql, undefined)}functions in WHERE are not supported by this org`);
    }
    const { field, read } = this.resolver.path(def, String(cond.field), alias);
    if (cond.valueQuery) {
      const values = new Set(this.run(cond.valueQuery as Query).rows.map((r) => normalize(r.value, field)));
      return (row) => {
        const has = values.has(normalize(read(row), field));
        return operator === "NOT IN" ? !has : has;
      };
    }
    const raws = Array.isArray(cond.value) ? (cond.value as string[]) : [String(cond.value)];
    const types = Array.isArray(cond.literalType) ? (cond.literalType as string[]) : raws.map(() => cond.literalType as string | undefined);
    const ns = Array.isArray(cond.dateLiteralVariable) ? (cond.dateLiteralVariable as number[]) : raws.map(() => cond.dateLiteralVariable as number | undefined);
    const lits = raws.map((raw, i) => literal(raw, types[i], ns[i], this.ctx.now));
    const one = lits[0]!;
    const valueOf = (l: Literal) => (l.kind === "value" ? normalize(l.value, field) : null);

    switch (operator) {
      case "=": case "!=": case "<": case "<=": case ">": case ">=": {
        const test = (v: unknown): boolean => {
          if (one.kind === "range") {
            if (v === null) return operator === "!=";
            const t = v as number;
            switch (operator) {
              case "=": return t >= one.from && t < one.to;
              case "!=": return t < one.from || t >= one.to;
              case "<": return t < one.from;
              case "<=": return t < one.to;
              case ">": return t >= one.to;
              default: return t >= one.from;
            }
          }
          const expected = valueOf(one);
          if (operator === "=") return v === null ? expected === null : expected !== null && compare(v, expected) === 0;
          if (operator === "!=") return v === null ? expected !== null : expected === null || compare(v, expected) !== 0;
          if (v === null || expected === null) return false;
          const c = compare(v, expected);
          return operator === "<" ? c < 0 : operator === "<=" ? c <= 0 : operator === ">" ? c > 0 : c >= 0;
        };
        return (row) => test(normalize(read(row), field));
      }
      case "LIKE": {
        const re = likeToRegExp(String(one.kind === "value" ? one.value : ""));
        return (row) => {
          const v = read(row);
          return v !== null && re.test(String(v));
        };
      }
      case "IN": case "NOT IN": {
        // A set of keys, not a compare per value: an Id IN list of 200 over thousands of rows stays quick.
        const key = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);
        const set = new Set(lits.map((l) => key(valueOf(l))));
        return (row) => {
          const has = set.has(key(normalize(read(row), field)));
          return operator === "IN" ? has : !has;
        };
      }
      case "INCLUDES": case "EXCLUDES": {
        const wanted = lits.map((l) => String(l.kind === "value" ? l.value : "").toLowerCase().split(";").map((s) => s.trim()));
        return (row) => {
          const have = new Set(String(read(row) ?? "").toLowerCase().split(";").map((s) => s.trim()).filter(Boolean));
          const any = wanted.some((all) => all.every((w) => have.has(w)));
          return operator === "INCLUDES" ? any : !any;
        };
      }
      default:
        throw new ApiError(400, "MALFORMED_QUERY", `${preamble(this.soql, operator)}unexpected token: ${operator}`);
    }
  }

  /** Flattens the parser's linked WHERE list (with paren counts) into tokens, then parses with NOT > AND > OR. */
  where(def: ObjectDef, clause: WhereClause | undefined, alias?: string): (row: Row) => boolean {
    if (!clause) return () => true;
    const tokens: Token[] = [];
    let node: WhereClause | undefined = clause;
    while (node) {
      const n = node as unknown as { left: Record<string, unknown> | null; operator?: string; right?: WhereClause };
      if (n.left) {
        for (let i = 0; i < Number(n.left.openParen ?? 0); i++) tokens.push("(");
        tokens.push({ test: this.condition(def, n.left, alias) });
        for (let i = 0; i < Number(n.left.closeParen ?? 0); i++) tokens.push(")");
      }
      if (n.operator) tokens.push(n.operator as Token);
      node = n.right;
    }
    let pos = 0;
    const primary = (): ((row: Row) => boolean) => {
      const t = tokens[pos++];
      if (t === "NOT") {
        const inner = primary();
        return (row) => !inner(row);
      }
      if (t === "(") {
        const inner = or();
        pos++; // ")"
        return inner;
      }
      if (t && typeof t === "object") return t.test;
      throw new ApiError(400, "MALFORMED_QUERY", `${preamble(this.soql, undefined)}unexpected token in WHERE`);
    };
    const and = () => {
      let left = primary();
      while (tokens[pos] === "AND") {
        pos++;
        const l = left, r = primary();
        left = (row) => l(row) && r(row);
      }
      return left;
    };
    const or = (): ((row: Row) => boolean) => {
      let left = and();
      while (tokens[pos] === "OR") {
        pos++;
        const l = left, r = and();
        left = (row) => l(row) || r(row);
      }
      return left;
    };
    return or();
  }

  orderBy(def: ObjectDef, clauses: OrderByClause | OrderByClause[] | undefined, alias?: string): ((a: Row, b: Row) => number) | undefined {
    const list = clauses ? (Array.isArray(clauses) ? clauses : [clauses]) : [];
    if (!list.length) return undefined;
    const keys = list.map((c) => {
      if (!("field" in c)) throw new ApiError(400, "MALFORMED_QUERY", `${preamble(this.soql, undefined)}ORDER BY functions are not supported by this org`);
      const { field, read } = this.resolver.path(def, c.field, alias);
      const desc = c.order === "DESC";
      const nullsFirst = c.nulls ? c.nulls === "FIRST" : !desc;
      return { read: (r: Row) => normalize(read(r), field), desc, nullsFirst };
    });
    return byKeys(keys);
  }

  /** Runs a query whose single selected field feeds a semi-join. */
  run(query: Query): { rows: { value: unknown }[] } {
    const def = this.resolver.objectNamed(query.sObject ?? "");
    const field = query.fields?.[0];
    if (!field || field.type !== "Field") throw new ApiError(400, "MALFORMED_QUERY", `${preamble(this.soql, undefined)}semi-join sub-selects must select one field`);
    const { read } = this.resolver.path(def, field.field);
    const keep = this.where(def, query.where);
    return { rows: this.ctx.store.liveRecords(def.name).filter(keep).map((r) => ({ value: read(r) })) };
  }
}

// ---- SELECT ------------------------------------------------------------------------------

/** Options for the projection of child relationship rows. */
export interface SelectOptions {
  childBatchSize: number;
  /** Registers child rows that did not fit and returns the nextRecordsUrl for them. */
  registerChildCursor: (rows: Record<string, unknown>[]) => string;
  /**
   * The rows are chosen and ordered now, and projected a window at a time when read (a Bulk query job: an org
   * writes its results once, then serves them set by set; projecting 300,000 rows at once held every other
   * request of this org for seconds).
   */
  projectLater?: boolean;
}

function attributes(def: ObjectDef, rec: Rec, version: string) {
  return { type: def.name, url: `/services/data/v${version}/sobjects/${def.name}/${rec.Id}` };
}

function expandFields(def: ObjectDef, fields: SoqlField[]): SoqlField[] {
  return fields.flatMap((f) => {
    if (f.type === "FieldFunctionExpression" && f.functionName?.toUpperCase() === "FIELDS") {
      const which = String(f.parameters?.[0] ?? "ALL").toUpperCase();
      return def.fields
        .filter((fd) => which === "ALL" || (which === "CUSTOM") === fd.name.endsWith("__c"))
        .map((fd) => ({ type: "Field", field: fd.name }) as SoqlField);
    }
    return [f];
  });
}

/** Evaluates a whole SOQL statement and returns every matching projected row. */
export function executeSoql(ctx: QueryContext, soql: string, options: SelectOptions): QueryOutcome {
  const query = parseSoql(soql);
  const ev = new Evaluator(ctx, soql);
  const def = ev.resolver.objectNamed(query.sObject ?? "");
  if (def.name === "UserRecordAccess") return userRecordAccess(ctx, ev, query);
  const alias = query.sObjectAlias;
  const generated = ctx.store.generated.get(def.name.toLowerCase());
  const windowed = generated && !query.where && !query.orderBy && !query.offset && !query.groupBy;
  /** A generated table read in windows has this many rows (its own, or the LIMIT's). */
  const generatedTotal = generated ? Math.min(generated.count, query.limit ?? generated.count) : 0;
  const fields = expandFields(def, query.fields ?? []);
  const aggregate = fields.some((f) => f.type === "FieldFunctionExpression" && f.isAggregateFn) || query.groupBy;
  const onlyCount = aggregate && fields.length === 1 && fields[0]!.type === "FieldFunctionExpression" && fields[0]!.functionName?.toUpperCase() === "COUNT" && !fields[0]!.parameters?.length;
  // A large generated table is aggregated as an org's index serves it: scanned a row at a time, never held.
  const scanned = !!generated && !windowed && generated.count > GENERATED_SCAN_LIMIT;
  if (scanned && !aggregate) {
    throw new ApiError(400, "QUERY_TIMEOUT", `Your query request was running for too long: ${def.name} holds ${generated.count} rows; read it without WHERE or ORDER BY, aggregate it (GROUP BY, COUNT()), or use the Bulk API.`);
  }
  const where = ev.where(def, query.where, alias);
  const keep = (row: Rec) => (!ctx.rowFilter || ctx.rowFilter(row)) && where(row);
  if (scanned) {
    // Every row is scanned: an aggregate's LIMIT counts its groups.
    const rows = scanGenerated(ctx, def.name, generated.count, fieldsNamed(def, soql), keep);
    if (onlyCount) {
      let n = 0;
      for (const _ of rows) n++;
      return { totalSize: n, records: [], isCount: true };
    }
    const records = aggregateRows(ev, def, rows, fields, query.groupBy, alias, query.orderBy).slice(query.offset ?? 0, query.limit !== undefined ? (query.offset ?? 0) + query.limit : undefined);
    return { totalSize: records.length, records, isCount: false };
  }
  const window = ctx.window ?? { offset: 0, count: generatedTotal };
  let rows = windowed ? ctx.store.generatedRows(def.name, window.offset, Math.max(0, Math.min(window.count, generatedTotal - window.offset))) : ctx.store.liveRecords(def.name, ctx.includeDeleted);
  rows = rows.filter(keep);
  if (query.withDataCategory && ctx.store.object("Knowledge__DataCategorySelection")) {
    rows = rows.filter(dataCategoryFilter(ctx, query));
  }
  if (aggregate) {
    if (onlyCount) return { totalSize: windowed ? generatedTotal : rows.length, records: [], isCount: true };
    // LIMIT and OFFSET count the grouped rows, as in an org.
    const records = aggregateRows(ev, def, rows, fields, query.groupBy, alias, query.orderBy).slice(query.offset ?? 0, query.limit !== undefined ? (query.offset ?? 0) + query.limit : undefined);
    return { totalSize: records.length, records, isCount: false };
  }
  const order = ev.orderBy(def, query.orderBy, alias);
  if (order) rows = [...rows].sort(order);
  if (!windowed) rows = rows.slice(query.offset ?? 0, query.limit !== undefined ? (query.offset ?? 0) + query.limit : undefined);
  const project = projector(ctx, ev, def, fields, alias, options);
  if (options.projectLater && !windowed) return { totalSize: rows.length, records: [], isCount: false, window: (offset, count) => rows.slice(offset, offset + count).map(project) };
  return { totalSize: windowed ? generatedTotal : rows.length, records: rows.map(project), isCount: false };
}

function projector(ctx: QueryContext, ev: Evaluator, def: ObjectDef, fields: SoqlField[], alias: string | undefined, options: SelectOptions): (rec: Rec) => Record<string, unknown> {
  const store = ctx.store;
  const steps: ((rec: Rec, out: Record<string, unknown>) => void)[] = [];
  for (const f of fields) {
    if (f.type === "Field" || f.type === "FieldRelationship") {
      const dotted = f.type === "Field" ? f.field : (f.rawValue ?? [...f.relationships, f.field].join("."));
      const { parts } = ev.resolver.path(def, dotted, alias);
      if (parts.length === 1) {
        const name = parts[0]!;
        steps.push((rec, out) => { out[name] = rec[name] ?? null; });
        continue;
      }
      // Parent path: nested objects with their own attributes, null when a lookup is empty.
      steps.push((rec, out) => {
        let target: Record<string, unknown> = out;
        let current: Rec | undefined = rec;
        let currentDef = def;
        for (const rel of parts.slice(0, -1)) {
          const ref = currentDef.relationshipMap.get(rel.toLowerCase())!;
          const found: { def: ObjectDef; rec: Rec } | undefined = current ? store.find(current[ref.name] as string) : undefined;
          if (!found) {
            if (!(rel in target)) target[rel] = null;
            return;
          }
          const existing = target[rel];
          const nested = (existing && typeof existing === "object" ? existing : { attributes: attributes(found.def, found.rec, ctx.version) }) as Record<string, unknown>;
          target[rel] = nested;
          target = nested;
          current = found.rec;
          currentDef = found.def;
        }
        const last = parts[parts.length - 1]!;
        target[last] = current?.[last] ?? null;
      });
    } else if (f.type === "FieldSubquery") {
      steps.push(subqueryStep(ctx, ev, def, f.subquery, options));
    } else if (f.type === "FieldTypeof") {
      const ref = def.relationshipMap.get(f.field.toLowerCase());
      if (!ref) throw new ApiError(400, "INVALID_FIELD", `${preamble(ev.soql, f.field)}Didn't understand relationship '${f.field}' in field path.`);
      steps.push((rec, out) => {
        const found = store.find(rec[ref.name] as string);
        if (!found) { out[ref.relationshipName!] = null; return; }
        const cond = f.conditions.find((c) => c.type === "WHEN" && c.objectType?.toLowerCase() === found.def.name.toLowerCase()) ?? f.conditions.find((c) => c.type === "ELSE");
        const nested: Record<string, unknown> = { attributes: attributes(found.def, found.rec, ctx.version) };
        for (const name of cond?.fieldList ?? []) nested[found.def.fieldMap.get(name.toLowerCase())?.name ?? name] = found.rec[found.def.fieldMap.get(name.toLowerCase())?.name ?? name] ?? null;
        out[ref.relationshipName!] = nested;
      });
    } else {
      throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, f.rawValue)}Aggregate functions need GROUP BY or must be the only selected items`);
    }
  }
  return (rec) => {
    const out: Record<string, unknown> = { attributes: attributes(def, rec, ctx.version) };
    for (const step of steps) step(rec, out);
    return out;
  };
}

function subqueryStep(ctx: QueryContext, ev: Evaluator, parent: ObjectDef, sub: Subquery, options: SelectOptions) {
  const rel = parent.childRelationships.find((c) => c.relationshipName?.toLowerCase() === sub.relationshipName.toLowerCase());
  if (!rel) throw badRelationship(ev.soql, sub.relationshipName);
  const childDef = ctx.store.object(rel.childSObject)!;
  const keep = ev.where(childDef, sub.where);
  const order = ev.orderBy(childDef, sub.orderBy);
  const project = projector(ctx, ev, childDef, expandFields(childDef, sub.fields ?? []), undefined, options);
  // One pass over the child table per query: parent ID → children.
  const byParent = new Map<string, Rec[]>();
  for (const child of ctx.store.liveRecords(childDef.name, ctx.includeDeleted)) {
    const parentId = child[rel.field] as string | null;
    if (!parentId || !keep(child)) continue;
    const list = byParent.get(parentId) ?? [];
    list.push(child);
    byParent.set(parentId, list);
  }
  return (rec: Rec, out: Record<string, unknown>) => {
    let children = byParent.get(rec.Id) ?? [];
    if (order) children = [...children].sort(order);
    children = children.slice(sub.offset ?? 0, sub.limit !== undefined ? (sub.offset ?? 0) + sub.limit : undefined);
    if (!children.length) {
      out[rel.relationshipName!] = null;
      return;
    }
    const projected = children.map(project);
    const first = projected.slice(0, options.childBatchSize);
    const result: Record<string, unknown> = { totalSize: projected.length, done: first.length === projected.length, records: first };
    if (!result.done) result.nextRecordsUrl = options.registerChildCursor(projected.slice(first.length));
    out[rel.relationshipName!] = result;
  };
}

/**
 * SOQL's date functions, as the reference documents them, over a date or dateTime value in UTC (a client's
 * query reads dateTimes in UTC unless it asks convertTimezone()). The org's fiscal year starts in January.
 */
const DATE_FUNCTIONS: Record<string, (d: Date) => number | string> = {
  CALENDAR_YEAR: (d) => d.getUTCFullYear(),
  CALENDAR_QUARTER: (d) => Math.floor(d.getUTCMonth() / 3) + 1,
  CALENDAR_MONTH: (d) => d.getUTCMonth() + 1,
  DAY_IN_MONTH: (d) => d.getUTCDate(),
  DAY_IN_WEEK: (d) => d.getUTCDay() + 1,
  DAY_IN_YEAR: (d) => dayInYear(d),
  DAY_ONLY: (d) => d.toISOString().slice(0, 10),
  HOUR_IN_DAY: (d) => d.getUTCHours(),
  WEEK_IN_MONTH: (d) => Math.floor((d.getUTCDate() - 1) / 7) + 1,
  WEEK_IN_YEAR: (d) => Math.floor((dayInYear(d) - 1) / 7) + 1,
  FISCAL_YEAR: (d) => d.getUTCFullYear(),
  FISCAL_QUARTER: (d) => Math.floor(d.getUTCMonth() / 3) + 1,
  FISCAL_MONTH: (d) => d.getUTCMonth() + 1,
};
const dayInYear = (d: Date) => Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;

/**
 * The day a time the org wrote falls on (UTC), as a Date — what every date function but HOUR_IN_DAY reads. A scan
 * of a million rows reads it as an index would: the org's own forms ("2026-03-01T10:00:00.000+0000", a date) by
 * their first ten characters, one Date a day.
 */
let lastDay: { prefix: string; date: Date } | undefined;
function dayOf(text: string): Date {
  if (!(text.length === 10 || (text.length === 28 && text[10] === "T" && text.endsWith("+0000")))) return new Date(orgInstant(text));
  const prefix = text.slice(0, 10);
  if (lastDay?.prefix !== prefix) lastDay = { prefix, date: new Date(Date.parse(prefix)) };
  return lastDay.date;
}

/** A group's key: a field's value, or a date function of one (`CALENDAR_MONTH(CreatedDate)`). */
function groupKeyReader(ev: Evaluator, def: ObjectDef, clause: { field?: string; fn?: FunctionExp }, alias: string | undefined): { key: string; read: (r: Rec) => unknown } {
  if (clause.field !== undefined) {
    const { field, read } = ev.resolver.path(def, clause.field, alias);
    return { key: field.name.toLowerCase(), read };
  }
  const name = (clause.fn?.functionName ?? "").toUpperCase();
  const param = clause.fn?.parameters?.[0];
  const dateFn = DATE_FUNCTIONS[name];
  if (!dateFn || typeof param !== "string") throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, name)}GROUP BY takes a field or a date function of one, not ${name}`);
  const { field, read } = ev.resolver.path(def, param, alias);
  if (field.type !== "date" && field.type !== "datetime") throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, param)}${name} takes a date or dateTime field, not ${field.name}`);
  return {
    key: `${name}(${field.name.toLowerCase()})`,
    read: (r) => {
      const v = read(r);
      return typeof v === "string" && v ? dateFn(name === "HOUR_IN_DAY" ? new Date(orgInstant(v)) : dayOf(v)) : null;
    },
  };
}

/** The fields of an object a statement names anywhere (a generated row is made with these alone: its skinny table). */
function fieldsNamed(def: ObjectDef, soql: string): Set<string> {
  const words = new Set((soql.match(/[A-Za-z_]\w*/g) ?? []).map((w) => w.toLowerCase()));
  return new Set(def.fields.map((f) => f.name.toLowerCase()).filter((name) => words.has(name)));
}

/** A generated table's rows that `keep` accepts, made one at a time with the fields the statement names. */
function* scanGenerated(ctx: QueryContext, objectName: string, total: number, wanted: ReadonlySet<string>, keep: (row: Rec) => boolean): Generator<Rec> {
  const table = ctx.store.generated.get(objectName.toLowerCase())!;
  for (let i = 0; i < total; i++) {
    const row = table.row(i, wanted);
    if (keep(row)) yield row;
  }
}

/**
 * GROUP BY ROLLUP(a, b) / CUBE(a, b): the grouped fields (at most three, all inside the parentheses) and the
 * subtotal levels, each as the positions it rolls up — ROLLUP from the right (a,b · a · total), CUBE every subset.
 */
function subtotalLevels(ev: Evaluator, groups: GroupByClause[]): { clauses: { field: string }[]; levels: number[][] } | undefined {
  const kind = (groups[0] as { fn?: FunctionExp } | undefined)?.fn?.functionName?.toUpperCase();
  if (kind !== "ROLLUP" && kind !== "CUBE") return undefined;
  const params = (groups[0] as { fn: FunctionExp }).fn.parameters ?? [];
  if (groups.length > 1) throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, kind)}all grouped fields must be within the parentheses of ${kind}`);
  if (!params.length || params.length > 3 || params.some((p) => typeof p !== "string")) throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, kind)}${kind} takes one to three fields`);
  const n = params.length;
  const levels = kind === "ROLLUP"
    ? Array.from({ length: n }, (_, k) => Array.from({ length: k + 1 }, (_, i) => n - 1 - i))
    : Array.from({ length: (1 << n) - 1 }, (_, m) => m + 1).map((m) => [...Array(n).keys()].filter((i) => m & (1 << i))).sort((x, y) => x.length - y.length);
  return { clauses: (params as string[]).map((field) => ({ field })), levels };
}

/** What a group keeps of a column as its rows go by: a running result, never the rows (a million rows aggregate in constant memory). */
interface Accumulator {
  add(row: Rec): void;
  result(): unknown;
}

/** A grouped value: the first row's (every row of a group has it). */
const firstValue = (read: (r: Rec) => unknown) => (): Accumulator => {
  let seen = false;
  let value: unknown = null;
  return { add: (row) => { if (!seen) [seen, value] = [true, read(row)]; }, result: () => value };
};

function aggregateRows(ev: Evaluator, def: ObjectDef, rows: Iterable<Rec>, fields: SoqlField[], groupBy: GroupByClause | GroupByClause[] | undefined, alias?: string, orderBy?: OrderByClause | OrderByClause[]) {
  const clauses = groupBy ? (Array.isArray(groupBy) ? groupBy : [groupBy]) : [];
  const subtotals = subtotalLevels(ev, clauses);
  const groups = subtotals?.clauses ?? clauses;
  const groupReaders = groups.map((g) => groupKeyReader(ev, def, g as { field?: string; fn?: FunctionExp }, alias));
  /** A group: the positions of the grouped fields it rolls up (a subtotal's), its key's values, a running result per column. */
  interface Bucket { rolled: Set<number>; values: unknown[]; columns: (Accumulator | undefined)[] }
  let exprIndex = 0;
  const columns = fields.map((f): { name: string; key: string; accumulator?: () => Accumulator; value: (b: Bucket, acc: Accumulator | undefined) => unknown } => {
    if (f.type === "FieldFunctionExpression" && (f.functionName ?? "").toUpperCase() === "GROUPING") {
      const param = f.parameters?.[0];
      const at = typeof param === "string" ? groupReaders.findIndex((g) => g.key === ev.resolver.path(def, param, alias).field.name.toLowerCase()) : -1;
      if (!subtotals || at < 0) throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, "GROUPING")}GROUPING takes a field of the statement's GROUP BY ROLLUP or CUBE`);
      return { name: f.alias ?? `expr${exprIndex++}`, key: `GROUPING(${String(param).toLowerCase()})`, value: (b) => (b.rolled.has(at) ? 1 : 0) };
    }
    const column = aggregateColumn(f);
    const grouped = groupReaders.findIndex((g) => g.key === column.key);
    return { ...column, value: (b, acc) => (grouped >= 0 && b.rolled.has(grouped) ? null : acc!.result()) };
  });
  const bucket = (values: unknown[], rolled: Set<number>): Bucket => ({ rolled, values, columns: columns.map((c) => c.accumulator?.()) });
  // The groups themselves, then each subtotal level (the positions it rolls up); a group is found by walking
  // its values through a tree of maps, one level per grouped field: no key is built for a row.
  const levels = [new Set<number>(), ...(subtotals?.levels ?? []).map((level) => new Set(level))];
  const trees = levels.map(() => new Map<unknown, unknown>());
  const buckets: Bucket[] = [];
  const values: unknown[] = new Array(groupReaders.length);
  const last = groupReaders.length - 1;
  for (const row of rows) {
    for (let i = 0; i <= last; i++) values[i] = groupReaders[i]!.read(row) ?? null;
    levels.forEach((rolled, l) => {
      let node = trees[l]!;
      for (let i = 0; i < last; i++) {
        const v = rolled.has(i) ? null : values[i];
        let next = node.get(v) as Map<unknown, unknown> | undefined;
        if (!next) node.set(v, (next = new Map()));
        node = next;
      }
      const v = last < 0 || rolled.has(last) ? null : values[last];
      let b = node.get(v) as Bucket | undefined;
      if (!b) {
        node.set(v, (b = bucket(values.map((x, i) => (rolled.has(i) ? null : x)), rolled)));
        buckets.push(b);
      }
      for (const acc of b.columns) acc?.add(row);
    });
  }
  if (!groups.length && !buckets.length) buckets.push(bucket([], new Set()));
  const results = buckets.map((b) => {
    const out: Record<string, unknown> = { attributes: { type: "AggregateResult" } };
    columns.forEach((c, i) => (out[c.name] = c.value(b, b.columns[i])));
    return out;
  });
  if (subtotals) {
    // As an org returns them: each subtotal after the groups it sums, the grand total last.
    const order = buckets;
    const rank = (x: Bucket, y: Bucket) => {
      for (let i = 0; i < groups.length; i++) {
        const [rx, ry] = [x.rolled.has(i), y.rolled.has(i)];
        if (rx !== ry) return rx ? 1 : -1;
        const c = rx ? 0 : compare(x.values[i] ?? null, y.values[i] ?? null);
        if (c) return c;
      }
      return 0;
    };
    const ranked = order.map((b, i) => [b, results[i]!] as const).sort(([x], [y]) => rank(x, y));
    results.splice(0, results.length, ...ranked.map(([, r]) => r));
  }
  // ORDER BY over the groups: a grouped field or date function, or a selected column by its alias.
  sortGroups(ev, def, results, columns, alias, orderBy);
  return results;

  function aggregateColumn(f: SoqlField): { name: string; key: string; accumulator: () => Accumulator } {
    if (f.type === "FieldFunctionExpression" && DATE_FUNCTIONS[(f.functionName ?? "").toUpperCase()]) {
      const grouped = groupKeyReader(ev, def, { fn: f as unknown as FunctionExp }, alias);
      const name = f.alias ?? `expr${exprIndex++}`;
      if (!groupReaders.some((g) => g.key === grouped.key)) throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, f.functionName)}Field must be grouped or aggregated: ${f.rawValue ?? f.functionName}`);
      return { name, key: grouped.key, accumulator: firstValue(grouped.read) };
    }
    if (f.type === "FieldFunctionExpression") {
      const fn = (f.functionName ?? "").toUpperCase();
      if (!["COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX"].includes(fn)) throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, fn)}Unknown aggregate function ${fn}`);
      const param = f.parameters?.[0] as string | FunctionExp | undefined;
      const reader = typeof param === "string" ? ev.resolver.path(def, param, alias).read : undefined;
      const name = f.alias ?? `expr${exprIndex++}`;
      return {
        name,
        key: `${fn}(${typeof param === "string" ? param.toLowerCase() : ""})`,
        accumulator: () => {
          let n = 0;
          let sum = 0;
          let best: unknown;
          const distinct = new Set<string>();
          return {
            add(row) {
              const v = reader ? reader(row) : row;
              if (v === null || v === undefined) return;
              n++;
              if (fn === "SUM" || fn === "AVG") sum += Number(v);
              else if (fn === "COUNT_DISTINCT") distinct.add(String(v).toLowerCase());
              else if ((fn === "MIN" && (best === undefined || compare(v, best) < 0)) || (fn === "MAX" && (best === undefined || compare(v, best) > 0))) best = v;
            },
            result: () => (fn === "COUNT" ? n : fn === "COUNT_DISTINCT" ? distinct.size : fn === "SUM" ? sum : !n ? null : fn === "AVG" ? sum / n : best),
          };
        },
      };
    }
    if (f.type !== "Field") throw new ApiError(400, "MALFORMED_QUERY", "relationship fields in aggregate queries need GROUP BY on them");
    const { read, field } = ev.resolver.path(def, f.field, alias);
    if (!groupReaders.some((g) => g.key === field.name.toLowerCase())) {
      throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, f.field)}Field must be grouped or aggregated: ${field.name}`);
    }
    return { name: f.alias ?? field.name, key: field.name.toLowerCase(), accumulator: firstValue(read) };
  }
}

function sortGroups(ev: Evaluator, def: ObjectDef, results: Record<string, unknown>[], columns: { name: string; key: string }[], alias: string | undefined, orderBy: OrderByClause | OrderByClause[] | undefined): void {
  const order = (orderBy ? (Array.isArray(orderBy) ? orderBy : [orderBy]) : []).map((c) => {
    const clause = c as { field?: string; fn?: FunctionExp; order?: string; nulls?: string };
    const fnName = (clause.fn?.functionName ?? "").toUpperCase();
    const param = clause.fn?.parameters?.[0];
    const key = clause.field !== undefined ? undefined : DATE_FUNCTIONS[fnName] ? groupKeyReader(ev, def, clause, alias).key : `${fnName}(${typeof param === "string" ? param.toLowerCase() : ""})`;
    const column = clause.field !== undefined
      ? columns.find((col) => col.name.toLowerCase() === clause.field!.toLowerCase()) ?? columns.find((col) => col.key === ev.resolver.path(def, clause.field!, alias).field.name.toLowerCase())
      : columns.find((col) => col.key === key);
    const at = column?.name;
    if (at === undefined) throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, clause.field ?? clause.fn?.functionName)}ORDER BY in an aggregate query takes a grouped field or an aggregate's alias`);
    const desc = clause.order === "DESC";
    return { read: (r: Record<string, unknown>) => r[at] ?? null, desc, nullsFirst: clause.nulls ? clause.nulls === "FIRST" : !desc };
  });
  if (order.length) results.sort(byKeys(order));
}

function dataCategoryFilter(ctx: QueryContext, query: Query): (row: Rec) => boolean {
  const selections = ctx.store.liveRecords("Knowledge__DataCategorySelection");
  const conditions = query.withDataCategory!.conditions;
  return (row) =>
    conditions.every((c) => {
      const group = c.groupName.toLowerCase();
      const wanted = new Set(c.parameters.map((p) => p.toLowerCase()));
      return selections.some((s) => s.ParentId === row.Id && String(s.DataCategoryGroupName).toLowerCase() === group && wanted.has(String(s.DataCategoryName).toLowerCase()));
    });
}

/** UserRecordAccess is virtual: rows exist only for the user and records named in WHERE (crm-rest-api.md §6). */
function userRecordAccess(ctx: QueryContext, ev: Evaluator, query: Query): QueryOutcome {
  const ids: string[] = [];
  let userId: string | undefined;
  let node = query.where as unknown as { left?: { field: string; operator: string; value: string | string[] }; right?: unknown } | undefined;
  while (node) {
    const left = node.left;
    if (left?.field?.toLowerCase() === "userid") userId = String(left.value).replace(/'/g, "");
    if (left?.field?.toLowerCase() === "recordid") ids.push(...(Array.isArray(left.value) ? left.value : [left.value]).map((v) => v.replace(/'/g, "")));
    node = node.right as typeof node;
  }
  if (!userId || !ids.length) {
    throw new ApiError(400, "MALFORMED_QUERY", `${preamble(ev.soql, "UserRecordAccess")}Invalid query on UserRecordAccess: you must filter on a single UserId and on RecordId`);
  }
  if (ids.length > 200) throw new ApiError(400, "MALFORMED_QUERY", "Number of records exceeds limit: 200");
  const user = ctx.store.find(userId);
  const isAdmin = ctx.store.find(user?.rec.ProfileId as string)?.rec.Name === "System Administrator";
  const records: Record<string, unknown>[] = [];
  for (const id of ids) {
    const found = ctx.store.find(id);
    if (!found || !user) continue;
    const owns = found.rec.OwnerId === user.rec.Id || found.rec.CreatedById === user.rec.Id;
    const edit = isAdmin || owns;
    const row: Record<string, unknown> = {
      attributes: { type: "UserRecordAccess", url: `/services/data/v${ctx.version}/sobjects/UserRecordAccess/${found.rec.Id}` },
    };
    const values: Record<string, unknown> = {
      RecordId: found.rec.Id, HasReadAccess: true, HasEditAccess: edit, HasDeleteAccess: edit, HasTransferAccess: isAdmin,
      HasAllAccess: isAdmin, MaxAccessLevel: isAdmin ? "All" : edit ? "Delete" : "Read",
    };
    for (const f of query.fields ?? []) {
      if (f.type === "Field") {
        const key = Object.keys(values).find((k) => k.toLowerCase() === f.field.toLowerCase());
        if (!key) throw noSuchColumn(ev.soql, f.field, "UserRecordAccess");
        row[key] = values[key];
      }
    }
    records.push(row);
  }
  return { totalSize: records.length, records, isCount: false };
}
