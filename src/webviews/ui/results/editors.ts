/** Cell editors by field type: opened over a cell, checked as the host will check, staged at the host. */
import * as l10n from "@vscode/l10n";
import { el } from "../dom";
import { parseCellInput, type CellEditor } from "../../../shared/cellInput";
import { type Cell } from "../../../shared/resultTable";
import { drawNow, schedule } from "./drawing";
import { moveTo } from "./selection";
import { type At, type Grid, columnAt, rowOf, cellId, ranges } from "./model";
import { send, page } from "./page";

export function editable(g: Grid, v: number, pos: number): boolean {
  const column = columnAt(g, pos);
  const row = rowOf(g, v);
  return !!(g.summary.editObject && column?.editor && row && row.row?.state !== "deleted" && row.row?.state !== "toDelete");
}

/** A staged value shown at once (the host's answer follows); `note` says what it was. */
function showStaged(g: Grid, v: number, c: number, value: Cell): void {
  const row = rowOf(g, v);
  if (!row) return;
  row.cells[c] = value;
  row.marks = { ...row.marks, [c]: { state: "staged" } };
  g.rendered.get(v)?.remove();
  g.rendered.delete(v);
  schedule();
}

function stage(g: Grid, v: number, c: number, text: string, value: Cell): void {
  const row = rowOf(g, v);
  if (!row) return;
  showStaged(g, v, c, value);
  send({ type: "edit", index: row.index, column: c, text });
}

/** ISO datetime → the local "YYYY-MM-DDTHH:MM:SS" a datetime-local input shows. */
function localDateTime(iso: string): string {
  const d = new Date(iso.replace(/\+0000$/, "Z"));
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function editorElement(editor: CellEditor, value: Cell | undefined, typed?: string): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  const text = typed ?? (value === null || value === undefined || typeof value === "object" ? "" : String(value));
  const label = l10n.t("Edit {0}", editor.field);
  if (editor.kind === "picklist" || editor.kind === "multipicklist") {
    const multi = editor.kind === "multipicklist";
    const chosen = new Set(multi ? text.split(";").filter(Boolean) : [text]);
    const options = [...(editor.options ?? [])];
    for (const v of chosen) if (v && !options.includes(v)) options.push(v); // a value the picklist no longer offers stays shown
    const select = el("select", { "aria-label": label, class: multi ? "editor popup" : "editor" });
    if (multi) {
      select.multiple = true;
      select.size = Math.min(8, Math.max(3, options.length));
    } else select.append(el("option", { value: "" }, l10n.t("(none)")));
    for (const o of options) {
      const option = el("option", { value: o }, o);
      option.selected = chosen.has(o);
      select.append(option);
    }
    return select;
  }
  if (editor.kind === "textarea") {
    const area = el("textarea", { "aria-label": label, class: "editor popup", rows: "5" });
    area.value = text;
    return area;
  }
  const input = el("input", { "aria-label": label, class: "editor", type: editor.kind === "date" ? "date" : editor.kind === "datetime" ? "datetime-local" : "text" });
  if (editor.kind === "datetime") input.step = "1";
  if (editor.kind === "number") input.inputMode = "decimal";
  input.value = editor.kind === "datetime" && typed === undefined ? localDateTime(text) : text;
  return input;
}

function editorValue(node: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): string {
  if (node instanceof HTMLSelectElement && node.multiple) return [...node.selectedOptions].map((o) => o.value).join(";");
  return node.value;
}

/** Opens the cell's editor (a checkbox toggles at once). `typed` starts it with that text; `error` shows why the last text was refused. */
export function startEdit(g: Grid, v: number, pos: number, typed?: string, error?: string): void {
  if (!editable(g, v, pos)) {
    const column = columnAt(g, pos);
    if (g.summary.editObject && column?.kind === "value" && page.notice) page.notice.textContent = l10n.t("Read-only: {0}", column.readOnly ?? l10n.t("this cell cannot be edited."));
    return;
  }
  const c = g.visible[pos]!;
  const editor = g.summary.columns[c]!.editor!;
  const value = rowOf(g, v)!.cells[c];
  if (editor.kind === "checkbox" && typed === undefined && !error) {
    stage(g, v, c, String(value !== true), value !== true);
    return;
  }
  g.editing?.close();
  // The row may be waiting for its frame (the active cell just moved onto it): draw it now.
  if (!document.getElementById(cellId(v, c))) drawNow();
  const cellNode = document.getElementById(cellId(v, c));
  if (!cellNode) return;
  openEditor(g, {
    cell: cellNode, editor, value, typed, error, at: { row: v, pos }, refocus: () => page.scroller?.focus(),
    accept: (text, parsed, key) => {
      stage(g, v, c, text, parsed);
      if (key?.tab) moveTo(g, v, pos + (key.shift ? -1 : 1));
      else if (key) moveTo(g, v + (key.shift ? -1 : 1), pos);
    },
  });
}

interface EditorRequest {
  cell: HTMLElement;
  editor: CellEditor;
  value: Cell | undefined;
  typed?: string;
  error?: string;
  /** Where the grid's editor is (child tables: nowhere in the grid). */
  at: At;
  refocus: () => void;
  /** A checked value: its text, the value, and the key that kept it (Enter or Tab, with Shift); none on blur. */
  accept: (text: string, value: Cell, key?: { tab: boolean; shift: boolean }) => void;
}

/** An editor over a cell: Enter or Tab keeps a value the field can take (else says why), Escape cancels, leaving keeps it. */
export function openEditor(g: Grid, request: EditorRequest): void {
  g.editing?.close();
  const { cell, editor } = request;
  const input = editorElement(editor, request.value, request.typed);
  const message = el("div", { class: "edit-error", role: "alert" }, request.error ?? "");
  if (!request.error) message.hidden = true;
  const host = el("div", { class: "edit-host" }, input, message);
  cell.classList.add("editing");
  cell.append(host);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    host.remove();
    cell.classList.remove("editing");
    if (g.editing?.close === close) g.editing = undefined;
    request.refocus();
  };
  g.editing = { ...request.at, close };
  const commit = (key?: { tab: boolean; shift: boolean }) => {
    const text = editorValue(input);
    const parsed = parseCellInput(text, editor);
    if (!parsed.ok) {
      message.textContent = parsed.error;
      message.hidden = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    close();
    request.accept(text, parsed.value, key);
  };
  input.addEventListener("keydown", (e) => {
    e.stopPropagation();
    const k = e as KeyboardEvent;
    if (k.key === "Escape") {
      e.preventDefault();
      close();
    } else if (k.key === "Enter") {
      if (input instanceof HTMLTextAreaElement && (k.shiftKey || k.altKey)) return; // a new line in a long text
      e.preventDefault();
      commit({ tab: false, shift: k.shiftKey });
    } else if (k.key === "Tab") {
      e.preventDefault();
      commit({ tab: true, shift: k.shiftKey });
    }
  });
  input.addEventListener("blur", () => setTimeout(() => !closed && document.activeElement !== input && commit(), 0));
  input.focus();
  if (input instanceof HTMLInputElement && request.typed !== undefined) input.setSelectionRange(input.value.length, input.value.length);
}

/** Delete or Backspace over a selection: every editable selected cell is staged empty (a checkbox false). */
export function clearSelection(g: Grid): void {
  if (!g.summary.editObject) return;
  const range = ranges(g)[g.selections.length - 1]!;
  send({ type: "paste", row: range.top, columns: range.columns, text: "", selection: range });
}
