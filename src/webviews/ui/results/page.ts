/** The results page's link to its host and the parts of the page the other modules draw into. */
import type { ResultsToHost } from "../../protocol/results";
import { connect } from "../dom";
import type { Grid } from "./model";

export const host = connect<ResultsToHost>();
export const app = document.getElementById("app")!;
export const send = (message: ResultsToHost) => host.postMessage(message);
export const refresh = () => send({ type: "refresh" });

/** What is on the page now: the grid's state and the nodes that outlive a patch (a new run builds them again). */
export const page: {
  grid?: Grid;
  scroller?: HTMLElement;
  body?: HTMLElement;
  header?: HTMLElement;
  status?: HTMLElement;
  notice?: HTMLElement;
  toolbar?: HTMLElement;
  selectionLine?: HTMLElement;
  stagedLine?: HTMLElement;
} = {};
