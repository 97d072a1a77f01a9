/** The client's temporary work folders: one a killed process left behind goes when the next is made; a running process's stays. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { workFolder } from "../../../src/client/workFolders";

test("a work folder whose process is gone (killed half way) is removed when the next one is made; those of running processes stay", () => {
  // A process that has ended: its ID names no running process (while no other takes it in the meantime).
  const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
  const orphan = path.join(tmpdir(), `crm-migration-${gone}-test${Date.now()}`);
  const running = path.join(tmpdir(), `crm-bulk-${process.ppid}-test${Date.now()}`);
  const unrelated = path.join(tmpdir(), `crm-emulator-${gone}-test${Date.now()}`);
  for (const dir of [orphan, running, unrelated]) {
    mkdirSync(dir);
    writeFileSync(path.join(dir, "ids Account.0.table"), "left behind");
  }
  let mine: string | undefined;
  try {
    mine = workFolder("migration");
    assert.match(path.basename(mine), new RegExp(`^crm-migration-${process.pid}-`), "named with this process");
    assert.equal(existsSync(orphan), false, "the killed process's folder is gone");
    assert.equal(existsSync(running), true, "a running process's folder stays");
    assert.equal(existsSync(unrelated), true, "a folder not of this kind stays");
  } finally {
    for (const dir of [orphan, running, unrelated, mine]) if (dir) rmSync(dir, { recursive: true, force: true });
  }
});
