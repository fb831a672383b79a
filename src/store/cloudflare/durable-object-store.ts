// The store inside a Durable Object: the SQL store on the object's own SQLite (`ctx.storage.sql`). A
// Durable Object handles one event at a time and each statement runs synchronously, so `add` and `swap`
// are atomic; every Worker isolate that reaches the object sees the same data.
import { durableObjectSqlDriver } from "../sql/durable-object-sql.js";
import { sqlStore, type SqlStore, type SqlStoreOptions } from "../sql/sql-store.js";
import type { DurableObjectStorage } from "./platform.js";

/**
 * A store on a SQLite-backed Durable Object's storage (`ctx.storage`), for use inside the object: the
 * object's class is declared under `new_sqlite_classes` in the Worker's migrations. Nothing runs at
 * construction (the table is made on first use); `sweep()` deletes expired rows, for the object's alarm.
 */
export function durableObjectStore(storage: Pick<DurableObjectStorage, "sql">, options: Pick<SqlStoreOptions, "sweepMs"> = {}): SqlStore {
  let sql: DurableObjectStorage["sql"];
  try {
    sql = storage.sql;
  } catch (error) {
    throw new Error(
      `durableObjectStore needs a SQLite-backed Durable Object (its class under new_sqlite_classes in the Worker's migrations): ${(error as Error).message}`,
    );
  }
  if (!sql)
    throw new Error(
      "durableObjectStore needs a SQLite-backed Durable Object (its class under new_sqlite_classes in the Worker's migrations)",
    );
  return sqlStore(durableObjectSqlDriver(sql), { sweepMs: options.sweepMs });
}
