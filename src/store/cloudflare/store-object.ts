// The Durable Object class that holds a Worker's store: every isolate of the Worker reaches the same
// object (by name) through durableObjectStoreClient. Expired rows are deleted by the object's alarm,
// set after a write when none is pending, never by a timer.
import { durableObjectStore } from "./durable-object-store.js";
import type { DurableObjectState } from "./platform.js";
import { parseStoreRequest, runStoreRequest, WRITES } from "./store-protocol.js";
import type { SqlStore } from "../sql/sql-store.js";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * The store's Durable Object. Export it from the Worker's module and bind it, SQLite-backed:
 *
 * ```toml
 * [[durable_objects.bindings]]
 * name = "ELICIT_STORE"
 * class_name = "ElicitStoreObject"
 *
 * [[migrations]]
 * tag = "v1"
 * new_sqlite_classes = ["ElicitStoreObject"]
 * ```
 */
export class ElicitStoreObject {
  readonly store: SqlStore;
  /** How long after a write the object sweeps expired rows (then again at the earliest expiry it keeps). */
  protected readonly sweepAfterMs: number = 60_000;

  constructor(protected readonly ctx: DurableObjectState) {
    this.store = durableObjectStore(ctx.storage);
  }

  async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST") return json({ error: "the store takes POST requests" }, 405);
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return json({ error: "the body must be JSON" }, 400);
    }
    const parsed = parseStoreRequest(body);
    if ("error" in parsed) return json(parsed, 400);
    const answer = await runStoreRequest(this.store, parsed);
    if (WRITES.has(parsed.op) && (await this.ctx.storage.getAlarm()) === null)
      await this.ctx.storage.setAlarm(Date.now() + this.sweepAfterMs);
    return json(answer);
  }

  /** Deletes expired rows, then sleeps until the earliest expiry still kept (none: until the next write). */
  async alarm(): Promise<void> {
    const next = await this.store.sweep();
    if (next !== undefined) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + this.sweepAfterMs));
  }
}
