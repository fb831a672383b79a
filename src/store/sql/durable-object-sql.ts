// A SQLite-backed Durable Object's own database (`ctx.storage.sql`): synchronous, inside the object, so
// each statement runs whole before any other request of that object is handled.
import type { SqlDriver } from "./driver.js";

/** The part of a Durable Object's SqlStorage the driver uses (structural: no dependency on Cloudflare's types). */
export interface SqlStorage {
  exec(sql: string, ...bindings: unknown[]): { toArray(): unknown[] };
}

/** A SQL driver over `ctx.storage.sql` of a SQLite-backed Durable Object; there is nothing to close. */
export function durableObjectSqlDriver(sql: SqlStorage): SqlDriver {
  return {
    query<Row>(text: string, params: readonly (string | number)[]) {
      return sql.exec(text, ...params).toArray() as Row[];
    },
  };
}
