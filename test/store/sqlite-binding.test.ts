// sqliteStore(path) with no binding named: better-sqlite3 when it is installed, else Node's own node:sqlite,
// so an install without the native addon still has a durable store. Each case is a real Node process;
// "not installed" is a resolve hook (fixtures/without-better-sqlite3.mjs) that refuses the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchFiles } from "../helpers/files.js";

const files = scratchFiles("mcp-elicit-binding-");
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));

function probe(imports: string[], file: string): Promise<{ value: string; loaded: string[]; nodeSqlite: boolean }> {
  const args = [...imports.flatMap((path) => ["--import", path]), "--import", "tsx", fixture("default-binding-probe.ts"), file];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

test("without better-sqlite3 the default store is node:sqlite, and reads back what it wrote", async () => {
  const { value, loaded, nodeSqlite } = await probe([fixture("without-better-sqlite3.mjs")], join(files.dir, "plain.db"));
  assert.equal(value, "v\u0000w");
  assert.deepEqual(loaded, []);
  assert.equal(nodeSqlite, true, "Node's own SQLite was loaded");
});

test("with better-sqlite3 installed the default store uses it, on the same file format", async () => {
  const file = join(files.dir, "shared.db");
  await probe([fixture("without-better-sqlite3.mjs")], file); // written by node:sqlite first
  const { value, loaded, nodeSqlite } = await probe([], file);
  assert.equal(value, "v\u0000w");
  assert.ok(loaded.length > 0, "better-sqlite3 was loaded");
  assert.equal(nodeSqlite, false);
});
