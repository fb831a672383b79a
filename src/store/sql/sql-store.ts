// The SQL store, written once for every SQLite binding (sql/driver.ts): one table of key, value and
// expiry time in milliseconds. Each operation is one statement, so `add` and `swap` compare inside the
// statement and are atomic on every driver, across processes sharing a file and on D1. Expired rows read
// as absent; they are deleted by a write at most once per `sweepMs`, never by a timer, so a store can be
// made where a runtime forbids timers (a Worker's global scope, a Durable Object's constructor).
import type { KeyValueStore } from "../types.js";
import type { SqlDriver } from "./driver.js";

export interface SqlStoreOptions {
  /** How often at most a write also deletes the expired rows (default 60 s). */
  sweepMs?: number;
  /**
   * Creates the table on first use (default true). The same table every SQLite store of mcp-elicit
   * uses, so a file written by one driver opens with another.
   */
  createTable?: boolean;
  /** Marks the store as shared by several processes (D1, a Durable Object reached from many Worker isolates): see KeyValueStore.shared. */
  shared?: boolean;
}

/** The table and its one index (the primary key); WITHOUT ROWID keeps each row in the key's b-tree. */
export const CREATE_TABLE =
  "CREATE TABLE IF NOT EXISTS mcp_elicit_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID";

// Read as bytes: node:sqlite hands text back cut at its first NUL character, bytes come back whole.
const GET = "SELECT CAST(value AS BLOB) AS value FROM mcp_elicit_kv WHERE key = ? AND expires > ?";
// An expired row counts as absent: the upsert only replaces it when it has expired. RETURNING yields a
// row only when this statement wrote one, which every driver reports the same way (change counts differ).
const ADD =
  "INSERT INTO mcp_elicit_kv (key, value, expires) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires WHERE mcp_elicit_kv.expires <= ? RETURNING key";
// Compared in the statement itself: one statement is atomic across every process on the file.
const REPLACE = "UPDATE mcp_elicit_kv SET value = ?, expires = ? WHERE key = ? AND value = ? AND expires > ? RETURNING key";
const DELETE_IF = "DELETE FROM mcp_elicit_kv WHERE key = ? AND value = ? AND expires > ? RETURNING key";
const SET = "INSERT OR REPLACE INTO mcp_elicit_kv (key, value, expires) VALUES (?, ?, ?)";
const DELETE = "DELETE FROM mcp_elicit_kv WHERE key = ?";
// substr compares the prefix exactly (LIKE and GLOB would treat %, _, * and ? in it as wildcards).
const KEYS = "SELECT key FROM mcp_elicit_kv WHERE substr(key, 1, length(?)) = ? AND expires > ?";
const SWEEP = "DELETE FROM mcp_elicit_kv WHERE expires <= ?";

const utf8 = new TextDecoder();

/** A value read as bytes, as each binding returns a BLOB: Uint8Array or Buffer, ArrayBuffer (Durable Objects), numbers (D1). */
function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return utf8.decode(value);
  if (Array.isArray(value)) return utf8.decode(Uint8Array.from(value as number[]));
  throw new Error(`The store read a value of an unexpected type (${typeof value})`);
}

/** A KeyValueStore over a SQL driver, plus `sweep()` for a platform's own scheduler (a Durable Object's alarm). */
export interface SqlStore extends KeyValueStore {
  /** Deletes the expired rows now; resolves to the earliest expiry still kept (ms since the epoch), or undefined when empty. */
  sweep(): Promise<number | undefined>;
}

/**
 * A store over any SQLite binding: `sqlStore(nodeSqliteDriver(db))`, `sqlStore(bunSqliteDriver(db))`,
 * `sqlStore(d1Driver(env.DB))`. `sqliteStore(path)` opens a file and picks the driver for you.
 */
export function sqlStore(driver: SqlDriver, options: SqlStoreOptions = {}): SqlStore {
  const sweepMs = options.sweepMs ?? 60_000;
  let ready: Promise<void> | undefined;
  let closed = false;
  let sweptAt = Date.now();
  // The table is made on first use, not here: D1 and a Durable Object allow no I/O outside a request.
  const prepare = (): Promise<void> => {
    if (closed) return Promise.reject(new Error("This store is closed"));
    ready ??= options.createTable === false ? Promise.resolve() : Promise.resolve(driver.query(CREATE_TABLE, [])).then(() => {});
    return ready;
  };
  const query = async <Row extends Record<string, unknown>>(sql: string, params: Array<string | number>) => {
    await prepare();
    return driver.query<Row>(sql, params);
  };
  const write = async <Row extends Record<string, unknown>>(sql: string, params: Array<string | number>) => {
    const rows = await query<Row>(sql, params);
    const now = Date.now();
    if (now - sweptAt >= sweepMs) {
      sweptAt = now;
      await driver.query(SWEEP, [now]);
    }
    return rows;
  };
  return {
    ...(options.shared ? { shared: true } : {}),
    async get(key) {
      const [row] = await query<{ value: unknown }>(GET, [key, Date.now()]);
      return row && text(row.value);
    },
    async add(key, value, ttlMs) {
      const now = Date.now();
      return (await write(ADD, [key, value, now + ttlMs, now])).length === 1;
    },
    async swap(key, expected, value, ttlMs) {
      const now = Date.now();
      const rows =
        value === undefined ? await write(DELETE_IF, [key, expected, now]) : await write(REPLACE, [value, now + ttlMs, key, expected, now]);
      return rows.length === 1;
    },
    async set(key, value, ttlMs) {
      await write(SET, [key, value, Date.now() + ttlMs]);
    },
    async delete(key) {
      await query(DELETE, [key]);
    },
    async keys(prefix) {
      return (await query<{ key: string }>(KEYS, [prefix, prefix, Date.now()])).map((row) => row.key);
    },
    async sweep() {
      const now = Date.now();
      sweptAt = now;
      await query(SWEEP, [now]);
      const [row] = await query<{ next: number | null }>("SELECT min(expires) AS next FROM mcp_elicit_kv", []);
      return row?.next ?? undefined;
    },
    async close() {
      if (closed) return;
      closed = true;
      await driver.close?.();
    },
  };
}
