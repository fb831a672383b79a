// The better-sqlite3 binding (a native addon, an optional peer): synchronous, statements prepared once.
import { statementCache, type SqlDriver } from "./driver.js";

/** The part of a better-sqlite3 Database the driver uses. */
export interface BetterSqlite3Database {
  prepare(sql: string): {
    readonly reader: boolean;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): unknown;
  };
  close(): unknown;
}

/** A SQL driver over an open better-sqlite3 Database (closed with the store). */
export function betterSqlite3Driver(db: BetterSqlite3Database): SqlDriver {
  const statement = statementCache((sql) => db.prepare(sql));
  return {
    query<Row>(sql: string, params: readonly (string | number)[]) {
      const prepared = statement(sql);
      // better-sqlite3 refuses all() on a statement that returns no rows.
      if (prepared.reader) return prepared.all(...params) as Row[];
      prepared.run(...params);
      return [];
    },
    close() {
      db.close();
    },
  };
}
