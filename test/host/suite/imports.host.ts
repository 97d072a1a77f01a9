/**
 * Check Interrupted Imports in the real host: an import that lost its answer after the org ran its job is read
 * back from the org — its result files beside the CSV, its entry in Write History — and is then no longer waiting.
 */
import * as assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { api, demoConnection } from "./env";

export function registerImportTests(): void {
  suite("interrupted imports", () => {
    test("an import that lost its answer is read back from the org: result files beside the CSV, one Write History entry", async () => {
      const { manager, journal, imports } = await api();
      const record = await manager.add({ method: "password", alias: "Host imports", connection: demoConnection() });
      const crm = (await manager.session(record.key)).crm;
      const csv = path.join(mkdtempSync(path.join(tmpdir(), "crm-import-check-")), "contacts.csv");
      writeFileSync(csv, ["LastName,Email", ...Array.from({ length: 40 }, (_, i) => `Interrupted ${i},interrupted${i}@example.com`)].join("\n") + "\n");
      // The import as the command starts it, whose answer is then lost (a dropped connection): the org has run its job.
      const flight = await imports.begin({ orgKey: record.key, file: vscode.Uri.file(csv).toString(), object: "Contact", operation: "insert", rows: 40 });
      await crm.bulk.ingest({ object: "Contact", operation: "insert" }, readFileSync(csv, "utf8"), { onJob: flight.noteJob, collectionsBelow: 0 });
      flight.abandon();
      assert.deepEqual((await imports.interrupted()).map((f) => f.id), [flight.record.id]);
      const history0 = await journal();
      const entries = history0.list(record.key).length;

      // The check ends with a message naming what the org did, which waits for the person: the test waits for the
      // import's entry in Write History instead, which the check records once the result files are written.
      const recorded = new Promise<void>((resolve) => {
        const listener = history0.onDidChange(() => {
          if (history0.list(record.key).length > entries) {
            listener.dispose();
            resolve();
          }
        });
      });
      void vscode.commands.executeCommand("crm.data.checkInterruptedImports");
      await recorded;

      const success = readFileSync(csv.replace(/\.csv$/, ".success.csv"), "utf8").trimEnd().split("\n");
      assert.equal(success.length, 41, "a header and the 40 rows the org wrote");
      const ids = success.slice(1).map((line) => line.split(",")[0]!.replace(/"/g, ""));
      const inOrg = (await crm.soqlQuery<{ Id: string }>("SELECT Id FROM Contact WHERE LastName LIKE 'Interrupted %'")).records.map((r) => r.Id);
      assert.deepEqual(ids.sort(), inOrg.sort());
      const history = (await journal()).list(record.key);
      assert.equal(history.length, entries + 1, "one entry for the import");
      assert.deepEqual(history[0]!.records.map((r) => r.id).sort(), inOrg.sort());
      assert.deepEqual(await imports.interrupted(), [], "checked: no longer waiting");
    });
  });
}
