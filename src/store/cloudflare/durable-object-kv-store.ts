// The store on a Durable Object's key-value storage, for objects that are not SQLite-backed. Each entry is
// { value, expires }. A read and the write after it are one atomic step: while the object awaits its own
// storage, its input gate holds every other request back, and nothing else is awaited in between.
import type { SqlStore } from "../sql/sql-store.js";
import type { DurableObjectKvStorage } from "./platform.js";

interface Entry {
  value: string;
  expires: number;
}

/** How many keys one storage.delete takes. */
const DELETE_BATCH = 128;

/** A store on `ctx.storage`'s key-value API; expired entries read as absent and are deleted by `sweep()`. */
export function durableObjectKvStore(storage: DurableObjectKvStorage, keyPrefix = "mcp-elicit:"): SqlStore {
  let closed = false;
  const open = () => {
    if (closed) throw new Error("This store is closed");
  };
  const live = async (key: string): Promise<Entry | undefined> => {
    open();
    const entry = await storage.get<Entry>(keyPrefix + key);
    return entry && entry.expires > Date.now() ? entry : undefined;
  };
  const put = (key: string, value: string, ttlMs: number) => storage.put<Entry>(keyPrefix + key, { value, expires: Date.now() + ttlMs });
  return {
    async get(key) {
      return (await live(key))?.value;
    },
    async add(key, value, ttlMs) {
      if (await live(key)) return false;
      await put(key, value, ttlMs);
      return true;
    },
    async swap(key, expected, value, ttlMs) {
      if ((await live(key))?.value !== expected) return false;
      if (value === undefined) await storage.delete(keyPrefix + key);
      else await put(key, value, ttlMs);
      return true;
    },
    async set(key, value, ttlMs) {
      open();
      await put(key, value, ttlMs);
    },
    async delete(key) {
      open();
      await storage.delete(keyPrefix + key);
    },
    async keys(prefix) {
      open();
      const now = Date.now();
      const entries = await storage.list<Entry>({ prefix: keyPrefix + prefix });
      return [...entries].filter(([, entry]) => entry.expires > now).map(([key]) => key.slice(keyPrefix.length));
    },
    async sweep() {
      open();
      const now = Date.now();
      const expired: string[] = [];
      let next: number | undefined;
      for (const [key, entry] of await storage.list<Entry>({ prefix: keyPrefix })) {
        if (entry.expires <= now) expired.push(key);
        else next = Math.min(next ?? Infinity, entry.expires);
      }
      for (let i = 0; i < expired.length; i += DELETE_BATCH) await storage.delete(expired.slice(i, i + DELETE_BATCH));
      return next;
    },
    async close() {
      closed = true;
    },
  };
}
