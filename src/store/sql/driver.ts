// What the SQL store needs from a SQLite binding: run one statement with bound values and hand back its
// rows. Every write the store makes is a single statement (the comparison inside it), so each statement
// is atomic on every binding, including D1, which has no interactive transactions. One file per binding
// adapts it: better-sqlite3, node:sqlite, bun:sqlite, Cloudflare D1 and a Durable Object's SQLite.

/** A value bound to a statement's `?`: the store binds only text and integers. */
export type SqlValue = string | number;

export interface SqlDriver {
  /**
   * Runs one statement with `params` bound to its `?`s and returns its rows (a SELECT's, or those of a
   * RETURNING clause), or an empty array. Synchronous drivers may return the rows directly.
   */
  query<Row extends Record<string, unknown>>(sql: string, params: readonly SqlValue[]): Row[] | Promise<Row[]>;
  /** Releases the database (a file handle); drivers over a platform binding have nothing to release. */
  close?(): void | Promise<void>;
}

/** Caches one prepared statement per SQL text: the store sends the same eight statements again and again. */
export function statementCache<Statement>(prepare: (sql: string) => Statement): (sql: string) => Statement {
  const prepared = new Map<string, Statement>();
  return (sql) => {
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = prepare(sql)));
    return statement;
  };
}
