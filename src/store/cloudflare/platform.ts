// The parts of Cloudflare's runtime the stores use, typed structurally: mcp-elicit has no runtime
// dependency on Cloudflare's packages, and these compile against @cloudflare/workers-types when present.
import type { SqlStorage } from "../sql/durable-object-sql.js";

/** The key-value API of a Durable Object's `ctx.storage` (every object has it). */
export interface DurableObjectKvStorage {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(keys: string | string[]): Promise<boolean | number>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
}

/** A Durable Object's `ctx.storage`: its SQLite database (usable on SQLite-backed objects), key-value API and alarm. */
export interface DurableObjectStorage extends DurableObjectKvStorage {
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

/** A Durable Object binding (`env.ELICIT_STORE`): one object per name. */
export interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): DurableObjectStub;
}
