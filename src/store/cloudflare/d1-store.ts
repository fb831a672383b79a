// A store on Cloudflare D1: the SQL store over the D1 binding, shared by every isolate of every Worker
// bound to the database. Each write is one statement, so `add` and `swap` are atomic on D1 too.
import { d1Driver, type D1Database } from "../sql/d1.js";
import { sqlStore, type SqlStore, type SqlStoreOptions } from "../sql/sql-store.js";

/** A store in a D1 database (`env.DB`); its table is made on first use. */
export function d1Store(db: D1Database, options: Pick<SqlStoreOptions, "sweepMs"> = {}): SqlStore {
  return sqlStore(d1Driver(db), { sweepMs: options.sweepMs, shared: true });
}
