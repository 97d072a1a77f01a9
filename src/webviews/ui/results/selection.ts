/** Moving the selection: the active cell kept on screen, the selected cells marked, the selection's figures asked for once it settles. */
import { ROW_HEIGHT, type Grid, current, activeAt, rowTop, isSelected, cellId, ranges } from "./model";
import { schedule } from "./drawing";
import { page, send } from "./page";

export function moveTo(g: Grid, row: number, pos: number, mode: { extend?: boolean; add?: boolean } = {}): void {
  const rows = g.summary.viewSize, cols = g.visible.length;
  const active = { row: Math.max(0, Math.min(rows - 1, row)), pos: Math.max(0, Math.min(cols - 1, pos)) };
  if (mode.extend) current(g).active = active;
  else if (mode.add) g.selections.push({ anchor: active, active });
  else g.selections = [{ anchor: active, active }];
  // Keep the active cell on screen.
  const top = rowTop(g, active.row);
  if (top < page.scroller!.scrollTop + ROW_HEIGHT) page.scroller!.scrollTop = Math.max(0, top - ROW_HEIGHT);
  else if (top + ROW_HEIGHT > page.scroller!.scrollTop + page.scroller!.clientHeight) page.scroller!.scrollTop = top + 2 * ROW_HEIGHT - page.scroller!.clientHeight;
  paintSelection(g);
  schedule();
  statsSoon(g);
}

/** Marks the selected and the active cell on the rows drawn (without rebuilding them: a click must land on the node it pressed). */
export function paintSelection(g: Grid): void {
  const active = activeAt(g);
  for (const [v, node] of g.rendered) {
    for (const cell of node.querySelectorAll<HTMLElement>(":scope > [role=gridcell]")) {
      const pos = Number(cell.dataset.pos);
      cell.classList.toggle("selected", isSelected(g, v, pos));
      const isActive = v === active.row && pos === active.pos;
      cell.classList.toggle("active", isActive);
      if (isActive) cell.setAttribute("aria-selected", "true");
      else cell.removeAttribute("aria-selected");
    }
  }
  const activeCell = document.getElementById(cellId(active.row, g.visible[active.pos] ?? 0));
  if (activeCell) page.scroller?.setAttribute("aria-activedescendant", activeCell.id);
}

let statsTimer = 0;
/** Asks for the selection's figures once the selection settles (a drag moves it many times). */
export function statsSoon(g: Grid): void {
  clearTimeout(statsTimer);
  statsTimer = window.setTimeout(() => page.grid === g && send({ type: "stats", ranges: ranges(g) }), 120);
}
