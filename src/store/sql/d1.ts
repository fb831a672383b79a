// Cloudflare D1: asynchronous, no interactive transactions. The store's writes are single statements,
// so they stay atomic here as on a file.
import type { SqlDriver } from "./driver.js";

/** The part of a D1Database binding the driver uses (structural: no dependency on Cloudflare's types). */
export interface D1Database {
  prepare(sql: string): {
    bind(...values: unknown[]): { all<Row = Record<string, unknown>>(): Promise<{ results: Row[] }> };
  };
}

/** A SQL driver over a D1 binding (`env.DB`); there is nothing to close. */
export function d1Driver(db: D1Database): SqlDriver {
  return {
    async query<Row>(sql: string, params: readonly (string | number)[]) {
      return (
        await db
          .prepare(sql)
          .bind(...params)
          .all<Row>()
      ).results;
    },
  };
}
