// Scratch files for a test file: one temporary directory, removed when the test file ends.
import { after } from "node:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeOnExit } from "./cleanup.js";

/** A directory named `prefix…`, and `file(name, body)` that writes a file in it (a body not a string as JSON) and returns its path. */
export function scratchFiles(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  removeOnExit(dir); // also when the file is cut before its after hooks
  const file = (name: string, body: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof body === "string" ? body : JSON.stringify(body));
    return path;
  };
  return { dir, file };
}
