/**
 * The extension host's side of the results panel, in the benchmark page: 50,000 rows shaped like the
 * emulator's Big_Table__c kept in a ResultTable with its GridEdits, answering the grid's `ready`, `rows`,
 * `view`, `edit` and `paste` requests the way src/webviews/resultsPanel.ts does (same message shapes,
 * checked by the same validators). Name, Amount__c and Stage__c edit, as the org's describe would say.
 */
import { editorFor } from "../../src/shared/cellInput";
import { parseResultsRequest, parseResultsUpdate, type HostToResults, type ResultsSummary } from "../../src/webviews/protocol/results";
import { ResultTable } from "../../src/shared/resultTable";
import { GridEdits } from "../../src/webviews/gridEdits";

const ROWS = 50_000;
const table = new ResultTable({ columns: ["Id", "Name", "Amount__c", "Stage__c", "Account__r.Name", "CreatedDate"].map((path) => ({ path })) });
const started = performance.now();
const records = Array.from({ length: ROWS }, (_, i) => ({
  attributes: { type: "Big_Table__c" },
  Id: `a0X${String(i).padStart(12, "0")}AAA`,
  Name: `Row ${String(i + 1).padStart(5, "0")}`,
  Amount__c: ((i * 7919) % 100000) / 100,
  Stage__c: ["One", "Two", "Three"][i % 3],
  Account__r: { attributes: { type: "Account" }, Name: `Account ${i % 300}` },
  CreatedDate: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
}));
for (let page = 0; page < ROWS; page += 2000) table.append(records.slice(page, page + 2000));
const editors = { Name: editorFor({ name: "Name", type: "string", length: 80 }), Amount__c: editorFor({ name: "Amount__c", type: "currency", scale: 2 }), Stage__c: editorFor({ name: "Stage__c", type: "picklist", restrictedPicklist: true, picklistValues: ["One", "Two", "Three"].map((value) => ({ value })) }) };
for (const column of table.columns) {
  const editor = editors[column.path as keyof typeof editors];
  if (editor) column.editor = editor;
  else column.readOnly = "Not editable in the bench.";
}
const edits = new GridEdits(table);
(window as unknown as { hostLoadMs: number }).hostLoadMs = performance.now() - started;

const summary = (): ResultsSummary => ({
  alias: "Bench org", api: "soql", query: "SELECT Id, Name, Amount__c, Stage__c, Account__r.Name, CreatedDate FROM Big_Table__c",
  columns: table.columns, fetched: ROWS, totalSize: ROWS, more: false, fetching: false, viewSize: table.viewSize, viewVersion: table.version,
  sort: table.viewSpec.sort, filter: table.viewSpec.filter ?? "", elapsedMs: 0, ranAt: new Date(0).toISOString(),
  editObject: "Big_Table__c", staged: edits.count, layout: { hidden: [], order: [], frozen: 0 },
});

const reply = (message: HostToResults) => {
  if (!parseResultsUpdate(message)) throw new Error(`the bench host sent a message the panel refuses: ${message.type}`);
  // Asynchronous, like a real webview's messages.
  setTimeout(() => window.postMessage(message, "*"), 0);
};

(window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
  setState() {},
  getState: () => undefined,
  postMessage(raw: unknown) {
    const request = parseResultsRequest(raw);
    if (!request) throw new Error(`the grid sent a malformed message: ${JSON.stringify(raw)}`);
    if (request.type === "ready") reply({ type: "results", summary: summary() });
    else if (request.type === "rows") reply({ type: "rows", viewVersion: table.version, start: request.start, rows: edits.decorate(table.window(request.start, request.count)) });
    else if (request.type === "edit") {
      const refused = edits.stage(request.index, request.column, request.text);
      reply(refused ? { type: "editRefused", index: request.index, column: request.column, text: request.text, message: refused } : { type: "edits", ...edits.count });
    } else if (request.type === "paste") {
      edits.paste(request.text, { row: request.row, columns: request.columns }, request.selection);
      reply({ type: "edits", ...edits.count });
    }
    else if (request.type === "view") {
      table.setView({ sort: request.sort, filter: request.filter });
      reply({ type: "results", summary: summary() });
    }
  },
});
