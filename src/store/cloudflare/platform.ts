// The parts of Cloudflare's runtime the stores use, typed structurally: mcp-elicit has no runtime
// dependency on Cloudflare's packages, and these compile against @cloudflare/workers-types when present.
import type { SqlStorage } from "../sql/durable-object-sql.js";

/** A Durable Object's `ctx.storage`: its SQLite database (SQLite-backed objects) and its alarm. */
export interface DurableObjectStorage {
  readonly sql: SqlStorage;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number | Date): Promise<void>;
}

/** A Durable Object's `ctx` (DurableObjectState). */
export interface DurableObjectState {
  readonly storage: DurableObjectStorage;
}

/** What a Worker holds to reach one Durable Object: its stub, which takes a fetch. */
export interface DurableObjectStub {
  fetch(input: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<Response>;
}
