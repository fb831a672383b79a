// The store inside a Durable Object: the SQL store on the object's own SQLite (`ctx.storage.sql`) when the
// object is SQLite-backed, else its key-value API. A Durable Object handles one event at a time; each SQL
// statement runs synchronously, and the key-value store's read-then-write awaits nothing but the object's
// own storage, so `add` and `swap` are atomic; every Worker isolate that reaches the object sees the same data.
import { durableObjectSqlDriver } from "../sql/durable-object-sql.js";
import { sqlStore, type SqlStore, type SqlStoreOptions } from "../sql/sql-store.js";
import { durableObjectKvStore } from "./durable-object-kv-store.js";
import type { DurableObjectStorage } from "./platform.js";

/** Whether the object is SQLite-backed: only then does its SQL API run (a statement, synchronously, no I/O). */
function sqlEnabled(storage: DurableObjectStorage): boolean {
  try {
    storage.sql.exec("SELECT 1");
    return true;
  } catch (error) {
    if (/SQL is not enabled/i.test((error as Error).message)) return false;
    throw error;
  }
}

/**
 * A store on a Durable Object's storage (`ctx.storage`), for use inside the object. SQLite-backed objects
 * (declared under `new_sqlite_classes`, Cloudflare's recommended kind) keep it in SQL; others in the
 * key-value API. Nothing runs at construction: the kind is found and the table made on first use.
 * `sweep()` deletes expired entries, for the object's alarm.
 */
export function durableObjectStore(storage: DurableObjectStorage, options: Pick<SqlStoreOptions, "sweepMs"> = {}): SqlStore {
  let chosen: SqlStore | undefined;
  const store = () =>
    (chosen ??= sqlEnabled(storage)
      ? sqlStore(durableObjectSqlDriver(storage.sql), { sweepMs: options.sweepMs })
      : durableObjectKvStore(storage));
  // async, so that a storage that fails the probe rejects the call rather than throwing from it.
  return {
    async get(key) {
      return store().get(key);
    },
    async add(key, value, ttlMs) {
      return store().add(key, value, ttlMs);
    },
    async swap(key, expected, value, ttlMs) {
      return store().swap(key, expected, value, ttlMs);
    },
    async set(key, value, ttlMs) {
      return store().set(key, value, ttlMs);
    },
    async delete(key) {
      return store().delete(key);
    },
    async keys(prefix) {
      return store().keys(prefix);
    },
    async sweep() {
      return store().sweep();
    },
    async close() {
      return store().close();
    },
  };
}
