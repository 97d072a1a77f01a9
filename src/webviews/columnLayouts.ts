/** Column layouts (hidden, order, frozen) remembered per statement, so a query run again looks as it was left. */
import type { KeyValueStore } from "../connections/orgRegistry";
import type { ColumnLayout } from "./protocol/results";
import type { RunSpec } from "../shared/runSpec";

const EMPTY: ColumnLayout = { hidden: [], order: [], frozen: 0 };
const MAX_LAYOUTS = 200;
const KEY = "crm.grid.layouts";

/** The statement as a key: its API and text with spacing and case of keywords aside. */
const keyOf = (spec: RunSpec) => `${spec.api}:${spec.text.replace(/\s+/g, " ").trim()}`;

export function layoutStore(memento: KeyValueStore) {
  const all = () => memento.get<Record<string, ColumnLayout>>(KEY, {});
  return {
    get: (spec: RunSpec): ColumnLayout => all()[keyOf(spec)] ?? EMPTY,
    set: async (spec: RunSpec, layout: ColumnLayout): Promise<void> => {
      const { [keyOf(spec)]: _old, ...rest } = all();
      const kept = Object.entries(rest).slice(-(MAX_LAYOUTS - 1)); // the oldest layouts make way
      const isDefault = !layout.hidden.length && !layout.order.length && !layout.frozen;
      await memento.update(KEY, Object.fromEntries(isDefault ? kept : [...kept, [keyOf(spec), layout]]));
    },
  };
}
