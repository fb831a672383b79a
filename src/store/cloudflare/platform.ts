// The parts of Cloudflare's runtime mcp-elicit uses, typed structurally, in one place: mcp-elicit has no
// runtime dependency on Cloudflare's packages, and a Worker's own types (@cloudflare/workers-types,
// wrangler's) fit these. The stores use a Durable Object's storage and a stub that reaches one by name;
// mcp-elicit/cloudflare's session routing (src/cloudflare/) an object's id and a stub that reaches one by id.
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

/** A Durable Object's id: `DurableObjectId`. */
export interface DurableObjectIdLike {
  toString(): string;
}

/** What a Worker holds to reach one Durable Object (`DurableObjectStub`), as the store's client calls it: a fetch of a URL and its init. */
export interface DurableObjectStub {
  fetch(input: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<Response>;
}

/** The same stub as routeSession calls it: a fetch of the Worker's Request, passed on as it came. */
export interface DurableObjectStubLike {
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object binding as the stores use it (`env.ELICIT_STORE`, a `DurableObjectNamespace`): one object per name. */
export interface DurableObjectNamespace {
  idFromName(name: string): DurableObjectIdLike;
  get(id: DurableObjectIdLike): DurableObjectStub;
}

/** A Durable Object binding as routeSession uses it (`DurableObjectNamespace`): a new object per session, found again by its id. */
export interface DurableObjectNamespaceLike {
  newUniqueId(): DurableObjectIdLike;
  idFromString(id: string): DurableObjectIdLike;
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}

/** A Durable Object's `ctx` (`DurableObjectState`) as the store's object uses it: its storage. */
export interface DurableObjectState {
  readonly storage: DurableObjectStorage;
}

/** A Durable Object's `ctx` (`DurableObjectState`) as sessionObjectHandler uses it: its id. */
export interface DurableObjectStateLike {
  readonly id: DurableObjectIdLike;
}
