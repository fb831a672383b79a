// A SQLite store file with damaged pages is refused when the store opens (and `elicit serve --store`
// refuses to start, naming the file and what to do), instead of failing at whichever request first
// reads a damaged page. The files are real: a store written through sqliteStore, then bytes overwritten.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sqliteStore, StoreFileDamagedError } from "../../src/store/sqlite.js";
import { killOnExit, removeOnExit } from "../helpers/cleanup.js";
import { freePort } from "../helpers/processes.js";

const PAGE = 4096;
const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
let scratch: string;

before(() => {
  scratch = mkdtempSync(join(tmpdir(), "mcp-elicit-damaged-"));
  removeOnExit(scratch);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A store file of about 120 pages (2,000 rows), closed (its WAL folded in), then `damage` at byte `offset`. */
async function damagedFile(name: string, offset: number, damage: Buffer): Promise<string> {
  const file = join(scratch, name);
  const store = sqliteStore(file);
  for (let i = 0; i < 2000; i++) await store.set(`flow:${i}`, "v".repeat(200), 3_600_000);
  await store.close();
  assert.ok(statSync(file).size > offset + damage.length, "the file is longer than the damage");
  const fd = openSync(file, "r+");
  writeSync(fd, damage, 0, damage.length, offset);
  closeSync(fd);
  return file;
}

test("a page overwritten with garbage: refused at open, naming the file and what to do", { timeout: 60_000 }, async () => {
  const file = await damagedFile("garbage.db", 19 * PAGE, Buffer.alloc(PAGE, 0xa5));
  assert.throws(
    () => sqliteStore(file),
    (error: Error) =>
      error instanceof StoreFileDamagedError &&
      error.path === file &&
      error.message.includes(`The store file ${file} is damaged`) &&
      /malformed/.test(error.message) &&
      /Restore it from a backup, or move it aside/.test(error.message),
  );
});

test("a damaged cell pointer: SQLite's own findings are quoted (at most 3)", { timeout: 60_000 }, async () => {
  // Bytes 12.. of a leaf page are its cell pointers: quick_check lists the cells that point outside it.
  const file = await damagedFile("pointers.db", 19 * PAGE + 12, Buffer.alloc(8, 0xff));
  let caught: unknown;
  try {
    sqliteStore(file);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof StoreFileDamagedError, String(caught));
  assert.ok(caught.problems.length >= 1 && caught.problems.length <= 3, caught.problems.join(" | "));
  assert.match(caught.problems[0]!, /page 20 cell \d+: Offset \d+ out of range/);
});

test("a file that is not a database at all: the same clear refusal", { timeout: 30_000 }, () => {
  const file = join(scratch, "notes.txt");
  writeFileSync(file, "these are my notes, not a database\n".repeat(200));
  assert.throws(
    () => sqliteStore(file),
    (error: Error) => error instanceof StoreFileDamagedError && /not a database/.test(error.message),
  );
});

test("a sound file opens and keeps its rows", { timeout: 30_000 }, async () => {
  const file = join(scratch, "sound.db");
  const first = sqliteStore(file);
  await first.set("k", "v", 60_000);
  await first.close();
  const again = sqliteStore(file);
  assert.equal(await again.get("k"), "v");
  await again.close();
});

test("elicit serve --store on a damaged file refuses to start, and says why", { timeout: 90_000 }, async () => {
  const file = await damagedFile("serve.db", 19 * PAGE, Buffer.alloc(PAGE, 0xa5));
  const port = await freePort();
  const child = killOnExit(
    spawn(process.execPath, ["--import", "tsx", MAIN, "serve", "travel", "--http", `127.0.0.1:${port}`, "--store", file], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, MCP_ELICIT_VAULT_KEY: randomBytes(32).toString("base64url") },
    }),
  );
  let output = "";
  const seen = (chunk: Buffer) => {
    output += chunk;
    // Started on the damaged file: the test fails now, not at its deadline.
    if (output.includes("listening on")) child.kill("SIGKILL");
  };
  child.stdout.on("data", seen);
  child.stderr.on("data", seen);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  assert.equal(code, 2, output);
  assert.match(output, new RegExp(`elicit serve: cannot start: The store file ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is damaged`));
  assert.match(output, /Restore it from a backup, or move it aside to start with an empty store/);
  assert.doesNotMatch(output, /listening on/);
});
