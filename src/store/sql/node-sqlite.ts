// Node's own SQLite (node:sqlite, Node 22.5 and later; without a flag from 22.13): no native addon to build.
import { statementCache, type SqlDriver } from "./driver.js";

/** The part of node:sqlite's DatabaseSync the driver uses. */
export interface NodeSqliteDatabase {
  prepare(sql: string): { all(...params: Array<string | number>): unknown[] };
  close(): void;
}

/** A SQL driver over an open `DatabaseSync` from node:sqlite (closed with the store). */
export function nodeSqliteDriver(db: NodeSqliteDatabase): SqlDriver {
  const statement = statementCache((sql) => db.prepare(sql));
  return {
    query<Row>(sql: string, params: readonly (string | number)[]) {
      return statement(sql).all(...params) as Row[];
    },
    close() {
      db.close();
    },
  };
}
