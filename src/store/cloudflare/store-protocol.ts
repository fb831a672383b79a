// The requests a Worker sends to the store's Durable Object, one JSON object per store operation, and
// their checking: a Durable Object is reached only through its binding, but a malformed request still
// gets a 400 naming the field and the rule, never a thrown exception inside the object.
import type { KeyValueStore } from "../types.js";

export type StoreRequest =
  | { op: "get"; key: string }
  | { op: "add"; key: string; value: string; ttlMs: number }
  | { op: "swap"; key: string; expected: string; value?: string; ttlMs: number }
  | { op: "set"; key: string; value: string; ttlMs: number }
  | { op: "delete"; key: string }
  | { op: "keys"; prefix: string };

/** The operations that write, after which the object makes sure its cleanup alarm is set. */
export const WRITES: ReadonlySet<StoreRequest["op"]> = new Set(["add", "swap", "set"]);

const FIELDS: Record<StoreRequest["op"], Record<string, "string" | "ttl" | "optional string">> = {
  get: { key: "string" },
  add: { key: "string", value: "string", ttlMs: "ttl" },
  swap: { key: "string", expected: "string", value: "optional string", ttlMs: "ttl" },
  set: { key: "string", value: "string", ttlMs: "ttl" },
  delete: { key: "string" },
  keys: { prefix: "string" },
};

/** The request, or the reason it is refused (field and rule). */
export function parseStoreRequest(body: unknown): StoreRequest | { error: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: "the body must be a JSON object" };
  const record = body as Record<string, unknown>;
  const op = record.op;
  if (typeof op !== "string" || !Object.hasOwn(FIELDS, op)) return { error: `op must be one of ${Object.keys(FIELDS).join(", ")}` };
  for (const [field, rule] of Object.entries(FIELDS[op as StoreRequest["op"]])) {
    const value = record[field];
    if (rule === "ttl") {
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)
        return { error: `${field} must be a positive whole number of milliseconds` };
    } else if (!(rule === "optional string" && value === undefined) && typeof value !== "string") {
      return { error: `${field} must be a string` };
    }
  }
  return record as StoreRequest;
}

/** Runs one request on the store; the answer is `{ result }` (undefined results are left out). */
export async function runStoreRequest(store: KeyValueStore, request: StoreRequest): Promise<{ result?: unknown }> {
  switch (request.op) {
    case "get":
      return { result: await store.get(request.key) };
    case "add":
      return { result: await store.add(request.key, request.value, request.ttlMs) };
    case "swap":
      return { result: await store.swap(request.key, request.expected, request.value, request.ttlMs) };
    case "set":
      return { result: await store.set(request.key, request.value, request.ttlMs) };
    case "delete":
      return { result: await store.delete(request.key) };
    case "keys":
      return { result: await store.keys(request.prefix) };
  }
}
