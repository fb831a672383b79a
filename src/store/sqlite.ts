// The embedded durable store: one SQLite file (better-sqlite3, loaded only when asked for), WAL
// journal so readers never block the writer, so what a server remembers survives a restart.
// Several processes on one machine may share the file; a fleet on several machines needs Redis.
import { createRequire } from "node:module";
import type { KeyValueStore } from "./types.js";
import { ElicitError } from "../schema/errors.js";

export interface SqliteStoreOptions {
  /** How often expired rows are deleted (default 60 s). */
  sweepMs?: number;
}

type Database = import("better-sqlite3").Database;

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

function openDatabase(path: string): Database {
  let Sqlite: typeof import("better-sqlite3");
  try {
    Sqlite = createRequire(import.meta.url)("better-sqlite3");
  } catch {
    throw new Error("sqliteStore needs the better-sqlite3 package: npm install better-sqlite3");
  }
  const db = new Sqlite(path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    // quick_check reads every page (not the indexes' contents): a damaged page fails here, at start,
    // rather than at whichever request first touches it, hours later.
    const rows = db.pragma(`quick_check(${PROBLEMS_SHOWN})`, { simple: false }) as Array<Record<string, string>>;
    const problems = rows.map((row) => String(Object.values(row)[0])).filter((text) => text !== "ok");
    if (problems.length) throw new StoreFileDamagedError(path, problems);
    db.exec("CREATE TABLE IF NOT EXISTS mcp_elicit_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID");
  } catch (error) {
    db.close();
    // SQLITE_CORRUPT and SQLITE_NOTADB: damage too bad for quick_check to list, or not a database at all.
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code))
      throw new StoreFileDamagedError(path, [(error as Error).message]);
    throw error;
  }
  return db;
}

/**
 * A store in the SQLite file at `path` (created when missing).
 *
 * @example
 * ```ts region=examples/server-steps.ts#sqliteStore
 * const dir = mkdtempSync(join(tmpdir(), "ledger-"));
 * const store = sqliteStore(join(dir, "calls.db")); // needs the optional better-sqlite3 package; memoryStore() is the default
 * const kit = createElicitation({ store }); // a fleet gives every instance one stateKey and one shared store
 * ```
 */
export function sqliteStore(path: string, options: SqliteStoreOptions = {}): KeyValueStore {
  const db = openDatabase(path);
  const get = db.prepare<[string, number], { value: string }>("SELECT value FROM mcp_elicit_kv WHERE key = ? AND expires > ?");
  // An expired row counts as absent: the upsert only replaces it when it has expired.
  const add = db.prepare<[string, string, number, number]>(
    "INSERT INTO mcp_elicit_kv (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires WHERE mcp_elicit_kv.expires <= ?",
  );
  // Compared in the statement itself: one statement is atomic across every process on the file.
  const replace = db.prepare<[string, number, string, string, number]>(
    "UPDATE mcp_elicit_kv SET value = ?, expires = ? WHERE key = ? AND value = ? AND expires > ?",
  );
  const deleteIf = db.prepare<[string, string, number]>("DELETE FROM mcp_elicit_kv WHERE key = ? AND value = ? AND expires > ?");
  const set = db.prepare<[string, string, number]>("INSERT OR REPLACE INTO mcp_elicit_kv (key, value, expires) VALUES (?, ?, ?)");
  const del = db.prepare<[string]>("DELETE FROM mcp_elicit_kv WHERE key = ?");
  // substr compares the prefix exactly (LIKE and GLOB would treat %, _, * and ? in it as wildcards).
  const keys = db.prepare<[string, string, number], { key: string }>(
    "SELECT key FROM mcp_elicit_kv WHERE substr(key, 1, length(?)) = ? AND expires > ?",
  );
  const sweep = db.prepare<[number]>("DELETE FROM mcp_elicit_kv WHERE expires <= ?");
  const timer = setInterval(() => sweep.run(Date.now()), options.sweepMs ?? 60_000);
  timer.unref();
  return {
    async get(key) {
      return get.get(key, Date.now())?.value;
    },
    async add(key, value, ttlMs) {
      const now = Date.now();
      return add.run(key, value, now + ttlMs, now).changes === 1;
    },
    async swap(key, expected, value, ttlMs) {
      const now = Date.now();
      const changed = value === undefined ? deleteIf.run(key, expected, now) : replace.run(value, now + ttlMs, key, expected, now);
      return changed.changes === 1;
    },
    async set(key, value, ttlMs) {
      set.run(key, value, Date.now() + ttlMs);
    },
    async delete(key) {
      del.run(key);
    },
    async keys(prefix) {
      return keys.all(prefix, prefix, Date.now()).map((row) => row.key);
    },
    async close() {
      clearInterval(timer);
      db.close();
    },
  };
}
