// The embedded durable store: one SQLite file, WAL journal so readers never block the writer, so what a
// server remembers survives a restart. Several processes on one machine may share the file; a fleet on
// several machines needs Redis. The SQL is sql/sql-store.ts; this file opens the file with a binding:
// bun:sqlite under Bun, else better-sqlite3 when it is installed, else Node's own node:sqlite, so a plain
// install builds no native addon.
import { ElicitError } from "../schema/errors.js";
import { CREATE_TABLE, sqlStore, type SqlStoreOptions } from "./sql/sql-store.js";
import { betterSqlite3Driver } from "./sql/better-sqlite3.js";
import { nodeSqliteDriver, type NodeSqliteDatabase } from "./sql/node-sqlite.js";
import { bunSqliteDriver } from "./sql/bun-sqlite.js";
import type { SqlDriver } from "./sql/driver.js";
import type { KeyValueStore } from "./types.js";

/** The SQLite bindings sqliteStore can open a file with. */
export type SqliteBinding = "better-sqlite3" | "node:sqlite" | "bun:sqlite";

export interface SqliteStoreOptions extends Pick<SqlStoreOptions, "sweepMs"> {
  /**
   * Which binding opens the file (default: bun:sqlite under Bun, better-sqlite3 when installed, else
   * node:sqlite). Every binding reads and writes the same file format and table.
   */
  binding?: SqliteBinding;
}

/** The file is not a sound SQLite database: refused when the store opens, not at the first request that reads a bad page. */
export class StoreFileDamagedError extends ElicitError {
  constructor(
    readonly path: string,
    readonly problems: string[],
  ) {
    super(
      "store-file-damaged",
      `The store file ${path} is damaged (SQLite's check found: ${problems.join("; ")}). ` +
        `Restore it from a backup, or move it aside to start with an empty store (the flows, credentials and calls kept in it are then lost).`,
    );
  }
}

/** How many of SQLite's findings the error quotes (one damaged page can yield thousands). */
const PROBLEMS_SHOWN = 3;

/** A file opened by one binding: run a statement for its rows, and the driver the store then uses. */
interface OpenedFile {
  rows(sql: string): Array<Record<string, unknown>>;
  driver: SqlDriver;
  close(): void;
}

/** A file binding's driver answers synchronously. */
const opened = (driver: SqlDriver): OpenedFile => ({
  rows: (sql) => driver.query(sql, []) as Array<Record<string, unknown>>,
  driver,
  close: () => void driver.close?.(),
});

/** Node's require, made on first use: a Worker that imports mcp-elicit/store for another store never loads node:module. */
let nodeRequire: NodeJS.Require | undefined;
const require = (id: string) => {
  nodeRequire ??= process.getBuiltinModule("node:module").createRequire(import.meta.url);
  return nodeRequire(id);
};

function builtin<T>(id: string): T | undefined {
  try {
    return process.getBuiltinModule?.(id) as T | undefined;
  } catch {
    return undefined;
  }
}

function openWith(binding: SqliteBinding, path: string): OpenedFile {
  if (binding === "better-sqlite3") {
    const Sqlite = betterSqlite3();
    if (!Sqlite) throw new Error("sqliteStore was asked for better-sqlite3, which is not installed: npm install better-sqlite3");
    const db = new Sqlite(path);
    return opened(betterSqlite3Driver(db));
  }
  if (binding === "node:sqlite") {
    const sqlite = builtin<{ DatabaseSync: new (path: string) => NodeSqliteDatabase }>("node:sqlite");
    if (!sqlite)
      throw new Error(
        `sqliteStore needs node:sqlite (Node 22.13 or later; on 22.5 to 22.12 run node with --experimental-sqlite) or the better-sqlite3 package (npm install better-sqlite3); this is Node ${process.versions.node}`,
      );
    const db = new sqlite.DatabaseSync(path);
    return opened(nodeSqliteDriver(db));
  }
  const bun = builtin<{ Database: new (path: string, options: { create: boolean }) => import("./sql/bun-sqlite.js").BunSqliteDatabase }>(
    "bun:sqlite",
  );
  if (!bun) throw new Error("sqliteStore was asked for bun:sqlite, which only Bun has");
  const db = new bun.Database(path, { create: true });
  return opened(bunSqliteDriver(db));
}

/** The binding used when none is asked for: Bun's own, else better-sqlite3 when it is installed, else Node's own. */
function defaultBinding(): SqliteBinding {
  if (process.versions.bun) return "bun:sqlite";
  return betterSqlite3() ? "better-sqlite3" : "node:sqlite";
}

/** The better-sqlite3 package, or undefined when it is not installed (an install that fails to load still throws). */
function betterSqlite3(): typeof import("better-sqlite3") | undefined {
  try {
    return require("better-sqlite3");
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND" && /Cannot find module 'better-sqlite3'/.test((error as Error).message))
      return undefined;
    throw error;
  }
}

/** True for SQLITE_CORRUPT and SQLITE_NOTADB as each binding reports them (a code name, or node:sqlite's number). */
function isDamage(error: unknown): boolean {
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) return true;
  return typeof errcode === "number" && [11, 26].includes(errcode & 0xff);
}

function openFile(path: string, binding: SqliteBinding): OpenedFile {
  const file = openWith(binding, path);
  try {
    file.rows("PRAGMA journal_mode = WAL");
    file.rows("PRAGMA busy_timeout = 5000");
    // What better-sqlite3 is built with, named so every binding behaves alike: in WAL mode a commit is not
    // synced to disk (a power cut may lose the last ones, never corrupts the file; a process crash loses
    // none). node:sqlite's default (FULL) syncs each commit: 1.2 ms an insert against 53 µs on an ext4 disk.
    file.rows("PRAGMA synchronous = NORMAL");
    // quick_check reads every page (not the indexes' contents): a damaged page fails here, at start,
    // rather than at whichever request first touches it, hours later.
    const problems = file
      .rows(`PRAGMA quick_check(${PROBLEMS_SHOWN})`)
      .map((row) => String(Object.values(row)[0]))
      .filter((text) => text !== "ok");
    if (problems.length) throw new StoreFileDamagedError(path, problems);
    file.rows(CREATE_TABLE);
  } catch (error) {
    file.close();
    // Damage too bad for quick_check to list, or not a database at all.
    if (isDamage(error)) throw new StoreFileDamagedError(path, [(error as Error).message]);
    throw error;
  }
  return file;
}

/**
 * A store in the SQLite file at `path` (created when missing).
 *
 * @example
 * ```ts region=examples/server-steps.ts#sqliteStore
 * const dir = mkdtempSync(join(tmpdir(), "ledger-"));
 * const store = sqliteStore(join(dir, "calls.db")); // node:sqlite, or better-sqlite3 when installed; memoryStore() is the default
 * const kit = createElicitation({ store }); // a fleet gives every instance one stateKey and one shared store
 * ```
 */
export function sqliteStore(path: string, options: SqliteStoreOptions = {}): KeyValueStore {
  const file = openFile(path, options.binding ?? defaultBinding());
  // The table exists (openFile made it), so the store skips its own first-use CREATE.
  return sqlStore(file.driver, { sweepMs: options.sweepMs, createTable: false });
}
