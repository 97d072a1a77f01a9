/**
 * The grid's frames: any module asks for one (schedule) or for the rows drawn afresh (redraw); the body, which
 * draws the rows, says once how (drawsWith). The modules that ask never import the body, and the body imports them.
 */
import { headerCells } from "./columns";
import { page } from "./page";

let drawRows: () => void = () => undefined;
let frame = 0;

export function drawsWith(draw: () => void): void {
  drawRows = draw;
}

export function schedule(): void {
  if (!frame) frame = requestAnimationFrame(() => ((frame = 0), drawRows()));
}

/** Draws the rows now (a cell an editor opens on must exist before the frame). */
export function drawNow(): void {
  drawRows();
}

/** Throws away the drawn rows (after a selection, expansion or data change) and draws again; the header too when columns changed. */
export function redraw(columnsChanged = false): void {
  const g = page.grid;
  if (!g) return;
  g.editing?.close();
  for (const node of g.rendered.values()) node.remove();
  g.rendered.clear();
  if (columnsChanged && page.header) page.header.replaceChildren(...headerCells(g));
  schedule();
}
