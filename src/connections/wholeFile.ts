/**
 * A file written whole or not at all: a temporary file beside it, renamed over it. A process killed half way
 * through a save leaves the old file, never half of the new one — what a record read after a crash relies on.
 */
import { rename, writeFile } from "node:fs/promises";

export async function writeWhole(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
