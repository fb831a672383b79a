// Scratch files for a test file: one temporary directory, removed when the test file ends.
import { after } from "node:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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

/**
 * Resolves with what `pick` finds in `file`'s text once it finds something (watching its folder), or
 * rejects after `ms` saying the file has `missing`: for files another process writes.
 */
export function whenFileHas<T>(file: string, pick: (text: string) => T | undefined, missing: string, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(file), () => check());
    const timer = setTimeout(() => (watcher.close(), reject(new Error(`${file} has ${missing} after ${ms} ms`))), ms);
    const check = () => {
      const found = existsSync(file) ? pick(readFileSync(file, "utf8")) : undefined;
      if (found === undefined) return;
      clearTimeout(timer);
      watcher.close();
      resolve(found);
    };
    check();
  });
}
