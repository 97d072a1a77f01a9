/** The grid's keyboard: moving and extending the selection, editing, opening, and where a mouse event landed. */
import { moveTo, paintSelection, statsSoon } from "./selection";
import { toggleChildren } from "./children";
import { editable, startEdit, clearSelection } from "./editors";
import { ROW_HEIGHT, type At, type Grid, activeAt, columnAt, rowOf } from "./model";
import { send, page } from "./page";

export function onKey(e: KeyboardEvent): void {
  const g = page.grid;
  if (!g || !g.summary.viewSize || g.editing) return;
  const rowsPerPage = Math.max(1, Math.floor(page.scroller!.clientHeight / ROW_HEIGHT) - 1);
  const { row, pos } = activeAt(g);
  const mod = e.ctrlKey || e.metaKey;
  const last = g.visible.length - 1;
  const extend = { extend: e.shiftKey };
  const keys: Record<string, () => void> = {
    ArrowDown: () => moveTo(g, mod ? g.summary.viewSize - 1 : row + 1, pos, extend),
    ArrowUp: () => moveTo(g, mod ? 0 : row - 1, pos, extend),
    ArrowRight: () => moveTo(g, row, mod ? last : pos + 1, extend),
    ArrowLeft: () => moveTo(g, row, mod ? 0 : pos - 1, extend),
    PageDown: () => moveTo(g, row + rowsPerPage, pos, extend),
    PageUp: () => moveTo(g, row - rowsPerPage, pos, extend),
    Home: () => moveTo(g, mod ? 0 : row, 0, extend),
    End: () => moveTo(g, mod ? g.summary.viewSize - 1 : row, last, extend),
    Enter: () => activate(g),
    F2: () => startEdit(g, row, pos),
    " ": () => activate(g),
    Delete: () => clearSelection(g),
    Backspace: () => clearSelection(g),
  };
  if (mod && e.key.toLowerCase() === "a") {
    g.selections = [{ anchor: { row: 0, pos: 0 }, active: { row: g.summary.viewSize - 1, pos: last } }];
    paintSelection(g);
    statsSoon(g);
  } else if (keys[e.key] && !(e.altKey && e.key.startsWith("Arrow"))) keys[e.key]!();
  else if (e.key.length === 1 && !mod && !e.altKey && editable(g, row, pos) && columnAt(g, pos)!.editor!.kind !== "checkbox") startEdit(g, row, pos, e.key); // typing replaces the value
  else return;
  e.preventDefault();
}

/** Enter on a cell: edit it, open the ID it holds, or show / hide its child rows. */
function activate(g: Grid): void {
  const { row, pos } = activeAt(g);
  const c = g.visible[pos]!;
  const cell = rowOf(g, row)?.cells[c];
  const column = g.summary.columns[c];
  if (cell && typeof cell === "object") toggleChildren(g, row, c);
  else if (editable(g, row, pos)) startEdit(g, row, pos);
  else if (typeof cell === "string" && column?.ids) send({ type: "openId", id: cell });
}

export function cellFromEvent(e: MouseEvent): At | undefined {
  const cell = (e.target as HTMLElement).closest<HTMLElement>("[role=gridcell]");
  const rowNode = cell?.closest<HTMLElement>("[data-row]");
  return cell && rowNode && cell.dataset.pos !== undefined ? { row: Number(rowNode.dataset.row), pos: Number(cell.dataset.pos) } : undefined;
}

// ---- editing ---------------------------------------------------------------------------------
