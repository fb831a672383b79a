// The Worker's side of the store's Durable Object: a KeyValueStore whose every operation is one request
// to the object. Shared by every isolate of the Worker, so kits given it need an explicit stateKey.
import type { KeyValueStore } from "../types.js";
import type { DurableObjectStub } from "./platform.js";
import type { StoreRequest } from "./store-protocol.js";

/**
 * A store kept by an ElicitStoreObject, reached through its stub:
 * `durableObjectStoreClient(env.ELICIT_STORE.get(env.ELICIT_STORE.idFromName("store")))`.
 * Make it inside `fetch` (a stub belongs to the request that made it).
 */
export function durableObjectStoreClient(stub: DurableObjectStub): KeyValueStore {
  let closed = false;
  const call = async <T>(request: StoreRequest): Promise<T> => {
    if (closed) throw new Error("This store is closed");
    const response = await stub.fetch("https://mcp-elicit-store/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`The store's Durable Object refused ${request.op} (${response.status}): ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { result?: T }).result as T;
  };
  return {
    shared: true,
    get: (key) => call({ op: "get", key }),
    add: (key, value, ttlMs) => call({ op: "add", key, value, ttlMs }),
    swap: (key, expected, value, ttlMs) => call({ op: "swap", key, expected, value, ttlMs }),
    set: (key, value, ttlMs) => call({ op: "set", key, value, ttlMs }),
    delete: (key) => call({ op: "delete", key }),
    keys: (prefix) => call({ op: "keys", prefix }),
    async close() {
      closed = true;
    },
  };
}
