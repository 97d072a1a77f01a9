/**
 * Change sets: an agent's proposed changes held by the MCP server until applied. A proposal reads the records
 * it would change (their values and SystemModstamp) and answers every field's before and after; nothing is
 * sent. Applying goes through the records kit's commit engine, as a grid's Commit does: a record changed or
 * deleted in the org since the proposal is a conflict, not written, and named; the rest go through sObject
 * Collections (200 records a request), so the client's production guard and write journal see each one.
 */
import { randomUUID } from "node:crypto";
import { commitRecords, currentRecords, fieldValue, STAMP_FIELD, type RecordWrite } from "../client/records";
import { withWriteContext } from "../client/writeRecord";
import { cell } from "./tools/answers";
import type { AgentOrg, ProposedChange, Scalar } from "./tools/kit";

type Row = Record<string, unknown>;

interface HeldChange extends ProposedChange {
  /** update/delete: the record's values of the changed fields, and its stamp, when proposed. */
  before?: Record<string, unknown>;
  stamp?: string;
}

export interface ChangeSet {
  id: string;
  org: string;
  changes: HeldChange[];
  proposedAt: number;
  applied?: boolean;
}

const key15 = (id: string) => id.slice(0, 15);
const KEEP_MS = 60 * 60_000;
const KEEP_SETS = 100;

export class ChangeSets {
  private readonly sets = new Map<string, ChangeSet>();

  constructor(private readonly now: () => number = Date.now) {}

  async propose(org: AgentOrg, changes: ProposedChange[]): Promise<string> {
    const held: HeldChange[] = changes.map((c) => ({ ...c }));
    const current = await readCurrent(org, held.filter((c) => c.id), (c) => Object.keys(c.fields));
    const missing: string[] = [];
    for (const change of held) {
      if (!change.id) continue;
      const record = current.get(key15(change.id));
      if (!record) missing.push(`${change.object} ${change.id}`);
      else {
        change.before = Object.fromEntries(Object.keys(change.fields).map((f) => [f, fieldValue(record, f) ?? null]));
        change.stamp = String(fieldValue(record, STAMP_FIELD));
      }
    }
    if (missing.length) throw new Error(`these records are not in ${org.name} (or this user cannot see them), so nothing was proposed: ${missing.join(", ")}`);
    this.forgetOld();
    const set: ChangeSet = { id: `cs-${randomUUID().slice(0, 8)}`, org: org.name, changes: held, proposedAt: this.now() };
    this.sets.set(set.id, set);
    return [
      `Change set ${set.id}: ${summary(held)}. Nothing was sent.`,
      ...held.map(preview),
      `To apply: crm_apply_changes { "changeSetId": "${set.id}" } (needs write access; records changed in the org meanwhile are left out).`,
    ].join("\n");
  }

  /** Applies a change set: each write's record carries the values it replaces and the change set it belongs to. */
  async apply(org: AgentOrg, id: string): Promise<string> {
    const set = this.sets.get(id);
    if (!set) throw new Error(`there is no change set ${id} (change sets are kept for an hour by the server that proposed them)`);
    if (set.org !== org.name) throw new Error(`change set ${id} was proposed for ${set.org}, not ${org.name}`);
    if (set.applied) throw new Error(`change set ${id} was applied already`);
    const writes: RecordWrite[] = set.changes.map((c) => c.operation === "create"
      ? { operation: "create", object: c.object, fields: c.fields }
      : c.operation === "update"
        ? { operation: "update", object: c.object, id: c.id!, stamp: c.stamp, fields: c.fields, ...(c.before ? { before: c.before } : {}) }
        : { operation: "delete", object: c.object, id: c.id!, stamp: c.stamp });
    // The records kit's commit engine: a record changed or deleted since the proposal is a conflict, not written.
    const { outcomes } = await withWriteContext({ group: { id: set.id } }, () => commitRecords(org.crm, writes));
    set.applied = true;
    const lines: string[] = [];
    const written = outcomes.filter((o) => o.state === "written").length;
    lines.push(`Change set ${set.id} applied to ${org.name}: ${written} of ${set.changes.length} change${set.changes.length === 1 ? "" : "s"} written.`);
    set.changes.forEach((change, i) => {
      const outcome = outcomes[i]!;
      if (outcome.state === "conflict") return;
      const what = `${change.operation} ${change.object} ${outcome.result.id || change.id || ""}`.trim();
      lines.push(outcome.state === "written" ? `- done: ${what}` : `- refused: ${what}: ${outcome.result.errors.map((e) => e.message).join(" ") || "the org gave no reason"}`);
    });
    set.changes.forEach((c, i) => {
      const outcome = outcomes[i]!;
      if (outcome.state === "conflict") lines.push(`- not written (conflict): ${c.operation} ${c.object} ${c.id} — ${outcome.why} in the org since it was proposed; read it again and propose anew`);
    });
    return lines.join("\n");
  }

  get(id: string): ChangeSet | undefined {
    return this.sets.get(id);
  }

  private forgetOld(): void {
    const now = this.now();
    for (const [id, set] of this.sets) if (now - set.proposedAt > KEEP_MS) this.sets.delete(id);
    while (this.sets.size >= KEEP_SETS) this.sets.delete(this.sets.keys().next().value!);
  }
}

/** The current values of the changes' records (the named fields and SystemModstamp), by 15-character ID. */
async function readCurrent(org: AgentOrg, changes: HeldChange[], fieldsOf: (c: HeldChange) => string[]): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  const byObject = new Map<string, HeldChange[]>();
  for (const c of changes) byObject.set(c.object, [...(byObject.get(c.object) ?? []), c]);
  for (const [object, list] of byObject) {
    for (const [id, row] of await currentRecords(org.crm, object, list.map((c) => c.id!), [...new Set(list.flatMap(fieldsOf))])) found.set(id, row);
  }
  return found;
}

function summary(changes: ProposedChange[]): string {
  const count = (op: string) => changes.filter((c) => c.operation === op).length;
  return (["create", "update", "delete"] as const).filter((op) => count(op)).map((op) => `${count(op)} ${op}${count(op) === 1 ? "" : "s"}`).join(", ");
}

const shown = (v: Scalar | unknown) => (v === null || v === undefined ? "(empty)" : JSON.stringify(cell(v)));

function preview(c: HeldChange): string {
  if (c.operation === "delete") return `- delete ${c.object} ${c.id}`;
  const fields = Object.entries(c.fields).map(([f, v]) => `${f}: ${c.before ? `${shown(c.before[f])} → ` : ""}${shown(v)}`);
  return `- ${c.operation} ${c.object}${c.id ? ` ${c.id}` : ""}: ${fields.join("; ")}`;
}
