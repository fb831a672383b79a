// Bun's own SQLite (bun:sqlite): synchronous; `query` caches the prepared statement itself.
import type { SqlDriver } from "./driver.js";

/** The part of bun:sqlite's Database the driver uses. */
export interface BunSqliteDatabase {
  query(sql: string): { all(...params: Array<string | number>): unknown[] };
  close(): void;
}

/** A SQL driver over an open `Database` from bun:sqlite (closed with the store). */
export function bunSqliteDriver(db: BunSqliteDatabase): SqlDriver {
  return {
    query<Row>(sql: string, params: readonly (string | number)[]) {
      return db.query(sql).all(...params) as Row[];
    },
    close() {
      db.close();
    },
  };
}
